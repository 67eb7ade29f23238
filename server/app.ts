/**
 * The HTTP API (fastify 5, zod schemas), versioned under /v1. An adapter: validation,
 * transport and secrecy; the rules stay in env/.
 *
 * | method | path                         | what                                                    |
 * |--------|------------------------------|---------------------------------------------------------|
 * | GET    | /v1/bots                     | the agents that can fill a seat                         |
 * | POST   | /v1/bots/:spec/act           | stateless: a seat's view and legal actions in, an action out |
 * | POST   | /v1/games                    | a game: seats ('remote' or an agent spec); remote tokens |
 * | GET    | /v1/ruleset                  | the rules' numbers (chart, titles, ...) and card names  |
 * | GET    | /v1/games/:id/view?at=K      | the token's seat: view, text, legal actions with names; |
 * |        |                              | the state after K actions and what action K did         |
 * | POST   | /v1/games/:id/actions        | the token's seat acts; bots then play on                |
 * | GET    | /v1/games/:id/events?since=N | what the token's seat saw, from its N-th event on       |
 * | GET    | /v1/games/:id/stream?since=N | the same as Server-Sent Events, live, ending with `end` |
 * | GET    | /v1/games/:id/replay         | seed, seats and every action, once the game is over     |
 * | GET    | /v1/games/:id/replay/:step   | once over: every seat's view at that step, the choice made |
 * | GET    | /, /app.js, ...              | the web page (web/), which uses only this API           |
 * | POST   | /v1/tournaments              | a tournament as a background job (worker threads)       |
 * | GET    | /v1/tournaments/:id          | its progress; when done, the summary and the leaderboard |
 *
 * The OpenAPI document is at /docs/json, its UI at /docs.
 *
 * A seat token (Authorization: Bearer) opens only its seat's view and events: everything a
 * token reaches is built from that seat's view, so no other hand or the draw pile's order can
 * leave the server during a game. The watch token, made with every game, opens the public view
 * (publicView: what an onlooker at the table sees) and, once the game is over, the replay.
 */
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { REWARD_SCHEMES } from '../env/rewards.ts';
import { DEFAULT_RULESET } from '../env/ruleset.ts';
import '../agents/index.ts';
import type { Agent } from '../agents/agent.ts';
import { createAgent, knownAgents } from '../agents/registry.ts';
import { ACTION_GROUPS, ACTION_SPACE_VERSION, describeAction, NUM_ACTIONS } from '../env/actions.ts';
import { CARD_IDS, cardKind, cardName } from '../env/cards.ts';
import { OBS_SIZE } from '../env/observation/encode.ts';
import type { PlayerView } from '../env/observation/view.ts';
import { PostedObservation } from './bot-obs.ts';
import { randomBytes } from 'node:crypto';
import { leaderboardMarkdown } from '../eval/report.ts';
import { jsonSummary, resolveConfig, runTournament, type TournamentResult } from '../eval/tournament.ts';
import { ApiError, envAt, GameStore, named, narratedEvents, stepEvents, type LiveGame, type Viewer } from './games.ts';
import { webFiles } from './web.ts';

export interface ServerOptions {
  /** Requests per second per client address (0 = no limit). */
  rateLimit?: number;
  /** Tournament jobs: worker threads each, jobs at once, games per job. */
  tournamentWorkers?: number;
  maxJobs?: number;
  maxTournamentGames?: number;
  maxGames?: number;
  idleMs?: number;
  bodyLimit?: number;
  logger?: boolean;
}

function bearer(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  return h?.startsWith('Bearer ') ? h.slice(7).trim() : undefined;
}

function played(game: LiveGame, k: number) {
  const id = game.env.actions[k];
  return { seat: game.actors[k], id, name: describeAction(id, game.actors[k], game.env.players) };
}

