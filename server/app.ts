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
 * Each resource's routes are a fastify plugin in routes/ (routes/index.ts lists them), holding
 * the routes' schemas and whatever they keep; `buildServer` makes what they share (the stores,
 * the catalogue, the limits: routes/context.ts), sets what applies to every request (JSON-only
 * bodies, the Host allow-list, CORS, the rate limit, the error shape) and registers the plugins.
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
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler, validatorCompiler, type FastifyPluginAsyncZod, type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import sjson from 'secure-json-parse';
import type { Ruleset } from '../env/index.ts';
import { BotPool } from './bot-pool.ts';
import { Catalogue, MAX_SPEC_LENGTH } from './catalogue.ts';
import { resolveLimits, type Limits, type ServerConfig } from './config.ts';
import { GameLog } from './game-log.ts';
import { ApiError, GameStore } from './games.ts';
import { HistoryPages } from './history.ts';
import { JobStore } from './jobs.ts';
import { OutsideCalls } from './outside-calls.ts';
import { Restorer } from './restorer.ts';
import {
  aboutRoutes, actRoutes, adviceRoutes, eventRoutes, gameReplayRoutes, gameRoutes, lobbyRoutes, replayRoutes, settingsRoutes, tournamentRoutes,
  webRoutes, type ServerContext,
} from './routes/index.ts';
import * as S from './schemas.ts';
import { Streams } from './stream.ts';

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
  /**
   * The clock (ms since 1970, default Date.now) of what expires or is counted by the minute:
   * idle games, bots nobody waits on, outside calls' windows, jobs and the state dir's records.
   * Tests pass one they move, so that no outcome waits on real time. Given, it also measures
   * the slices of bots in this thread (games.ts): one that stands still lets them play a
   * game without yielding. A decision's limit on the bot workers stays real time.
   */
  now?: () => number;
  /** The window of `rateLimit` (ms, default 1000: so many requests a second). Tests lengthen it so that they count requests, not time. */
  rateLimitWindowMs?: number;
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

/**
 * The route plugins, in the order they are registered: the OpenAPI document lists paths in the
 * order their routes were added, and server/api-types.ts is made from it.
 */
const ROUTES: FastifyPluginAsyncZod<ServerContext>[] = [
  aboutRoutes, actRoutes, gameRoutes, eventRoutes, gameReplayRoutes, lobbyRoutes, adviceRoutes, settingsRoutes, replayRoutes, webRoutes, tournamentRoutes,
];

/**
 * The server: the instance and what every route shares, then the route plugins. The order is
 * the point: each plugin is its own fastify context, which takes its parent's hooks, error
 * handler, body parsers and schema compilers as they stand when it is registered, so all of
 * those are set on the root first.
 */
export async function buildServer(o: ServerOptions = {}): Promise<FastifyInstance> {
  const { config = {}, logger = false, ruleset, notice, log, host = '127.0.0.1', stateDir = config.stateDir, botWorker, now, rateLimitWindowMs = 1000, ...overrides } = o;
  const limits = resolveLimits(config, overrides);
  const notices: string[] = [];
  const catalogue = new Catalogue(config, { ruleset, notice: (line) => notices.push(line) });
  const app = createApp(limits, config, logger);
  await registerShared(app, limits, config, rateLimitWindowMs);
  const tell = notice ?? ((line: string) => app.log.warn(line));
  const context = openStores(app, { limits, catalogue, stateDir, botWorker, tell, log, now });
  guardHosts(app, config, host, notices);
  setErrorShape(app, limits);
  for (const line of notices) tell(line);
  for (const routes of ROUTES) await app.register(routes, context);
  return app;
}

/** The instance: its limits on connections and bodies, zod for schemas, and JSON bodies only. */
function createApp(limits: Limits, config: ServerConfig, logger: boolean) {
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
  return app;
}

type App = ReturnType<typeof createApp>;

