/**
 * A queue worker's threads: up to `size` worker threads running eval/worker.ts, all set up for
 * one tournament setup (agents, ruleset) at a time. A job with another setup waits until the
 * threads of the current one are idle, then they are replaced.
 */
import type { Worker } from 'node:worker_threads';
import type { ScheduledGame } from '../eval/schedule.ts';
import type { GameResult } from '../eval/summary.ts';
import { tsWorker } from '../eval/ts-worker.ts';
import type { WorkerMessage, WorkerSetup } from '../eval/worker.ts';

const WORKER_MODULE = new URL('../eval/worker.ts', import.meta.url);

export class ThreadPool {
  private key = '';
  private threads: Worker[] = [];
  private idle: Worker[] = [];
  private waiters: (() => void)[] = [];
  private closed = false;

  constructor(private readonly size: number) {}

  /** Plays `games` on a thread set up for `setup`; the time excludes the thread's start-up. */
  async play(setup: WorkerSetup, games: readonly ScheduledGame[]): Promise<{ results: GameResult[]; ms: number }> {
    const w = await this.acquire(setup);
    try {
      const t0 = performance.now();
      const results = await exchange(w, games);
      const ms = performance.now() - t0;
      this.release(w, true);
      return { results, ms };
    } catch (e) {
      this.release(w, false);
      throw e;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((t) => t.terminate()));
    this.threads = [];
    this.idle = [];
    for (const wake of this.waiters.splice(0)) wake();
  }

  private async acquire(setup: WorkerSetup): Promise<Worker> {
    const key = JSON.stringify(setup);
    for (;;) {
      if (this.closed) throw new Error('the worker is stopping');
      if (key !== this.key && this.idle.length === this.threads.length) {
        await Promise.all(this.threads.map((t) => t.terminate()));
        this.threads = [];
        this.idle = [];
        this.key = key;
      }
      if (key === this.key) {
        const w = this.idle.pop();
        if (w) return w;
        if (this.threads.length < this.size) {
          const t = tsWorker(WORKER_MODULE, { workerData: setup });
          this.threads.push(t);
          try {
            // An empty batch answers 'idle' once the agents are made: start-up is not timed.
            await exchange(t, []);
          } catch (e) {
            this.drop(t);
            throw e;
          }
          return t;
        }
      }
      await new Promise<void>((wake) => this.waiters.push(wake));
    }
  }

  private release(w: Worker, healthy: boolean): void {
    if (healthy && this.threads.includes(w)) this.idle.push(w);
    else this.drop(w);
    for (const wake of this.waiters.splice(0)) wake();
  }

  private drop(w: Worker): void {
    this.threads = this.threads.filter((t) => t !== w);
    this.idle = this.idle.filter((t) => t !== w);
    void w.terminate();
    for (const wake of this.waiters.splice(0)) wake();
  }
}

/** Sends a batch to a thread and gathers its games until it is idle again. */
function exchange(w: Worker, games: readonly ScheduledGame[]): Promise<GameResult[]> {
  return new Promise((resolve, reject) => {
    const results: GameResult[] = [];
    const done = (error?: Error) => {
      w.off('message', onMessage);
      w.off('error', onError);
      w.off('exit', onExit);
      if (error) reject(error);
      else resolve(results);
    };
    const onMessage = (m: WorkerMessage) => {
      if (m.type === 'game') results.push(m.result as GameResult);
      else if (m.type === 'idle') done();
      else done(new Error(m.message));
    };
    const onError = (e: Error) => done(e);
    const onExit = (code: number) => done(new Error(`worker thread exited (${code})`));
    w.on('message', onMessage);
    w.on('error', onError);
    w.on('exit', onExit);
    w.postMessage(games);
  });
}
