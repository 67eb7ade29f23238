/**
 * Heavy bots' decisions (searches) off the event loop: worker threads, each with a heap limit,
 * and a hard time limit per decision. A game's seats always go to the same worker, which keeps
 * their agents between decisions, so a bot plays exactly as it would in this thread. A decision
 * over its time is stopped with its worker (a fresh one takes the worker's place); over the
 * queue limit, or in a worker that died (out of memory), it fails at once: the caller plays
 * the seat's fallback. Workers start on first use.
 */
import type { Worker } from 'node:worker_threads';
import type { GameStart } from '../agents/agent.ts';
import type { EnvSnapshot } from '../env/env.ts';
import { tsWorker } from '../eval/ts-worker.ts';
import type { PoolReply, PoolRequest } from './bot-worker.ts';

export interface Decision {
  /** Game id: all of a game's seats share a worker. */
  game: string;
  seat: number;
  spec: string;
  start: GameStart;
  config: EnvSnapshot['config'];
  actions: readonly number[];
  legal: readonly number[];
}

export interface PoolOptions {
  workers: number;
  decisionMs: number;
  memoryMb: number;
  maxQueued: number;
  /** The worker module (tests swap in their own). */
  module?: URL;
}

export class DecisionError extends Error {
  override name = 'DecisionError';
}

interface Pending {
  id: number;
  request: PoolRequest;
  resolve: (action: number) => void;
  reject: (e: Error) => void;
}

class Slot {
  worker: Worker | null = null;
  ready = false;
  current: Pending | null = null;
  timer: NodeJS.Timeout | null = null;
  readonly queue: Pending[] = [];
  /** Workers stopped for a decision over time or that died. */
  restarts = 0;
  constructor(private readonly pool: BotPool, private readonly o: PoolOptions) {}

  enqueue(p: Pending): void {
    this.queue.push(p);
    this.pump();
  }

  post(m: PoolRequest): void {
    if (this.worker && this.ready) this.worker.postMessage(m);
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
        this.pump();
        return;
      }
      const p = this.current;
      if (!p || p.id !== m.id) return;
      this.finish();
      if (m.type === 'action') p.resolve(m.action);
      else p.reject(new DecisionError(m.message));
      this.pump();
    });
    const died = (why: string) => {
      if (w !== this.worker) return;
      // A worker that dies before it is ready would die again: fail what waits, start on the next decision.
      if (!this.ready) {
        this.worker = null;
        this.restarts++;
        for (const p of this.queue.splice(0)) {
          this.pool.queued--;
          p.reject(new DecisionError(`the bot worker could not start (${why})`));
        }
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
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.current = null;
    this.pool.queued--;
  }

  private pump(): void {
    if (this.current || this.queue.length === 0 || this.pool.closed) return;
    if (!this.worker) this.start();
    if (!this.ready) return;
    const p = this.queue.shift()!;
    this.current = p;
    this.timer = setTimeout(() => this.replace(`over the ${this.o.decisionMs} ms decision limit`), this.o.decisionMs);
    this.worker!.postMessage(p.request);
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    const w = this.worker;
    this.worker = null;
    if (w) void w.terminate();
    for (const p of [...(this.current ? [this.current] : []), ...this.queue.splice(0)]) p.reject(new DecisionError('the server is stopping'));
    this.current = null;
  }
}

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
    if (this.queued >= this.o.maxQueued) return Promise.reject(new DecisionError(`the bot workers are full (${this.o.maxQueued} decisions waiting)`));
    this.queued++;
    const id = ++this.nextId;
    return new Promise<number>((resolve, reject) => {
      this.slotOf(d.game).enqueue({
        id, resolve, reject,
        request: { type: 'decide', id, key: `${d.game}/${d.seat}`, spec: d.spec, start: d.start, config: d.config, actions: [...d.actions], seat: d.seat, legal: [...d.legal] },
      });
    });
  }

  /** The game is gone: its worker forgets its seats' agents. */
  drop(game: string): void {
    this.slotOf(game).post({ type: 'drop', prefix: `${game}/` });
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
