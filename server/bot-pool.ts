/**
 * Heavy bots' decisions (searches) off the event loop: worker threads, each with a heap limit,
 * and a time limit per decision. A game's seats always go to the same worker, which keeps
 * their agents between decisions, so a bot plays exactly as it would in this thread.
 *
 * Fair across clients: each decision carries its game's client, and a worker serves its
 * clients in turns (round robin: the client served least recently first, one never served
 * before all others), one decision running at a time. The worker's time is shared: while n
 * clients have decisions waiting on it, a turn is a 1/n share of `turnMs` (default decisionMs,
 * at least MIN_TURN_LEFT_MS), and a search in it is told only what the turn has left; alone, a
 * client's decision has the whole budget. A turn is one decision, and that client's next ones
 * while its share lasts; a light bot's decisions in a row (a turn of the game) go together: the
 * worker keeps the turn's place LINGER_MS for the game's next decision.
 *
 * The budget (`decisionMs`) runs from when a decision starts on a worker, not from when it is
 * queued: a decision never fails for having waited. The turns bound the wait instead: a
 * decision waits for the one running (at most decisionMs) and at most one turn of each other
 * client served less recently than its own, n such clients sharing turnMs in n turns: about
 * one `turnMs` in all, however many decisions another client queues and however many clients
 * do. A person's game against a search, whose decisions come one at a time between the
 * person's moves, was last served before a flood's clients were, and goes ahead of them.
 * A search told its share stops by itself (ismcts); one still running at decisionMs is
 * stopped with its worker (a fresh one takes its place). A decision whose game no longer
 * wants it (nobody asked about the game for a while: `wanted`, asked when its turn comes and
 * every decisionMs while it waits) is dropped unrun. Over the queue limit a decision fails at
 * once, unless a client holds more waiting decisions than its own client: then that client's
 * newest waiting one fails instead (fair-share.ts). In a worker that died (out of memory) a
 * decision fails. In every failure the caller plays the seat's fallback. Workers start on
 * first use.
 */
import type { Worker } from 'node:worker_threads';
import type { GameStart } from '../agents/index.ts';
import type { EnvSnapshot } from '../env/index.ts';
import { tsWorker } from '../eval/index.ts';
import type { PoolReply, PoolRequest } from './bot-worker.ts';
import { fairVictim } from './fair-share.ts';

export interface Decision {
  /** Game id: all of a game's seats share a worker. */
  game: string;
  /** Whose game it is (the client's address): workers serve clients in turn. */
  client: string;
  seat: number;
  spec: string;
  start: GameStart;
  config: EnvSnapshot['config'];
  actions: readonly number[];
  legal: readonly number[];
  /** Asked when the decision's turn comes (and every decisionMs while it waits): false drops it unrun. */
  wanted?: () => boolean;
}

export interface PoolOptions {
  workers: number;
  decisionMs: number;
  memoryMb: number;
  maxQueued: number;
  /** Worker time shared by the clients waiting on a worker: each one's turn is its share (default: decisionMs). */
  turnMs?: number;
  /** The worker module (tests swap in their own). */
  module?: URL;
}

/** Why a decision was not made: `dropped` (its game no longer wants it: not a fault) or `failed`. */
export class DecisionError extends Error {
  override name = 'DecisionError';
  /** `message` is for clients; `detail`, the bot's own words (which may name what the server holds), for the operator's log. */
  constructor(message: string, readonly code: 'failed' | 'dropped' = 'failed', readonly detail?: string) {
    super(message);
  }
}

/**
 * How much of what is left a running search is told it has: the rest is for its last
 * iteration and the answer's way back, so it stops by itself instead of being stopped with
 * its worker (a restart).
 */
export function searchTimeMs(leftMs: number): number {
  return Math.max(1, Math.floor(leftMs - Math.min(250, Math.max(50, leftMs / 10))));
}

interface Pending {
  id: number;
  client: string;
  game: string;
  wanted: () => boolean;
  request: Extract<PoolRequest, { type: 'decide' }>;
  resolve: (action: number) => void;
  reject: (e: Error) => void;
  /** Asks `wanted` every decisionMs while it waits: a game nobody wants drops it. */
  expiry: NodeJS.Timeout | null;
  /** When it started running (performance.now(): its budget runs from there), and the most of the turn it may use (ms). */
  started: number;
  cap: number;
}

