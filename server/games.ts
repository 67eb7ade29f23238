/**
 * Live games behind the API. Each game holds its env (with the event log), one agent per bot
 * seat and one secret token per remote seat. Bot seats play by themselves whenever it is their
 * turn. Every change to a game goes through its queue, so two requests for the same game are
 * applied one at a time; an error changes nothing (the env refuses illegal actions untouched).
 *
 * Bots play while someone wants the game: a request waiting on them whose client is still
 * connected, or a client who asked about the game within `botIdleMs`. Past that the game's
 * bots stop (their queued decisions are dropped) and start again when a client next asks
 * about it. Bots in this thread yield to the event loop between decisions once they have
 * held it for INLINE_SLICE_MS, so a game of them never holds up other requests for longer.
 *
 * Per client (its address): every game it created counts, in progress or finished, until
 * it is dropped; at its quota its own finished game asked about least recently makes room.
 * Games with seats open in the lobby and seats joined from it are limited per client too.
 * Above the per-client limits, the store's and the lobby's places are shared fairly
 * (fair-share.ts): when either is full, room is made from the client holding the most, its
 * game asked about least recently, and only from a client holding more than the asker (or,
 * in the store, the asker's own); never from a game in use (`inUse`: in progress and played or
 * asked about within botIdleMs, or streamed). So many clients filling the store or the lobby together cannot
 * keep a newcomer out, nor push out the finished games and replays of a client holding few.
 *
 * With a state dir (game-log.ts) every game made here is written down as it changes, and
 * `restore` brings the games back when the server starts again: the actions are replayed, so
 * each seat sees exactly what it saw, and the same tokens open the same seats (only their
 * hashes are kept). Bots that play in this thread and call no server elsewhere are replayed
 * too (each asked again at each of its past decisions, the answers set aside), so their
 * generators stand where they stood and their later decisions are those they would have made
 * without the restart. Heavy bots (searches on the worker threads) and bots that call out
 * (llm, http) start afresh: their past is replayed exactly, their later choices may differ.
 */
import { randomBytes } from 'node:crypto';
import {
  A_PASS, CzechPubEnv, describeAction, RevealedGame, rulesetFingerprint, SeatChannel, type NarratedEvent, type RewardScheme, type Viewer,
} from '../env/index.ts';
import { agentSeed, AgentStopError, BudgetSpentError, EnvObservation, type Agent } from '../agents/index.ts';
import { DecisionError, type BotPool } from './bot-pool.ts';
import { BotSpecError, type Catalogue } from './catalogue.ts';
import { ClientCounts } from './client-counts.ts';
import { fairVictim } from './fair-share.ts';
import { commitToSeed, type SeedCommitment } from './seed-commitment.ts';
import { DEFAULT_LIMITS } from './config.ts';
import { LOG_VERSION, tokenHash, type GameLog, type LoggedGame } from './game-log.ts';
import { InlineTurns } from './inline-turns.ts';
import { faultText, OutsideCalls } from './outside-calls.ts';
import { autoPasses, DEFAULT_AUTO_PASS, windowCard, type AutoPass } from './auto-pass.ts';
import { seatNames } from './names.ts';
import { newPresence, type SeatPresence } from './presence.ts';

/** A seat for a person who joins from the lobby: its token is handed out once, by join. */
export const OPEN_SEAT = 'open';

export interface CreateGame {
  /** 'remote' (its token goes to the creator), 'open' (for the lobby) or a catalogue bot spec, per seat. */
  seats: string[];
  /** Display names of the creator's people seats ('remote'), per seat; none for bot and open seats (names.ts). */
  names?: (string | null | undefined)[];
  seed: string;
  /** The client chose the seed (refused for games with open seats: a stranger's deal must be nobody's choice). */
  seedChosen?: boolean;
  reward: RewardScheme;
  /** Who asks (the client's address): games per client are limited. */
  client?: string;
  /** Aborted when the asking client goes away (its connection closed); absent: the caller waits to the end. */
  signal?: AbortSignal;
}

export interface StoreLimits {
  maxGames: number;
  maxGamesPerClient: number;
  idleMs: number;
  /** Games with open seats waiting in the lobby at once, in all (a listing stays short and cheap). */
  maxOpenGames: number;
  /** The limits below default to the server's (config.ts). */
  maxOpenGamesPerClient?: number;
  maxJoinedSeatsPerClient?: number;
  botIdleMs?: number;
}

/** Milliseconds bots in this thread may hold the event loop before they yield to other work. */
export const INLINE_SLICE_MS = 2;

/** A bot seat: an agent played in this thread, or a heavy one played on the bot workers. */
export type SeatBot = { agent: Agent } | { pooled: string };

/** A decision a bot could not make (over its time or memory, a failure): the seat played its fallback. */
export interface BotFault {
  step: number;
  seat: number;
  reason: string;
}

export class ApiError extends Error {
  constructor(readonly status: number, message: string, readonly extra: Record<string, unknown> = {}) {
    super(message);
  }
}

