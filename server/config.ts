/**
 * What the operator decides: the bot catalogue and the limits, from `czech-pub serve --config
 * FILE` (JSON) and flags. Clients only ever name catalogue entries (catalogue.ts); every
 * number here bounds what one client, or all of them, can make the server do.
 *
 * {
 *   "defaults": true,                      // keep the built-in entries (random ... ismcts, ppo)
 *   "models": "/srv/czech-pub/models",     // every NAME.json checkpoint there is an entry NAME
 *   "bots": {
 *     "deep": { "agent": "ismcts:iterations=800", "vary": { "iterations": { "min": 50, "max": 2000, "integer": true } } },
 *     "gpt":  { "agent": "llm:gpt-4o-mini:baseUrl=https://api.openai.com/v1:apiKeyEnv=OPENAI_API_KEY", "description": "GPT-4o mini",
 *               "budget": { "perGame": 300, "perTournament": 5000, "perClientMinute": 120 } },
 *     "off":  null,                         // removes a built-in entry
 *     "heuristic": { "agent": "heuristic", "displayName": "Barfly", "strength": "Medium", "rank": 2 }
 *   },
 *   "limits": { "maxGamesPerClient": 20, "decisionMs": 3000 },
 *   "stateDir": "/var/lib/czech-pub/games",  // live games survive a restart (off when absent)
 *   "corsOrigins": ["https://example.org"]
 * }
 */
import fs from 'node:fs';
import { z } from 'zod';

/** Entry names: what clients type. Lower case, no spaces or colons, so a spec splits one way. */
export const ENTRY_NAME = /^[a-z][a-z0-9_.-]{0,39}$/;

const varySchema = z.union([
  z.object({ min: z.number(), max: z.number(), integer: z.boolean().optional() }).strict()
    .refine((v) => v.min <= v.max, 'min must not exceed max'),
  // Listed values: strings are plain words so that they cannot change how a spec splits.
  z.object({ values: z.array(z.union([z.string().regex(/^[A-Za-z0-9_.-]{1,60}$/, 'a value is a plain word (letters, digits, _ . -)'), z.number(), z.boolean()])).min(1).max(100) }).strict(),
]);
export type Vary = z.infer<typeof varySchema>;

const count = z.number().int().min(0).max(1_000_000_000);

/**
 * Calls an entry that reaches a server elsewhere (llm, http) may make for the clients of this
 * server: requests to that server, corrections and fault retries included, each asked for
 * before it is sent (agents/outside-calls.ts). Fields left out take DEFAULT_BUDGET's.
 */
const budgetSchema = z.object({
  /** By one seat in one game; past it the seat plays its fallback (a live game) or the tournament stops. */
  perGame: count,
  /** By all of a tournament's seats of this entry, across its worker threads; past it the tournament stops. */
  perTournament: count,
  /**
   * By all of one client's live games, tournaments and act requests, in any minute (a sliding
   * window: agents/rate-window.ts, which holds a slot per call, hence the bound).
   */
  perClientMinute: z.number().int().min(0).max(100_000),
}).partial().strict();
export type Budget = Required<z.infer<typeof budgetSchema>>;

/**
 * Every llm or http entry has a budget, these unless the operator sets one. A seat sends about
 * 65 to 85 calls in a game (one per decision with a choice: docs/results/2026-12-01-llm-prompts.md), so 200 leaves
 * room for long games and a few corrections while a model that fails every decision (up to
 * 15 calls each with the default corrections and retries) is cut off at about 13 of them;
 * 5,000 calls a tournament is some 60 games of one model seat, about $1.30 at gpt-4o-mini's
 * prices (the same record); 300 a minute (5 a second) is more than a person playing against five
 * model seats asks for, and more than one tournament worker sends to a model that takes a
 * fifth of a second or more to answer. A tournament that reaches a budget stops, so a bot
 * that answers faster (an http bot nearby) needs a higher perClientMinute from the operator,
 * and the server-wide rates above it (limits.outsideCallsPerMinute, ...PerHostMinute) too.
 */
export const DEFAULT_BUDGET: Budget = { perGame: 200, perTournament: 5000, perClientMinute: 300 };

const entrySchema = z.object({
  /** The agent spec the entry plays, as on the command line (the operator's: paths and URLs allowed). */
  agent: z.string().min(1).max(2000),
  description: z.string().max(300).optional(),
  /** What players see it called ("Regular"); default: the entry's name. */
  displayName: z.string().trim().min(1).max(40).optional(),
  /** How hard it is to beat, in players' words ("Medium"); entries without one are offered after those with one. */
  strength: z.string().trim().min(1).max(20).optional(),
  /** Orders the entries with a strength, weakest first (the page offers them in this order). */
  rank: z.number().int().min(0).max(1000).optional(),
  /** Options a client may set, each with its range or list of values. */
  vary: z.record(z.string().regex(/^[A-Za-z][A-Za-z0-9]{0,39}$/), varySchema).optional(),
  /** For entries that call a server elsewhere (llm, http) only: what the server's clients may spend of it (DEFAULT_BUDGET otherwise). */
  budget: budgetSchema.optional(),
}).strict();
export type EntryConfig = z.infer<typeof entrySchema>;

