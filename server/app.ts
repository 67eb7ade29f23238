/**
 * The HTTP API (fastify 5, zod schemas), versioned under /v1. An adapter: validation,
 * transport and secrecy; the rules stay in env/.
 *
 * | method | path                         | what                                                    |
 * |--------|------------------------------|---------------------------------------------------------|
 * | GET    | /v1/bots                     | the catalogue: bots that can fill a seat, their options |
 * | POST   | /v1/bots/:spec/act           | stateless: a seat's view and legal actions in, an action out |
 * | POST   | /v1/games                    | a game: seats ('remote', 'open' or an agent spec); remote tokens |
 * | GET    | /v1/games                    | the lobby: games with an open seat, public facts only   |
 * | POST   | /v1/games/:id/join           | an open seat's token, handed out once                   |
 * | GET    | /v1/games/:id/preview        | the seat to act: what each legal choice would do, digestion included |
 * | GET    | /v1/games/:id/hint           | the seat to act: what the Strong bot would play, its probability, the preview of it |
 * | GET/PUT| /v1/games/:id/settings       | the seat's auto-pass: on or off, X cards not watched for |
 * | POST   | /v1/replays                  | a tournament game (link or record), replayed and checked, for the replay frames |
 * | GET    | /v1/ruleset                  | the rules' numbers (chart, titles, ...) and card names  |
 * | GET    | /v1/games/:id/view?at=K      | the token's seat: view, text, legal actions with names; |
 * |        |                              | the state after K actions and what action K did         |
 * | POST   | /v1/games/:id/actions        | the token's seat acts; bots then play on                |
 * | GET    | /v1/games/:id/events?since=N | what the token's seat saw, from its N-th event on       |
 * | GET    | /v1/games/:id/history?from=K | the same step by step (the action, its events), paged   |
 * | GET    | /v1/games/:id/stream?since=N | the same as Server-Sent Events, live, ending with `end` |
 * | GET    | /v1/games/:id/replay         | seed, seats and every action, once the game is over     |
 * | GET    | /v1/games/:id/replay/:step   | once over: every seat's view at that step, the choice made |
 * | GET    | /, /app.js, ...              | the web page (web/), which uses only this API           |
 * | POST   | /v1/tournaments              | a tournament as a background job (worker threads)       |
 * | GET    | /v1/tournaments/:id          | its progress; when done, the summary and the leaderboard |
 * | DELETE | /v1/tournaments/:id          | stops it (finished games kept), or drops a finished one |
 * | GET    | /healthz                     | for load balancers: 200 while the server serves         |
 *
 * The OpenAPI document is at /docs/json, its UI at /docs. Every operation declares where it is
 * defined its operationId (what generated clients name their methods), a summary, a tag and its
 * security; server/openapi.test.ts fails for one that does not, and lints the document.
 *
 * A seat token (Authorization: Bearer) opens only its seat's view and events: everything a
 * token reaches is built from that seat's view, so no other hand or the draw pile's order can
 * leave the server during a game. The watch token, made with every game, opens the public view
 * (publicView: what an onlooker at the table sees) and, once the game is over, the replay.
 *
 * What a client may make the server do is bounded (docs/security.md): bots are entries of
 * the operator's catalogue (catalogue.ts), heavy ones decide on worker threads with a time and
 * memory limit (bot-pool.ts), games, tournaments and streams are limited in all and per client,
 * and requests must arrive within a time limit (config.ts).
 */
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { randomBytes } from 'node:crypto';
import sjson from 'secure-json-parse';
import { z } from 'zod';
import { BudgetSpentError, type Agent } from '../agents/index.ts';
import {
  ACTION_GROUPS, ACTION_SPACE_VERSION, CARD_IDS, cardKind, cardName, cardShortTexts, cardTexts, CLOSING_TIME, compileRuleset, describeAction, glossary,
  NUM_ACTIONS, OBS_SIZE, RevealedGame, REWARD_SCHEMES, rulesetFingerprint, type Ruleset,
} from '../env/index.ts';
import { bearer } from './bearer.ts';
import { PostedObservation } from './bot-obs.ts';
import { BotPool } from './bot-pool.ts';
import { BotSpecError, Catalogue, MAX_SPEC_LENGTH } from './catalogue.ts';
import { resolveLimits, type Limits, type ServerConfig } from './config.ts';
import { ApiError, envAt, GameStore, stepEvents, narratedEvents, type LiveGame } from './games.ts';
import { GameLog } from './game-log.ts';
import { Restorer } from './restorer.ts';
import { shownCommitment } from './seed-commitment.ts';
import { JobStore } from './jobs.ts';
import { OutsideCalls } from './outside-calls.ts';
import * as S from './schemas.ts';
import { Streams } from './stream.ts';
import { HISTORY_PAGE, HistoryPages } from './history.ts';
import { parsePostedView } from './view-schema.ts';
import { LruMap } from './lru.ts';
import { webFiles } from './web.ts';
import { played, seatState, stepParam } from './seat-state.ts';
import { replayRoutes } from './replays.ts';
import { tableRoutes } from './tables.ts';
import { hintRoutes } from './hint.ts';
import { displayName } from './names.ts';
import { settingsRoutes } from './settings.ts';