/** A game this server does not hold (never made, finished and cleared, left idle, or lost in a restart): said so a person can act on it. */
export class GameGoneError extends ApiError {
  constructor(id: string) {
    super(404, `game '${id}' is gone: this server no longer holds it (it was finished and cleared, left idle too long, or the server restarted without keeping games); start a new game`, { code: 'game-gone' });
  }
}

export interface LiveGame {
  id: string;
  seed: SeedCommitment;
  env: CzechPubEnv;
  /** 'remote' or the bot's canonical label, per seat. */
  seats: string[];
  bots: (SeatBot | null)[];
  /** Agent resets per seat (the same seeds a tournament derives). */
  starts: { seat: number; players: number; seed: string }[];
  /** The seat each token opens, by the token's hash (game-log.ts: the state dir keeps only hashes). */
  tokens: Map<string, number>;
  client: string;
  /** Over (or dropped): the seats joined from the lobby no longer count against their clients. */
  settled: boolean;
  faults: BotFault[];
  /** Opens the onlooker's view (public facts only) and, once the game is over, the replay ('' once restored: only its hash is kept). */
  watchToken: string;
  watchHash: string;
  /** logAt[k]: length of the event log once k actions were taken (logAt[0]: after the deal). */
  logAt: number[];
  /** actors[k]: the seat that took action k. */
  actors: number[];
  /** A second env stepped to an earlier state for `?at=` and replay frames (kept for the next ask). */
  scrub: CzechPubEnv | null;
  queue: Promise<unknown>;
  /** When the game was last asked about or moved: idle expiry, and which finished game makes room first. */
  touched: number;
  /** When a client last asked about it (bots moving do not count): past botIdleMs its bots stop. */
  asked: number;
  /** Requests waiting on the bots (create, an action), each until its client goes away. */
  waiting: Set<AbortSignal | null>;
  /** Its bots stopped (nobody asked about it): the next ask starts them again. */
  paused: boolean;
  /** The clients that joined its open seats (a client holds at most maxJoinedSeatsPerClient in games in progress). */
  joiners: string[];
  /** Called after every change, and with 'gone' when the game expires (event streams wait on it). */
  listeners: Set<(gone?: 'gone') => void>;
  /** Open seats nobody has joined yet (their tokens' hashes are in `tokens`; the tokens are unknown to anyone). */
  open: Map<number, string>;
  created: number;
  /** What each seat is called at the table (names.ts). */
  names: string[];
  /** When each seat last asked and its open event streams (presence.ts). */
  presence: SeatPresence;
  /** Each person's auto-pass settings (auto-pass.ts); null for a bot seat. */
  autoPass: (AutoPass | null)[];
}

/** Who reads: a seat, or null for an onlooker with the watch token. */
export type { Viewer };

/** Steps `env` (a game's own) and records who acted and where the step's events end. */
function recordStep(game: Pick<LiveGame, 'actors' | 'logAt'>, env: CzechPubEnv, action: number): void {
  game.actors.push(env.actor);
  env.step(action);
  game.logAt.push(env.eventCount);
}

/** The game after its first k actions (0 ≤ k ≤ actions taken): the live env, or the scrub env stepped there. */
export function envAt(game: LiveGame, k: number): CzechPubEnv {
  const live = game.env;
  if (k === live.actions.length) return live;
  let e = game.scrub;
  if (!e || e.actions.length > k) {
    e = new CzechPubEnv({ ...live.config, log: false });
    game.scrub = e;
  }
  while (e.actions.length < k) e.step(live.actions[e.actions.length]);
  return e;
}

export type { NarratedEvent };

/**
 * Events from..to of the log as the viewer may see them (all of it, unfiltered, for 'all':
 * the replay of a finished game, refused before its end), each with its line of narration.
 */
export function narratedEvents(game: LiveGame, viewer: Viewer | 'all', from: number, to = game.env.eventCount): NarratedEvent[] {
  if (viewer === 'all') return new RevealedGame(game.env).narrated(from, to, game.names);
  return new SeatChannel(game.env, viewer).narrated(from, to, game.names);
}

/** What happened in action k (for k = 0, the deal). */
export function stepEvents(game: LiveGame, k: number, viewer: Viewer | 'all'): NarratedEvent[] {
  return narratedEvents(game, viewer, k === 0 ? 0 : game.logAt[k - 1], game.logAt[k]);
}

export class GameStore {
  private readonly games = new Map<string, LiveGame>();
  /** The games each client holds (created or replayed), in progress or finished. */
  private readonly held = new Map<string, Set<LiveGame>>();
  /** Open seats each client took, in games in progress. */
  private readonly joined = new ClientCounts();
  /** The round robin of work in this thread, clients in turn: bots' slices, and history pages (history.ts). */
  readonly turns = new InlineTurns();
  private readonly limits: Required<StoreLimits>;
  /** Errors already in the operator's log: an llm bot stopped for the game throws the same one at each decision left. */
  private readonly logged = new WeakSet<object>();

