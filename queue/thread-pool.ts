/**
 * A queue worker's threads: up to `size` worker threads of one kind (a module and how it says
 * it is ready), all set up alike (`setup`, their workerData) at a time. A job with another
 * setup waits until the threads of the current one are idle, then they are replaced. Two
 * kinds run here: game batches (eval's game thread, set up per tournament) and rollout chunks
 * (training's chunk thread, one setup).
 *
 * eval/ and training/ name their threads' modules; this file imports those folders when a
 * pool first starts a thread, not when it is loaded, so queue/worker.ts loads neither, and a
 * worker that plays only games never loads TensorFlow.js.
 */
import type { Worker } from 'node:worker_threads';
import type { GameResult, ScheduledGame, WorkerMessage, WorkerSetup } from '../eval/index.ts';
import type { ChunkRequest, ChunkThreadMessage, ChunkThreadSetup, EncodedChunkGame } from '../training/index.ts';

export interface ThreadKind {
  /** The module a thread runs, from the folder that owns it. */
  module(): Promise<URL>;
  /** Resolves once a new thread is ready for work (its start-up is not timed). */
  ready(w: Worker): Promise<void>;
}

export class ThreadPool<S> {
  private key = '';
  private threads: Worker[] = [];
  private idle: Worker[] = [];
  private waiters: (() => void)[] = [];
  private closed = false;

  constructor(private readonly size: number, private readonly kind: ThreadKind) {}

  /** Runs `work` on a thread set up for `setup`; a thread whose work failed is replaced. */
  async use<T>(setup: S, work: (w: Worker) => Promise<T>): Promise<T> {
    const w = await this.acquire(setup);
    try {
      const out = await work(w);
      this.release(w, true);
      return out;
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

  private async acquire(setup: S): Promise<Worker> {
    const key = JSON.stringify(setup);
    const [{ tsWorker }, module] = await Promise.all([import('../eval/index.ts'), this.kind.module()]);
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
          const t = tsWorker(module, { workerData: setup });
          this.threads.push(t);
          try {
            await this.kind.ready(t);
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

/** Sends one message to a thread and listens until `settle` says its reply is complete. */
function converse<M>(w: Worker, message: unknown, settle: (m: M, done: (error?: Error) => void) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      w.off('message', onMessage);
      w.off('error', onError);
      w.off('exit', onExit);
      if (error) reject(error);
      else resolve();
    };
    const onMessage = (m: M) => settle(m, done);
    const onError = (e: Error) => done(e);
    const onExit = (code: number) => done(new Error(`worker thread exited (${code})`));
    w.on('message', onMessage);
    w.on('error', onError);
    w.on('exit', onExit);
    if (message !== undefined) w.postMessage(message);
  });
}

/** Sends a batch to a game thread and gathers its games until it is idle again. */
async function exchangeGames(w: Worker, games: readonly ScheduledGame[]): Promise<GameResult[]> {
  const results: GameResult[] = [];
  await converse<WorkerMessage>(w, games, (m, done) => {
    if (m.type === 'game') results.push(m.result as GameResult);
    else if (m.type === 'idle') done();
    else done(new Error(m.message));
  });
  return results;
}

export const GAME_THREADS: ThreadKind = {
  module: async () => (await import('../eval/index.ts')).GAME_WORKER_MODULE,
  // An empty batch answers 'idle' once the agents are made.
  ready: async (w) => void (await exchangeGames(w, [])),
};

/** Game batches on threads set up per tournament. */
export class GameThreads extends ThreadPool<WorkerSetup> {
  constructor(size: number) {
    super(size, GAME_THREADS);
  }

  /** Plays `games`; the time excludes the thread's start-up. */
  play(setup: WorkerSetup, games: readonly ScheduledGame[]): Promise<{ results: GameResult[]; ms: number }> {
    return this.use(setup, async (w) => {
      const t0 = performance.now();
      const results = await exchangeGames(w, games);
      return { results, ms: performance.now() - t0 };
    });
  }
}

export const CHUNK_THREADS: ThreadKind = {
  module: async () => (await import('../training/index.ts')).CHUNK_WORKER_MODULE,
  ready: (w) =>
    converse<ChunkThreadMessage>(w, undefined, (m, done) => {
      if (m.type === 'ready') done();
      else if (m.type === 'error') done(new Error(m.message));
    }),
};

/** Rollout chunks on threads that keep the nets they were sent, by key. */
export class ChunkThreads extends ThreadPool<ChunkThreadSetup> {
  /** Per thread: the weights' keys it keeps (from its latest reply). */
  private readonly kept = new WeakMap<Worker, Set<string>>();

  constructor(size: number) {
    super(size, CHUNK_THREADS);
  }

  /** Plays a chunk; `weights` is asked only for the keys the thread does not keep. */
  play(
    setup: ChunkThreadSetup,
    request: Omit<ChunkRequest, 'weights'>,
    weights: (key: string) => Promise<ChunkRequest['weights'][string]>,
  ): Promise<{ games: EncodedChunkGame[]; ms: number }> {
    return this.use(setup, async (w) => {
      const kept = this.kept.get(w) ?? new Set<string>();
      const send: ChunkRequest['weights'] = {};
      for (const key of [request.policy, ...request.snapshots]) if (!kept.has(key) && !(key in send)) send[key] = await weights(key);
      let out: { games: EncodedChunkGame[]; ms: number } | undefined;
      await converse<ChunkThreadMessage>(w, { ...request, weights: send } satisfies ChunkRequest, (m, done) => {
        if (m.type === 'chunk') {
          this.kept.set(w, new Set(m.kept));
          out = { games: m.games, ms: m.ms };
          done();
        } else if (m.type === 'error') done(new Error(m.message));
      });
      return out!;
    });
  }
}