/** What a viewer sees of the game after its first k actions (default: now), and what action k did. */
function seatState(game: LiveGame, viewer: Viewer, k = game.env.actions.length) {
  const steps = game.env.actions.length;
  const env = envAt(game, k);
  const toAct = env.done ? null : env.currentPlayer;
  const mine = viewer !== null && k === steps && toAct === viewer;
  return {
    id: game.id,
    seat: viewer,
    done: game.env.done,
    toAct,
    yourTurn: mine,
    view: viewer === null ? env.publicView() : env.view(viewer),
    text: viewer === null ? null : env.text(viewer),
    legalActions: mine ? named(env.legalActions(), viewer, env.players) : [],
    scores: game.env.done ? game.env.scores() : null,
    step: k,
    steps,
    events: stepEvents(game, k, viewer),
    lastAction: k > 0 ? played(game, k - 1) : null,
  };
}

function stepParam(game: LiveGame, k: number | undefined): number {
  const steps = game.env.actions.length;
  if (k !== undefined && k > steps) throw new ApiError(400, `at: the game has had ${steps} actions; ask for 0 to ${steps}`);
  return k ?? steps;
}

export async function buildServer(o: ServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({ logger: o.logger ?? false, bodyLimit: o.bodyLimit ?? 64 * 1024 }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(swagger, {
    openapi: { info: { title: 'czech-pub-gym API', version: '1.0.0', description: 'Czech Pub games with per-seat secrecy, bot serving and tournaments.' } },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  if ((o.rateLimit ?? 2000) > 0) {
    await app.register(rateLimit, {
      max: o.rateLimit ?? 2000,
      timeWindow: 1000,
      errorResponseBuilder: (_req, ctx) => ({ statusCode: 429, error: `rate limit: at most ${ctx.max} requests per second per client; retry in ${Math.ceil(ctx.ttl / 1000)} s` }),
    });
  }
  const store = new GameStore({ maxGames: o.maxGames ?? 1000, idleMs: o.idleMs ?? 30 * 60_000 });

  app.setErrorHandler((err: Error & { statusCode?: number; validation?: unknown }, _req, reply) => {
    if (err instanceof ApiError) return reply.code(err.status).send({ error: err.message, ...err.extra });
    if (err.validation) return reply.code(400).send({ error: `invalid request: ${err.message}` });
    if (err.statusCode === 429) return reply.code(429).send({ error: (err as { error?: string }).error ?? err.message });
    if (err.statusCode === 413) return reply.code(413).send({ error: `request body too large (limit ${o.bodyLimit ?? 64 * 1024} bytes)` });
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    return reply.code(status).send({ error: status === 500 ? 'internal error' : err.message });
  });

  /** A game any of whose tokens is shown, once it is over (a finished game has no secrets left). */
  const finishedGame = (id: string, token: string | undefined): LiveGame => {
    const game = store.get(id);
    store.viewerOf(game, token);
    if (!game.env.done) throw new ApiError(409, 'the replay is available once the game is over');
    return game;
  };

  const { min, max } = DEFAULT_RULESET.players;
  const idParams = z.object({ id: z.string().min(1).max(64) });

  app.get('/v1/bots', async () => ({ bots: knownAgents() }));

  app.get('/v1/ruleset', async () => ({
    ruleset: DEFAULT_RULESET,
    cards: CARD_IDS.map((id, type) => ({ id, type, name: cardName(type), kind: cardKind(type) })),
    players: { min, max },
    actionSpaceVersion: ACTION_SPACE_VERSION,
    actionGroups: ACTION_GROUPS,
  }));

  // One instance per spec, reused: bots are asked with reset() per request (stateless use).
  const served = new Map<string, Agent>();
  app.post('/v1/bots/:spec/act', {
    schema: {
      params: z.object({ spec: z.string().min(1).max(300) }),
      body: z.object({
        // Only what the route itself reads is checked here; the bot reads the rest.
        view: z.looseObject({ seat: z.number().int().min(0).max(max - 1), players: z.number().int().min(min).max(max) }),
        legalActions: z.array(z.number().int().min(0).max(NUM_ACTIONS - 1)).min(1).max(NUM_ACTIONS),
        encoding: z.array(z.number()).length(OBS_SIZE).optional(),
        seed: z.string().max(200).optional(),
      }).strict(),
    },
  }, async (req) => {
    const { spec } = req.params;
    let bot = served.get(spec);
    if (!bot) {
      try {
        bot = createAgent(spec);
      } catch (e) {
        throw new ApiError((e as Error).name === 'UnknownAgentError' ? 404 : 400, (e as Error).message);
      }
      if (spec.startsWith('ismcts') || spec.startsWith('llm')) throw new ApiError(400, `'${spec}' cannot be served statelessly (it needs the game held locally or a conversation)`);
      served.set(spec, bot);
    }
    const view = req.body.view as unknown as PlayerView;
    bot.reset?.({ seat: view.seat, players: view.players, seed: req.body.seed ?? 'served' });
    const legal = [...new Set(req.body.legalActions)].sort((a, b) => a - b);
    let action: number;
    try {
      action = await bot.act(new PostedObservation(view, legal, req.body.encoding));
    } catch (e) {
      if (e instanceof ApiError) throw e;
      throw new ApiError(400, `the bot could not act on this view: ${(e as Error).message}`);
    }
    return { action, name: describeAction(action, view.seat, view.players) };
  });

  app.post('/v1/games', {
    schema: {
      body: z.object({
        seats: z.array(z.string().min(1).max(200)).min(min).max(max),
        seed: z.union([z.string().max(200), z.number().int()]).optional(),
        reward: z.enum(REWARD_SCHEMES).optional(),
      }).strict(),
    },
  }, async (req, reply) => {
    const seed = req.body.seed === undefined ? String(Date.now()) : String(req.body.seed);
    const { game, tokens } = await store.create({ seats: req.body.seats, seed, reward: req.body.reward ?? 'win' });
    return reply.code(201).send({ id: game.id, players: game.seats.length, seats: game.seats, tokens, watchToken: game.watchToken });
  });

  app.get('/v1/games/:id/view', {
    schema: { params: idParams, querystring: z.object({ at: z.coerce.number().int().min(0).optional() }).strict() },
  }, async (req) => {
    const game = store.get(req.params.id);
    const viewer = store.viewerOf(game, bearer(req));
    return seatState(game, viewer, stepParam(game, req.query.at));
  });

  app.post('/v1/games/:id/actions', {
    schema: { params: idParams, body: z.object({ action: z.number().int().min(0) }).strict() },
  }, async (req) => {
    const game = store.get(req.params.id);
    const seat = store.seatOf(game, bearer(req));
    await store.act(game, seat, req.body.action);
    return seatState(game, seat);
  });

  app.get('/v1/games/:id/events', {
    schema: { params: idParams, querystring: z.object({ since: z.coerce.number().int().min(0).optional() }).strict() },
  }, async (req) => {
    const game = store.get(req.params.id);
    const viewer = store.viewerOf(game, bearer(req));
    const since = req.query.since ?? 0;
    return { events: narratedEvents(game, viewer, Math.min(since, game.env.eventCount)), next: game.env.eventCount, done: game.env.done };
  });

  app.get('/v1/games/:id/stream', {
    schema: { params: idParams, querystring: z.object({ since: z.coerce.number().int().min(0).optional() }).strict() },
  }, async (req, reply) => {
    const game = store.get(req.params.id);
    const viewer = store.viewerOf(game, bearer(req));
    let cursor = req.query.since ?? 0;
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const flush = () => {
      if (cursor < game.env.eventCount) for (const ev of narratedEvents(game, viewer, cursor)) res.write(`id: ${++cursor}\ndata: ${JSON.stringify(ev)}\n\n`);
      if (game.env.done) {
        res.write(`event: end\ndata: ${JSON.stringify({ scores: game.env.scores() })}\n\n`);
        stop();
      }
    };
    const stop = () => {
      game.listeners.delete(flush);
      res.end();
    };
    game.listeners.add(flush);
    req.raw.on('close', () => game.listeners.delete(flush));
    flush();
  });

  app.get('/v1/games/:id/replay', { schema: { params: idParams } }, async (req) => {
    const game = finishedGame(req.params.id, bearer(req));
    const c = game.env.config;
    return { seed: c.seed, players: c.players, seats: game.seats, reward: c.reward, actions: game.env.actions, scores: game.env.scores() };
  });

  // Each step of a finished game with every seat's view and the choice made there.
  app.get('/v1/games/:id/replay/:step', {
    schema: { params: idParams.extend({ step: z.coerce.number().int().min(0) }) },
  }, async (req) => {
    const game = finishedGame(req.params.id, bearer(req));
    const steps = game.env.actions.length;
    const k = req.params.step;
    if (k > steps) throw new ApiError(404, `step ${k}: the game has steps 0 to ${steps}`);
    const env = envAt(game, k);
    const views = Array.from({ length: env.players }, (_, p) => env.view(p));
    return {
      step: k,
      steps,
      views,
      decision: views[0].decision,
      legalActions: env.done ? [] : named(env.legalActions(), env.currentPlayer, env.players),
      next: k < steps ? played(game, k) : null,
      events: stepEvents(game, k, 'all'),
      scores: game.env.scores(),
    };
  });

  for (const [path, file] of webFiles()) {
    app.get(path, { schema: { hide: true } }, async (_req, reply) => reply.type(file.type).header('cache-control', 'no-cache').send(file.body));
  }

  const jobs = new Map<string, { status: 'running' | 'done' | 'failed'; done: number; total: number; result?: TournamentResult; error?: string }>();
  app.post('/v1/tournaments', {
    schema: {
      body: z.object({
        agents: z.array(z.string().min(1).max(300)).min(min).max(max),
        games: z.number().int().min(1).max(o.maxTournamentGames ?? 20_000),
        seed: z.union([z.string().max(200), z.number().int()]).optional(),
        duplicate: z.boolean().optional(),
      }).strict(),
    },
  }, async (req, reply) => {
    if ([...jobs.values()].filter((j) => j.status === 'running').length >= (o.maxJobs ?? 2)) throw new ApiError(429, `too many tournaments running (limit ${o.maxJobs ?? 2}); try again later`);
    try {
      resolveConfig({ agents: req.body.agents, games: req.body.games, seed: '1' });
    } catch (e) {
      throw new ApiError(400, (e as Error).message);
    }
    const id = randomBytes(9).toString('base64url');
    const job: { status: 'running' | 'done' | 'failed'; done: number; total: number; result?: TournamentResult; error?: string } = { status: 'running', done: 0, total: req.body.games };
    jobs.set(id, job);
    runTournament({
      agents: req.body.agents, games: req.body.games, seed: String(req.body.seed ?? 1), duplicate: req.body.duplicate,
      workers: o.tournamentWorkers ?? 1, onGame: (done, total) => Object.assign(job, { done, total }),
    }).then(
      (r) => Object.assign(job, { status: 'done', result: r }),
      (e: Error) => Object.assign(job, { status: 'failed', error: e.message }),
    );
    return reply.code(202).send({ id, status: job.status, total: job.total });
  });

  app.get('/v1/tournaments/:id', { schema: { params: idParams } }, async (req) => {
    const job = jobs.get(req.params.id);
    if (!job) throw new ApiError(404, `no tournament '${req.params.id}'`);
    return {
      id: req.params.id, status: job.status, done: job.done, total: job.total, error: job.error,
      ...(job.result ? { summary: jsonSummary(job.result), leaderboard: leaderboardMarkdown(job.result) } : {}),
    };
  });

  return app;
}