  /** The clock of idleness, presence and the times recorded (ms since 1970): the server's (ServerOptions.now). */
  readonly now: () => number;
  /**
   * The clock bots' slices in this thread are measured on (INLINE_SLICE_MS): by default the
   * monotonic one (the wall clock may step back, and a slice must end); a test's clock, when
   * one is given, so that the test decides when a slice ends.
   */
  private readonly sliceClock: () => number;

  constructor(
    limits: StoreLimits,
    private readonly catalogue: Catalogue,
    private readonly pool: BotPool | null = null,
    /** Default Date.now. A test's clock here measures the slices too (sliceClock). */
    now?: () => number,
    /** Budgets of bots that call a server elsewhere, and the operator's log of their failures. */
    private readonly outside: OutsideCalls = new OutsideCalls(),
    /** The state dir (game-log.ts): games written down as they change, for `restore`; null keeps nothing. */
    private readonly log: GameLog | null = null,
  ) {
    this.now = now ?? (() => Date.now());
    this.sliceClock = now ?? (() => performance.now());
    const { maxOpenGamesPerClient, maxJoinedSeatsPerClient, botIdleMs } = DEFAULT_LIMITS;
    this.limits = { maxOpenGamesPerClient, maxJoinedSeatsPerClient, botIdleMs, ...limits };
  }

  get size(): number {
    return this.games.size;
  }

  /** Creates a game and plays its bots up to the first remote decision (or until nobody wants it: botIdleMs). */
  async create(o: CreateGame): Promise<{ game: LiveGame; tokens: { seat: number; token: string }[] }> {
    const client = o.client ?? 'local';
    const id = randomBytes(9).toString('base64url');
    const open = o.seats.some((s) => s === OPEN_SEAT);
    o.names?.forEach((name, seat) => {
      if (name == null) return;
      if (seat >= o.seats.length) throw new ApiError(400, `names[${seat}]: the game has ${o.seats.length} seats`);
      if (o.seats[seat] !== 'remote') throw new ApiError(400, `names[${seat}]: only a 'remote' seat is named here (a bot is called by its catalogue name; who joins an open seat names themselves)`);
    });
    if (open && o.seedChosen) throw new ApiError(400, "seed: a game with open seats is dealt from a seed nobody chose (whoever knew it would know every hand); leave seed out, or make every seat 'remote' or a bot");
    const { labels, bots, starts } = this.seatBots(o.seats, o.seed, client);
    if (open) this.checkOpenGames(client);
    this.makeRoom(client);
    // A live game is a real table: every seat is asked at every decision, forced ones too (the engine takes those at once,
    // below), so no seat's record, view or stream shows who held a card it could play (docs/environment.md, "Forced decisions").
    const env = new CzechPubEnv({ seed: o.seed, players: o.seats.length, reward: o.reward, ruleset: this.catalogue.ruleset, askForced: true, log: true });
    const tokens = new Map<string, number>();
    const list: { seat: number; token: string }[] = [];
    const openSeats = new Map<number, string>();
    o.seats.forEach((s, seat) => {
      if (s !== 'remote' && s !== OPEN_SEAT) return;
      const token = newToken();
      tokens.set(tokenHash(token), seat);
      if (s === OPEN_SEAT) openSeats.set(seat, token);
      else list.push({ seat, token });
    });
    const watchToken = newToken();
    const game: LiveGame = {
      id, seed: commitToSeed(o.seed, o.seedChosen === true), env, seats: labels, bots, starts, tokens, client, settled: false, faults: [], watchToken, watchHash: tokenHash(watchToken), logAt: [env.eventCount], actors: [], scrub: null,
      queue: Promise.resolve(), touched: this.now(), asked: this.now(), waiting: new Set(), paused: false, joiners: [], listeners: new Set(), open: openSeats, created: this.now(),
      names: seatNames(labels, o.names ?? [], this.catalogue), presence: newPresence(labels.length), autoPass: peopleAutoPass(bots),
    };
    // The creator holds the remote seats' tokens: they are at the table until they stop asking.
    for (const t of list) game.presence.seen[t.seat] = this.now();
    this.hold(game);
    this.log?.begin({
      t: 'game', v: LOG_VERSION, id, seed: o.seed, salt: game.seed.salt, chosen: game.seed.chosen, askForced: true, reward: o.reward, specs: [...o.seats], ruleset: rulesetFingerprint(this.catalogue.ruleset),
      client, created: game.created, tokens: list.map((t) => ({ seat: t.seat, hash: tokenHash(t.token) })), watch: game.watchHash,
      ...(o.names ? { names: o.names.map((n) => n ?? null) } : {}),
    });
    await this.run(game, () => this.waitingOn(game, o.signal ?? null, () => this.playBots(game)));
    this.settle(game);
    return { game, tokens: list };
  }