/** How long a worker keeps a turn's place for the next decision of the game it just played (it comes back within a millisecond or so). */
const LINGER_MS = 10;
/** A turn with less than this left ends: a search told less would hardly search. */
const MIN_TURN_LEFT_MS = 50;

class Slot {
  worker: Worker | null = null;
  ready = false;
  current: Pending | null = null;
  timer: NodeJS.Timeout | null = null;
  /** Waiting decisions per client. */
  private readonly queues = new Map<string, Pending[]>();
  /**
   * When each client was last served here (a count of decisions started): the next decision is
   * the oldest of the client served least recently, one never served (or long ago) first. Kept
   * when a client's queue empties, so that a client whose decisions come one at a time (a game
   * of one bot) does not come back as new ahead of those it was served after; forgotten once
   * it is older than every waiting client's, where it would come first anyway.
   */
  private readonly served = new Map<string, number>();
  private starts = 0;
  /** The client whose turn it is on this worker, and the worker time its turn has used (ms). */
  private turn: { client: string; used: number } | null = null;
  /** Until when the worker keeps the turn's client's place for its game's next decision. */
  private lingerUntil = 0;
  private linger: NodeJS.Timeout | null = null;
  private readonly turnMs: number;
  /** Workers stopped for a decision over time or that died. */
  restarts = 0;
  constructor(private readonly pool: BotPool, private readonly o: PoolOptions) {
    this.turnMs = o.turnMs ?? o.decisionMs;
  }

  enqueue(p: Pending): void {
    const q = this.queues.get(p.client);
    if (q) q.push(p);
    else this.queues.set(p.client, [p]);
    this.recheck(p);
    if (this.linger && this.turn?.client === p.client) {
      clearTimeout(this.linger);
      this.linger = null;
    }
    this.pump();
  }

  /** Resolves once this slot's worker is ready (started now if need be). */
  warm(): Promise<void> {
    if (!this.worker) this.start();
    if (this.ready) return Promise.resolve();
    return new Promise((resolve) => this.onReady.push(resolve));
  }

  private onReady: (() => void)[] = [];

  post(m: PoolRequest): void {
    if (this.worker && this.ready) this.worker.postMessage(m);
  }

  /** Takes a waiting decision out of its queue and fails it. */
  private remove(p: Pending, e: DecisionError): void {
    const q = this.queues.get(p.client);
    const i = q ? q.indexOf(p) : -1;
    if (i < 0) return;
    q!.splice(i, 1);
    if (q!.length === 0) this.queues.delete(p.client);
    this.fail(p, e);
  }

  private fail(p: Pending, e: DecisionError): void {
    if (p.expiry) clearTimeout(p.expiry);
    this.pool.queued--;
    p.reject(e);
  }

  /** While `p` waits: every decisionMs, dropped if its game is no longer wanted. */
  private recheck(p: Pending): void {
    p.expiry = setTimeout(() => {
      if (p.wanted()) this.recheck(p);
      else this.remove(p, dropped());
    }, this.o.decisionMs);
    p.expiry.unref();
  }

  /** The newest waiting decision of `client`, failed (another client's needs its place in the queue). */
  shed(client: string, e: DecisionError): void {
    const q = this.queues.get(client);
    if (q?.length) this.remove(q[q.length - 1], e);
  }

  /** Each client's decisions here, waiting and running (the running one last). */
  *held(): Generator<[string, Pending[]]> {
    const running = this.current;
    for (const [c, q] of this.queues) yield [c, running?.client === c ? [...q, running] : q];
    if (running && !this.queues.has(running.client)) yield [running.client, [running]];
  }

  /** Every waiting decision of a game, failed as dropped. */
  dropGame(game: string): void {
    for (const q of [...this.queues.values()]) for (const p of q.filter((x) => x.game === game)) this.remove(p, dropped());
  }

  /** `client`'s oldest decision that can still run (the others are failed on the way), or null. */
  private take(client: string): Pending | null {
    const q = this.queues.get(client);
    while (q && q.length > 0) {
      const p = q.shift()!;
      if (q.length === 0) this.queues.delete(client);
      if (p.expiry) clearTimeout(p.expiry);
      p.expiry = null;
      if (p.wanted()) return p;
      this.pool.queued--;
      p.reject(dropped());
    }
    return null;
  }