const int = (min: number, max: number) => z.number().int().min(min).max(max);

export const limitsSchema = z.object({
  /**
   * Live games in all, and per client address (finished ones count until dropped). At its
   * quota a client's own finished game asked about least recently makes room; in a full store,
   * the game asked about least recently of the client holding the most (more than the asker,
   * or the asker's own), never one in use: played, asked about or streamed within botIdleMs.
   */
  maxGames: int(1, 1_000_000),
  maxGamesPerClient: int(1, 1_000_000),
  /** A game nobody asked about for this long is dropped. */
  idleMs: int(1000, 7 * 24 * 3600_000),
  /** Games with seats open to anyone (the lobby) at once, in all; when full, the one waiting longest of a client holding more of them than the asker, nobody joined and not in use, makes room. */
  maxOpenGames: int(0, 10_000),
  /** Games with seats open in the lobby that one client created, at once (so a few clients cannot fill the lobby). */
  maxOpenGamesPerClient: int(0, 10_000),
  /** Open seats one client has joined in games still in progress (so one client cannot take every seat in the lobby). */
  maxJoinedSeatsPerClient: int(0, 10_000),
  /**
   * A game's bots stop playing when no client has asked about it for this long and no request
   * waiting on them is still connected (its queued decisions are dropped); the next request
   * about the game starts them again.
   */
  botIdleMs: int(100, 24 * 3600_000),
  /**
   * Budget of one decision of a heavy bot (ismcts) on the worker threads, from when it starts
   * there (waiting costs it nothing: the clients' turns bound the wait, bot-pool.ts). While n
   * clients wait on a worker, a search is told a 1/n share of it and stops by itself; one still
   * running at the end of its budget is stopped with its worker, and the seat plays its fallback.
   */
  decisionMs: int(10, 600_000),
  /** Heap limit of each bot worker thread, MB. */
  workerMemoryMb: int(32, 16_384),
  /** Worker threads for heavy bots' decisions. */
  botWorkers: int(1, 64),
  /** Decisions waiting for a bot worker, in all; past it the newest of the client holding the most (more than the asker) plays its fallback, or else the new one does. */
  maxQueuedDecisions: int(1, 1_000_000),
  /** Tournament jobs: running at once in all and per client, games per job, worker threads per job, seconds per job, how long a finished job is kept. */
  maxJobs: int(0, 64),
  maxJobsPerClient: int(0, 64),
  maxJobGames: int(1, 1_000_000),
  jobWorkers: int(1, 64),
  jobSeconds: int(1, 7 * 24 * 3600),
  jobRetentionMs: int(1000, 30 * 24 * 3600_000),
  /** Jobs kept (running and finished) at most; the oldest finished are dropped first. */
  maxStoredJobs: int(1, 100_000),
  /**
   * Event streams open at once, in all and per client; a comment line every heartbeatMs keeps
   * proxies from closing them. When all are open, a new one takes the place of the oldest of
   * the client holding the most (more than the asker; onlookers' first), and a seat's own
   * stream that of an onlooker (stream.ts).
   */
  maxStreams: int(0, 1_000_000),
  maxStreamsPerClient: int(0, 1_000_000),
  heartbeatMs: int(100, 600_000),
  /**
   * Calls to servers elsewhere (llm and http entries) in any minute, by all clients together,
   * and to one host (an entry's URL: entries on one host share it). Above each client's own
   * budget (perClientMinute), these serve clients in turn: a client holds at most its share of
   * each, limit / (clients calling + 1), so one alone takes half and a newcomer finds room
   * (agents/rate-window.ts). A call past either plays the seat's fallback, as past a budget.
   * 1,200 a minute (20 a second) in all and 600 to one host: half of 600 is the default
   * perClientMinute (300), so a client alone at one entry is held by its own budget, not by
   * its share; with three calling one host, each may have 150 in a minute.
   */
  outsideCallsPerMinute: int(0, 100_000),
  outsideCallsPerHostMinute: int(0, 100_000),
  /** History pages (GET history) one client may have being built at once; each is built a slice at a time, clients in turn (history.ts). */
  maxPagesPerClient: int(1, 1000),
  /** Requests per second per client address (0 = none). */
  rateLimit: int(0, 1_000_000),
  /** Bytes in a request body. */
  bodyLimit: int(256, 16 * 1024 * 1024),
  /** A request must arrive whole within this (a body sent one byte at a time is cut off). */
  requestTimeoutMs: int(100, 600_000),
  /** An idle connection (no request in progress) is closed after this. */
  keepAliveMs: int(100, 600_000),
  /** Bot instances kept for the stateless act route (one per entry and option set). */
  servedCache: int(1, 100_000),
  /** With a state dir (stateDir): games kept at start at most, the newest first (the rest's files are removed). */
  stateMaxGames: int(0, 1_000_000),
  /** With a state dir: a game's file not written for this long is removed at start instead of restored. */
  stateMaxAgeMs: int(1000, 365 * 24 * 3600_000),
  /** With a state dir: a game whose file would pass this many bytes is no longer kept (a game of 2 to 6 bots took 0.9 to 6.5 kB; the 5,000 actions a game may have, some 130 kB). */
  stateMaxFileBytes: int(1024, 1024 * 1024 * 1024),
}).strict();
export type Limits = z.infer<typeof limitsSchema>;