  /**
   * Per seat: its label ('remote' or the bot's canonical spec), its bot (null for a person's
   * seat) and the game's start as that seat's agent is told it (the agents of this thread are
   * reset with it); a 400 for a spec the catalogue refuses.
   */
  private seatBots(specs: readonly string[], seed: string, client: string): { labels: string[]; bots: (SeatBot | null)[]; replayed: boolean[]; starts: LiveGame['starts'] } {
    const labels: string[] = [];
    // Bots whose past decisions can be asked again at a restore: in this thread, and calling no server elsewhere.
    const replayed: boolean[] = [];
    const bots = specs.map((s, seat): SeatBot | null => {
      replayed.push(false);
      if (s === 'remote' || s === OPEN_SEAT) {
        labels.push('remote');
        return null;
      }
      try {
        const choice = this.catalogue.resolve(s);
        labels.push(choice.label);
        if (choice.entry.needs === 'world' && !choice.entry.heavy) throw new BotSpecError(`bot '${choice.entry.name}' cannot sit at a live game`);
        if (choice.entry.heavy && this.pool) return { pooled: choice.spec };
        const agent = this.catalogue.create(choice);
        this.outside.attach(agent, choice.entry, client);
        replayed[seat] = !choice.entry.budget;
        return { agent };
      } catch (e) {
        if (e instanceof BotSpecError) throw new ApiError(400, `seats[${seat}]: ${e.message}`);
        throw e;
      }
    });
    const starts = specs.map((_, seat) => ({ seat, players: specs.length, seed: agentSeed(seed, seat), ruleset: this.catalogue.ruleset }));
    bots.forEach((b, seat) => (b && 'agent' in b ? b.agent.reset?.(starts[seat]) : undefined));
    return { labels, bots, replayed, starts };
  }

  /**
   * Brings back a game from its file in the state dir (game-log.ts; the file's fields checked
   * by game-log-schema.ts): its actions replayed on a fresh deal, its bots asked again at
   * their past decisions (those that can be: see the top of this file; none for a game whose
   * file says it ended, as they have no decision left), the same tokens opening the same
   * seats. Its bots wait for the next ask. It lets the event loop go every INLINE_SLICE_MS, as
   * bots here do. Throws (restorer.ts sets the file aside and tells the operator) when the
   * game cannot be replayed here: other rules, a bot the catalogue no longer has, an action
   * not legal, an end the actions do not reach.
   */
  async restore(logged: LoggedGame): Promise<LiveGame> {
    const h = logged.head;
    const fingerprint = rulesetFingerprint(this.catalogue.ruleset);
    if (h.ruleset !== fingerprint) throw new Error(`dealt under ruleset ${h.ruleset}, this server plays ${fingerprint}`);
    if (this.games.has(h.id)) throw new Error('a game of this id is held already');
    const { labels, bots, replayed, starts } = this.seatBots(h.specs, h.seed, h.client);
    const players = h.specs.length;
    // Dealt as it was: games logged before askForced was recorded (5 Dec 2026) were played without it.
    const env = new CzechPubEnv({ seed: h.seed, players, reward: h.reward, ruleset: this.catalogue.ruleset, askForced: h.askForced === true, log: true });
    const game: LiveGame = {
      id: h.id, seed: commitToSeed(h.seed, h.chosen, h.salt), env, seats: labels, bots, starts, tokens: new Map(h.tokens.map((t) => [t.hash, t.seat])), client: h.client, settled: false,
      faults: [...logged.faults], watchToken: '', watchHash: h.watch, logAt: [env.eventCount], actors: [], scrub: null, queue: Promise.resolve(), touched: this.now(), asked: this.now(),
      waiting: new Set(), paused: true, joiners: [], listeners: new Set(), open: new Map(), created: h.created,
      names: seatNames(labels, h.names ?? [], this.catalogue), presence: newPresence(players),
      autoPass: peopleAutoPass(bots),
    };
    // Each seat's auto-pass as last set (its passes are in the actions already).
    for (const c of logged.settings) if (game.autoPass[c.seat]) game.autoPass[c.seat] = { on: c.on, unwatched: [...c.unwatched], windows: c.windows };
    let slice = this.sliceClock();
    for (const a of logged.actions) {
      if (env.done) throw new Error('actions past the end of the game');
      const seat = env.actor;
      const legal = env.legalActions();
      const bot = bots[seat];
      if (!legal.includes(a)) throw new Error(`action ${a} at step ${env.actions.length} is not legal`);
      // The agent is asked again what it was asked then, so its generator and memory stand where they stood.
      if (!logged.ended && bot && 'agent' in bot && replayed[seat] && legal.length > 1) {
        try {
          await bot.agent.act(new EnvObservation(env, seat, legal));
        } catch {
          // It failed then too (a fault, recorded): its seat played its fallback, which is the action logged.
        }
      }
      recordStep(game, env, a);
      if (this.sliceClock() - slice >= INLINE_SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        slice = this.sliceClock();
      }
    }
    if (logged.ended && !env.done) throw new Error(`its file says the game ended, but it is not over after its ${env.actions.length} actions`);
    if (this.games.has(h.id)) throw new Error('a game of this id is held already');
    const joined = new Set(logged.joins.map((j) => j.seat));
    for (const j of logged.joins) {
      game.tokens.set(j.hash, j.seat);
      if (j.name !== undefined) game.names[j.seat] = j.name;
      game.joiners.push(j.client);
    }
    // Open seats nobody took: their tokens were never handed out, so fresh ones do.
    h.specs.forEach((s, seat) => {
      if (s !== OPEN_SEAT || joined.has(seat)) return;
      const token = newToken();
      game.tokens.set(tokenHash(token), seat);
      game.open.set(seat, token);
    });
    this.hold(game);
    if (env.done) game.settled = true;
    else for (const c of game.joiners) this.joined.add(c);
    this.log?.resume(game.id, logged.settings);
    return game;
  }