  private othersWaiting(client: string): boolean {
    for (const c of this.queues.keys()) if (c !== client) return true;
    return false;
  }

  /**
   * Forgets when clients were served that were served before every waiting client: they would
   * come first anyway (with nobody waiting, every client but `keep`, the one just served).
   */
  private forget(keep: string): void {
    let oldest = Infinity;
    for (const c of this.queues.keys()) oldest = Math.min(oldest, this.served.get(c) ?? -1);
    for (const [c, w] of this.served) if (w < oldest && c !== keep && !this.queues.has(c)) this.served.delete(c);
  }

  /** A client's share of the worker while the clients waiting on it (the client itself counted) share it. */
  private share(client: string): number {
    const clients = this.queues.size + (this.queues.has(client) ? 0 : 1);
    return Math.max(MIN_TURN_LEFT_MS, this.turnMs / clients);
  }

  /**
   * The next decision: the client whose turn it is goes on while its share has time left
   * (waiting LINGER_MS for the next decision of a game it just played), then the client served
   * least recently (one new to the queue first) starts a turn. While others wait, a decision
   * may use only what the turn has left of its share.
   */
  private next(): Pending | null {
    const t = this.turn;
    if (t) {
      const others = this.othersWaiting(t.client);
      if (!others) t.used = 0; // nobody waits: its turn starts afresh
      const rest = this.share(t.client) - t.used;
      if (rest >= MIN_TURN_LEFT_MS) {
        const p = this.take(t.client);
        if (p) {
          p.cap = this.othersWaiting(t.client) ? this.share(t.client) - t.used : Infinity;
          return p;
        }
        if (others && performance.now() < this.lingerUntil) {
          this.linger ??= setTimeout(() => {
            this.linger = null;
            this.pump();
          }, Math.max(0, this.lingerUntil - performance.now()));
          return null;
        }
      }
      this.turn = null;
    }
    while (this.queues.size > 0) {
      let client = '';
      let when = Infinity;
      for (const c of this.queues.keys()) {
        const w = this.served.get(c) ?? -1;
        if (w < when) [client, when] = [c, w];
      }
      const p = this.take(client);
      if (!p) continue;
      this.served.set(client, this.starts++);
      this.forget(client);
      this.turn = { client, used: 0 };
      p.cap = this.othersWaiting(client) ? this.share(client) : Infinity;
      return p;
    }
    return null;
  }

  private start(): void {
    const w = tsWorker(this.o.module ?? new URL('./bot-worker.ts', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: this.o.memoryMb, maxYoungGenerationSizeMb: Math.max(8, Math.min(64, this.o.memoryMb / 4)) },
    });
    this.worker = w;
    this.ready = false;
    w.unref();
    w.on('message', (m: PoolReply) => {
      if (w !== this.worker) return;
      if (m.type === 'ready') {
        this.ready = true;
        for (const f of this.onReady.splice(0)) f();
        this.pump();
        return;
      }
      const p = this.current;
      if (!p || p.id !== m.id) return;
      this.finish();
      if (m.type === 'action') p.resolve(m.action);
      else p.reject(new DecisionError('the bot failed', 'failed', m.message));
      this.pump();
    });
    const died = (why: string) => {
      if (w !== this.worker) return;
      // A worker that dies before it is ready would die again: fail what waits, start on the next decision.
      if (!this.ready) {
        this.worker = null;
        this.restarts++;
        for (const q of [...this.queues.values()]) for (const p of [...q]) this.remove(p, new DecisionError(`the bot worker could not start (${why})`));
        return;
      }
      this.replace(why);
    };
    w.on('error', (e) => died((e as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY' ? `over the ${this.o.memoryMb} MB memory limit` : 'the bot failed'));
    w.on('exit', () => died('the bot worker stopped'));
  }

  /** Stops this slot's worker, fails the decision in it, and starts afresh for the rest. */
  private replace(why: string): void {
    const w = this.worker;
    this.worker = null;
    this.ready = false;
    this.restarts++;
    if (w) void w.terminate();
    const p = this.current;
    this.finish();
    p?.reject(new DecisionError(why));
    this.pump();
  }

  private finish(): void {
    if (!this.current) return;
    const now = performance.now();
    if (this.turn?.client === this.current.client) this.turn.used += now - this.current.started;
    this.lingerUntil = now + LINGER_MS;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.current = null;
    this.pool.queued--;
  }

  private pump(): void {
    if (this.current || this.queues.size === 0 || this.pool.closed) return;
    if (!this.worker) this.start();
    if (!this.ready || this.linger) return;
    const p = this.next();
    if (!p) return;
    this.current = p;
    // Its budget starts now: a decision that waited is not the poorer for it.
    p.started = performance.now();
    const left = this.o.decisionMs;
    this.timer = setTimeout(() => this.replace(`over the ${this.o.decisionMs} ms decision limit`), left);
    // Within a turn other clients wait on, a search gets only what the turn has left.
    this.worker!.postMessage({ ...p.request, timeLeftMs: searchTimeMs(Math.min(left, p.cap)) } satisfies PoolRequest);
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.linger) clearTimeout(this.linger);
    const w = this.worker;
    this.worker = null;
    if (w) void w.terminate();
    const stopping = new DecisionError('the server is stopping');
    for (const q of [...this.queues.values()]) for (const p of [...q]) this.remove(p, stopping);
    this.current?.reject(stopping);
    this.current = null;
  }
}

const dropped = () => new DecisionError('dropped: nobody asked about the game for a while', 'dropped');

export class BotPool {
  private readonly slots: Slot[];
  private nextId = 0;
  /** Decisions queued or running, across workers. */
  queued = 0;
  closed = false;