export const DEFAULT_LIMITS: Limits = {
  maxGames: 1000,
  maxGamesPerClient: 50,
  idleMs: 30 * 60_000,
  maxOpenGames: 100,
  maxOpenGamesPerClient: 5,
  maxJoinedSeatsPerClient: 10,
  botIdleMs: 10_000,
  decisionMs: 10_000,
  workerMemoryMb: 512,
  botWorkers: 1,
  maxQueuedDecisions: 2000,
  maxJobs: 2,
  maxJobsPerClient: 1,
  maxJobGames: 20_000,
  jobWorkers: 1,
  jobSeconds: 30 * 60,
  jobRetentionMs: 3600_000,
  maxStoredJobs: 100,
  maxStreams: 1000,
  maxStreamsPerClient: 20,
  heartbeatMs: 15_000,
  outsideCallsPerMinute: 1200,
  outsideCallsPerHostMinute: 600,
  maxPagesPerClient: 4,
  rateLimit: 2000,
  bodyLimit: 64 * 1024,
  requestTimeoutMs: 10_000,
  keepAliveMs: 5_000,
  servedCache: 256,
  stateMaxGames: 1000,
  stateMaxAgeMs: 24 * 3600_000,
  stateMaxFileBytes: 1024 * 1024,
};

export const configSchema = z.object({
  /** Keep the built-in entries (true by default); `bots` adds to them, replaces them by name, or removes one with null. */
  defaults: z.boolean().optional(),
  /** A folder of trained checkpoints: each NAME.json is an entry NAME playing it. */
  models: z.string().min(1).optional(),
  bots: z.record(z.string().regex(ENTRY_NAME, 'entry names are lower-case words: a-z first, then a-z 0-9 _ . - (40 at most)'), entrySchema.nullable()).optional(),
  limits: limitsSchema.partial().optional(),
  /** Origins allowed to call the API from a browser (none by default: the page is served from the API's own origin). */
  corsOrigins: z.array(z.string().regex(/^https?:\/\/[^/\s]+$/, 'an origin is scheme://host[:port], no path')).max(100).optional(),
  /**
   * Host names requests may carry (default: localhost and the address served on). Anything
   * else is refused (421), so a page elsewhere whose name resolves to this machine (DNS
   * rebinding) cannot drive the API; list the names clients use when serving beyond it.
   */
  allowedHosts: z.array(z.string().regex(/^(\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:]+:[0-9a-fA-F:.]*|[A-Za-z0-9.-]{1,253})$/, 'a host name or address, without port or scheme')).min(1).max(100).optional(),
  /**
   * Where games are written as they change (per game an append-only log of its actions and a
   * small settings file rewritten whole, tokens only hashed), so that they survive a restart:
   * games in progress are replayed in the background while the server answers, finished ones
   * when asked for (restorer.ts). Off when absent.
   */
  stateDir: z.string().min(1).max(4096).optional(),
  /** Trust X-Forwarded-For from the reverse proxy in front (so limits apply per real client). */
  trustProxy: z.union([z.boolean(), z.string().max(200)]).optional(),
}).strict();
export type ServerConfig = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Validates a config object; a bad one fails naming the first wrong field. */
export function parseConfig(raw: unknown, what = 'config'): ServerConfig {
  const r = configSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new ConfigError(`${what}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return r.data;
}

export function loadConfig(file: string): ServerConfig {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`cannot read config ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`config ${file} is not JSON: ${(e as Error).message}`);
  }
  return parseConfig(raw, `config ${file}`);
}

export function resolveLimits(config: ServerConfig, overrides: Partial<Limits> = {}): Limits {
  return limitsSchema.parse({ ...DEFAULT_LIMITS, ...config.limits, ...overrides });
}