  /**
   * A finished game replayed by `replay` (replayGame over a tournament's record, stepping
   * through the step it is handed, so the game is replayed once), held like any finished game: its replay frames open with the watch token,
   * and it counts against its client's quota like any finished game (its own finished game
   * asked about least recently makes room first), so one client cannot push everyone's replays out.
   */
  adopt(replay: (step: (env: CzechPubEnv, action: number) => void) => CzechPubEnv, seats: string[], client = 'local'): LiveGame {
    // One replay both checks the record and records the frames (replayGame hands each checked action here).
    const steps: Pick<LiveGame, 'actors' | 'logAt'> = { actors: [], logAt: [] };
    const env = replay((e, a) => {
      if (steps.logAt.length === 0) steps.logAt.push(e.eventCount);
      recordStep(steps, e, a);
    });
    this.makeRoom(client);
    const watchToken = newToken();
    const game: LiveGame = {
      id: randomBytes(9).toString('base64url'), seed: commitToSeed(String(env.config.seed), true), env, seats, bots: seats.map(() => null), starts: [], tokens: new Map(), client, settled: true, faults: [],
      watchToken, watchHash: tokenHash(watchToken), logAt: steps.logAt, actors: steps.actors, scrub: null, queue: Promise.resolve(), touched: this.now(),
      asked: this.now(), waiting: new Set(), paused: false, joiners: [], listeners: new Set(), open: new Map(), created: this.now(),
      names: seatNames(seats, [], this.catalogue), presence: newPresence(seats.length), autoPass: seats.map(() => null),
    };
    this.hold(game);
    return game;
  }

  private hold(game: LiveGame): void {
    this.games.set(game.id, game);
    const mine = this.held.get(game.client);
    if (mine) mine.add(game);
    else this.held.set(game.client, new Set([game]));
  }

  /**
   * Makes room for one more game of `client`, or says why not (429). At its quota its own
   * finished game asked about least recently goes. When the store is full, the game asked
   * about least recently of the client holding the most games goes (fair-share.ts): of a
   * client holding more than the asker, or the asker's own; never a game in use (`inUse`).
   */
  private makeRoom(client: string): void {
    const { maxGames, maxGamesPerClient, idleMs, botIdleMs } = this.limits;
    const count = () => this.held.get(client)?.size ?? 0;
    // At a limit, sweep now: an expired game must not hold a place.
    this.expire(this.games.size >= maxGames || count() >= maxGamesPerClient);
    if (count() >= maxGamesPerClient) {
      const own = leastRecentFinished(this.held.get(client)!);
      if (!own) throw new ApiError(429, `you have ${maxGamesPerClient} games in progress, the most one client may have (maxGamesPerClient); finish one, or games left idle expire after ${Math.round(idleMs / 1000)} s`);
      this.drop(own);
    }
    if (this.games.size >= maxGames) {
      const g = fairVictim(this.held, client, { own: true, free: (x) => !this.inUse(x), before: (a, b) => a.touched < b.touched });
      if (!g) throw new ApiError(429, `too many live games (limit ${maxGames}, maxGames): room is made only from a client holding more games than you, or from your own, and only from games nobody played or asked about for ${botIdleMs / 1000} s; there is none now, try again later`);
      this.drop(g);
    }
  }