  constructor(private readonly o: PoolOptions) {
    this.slots = Array.from({ length: o.workers }, () => new Slot(this, o));
  }

  private slotOf(game: string): Slot {
    let h = 0;
    for (let i = 0; i < game.length; i++) h = (h * 31 + game.charCodeAt(i)) >>> 0;
    return this.slots[h % this.slots.length];
  }

  decide(d: Decision): Promise<number> {
    if (this.closed) return Promise.reject(new DecisionError('the server is stopping'));
    const full = () => new DecisionError(`the bot workers are full (${this.o.maxQueued} decisions waiting)`);
    if (this.queued >= this.o.maxQueued && !this.shed(d.client, full())) return Promise.reject(full());
    this.queued++;
    const id = ++this.nextId;
    return new Promise<number>((resolve, reject) => {
      this.slotOf(d.game).enqueue({
        id, resolve, reject, client: d.client, game: d.game, wanted: d.wanted ?? (() => true), expiry: null, started: 0, cap: Infinity,
        request: { type: 'decide', id, key: `${d.game}/${d.seat}`, spec: d.spec, start: d.start, config: d.config, actions: [...d.actions], seat: d.seat, legal: [...d.legal], timeLeftMs: this.o.decisionMs },
      });
    });
  }

  /** The queue is full: the newest waiting decision of the client holding the most (running ones count), if it holds more than `client`, fails to make room. */
  private shed(client: string, e: DecisionError): boolean {
    const held = new Map<string, { slot: Slot; id: number; running: boolean }[]>();
    for (const slot of this.slots) {
      for (const [c, ps] of slot.held()) {
        const mine = held.get(c) ?? [];
        for (const p of ps) mine.push({ slot, id: p.id, running: p === slot.current });
        held.set(c, mine);
      }
    }
    const newest = fairVictim(held, client, { free: (p) => !p.running, before: (a, b) => a.id > b.id });
    if (!newest) return false;
    const owner = [...held].find(([, ps]) => ps.includes(newest))![0];
    newest.slot.shed(owner, e);
    return true;
  }

  /**
   * Starts every worker now and resolves when they are ready. Workers otherwise start on first
   * use, and the decisions waiting for one wait for its start-up (their budgets start after).
   */
  async warm(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.warm()));
  }

  /** The game is gone: its waiting decisions are dropped, and its worker forgets its seats' agents. */
  drop(game: string): void {
    const slot = this.slotOf(game);
    slot.dropGame(game);
    slot.post({ type: 'drop', prefix: `${game}/` });
  }

  /** Workers replaced (a decision over time, a worker out of memory), since start. */
  get restarts(): number {
    return this.slots.reduce((n, s) => n + s.restarts, 0);
  }

  close(): void {
    this.closed = true;
    for (const s of this.slots) s.close();
  }
}