export interface ServerOptions extends Partial<Limits> {
  /** The operator's catalogue and limits (config.ts); the options above override its limits. */
  config?: ServerConfig;
  /** The rules every game is played under (default: the standard rules); bots trained under others are left out. */
  ruleset?: Ruleset;
  /** Where live games are kept so that they survive a restart (game-log.ts); overrides the config's stateDir. */
  stateDir?: string;
  /** The address `serve` listens on: with `localhost`, the Host names requests may carry unless the config lists them (allowedHosts). */
  host?: string;
  /** Told of what the operator should know at start (a catalogue entry left out); default: the log, as a warning. */
  notice?: (line: string) => void;
  /** Told what clients may not read of an outside server's failure (its address, its words); default: the log, as a warning. */
  log?: (line: string) => void;
  logger?: boolean;
  /** The bot worker module (bot-pool.ts's `module`): tests swap in one whose decisions they count. */
  botWorker?: URL;
}

/**
 * JSON.parse that refuses `__proto__` keys and `constructor.prototype` anywhere, escaped
 * spellings included (secure-json-parse, fastify's own parser, with errors that say so).
 */
export function parseJsonBody(text: string): unknown {
  if (text === '') throw new Error('empty body; send JSON');
  try {
    return sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (e) {
    if (/forbidden prototype property/.test((e as Error).message)) throw new Error('a key "__proto__", or "constructor" holding "prototype", is not allowed');
    throw new Error(`not valid JSON (${(e as Error).message.slice(0, 100)})`);
  }
}

/** The name part of a Host header (or an allowedHosts entry), lower case, without the port; IPv6 addresses in brackets. */
export function hostName(raw: string): string {
  const h = raw.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  // A bare IPv6 address (an allowedHosts entry or a bind address) has several colons.
  if (h.split(':').length > 2) return `[${h}]`;
  return h.split(':')[0];
}

/** Whole numbers in a path or a query: decimal digits only (no 0x10, 1e1, +5 or empty), else a 400. */
const decimal = z.string().regex(/^\d{1,15}$/, 'a whole number in decimal digits').transform(Number);

/** A fresh seed nobody can guess: a seat that knew the seed would know every hand and the draw pile. */
const secretSeed = () => randomBytes(16).toString('base64url');

export async function buildServer(o: ServerOptions = {}): Promise<FastifyInstance> {
  const { config = {}, logger = false, ruleset: rules, notice, log, host = '127.0.0.1', stateDir = config.stateDir, botWorker, ...overrides } = o;
  const limits = resolveLimits(config, overrides);
  const notices: string[] = [];
  const catalogue = new Catalogue(config, { ruleset: rules, notice: (line) => notices.push(line) });
  const ruleset = catalogue.ruleset;
  const rulesetId = { name: ruleset.name, fingerprint: rulesetFingerprint(ruleset) };
  const app = Fastify({
    logger,
    bodyLimit: limits.bodyLimit,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveMs,
    // Node checks the request and header timeouts this often (default 30 s).
    http: { headersTimeout: limits.requestTimeoutMs, connectionsCheckingInterval: Math.max(50, Math.min(1000, limits.requestTimeoutMs / 4)) },
    trustProxy: config.trustProxy ?? false,
    forceCloseConnections: true,
    // A bot spec in the act route's path may be as long as one in a body.
    routerOptions: { maxParamLength: MAX_SPEC_LENGTH },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Bodies are JSON only: anything else is a 415 naming its type, not a confusing schema error.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (e) {
      done(new ApiError(400, `request body: ${(e as Error).message}`), undefined);
    }
  });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'czech-pub-gym API', version: '1.0.0', description: 'Czech Pub games with per-seat secrecy, bot serving and tournaments.',
        license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
      },
      // Relative: the API is served where the document is, whatever name and port clients reach it by.
      servers: [{ url: '/', description: 'The server this document was fetched from.' }],
      tags: S.TAGS,
      components: { securitySchemes: S.SECURITY_SCHEMES },
    },
    transform: jsonSchemaTransform,
    // The library also names an input twin (ErrorInput) of each named schema; only responses use them here.
    transformObject: (doc) => {
      const out = jsonSchemaTransformObject(doc) as { components: { schemas: Record<string, unknown> } };
      out.components.schemas = Object.fromEntries(Object.entries(out.components.schemas).filter(([id]) => S.NAMED.includes(id)));
      return out as ReturnType<typeof jsonSchemaTransformObject>;
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  if (config.corsOrigins?.length) await app.register(cors, { origin: config.corsOrigins, methods: ['GET', 'POST', 'PUT', 'DELETE'] });
  if (limits.rateLimit > 0) {
    await app.register(rateLimit, {
      max: limits.rateLimit,
      timeWindow: 1000,
      errorResponseBuilder: (_req, ctx) => ({ statusCode: 429, error: `rate limit: at most ${ctx.max} requests per second per client; retry in ${Math.ceil(ctx.ttl / 1000)} s` }),
    });
  }
  const pool = new BotPool({ workers: limits.botWorkers, decisionMs: limits.decisionMs, memoryMb: limits.workerMemoryMb, maxQueued: limits.maxQueuedDecisions, module: botWorker });
  const outside = new OutsideCalls(log ?? ((line) => app.log.warn(line)), undefined, limits);
  const tell = notice ?? ((line: string) => app.log.warn(line));
  const gameLog = stateDir === undefined ? null : new GameLog(stateDir, limits, tell);
  const store = new GameStore(limits, catalogue, pool, undefined, outside, gameLog);
  // The state dir's games come back in the background: the server answers at once, and a request for a game not yet restored waits for it (restorer.ts).
  const restoring = gameLog ? new Restorer(gameLog, store, tell, limits.idleMs) : null;
  const jobs = new JobStore(limits, catalogue, undefined, outside);
  const streams = new Streams(limits);
  const pages = new HistoryPages(store.turns, limits.maxPagesPerClient);
  const sweeper = setInterval(() => {
    store.expire();
    restoring?.expire();
  }, Math.min(60_000, limits.idleMs));
  sweeper.unref();
  app.addHook('preClose', async () => {
    clearInterval(sweeper);
    await restoring?.stop();
    store.closeAll();
    pool.close();
    await jobs.closeAll();
  });

  // DNS rebinding: a page elsewhere whose name resolves to this machine would reach the API with its own name in Host.
  const hosts = new Set((config.allowedHosts ?? ['localhost', host]).map(hostName));
  if (config.allowedHosts === undefined && (host === '0.0.0.0' || host === '::')) {
    notices.push(`listening on every interface, requests are answered only with Host localhost or ${host}: list the names clients use in the config's allowedHosts`);
  }
  app.addHook('onRequest', async (req) => {
    const name = hostName(req.headers.host ?? '');
    if (!hosts.has(name)) throw new ApiError(421, `Host ${JSON.stringify(name.slice(0, 100))} is not a name this server answers to`);
  });
  // A game of the state dir asked for before its turn came is restored now, and the request waits for it.
  if (restoring) {
    app.addHook('preHandler', async (req) => {
      const id = (req.params as { id?: unknown } | undefined)?.id;
      if (typeof id === 'string' && req.routeOptions.url?.startsWith('/v1/games/:id')) await restoring.ready(id);
    });
  }

  app.setErrorHandler((err: Error & { statusCode?: number; validation?: unknown; code?: string }, _req, reply) => {
    if (err instanceof ApiError) return reply.code(err.status).send({ error: err.message, ...err.extra });
    if (err.validation) return reply.code(400).send({ error: `invalid request: ${err.message}` });
    if (err.statusCode === 429) return reply.code(429).send({ error: (err as { error?: string }).error ?? err.message });
    if (err.statusCode === 413) return reply.code(413).send({ error: `request body too large (limit ${limits.bodyLimit} bytes)` });
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) app.log.error(err);
    return reply.code(status).send({ error: status === 500 ? 'internal error' : err.message });
  });

  /** Aborted if the client closes its connection before its answer is sent: bots then stop playing for nobody (games.ts, botIdleMs). */
  const clientGone = (reply: FastifyReply): AbortSignal => {
    const gone = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) gone.abort();
    });
    return gone.signal;
  };

  /** A game any of whose tokens is shown, once it is over (a finished game has no secrets left). */
  const finishedGame = (id: string, token: string | undefined): LiveGame => {
    const game = store.get(id);
    store.viewerOf(game, token);
    if (!game.env.done) throw new ApiError(409, 'the replay is available once the game is over');
    return game;
  };

  for (const line of notices) (notice ?? ((l: string) => app.log.warn(l)))(line);
  const { min, max } = ruleset.players;
  const idParams = z.object({ id: z.string().min(1).max(64) });
  const specString = z.string().min(1).max(MAX_SPEC_LENGTH);
  const started = Date.now();

  app.get('/healthz', {
    schema: { operationId: 'getHealth', summary: 'Whether the server serves, and the rules it plays', tags: ['server'], security: S.NO_TOKEN, response: { 200: S.health, ...S.errors() } },
    config: { rateLimit: false },
  }, async () => ({ status: 'ok' as const, uptimeSec: Math.round((Date.now() - started) / 1000), ruleset: rulesetId }));

  // The catalogue is fixed when the server starts: its listing is made (and checked) once.
  const botListing = JSON.stringify(S.botList.parse({ bots: catalogue.list() }));
  app.get('/v1/bots', {
    schema: { operationId: 'listBots', summary: 'The bots that can fill a seat, with the options a client may set', tags: ['bots'], security: S.NO_TOKEN, response: { 200: S.botList, ...S.errors(429) } },
  }, async (_req, reply) =>
    // A string body goes out as it is (fastify serializes only objects); the type provider expects the object.
    reply.type('application/json; charset=utf-8').send(botListing as unknown as z.infer<typeof S.botList>));

  const texts = cardTexts(ruleset);
  const faces = cardShortTexts(ruleset);
  app.get('/v1/ruleset', {
    schema: { operationId: 'getRuleset', summary: "The rules' numbers, the cards' names and texts, and a glossary", tags: ['server'], security: S.NO_TOKEN, response: { 200: S.rulesetAnswer, ...S.errors(429) } },
  }, async () => ({
    ruleset: ruleset as unknown as Record<string, unknown>,
    fingerprint: rulesetId.fingerprint,
    cards: CARD_IDS.map((id, type) => ({ id, type, name: cardName(type), kind: cardKind(type), text: texts[id], short: faces[id] })),
    closingTime: { name: cardName(CLOSING_TIME), text: texts.closing_time, short: faces.closing_time },
    glossary: glossary(ruleset),
    players: { min, max },
    actionSpaceVersion: ACTION_SPACE_VERSION,
    actionGroups: [...ACTION_GROUPS],
  }));

  // Bot instances for the act route, one per label (entry and options), least recently used dropped first.
  const served = new LruMap<string, Agent>(limits.servedCache);
  // A posted view is encoded here, under the server's ruleset, for the bots that read encodings.
  const actRules = compileRuleset(ruleset);
  app.post('/v1/bots/:spec/act', {
    schema: {
      operationId: 'askBot', summary: "A bot's action for a posted view and its legal actions (stateless)", tags: ['bots'], security: S.NO_TOKEN,
      params: z.object({ spec: specString }),
      body: z.object({
        view: z.unknown().describe("A seat's view as GET /v1/games/{id}/view gives it (PlayerView); checked field by field."),
        legalActions: z.array(z.number().int().min(0).max(NUM_ACTIONS - 1)).min(1).max(NUM_ACTIONS),
        encoding: z.array(z.number()).length(OBS_SIZE).optional()
          .describe('Ignored: the server encodes the posted view itself, so any bot (ppo included) needs only the view. Accepted so that older clients sending it keep working.'),
        game: z.string().max(64).optional()
          .describe("An opaque name for the game this decision belongs to (what an `http:` agent sends): bots that draw at random are seeded from it, so one game's decisions share a stream."),
        seed: z.string().max(200).optional().describe('Older clients\' name for `game`.'),
      }).strict(),
      response: { 200: S.actAnswer, ...S.errors(400, 404, 413, 429) },
    },
    // The answer is built right here from checked values: documented by its schema, not re-validated on the hot path.
    serializerCompiler: () => (data) => JSON.stringify(data),
  }, async (req) => {
    let choice;
    try {
      choice = catalogue.resolve(req.params.spec);
    } catch (e) {
      if (e instanceof BotSpecError) throw new ApiError(e.unknown ? 404 : 400, e.message);
      throw e;
    }
    if (choice.entry.needs || choice.entry.heavy) {
      throw new ApiError(400, `bot '${choice.entry.name}' cannot answer a posted view (it ${choice.entry.needs === 'history' ? 'reads the game\'s history' : 'searches copies of a game held on the server'}); seat it at a game (POST /v1/games)`);
    }
    const posted = parsePostedView(req.body.view, ruleset);
    if (!posted.ok) throw new ApiError(400, posted.error);
    const view = posted.view;
    const make = () => {
      try {
        return catalogue.create(choice);
      } catch (e) {
        throw new ApiError(400, (e as Error).message);
      }
    };
    // A bot that calls out is made per request, holding this client's budget.
    const bot = choice.entry.budget ? make() : served.use(choice.label, make);
    if (choice.entry.budget) outside.attach(bot, choice.entry, req.ip);
    bot.reset?.({ seat: view.seat, players: view.players, seed: req.body.game ?? req.body.seed ?? 'served' });
    const legal = [...new Set(req.body.legalActions)].sort((a, b) => a - b);
    let action: number;
    try {
      action = await bot.act(new PostedObservation(view, legal, actRules));
    } catch (e) {
      if (e instanceof ApiError) throw e;
      if (e instanceof BudgetSpentError) throw new ApiError(429, e.message);
      throw new ApiError(400, 'the bot could not act on this view: the view and legalActions do not describe a position it can play');
    }
    if (!legal.includes(action)) {
      throw new ApiError(400, `the posted view and legalActions contradict each other: in this view the bot's move is ${action} (${describeAction(action, view.seat, view.players)}), which legalActions does not list`);
    }
    return { action, name: describeAction(action, view.seat, view.players) };
  });

  app.post('/v1/games', {
    schema: {
      operationId: 'createGame', summary: 'A game: its seats filled by bots, remote players or the lobby; the seat tokens', tags: ['games'], security: S.NO_TOKEN,
      body: z.object({
        seats: z.array(specString).min(min).max(max).describe("Per seat: 'remote' for a seat played through the API (its token comes back here), 'open' for a seat anyone may take from the lobby (POST /v1/games/{id}/join), or a bot from GET /v1/bots."),
        seed: S.gameSeed.optional().describe("Deals the game. Without one, a random seed is drawn. Every game commits to its seed (`seed.commitment`, in every view and the lobby) and reveals it with the commitment's salt in the replay. Refused for a game with an 'open' seat; a table of 'remote' and bot seats may set one, and its views say so (`seed.chosen`)."),
        reward: z.enum(REWARD_SCHEMES).optional(),
        names: z.array(displayName.nullable()).max(max).optional().describe("Per seat, a display name for a 'remote' seat (null or absent: \"Player N\"); bots are called by their catalogue name, and whoever joins an open seat names themselves."),
      }).strict(),
      response: { 201: S.created, ...S.errors(400, 413, 429) },
    },
  }, async (req, reply) => {
    const chosen = req.body.seed !== undefined;
    const seed = chosen ? String(req.body.seed) : secretSeed();
    const { game, tokens } = await store.create({ seats: req.body.seats, names: req.body.names, seed, seedChosen: chosen, reward: req.body.reward ?? 'win', client: req.ip, signal: clientGone(reply) });
    return reply.code(201).send({ id: game.id, players: game.seats.length, seats: game.seats, names: game.names, tokens, watchToken: game.watchToken, seed: shownCommitment(game.seed) });
  });

  const tokenRoute = { security: S.SEAT_TOKEN, params: idParams };

  app.get('/v1/games/:id/view', {
    schema: {
      operationId: 'getView', summary: "The token's view: legal actions, whose turn, the last action's events", tags: ['games'],
      ...tokenRoute, querystring: z.object({ at: decimal.optional() }).strict(),
      response: { 200: S.seatState, ...S.errors(400, 401, 403, 404, 429) },
    },
  }, async (req) => {
    const game = store.get(req.params.id);
    const viewer = store.viewerOf(game, bearer(req));
    return seatState(game, viewer, stepParam(game, req.query.at));
  });

  app.post('/v1/games/:id/actions', {
    schema: {
      operationId: 'playAction', summary: "The token's seat plays an action; bot seats then play on", tags: ['games'],
      description: 'With `step`, the action answers the decision at that step only: if the game has moved on (an X card played in between asked the seat again), it is refused with 409 `code: decision-changed` and nothing is played, so a click meant for the decision before never lands on the one after.',
      ...tokenRoute,
      body: z.object({
        action: z.number().int().min(0),
        step: z.number().int().min(0).optional().describe('The step of the decision this action answers (GET view\'s `step`); refused with 409 if the game is at another.'),
      }).strict(),
      response: { 200: S.seatState, ...S.errors(400, 401, 403, 404, 409, 429) },
    },
  }, async (req, reply) => {
    const game = store.get(req.params.id);
    const seat = store.seatOf(game, bearer(req));
    await store.act(game, seat, req.body.action, clientGone(reply), req.body.step);
    return seatState(game, seat);
  });

  const sinceQuery = z.object({ since: decimal.optional() }).strict();

  app.get('/v1/games/:id/events', {
    schema: {
      operationId: 'listEvents', summary: "What the token's seat saw, from its N-th event on", tags: ['games'],
      ...tokenRoute, querystring: sinceQuery,
      response: { 200: S.eventsAnswer, ...S.errors(400, 401, 403, 404, 429) },
    },
  }, async (req) => {
    const game = store.get(req.params.id);
    const viewer = store.viewerOf(game, bearer(req));
    const since = req.query.since ?? 0;
    return { events: narratedEvents(game, viewer, Math.min(since, game.env.eventCount)), next: game.env.eventCount, done: game.env.done };
  });

  app.get('/v1/games/:id/history', {
    schema: {
      operationId: 'getHistory', summary: "What the token's seat saw, step by step, from step K on (paged)", tags: ['games'],
      ...tokenRoute, querystring: z.object({ from: decimal.optional(), limit: decimal.optional() }).strict(),
      description: `Steps from \`from\` (default 0) on, at most \`limit\` (default and most ${HISTORY_PAGE}) of them: for each, the action that led to it and its events as the token's seat saw them (what a page that was there from the start has in its log). \`next\` is the step to ask from for the rest, null once there is none.`,
      response: { 200: S.historyAnswer, ...S.errors(400, 401, 403, 404, 429) },
    },
    // Built a slice at a time from checked values (history.ts): documented by its schema, not re-validated on the way out.
    serializerCompiler: () => (data) => JSON.stringify(data),
  }, async (req) => {
    const game = store.get(req.params.id);
    const viewer = store.viewerOf(game, bearer(req));
    return pages.page(game, viewer, stepParam(game, req.query.from ?? 0), req.query.limit ?? HISTORY_PAGE, req.ip);
  });

  app.get('/v1/games/:id/stream', {
    schema: {
      operationId: 'streamEvents', summary: "The token's events as Server-Sent Events, live", tags: ['games'],
      ...tokenRoute, querystring: sinceQuery,
      description: 'Server-Sent Events: each event\'s id is the seat\'s event count, so a reconnect with Last-Event-ID resumes; `step` (no id) when the game moved on without an event the seat sees, or a seat was joined; a comment line every heartbeat; ends with `end`, `gone` (the game is no longer held) or `closed` (its place went to another client\'s stream while all were taken: reconnect later).',
      response: { 200: { description: 'The event stream.', content: { 'text/event-stream': { schema: z.string() } } }, ...S.errors(400, 401, 403, 404, 429) },
    },
  }, async (req, reply) => {
    const game = store.get(req.params.id);
    const viewer = store.viewerOf(game, bearer(req));
    streams.serve(req, reply, game, viewer, Streams.cursor(req, req.query.since, game.env.eventCount));
  });

  app.get('/v1/games/:id/replay', {
    schema: {
      operationId: 'getReplay', summary: 'A finished game: its seed, seats and every action', tags: ['replays'],
      ...tokenRoute, response: { 200: S.replayAnswer, ...S.errors(401, 403, 404, 409, 429) },
    },
  }, async (req) => {
    const game = finishedGame(req.params.id, bearer(req));
    const c = game.env.config;
    return { seed: c.seed, salt: game.seed.salt, seedCommitment: game.seed.commitment, seedChosen: game.seed.chosen, players: c.players, seats: game.seats, reward: c.reward, askForced: c.askForced, actions: [...game.env.actions], scores: game.env.scores(), faults: game.faults };
  });

  // Each step of a finished game with every seat's view and the choice made there.
  app.get('/v1/games/:id/replay/:step', {
    schema: {
      operationId: 'getReplayFrame', summary: "A finished game's step: every seat's view and the choice made", tags: ['replays'],
      security: S.SEAT_TOKEN, params: idParams.extend({ step: decimal }),
      response: { 200: S.replayFrame, ...S.errors(400, 401, 403, 404, 409, 429) },
    },
  }, async (req) => {
    const game = finishedGame(req.params.id, bearer(req));
    const steps = game.env.actions.length;
    const k = req.params.step;
    if (k > steps) throw new ApiError(404, `step ${k}: the game has steps 0 to ${steps}`);
    const env = envAt(game, k);
    const revealed = new RevealedGame(game.env, env);
    const views = revealed.views() as unknown as Record<string, unknown>[];
    return {
      step: k,
      steps,
      views,
      decision: views[0].decision as Record<string, unknown>,
      legalActions: revealed.legal(),
      next: k < steps ? played(game, k) : null,
      events: stepEvents(game, k, 'all'),
      scores: game.env.scores(),
    };
  });

  tableRoutes(app, store);
  hintRoutes(app, store, catalogue);
  settingsRoutes(app, store);
  replayRoutes(app, store, ruleset);

  for (const [path, file] of webFiles()) {
    app.get(path, { schema: { hide: true } }, async (_req, reply) => reply.type(file.type).header('cache-control', 'no-cache').send(file.body));
  }

  app.post('/v1/tournaments', {
    schema: {
      operationId: 'startTournament', summary: 'A tournament of catalogue bots, run as a background job', tags: ['tournaments'], security: S.NO_TOKEN,
      body: z.object({
        agents: z.array(specString).min(min).max(max).describe('A bot from GET /v1/bots per seat (repeat one to field it twice).'),
        games: z.number().int().min(1).max(limits.maxJobGames),
        seed: S.gameSeed.optional().describe('Default: a random seed, reported in the summary.'),
        duplicate: z.boolean().optional(),
      }).strict(),
      response: { 202: S.jobAnswer, ...S.errors(400, 403, 413, 429) },
    },
  }, async (req, reply) => {
    const job = jobs.start({ agents: req.body.agents, games: req.body.games, seed: String(req.body.seed ?? secretSeed()), duplicate: req.body.duplicate, client: req.ip });
    return reply.code(202).send(jobs.report(job));
  });

  app.get('/v1/tournaments/:id', {
    schema: {
      operationId: 'getTournament', summary: "A tournament's progress; once ended, its summary", tags: ['tournaments'], security: S.NO_TOKEN,
      params: idParams, response: { 200: S.jobAnswer, ...S.errors(404, 429) },
    },
  }, async (req) => jobs.report(jobs.get(req.params.id)));

  app.delete('/v1/tournaments/:id', {
    schema: {
      operationId: 'stopTournament', summary: 'Stops a tournament, or drops a finished one', tags: ['tournaments'], security: S.NO_TOKEN,
      params: idParams, description: 'Stops a running tournament (its finished games are kept and summarised), or drops a finished one.',
      response: { 200: S.jobAnswer, ...S.errors(404, 429) },
    },
  }, async (req) => jobs.report(await jobs.cancel(req.params.id)));

  return app;
}