  /**
   * 429 when `client` already has maxOpenGamesPerClient games waiting in the lobby. When the
   * lobby is full, a place is made as in the store (fair-share.ts): the game of a client
   * holding more lobby games than the asker, waiting longest, that nobody joined and that is
   * not in use, is dropped; 429 if there is none.
   */
  private checkOpenGames(client: string): void {
    const lobby = new Map<string, LiveGame[]>();
    let waiting = 0;
    for (const g of this.games.values()) {
      if (g.open.size === 0 || g.env.done) continue;
      waiting++;
      const theirs = lobby.get(g.client);
      if (theirs) theirs.push(g);
      else lobby.set(g.client, [g]);
    }
    const cap = this.limits.maxOpenGamesPerClient;
    if ((lobby.get(client)?.length ?? 0) >= cap) throw new ApiError(429, `you have ${cap} games with open seats in the lobby, the most one client may have (maxOpenGamesPerClient); wait for people to join them, or games left idle expire after ${Math.round(this.limits.idleMs / 1000)} s`);
    if (waiting < this.limits.maxOpenGames) return;
    const g = fairVictim(lobby, client, { free: (x) => x.joiners.length === 0 && !this.inUse(x), before: (a, b) => a.touched < b.touched });
    if (!g) throw new ApiError(429, `the lobby holds ${this.limits.maxOpenGames} games with open seats, the most it may (maxOpenGames); room is made only from a client holding more of them than you, from a game nobody joined or played for ${this.limits.botIdleMs / 1000} s; join one of them, or try again later`);
    this.drop(g);
  }

  /**
   * A game in use, never dropped to make room: a request waits on its bots, a seat's event
   * stream is open, or, in progress, it was asked about or moved "recently": within botIdleMs,
   * as long as its bots play on after an ask. A finished game (a replay among them) has no seat
   * left to move: it goes in its turn, least recently asked about first.
   */
  private inUse(g: LiveGame): boolean {
    if (waitedOn(g)) return true;
    if (g.presence.streams.some((n) => n > 0)) return true;
    if (g.env.done) return false;
    return this.now() - g.touched <= this.limits.botIdleMs;
  }

  /** Games in progress with a seat open to join, newest first (at most maxOpenGames of them exist). */
  lobby(): LiveGame[] {
    this.expire();
    return [...this.games.values()].filter((g) => g.open.size > 0 && !g.env.done).sort((a, b) => b.created - a.created);
  }

  /** Hands out an open seat's token, once: the seat asked for, or the first open one; `name` is what the joiner is called (names.ts). */
  join(game: LiveGame, seat: number | undefined, client = 'local', name?: string): { seat: number; token: string } {
    if (game.env.done) throw new ApiError(409, 'the game is over');
    if (game.open.size === 0) throw new ApiError(409, 'this game has no open seat left');
    const chosen = seat ?? [...game.open.keys()].sort((a, b) => a - b)[0];
    const token = game.open.get(chosen);
    if (token === undefined) throw new ApiError(409, `seat ${chosen} is not open; open seats: ${[...game.open.keys()].sort((a, b) => a - b).join(', ')}`);
    const cap = this.limits.maxJoinedSeatsPerClient;
    if (this.joined.of(client) >= cap) throw new ApiError(429, `you hold ${cap} seats joined from the lobby in games in progress, the most one client may (maxJoinedSeatsPerClient); play one of those games to its end first`);
    game.open.delete(chosen);
    if (name !== undefined) game.names[chosen] = name;
    game.presence.seen[chosen] = this.now();
    game.joiners.push(client);
    this.joined.add(client);
    this.log?.append(game.id, { t: 'join', seat: chosen, hash: tokenHash(token), client, ...(name !== undefined ? { name } : {}) });
    for (const l of game.listeners) l();
    return { seat: chosen, token };
  }

  get(id: string): LiveGame {
    this.expire();
    const g = this.games.get(id);
    if (!g) throw new GameGoneError(id);
    g.touched = g.asked = this.now();
    if (g.paused) this.resume(g);
    return g;
  }

  /** The seat a token opens, or null for the watch token; 401 without one, 403 for a wrong one (nothing about the game is said). */
  viewerOf(game: LiveGame, token: string | undefined): Viewer {
    if (!token) throw new ApiError(401, 'a seat token is required: Authorization: Bearer <token>');
    const hash = tokenHash(token);
    if (hash === game.watchHash) return null;
    const seat = game.tokens.get(hash);
    if (seat === undefined) throw new ApiError(403, 'this token opens no seat of this game');
    game.presence.seen[seat] = this.now();
    return seat;
  }

  /** As viewerOf, for what only a seat may do. */
  seatOf(game: LiveGame, token: string | undefined): number {
    const seat = this.viewerOf(game, token);
    if (seat === null) throw new ApiError(403, 'the watch token can watch this game but not act in it');
    return seat;
  }

  /**
   * Applies a remote seat's action (then the bots'), one change at a time per game; `signal` as
   * for create; with `step`, only if the game is still at that step (else 409 decision-changed,
   * nothing played).
   */
  act(game: LiveGame, seat: number, action: number, signal?: AbortSignal, step?: number): Promise<void> {
    return this.run(game, () => this.waitingOn(game, signal ?? null, async () => {
      const env = game.env;
      if (env.done) throw new ApiError(409, 'the game is over', { legalActions: [] });
      if (step !== undefined && step !== env.actions.length) {
        throw new ApiError(409, `the decision of step ${step} is past: the game is at step ${env.actions.length}; nothing was played`, { code: 'decision-changed' });
      }
      const legal = env.legalActions();
      if (env.actor !== seat) throw new ApiError(409, `it is seat ${env.actor}'s decision, not yours`, { legalActions: [] });
      if (!legal.includes(action)) throw new ApiError(409, `action ${action} is not legal now`, { legalActions: named(legal, seat, env.players) });
      this.step(game, action);
      await this.playBots(game);
      this.settle(game);
      for (const l of game.listeners) l();
    }));
  }