/** The plugins every route shares, registered before any route: the OpenAPI document and its UI, CORS, the rate limit. */
async function registerShared(app: App, limits: Limits, config: ServerConfig, rateLimitWindowMs: number): Promise<void> {
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
    const per = rateLimitWindowMs === 1000 ? 'second' : `${rateLimitWindowMs / 1000} s`;
    await app.register(rateLimit, {
      max: limits.rateLimit,
      timeWindow: rateLimitWindowMs,
      errorResponseBuilder: (_req, ctx) => ({ statusCode: 429, error: `rate limit: at most ${ctx.max} requests per ${per} per client; retry in ${Math.ceil(ctx.ttl / 1000)} s` }),
    });
  }
}

interface StoreOptions {
  limits: Limits;
  catalogue: Catalogue;
  stateDir: string | undefined;
  botWorker: URL | undefined;
  /** Told what the operator should know (a state file that cannot be restored). */
  tell: (line: string) => void;
  /** Told an outside server's failure in full (ServerOptions.log). */
  log: ((line: string) => void) | undefined;
  /** ServerOptions.now: undefined leaves each store its own default. */
  now: (() => number) | undefined;
}

/**
 * What the routes share (routes/context.ts): the bot pool, the stores of games, tournaments,
 * streams and history pages, and the state dir's games brought back. They are swept for idle
 * games while the server runs and closed with it.
 */
function openStores(app: App, { limits, catalogue, stateDir, botWorker, tell, log, now }: StoreOptions): ServerContext {
  const pool = new BotPool({ workers: limits.botWorkers, decisionMs: limits.decisionMs, memoryMb: limits.workerMemoryMb, maxQueued: limits.maxQueuedDecisions, module: botWorker });
  const outside = new OutsideCalls(log ?? ((line) => app.log.warn(line)), now, limits);
  const gameLog = stateDir === undefined ? null : new GameLog(stateDir, limits, tell, now);
  const store = new GameStore(limits, catalogue, pool, now, outside, gameLog);
  // The state dir's games come back in the background: the server answers at once, and a request for a game not yet restored waits for it (restorer.ts).
  const restoring = gameLog ? new Restorer(gameLog, store, tell, limits.idleMs, now) : null;
  const jobs = new JobStore(limits, catalogue, now, outside);
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
  // A game of the state dir asked for before its turn came is restored now, and the request waits for it.
  if (restoring) {
    app.addHook('preHandler', async (req) => {
      const id = (req.params as { id?: unknown } | undefined)?.id;
      if (typeof id === 'string' && req.routeOptions.url?.startsWith('/v1/games/:id')) await restoring.ready(id);
    });
  }
  return { limits, catalogue, ruleset: catalogue.ruleset, store, jobs, streams, pages, outside };
}

/** DNS rebinding: a page elsewhere whose name resolves to this machine would reach the API with its own name in Host. */
function guardHosts(app: App, config: ServerConfig, host: string, notices: string[]): void {
  const hosts = new Set((config.allowedHosts ?? ['localhost', host]).map(hostName));
  if (config.allowedHosts === undefined && (host === '0.0.0.0' || host === '::')) {
    notices.push(`listening on every interface, requests are answered only with Host localhost or ${host}: list the names clients use in the config's allowedHosts`);
  }
  app.addHook('onRequest', async (req) => {
    const name = hostName(req.headers.host ?? '');
    if (!hosts.has(name)) throw new ApiError(421, `Host ${JSON.stringify(name.slice(0, 100))} is not a name this server answers to`);
  });
}

/** Every error in the one shape `{ error, ... }` (S.errorBody); a fault of the server's own says no more than that it was one. */
function setErrorShape(app: App, limits: Limits): void {
  app.setErrorHandler((err: Error & { statusCode?: number; validation?: unknown; code?: string }, _req, reply) => {
    if (err instanceof ApiError) return reply.code(err.status).send({ error: err.message, ...err.extra });
    if (err.validation) return reply.code(400).send({ error: `invalid request: ${err.message}` });
    if (err.statusCode === 429) return reply.code(429).send({ error: (err as { error?: string }).error ?? err.message });
    if (err.statusCode === 413) return reply.code(413).send({ error: `request body too large (limit ${limits.bodyLimit} bytes)` });
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) app.log.error(err);
    return reply.code(status).send({ error: status === 500 ? 'internal error' : err.message });
  });
}