  /** Runs `f` with a request waiting on the game's bots: they play while its client is connected. */
  private async waitingOn<T>(game: LiveGame, signal: AbortSignal | null, f: () => Promise<T>): Promise<T> {
    game.waiting.add(signal);
    try {
      return await f();
    } finally {
      game.waiting.delete(signal);
    }
  }

  /** Someone wants the game's bots to play on: a request waiting on them, or an ask within botIdleMs. */
  private wanted(game: LiveGame): boolean {
    if (!this.games.has(game.id)) return false;
    for (const s of game.waiting) {
      if (!s?.aborted) {
        game.asked = this.now();
        return true;
      }
    }
    return this.now() - game.asked <= this.limits.botIdleMs;
  }

  /** A paused game was asked about: its bots play on (in its queue, as any change). */
  private resume(game: LiveGame): void {
    game.paused = false;
    void this.run(game, async () => {
      await this.playBots(game);
      this.settle(game);
      for (const l of game.listeners) l();
    });
  }

  /** Drops every game now (the server is stopping): their event streams end; their files in the state dir stay, for the next start. */
  closeAll(): void {
    for (const g of [...this.games.values()]) this.drop(g, true);
  }

  /** Takes an action in a game of this store: recorded, and written to the state dir. */
  private step(game: LiveGame, action: number): void {
    const k = game.env.actions.length;
    recordStep(game, game.env, action);
    // The action that ends the game says so: a restart then leaves the game unread until asked for (restorer.ts).
    this.log?.append(game.id, { t: 'a', k, a: action, ...(game.env.done ? { end: true as const } : {}) });
  }

  private fault(game: LiveGame, f: BotFault): void {
    game.faults.push(f);
    this.log?.append(game.id, { t: 'fault', ...f });
  }

  private run<T>(game: LiveGame, f: () => Promise<T>): Promise<T> {
    const next = game.queue.then(f, f);
    game.queue = next.catch(() => undefined);
    return next;
  }

  /** Plays the bot seats until a remote seat's turn, the end, or nobody wants the game (then it is paused). */
  private async playBots(game: LiveGame): Promise<void> {
    const env = game.env;
    let slice = this.sliceClock();
    while (!env.done && this.games.has(game.id)) {
      const seat = env.actor;
      const bot = game.bots[seat];
      // A forced decision (one legal action) is the engine's, for a person, an open seat or a bot alike: nobody waits on it.
      const legal = env.legalActions();
      if (legal.length === 1) {
        this.step(game, legal[0]);
        game.touched = this.now();
        continue;
      }
      if (!bot) {
        if (!this.autoPassFor(game, seat)) return;
        this.step(game, A_PASS);
        game.touched = this.now();
        continue;
      }
      if (!this.wanted(game)) {
        game.paused = true;
        return;
      }
      // A bot's decision has a choice (forced ones were taken above).
      let a = legal[0];
      try {
        if ('agent' in bot) {
          // Bots here share the event loop with every request: after a slice, wait for a turn.
          if (this.sliceClock() - slice >= INLINE_SLICE_MS) {
            await this.turns.next(game.client);
            slice = this.sliceClock();
            if (!this.games.has(game.id)) return;
          }
          a = await bot.agent.act(new EnvObservation(env, seat, legal));
        } else {
          a = await this.pool!.decide({
            game: game.id, client: game.client, seat, spec: bot.pooled, start: game.starts[seat], config: env.config, actions: env.actions, legal, wanted: () => this.wanted(game),
          });
          slice = this.sliceClock();
        }
      } catch (e) {
        // Nobody wants the game any more: the decision is not a fault, it is taken when someone asks again.
        if (e instanceof DecisionError && e.code === 'dropped') {
          if (this.games.has(game.id)) game.paused = true;
          return;
        }
        // A failing bot must not stop the game: its seat plays the first legal action, recorded.
        a = legal[0];
        this.fault(game, { step: env.actions.length, seat, reason: this.faultReason(game, seat, e) });
      }
      if (!legal.includes(a)) {
        this.fault(game, { step: env.actions.length, seat, reason: `the bot chose ${a}, not a legal action` });
        a = legal[0];
      }
      this.step(game, a);
      game.touched = this.now();
    }
  }

  /** A person's seat (joined, not open) whose auto-pass passes at its decision now, from the seat's own legal actions. */
  private autoPassFor(game: LiveGame, seat: number): boolean {
    const settings = game.autoPass[seat];
    if (!settings || game.open.has(seat)) return false;
    const channel = new SeatChannel(game.env, seat);
    // The window's card is read (from the seat's view) only by the setting that needs it.
    return autoPasses(settings, channel.legalActions(), settings.windows === 'answering' ? windowCard(channel.seatView().decision) : -1);
  }

  /** A person's auto-pass settings, a copy. */
  autoPassOf(game: LiveGame, seat: number): AutoPass {
    const s = peopleSettings(game, seat);
    return { on: s.on, unwatched: [...s.unwatched], windows: s.windows };
  }

  /** Changes a person's auto-pass; if it now passes at the seat's decision, it does so (and the bots play on), in the game's queue. */
  setAutoPass(game: LiveGame, seat: number, change: Partial<AutoPass>): Promise<AutoPass> {
    return this.run(game, async () => {
      const s = peopleSettings(game, seat);
      if (change.on !== undefined) s.on = change.on;
      if (change.unwatched !== undefined) s.unwatched = [...new Set(change.unwatched)];
      if (change.windows !== undefined) s.windows = change.windows;
      this.log?.append(game.id, { t: 'settings', seat, on: s.on, unwatched: [...s.unwatched], windows: s.windows });
      if (!game.env.done && game.env.actor === seat && this.autoPassFor(game, seat)) {
        await this.playBots(game);
        this.settle(game);
        for (const l of game.listeners) l();
      }
      return this.autoPassOf(game, seat);
    });
  }

  /** A fault as the game's clients may read it: a bot that calls out by its entry and the kind of failure; the rest to the operator's log. */
  private faultReason(game: LiveGame, seat: number, e: unknown): string {
    if (e instanceof DecisionError && e.detail !== undefined) this.outside.log(`game ${game.id}, seat ${seat} (${game.seats[seat]}): ${e.detail}`);
    if (e instanceof ApiError || e instanceof DecisionError) return e.message;
    if (e instanceof BudgetSpentError) return e.message;
    if (e instanceof Error && !this.logged.has(e)) {
      this.logged.add(e);
      this.outside.log(`game ${game.id}, seat ${seat} (${game.seats[seat]}): ${e.message}`);
    }
    return e instanceof AgentStopError ? faultText(this.catalogue.resolve(game.seats[seat]).entry, e) : 'the bot failed';
  }

  /** A game over: its joined seats no longer count against their clients (the game itself counts until dropped). */
  private settle(g: LiveGame, dropped = false): void {
    if ((!g.env.done && !dropped) || g.settled) return;
    g.settled = true;
    for (const c of g.joiners) this.joined.remove(c);
  }

  /** Forgets a game; unless the server is only stopping (`keep`), its file in the state dir goes too. */
  private drop(g: LiveGame, keep = false): void {
    if (!this.games.delete(g.id)) return;
    if (!keep) this.log?.remove(g.id);
    this.settle(g, true);
    const mine = this.held.get(g.client);
    mine?.delete(g);
    if (mine?.size === 0) this.held.delete(g.client);
    this.pool?.drop(g.id);
    for (const l of [...g.listeners]) l('gone');
  }

  private lastSweep = 0;

  /**
   * Drops idle games; sweeps at most once a second (not on every request) unless forced. A game
   * a request is waiting on is not idle, however long its bots take to decide (a decision in a
   * worker, or many inline on a loaded machine): its client would get a 404 for a game it is
   * playing.
   */
  expire(force = false): void {
    const t = this.now();
    if (!force && t - this.lastSweep < 1000) return;
    this.lastSweep = t;
    for (const g of [...this.games.values()]) if (t - g.touched > this.limits.idleMs && !waitedOn(g)) this.drop(g);
  }
}

/** Whether a request (not given up by its client) waits on the game's bots. */
function waitedOn(g: LiveGame): boolean {
  for (const s of g.waiting) if (!s?.aborted) return true;
  return false;
}

/** A secret token for a seat or for watching: 18 random bytes, base64url. */
const newToken = (): string => randomBytes(18).toString('base64url');

/** Each person's seat's auto-pass at the start, the default; null for a bot's seat. */
const peopleAutoPass = (bots: readonly (SeatBot | null)[]): (AutoPass | null)[] =>
  bots.map((b) => (b ? null : { ...DEFAULT_AUTO_PASS, unwatched: [...DEFAULT_AUTO_PASS.unwatched] }));

/** A person's seat's auto-pass as held (a 409 for a bot's seat). */
function peopleSettings(game: LiveGame, seat: number): AutoPass {
  const s = game.autoPass[seat];
  if (!s) throw new ApiError(409, `seat ${seat} is a bot's: auto-pass is for people`);
  return s;
}

/** The finished game asked about least recently among `games`, if any. */
function leastRecentFinished(games: Iterable<LiveGame>): LiveGame | null {
  let oldest: LiveGame | null = null;
  for (const g of games) if (g.env.done && (!oldest || g.touched < oldest.touched)) oldest = g;
  return oldest;
}

export function named(legal: readonly number[], seat: number, players: number): { id: number; name: string }[] {
  return legal.map((id) => ({ id, name: describeAction(id, seat, players) }));
}
