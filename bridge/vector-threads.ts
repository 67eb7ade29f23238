/**
 * A vector env stepped on several threads: its slots are cut into shards, the first stepped on
 * the calling thread and each other in a worker thread (vector-thread.ts), all writing their
 * rows of one batch in shared memory. Each shard is a LearnerVectorEnv holding its slots of the
 * whole (`firstSlot`), so the games, their seeds and the learner's seats are the ones a single
 * thread would play: the same seed gives the same batches on any number of threads.
 *
 * Calls are synchronous, as the bridge's are: a step hands each worker its command through
 * shared memory (Atomics), steps its own shard meanwhile, then waits for the others.
 */
import os from 'node:os';
import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import { tsWorker } from '../eval/index.ts';
import { checkActions, LearnerVectorEnv, vectorArraysIn, vectorBytes, VectorRows, type LearnerBatchEnv, type LearnerVectorOptions } from './learner-vector.ts';

/** Control words of one worker, in its slice of the control memory. */
export const CTL = { seq: 0, cmd: 1, done: 2, status: 3 } as const;
export const CTL_WORDS = 4;
export const CMD = { reset: 1, step: 2, exit: 3 } as const;
export const STATUS_OK = 0;
export const STATUS_ERROR = 1;

/** Games a thread is given at least: below that a thread's hand-over costs more than it saves. */
export const MIN_GAMES_PER_THREAD = 16;
/** Threads 'auto' uses at most. */
const AUTO_THREADS = 4;
/** How long a worker thread may take to start (load the engine and make its bots). */
const START_MS = 120_000;

export type Threads = 'auto' | number;

/** What a worker thread is given (structured-cloned; the memory is shared). */
export interface ShardSetup {
  /** Its shard: games [firstSlot, firstSlot + numEnvs) of the whole batch. */
  options: Omit<LearnerVectorOptions, 'into'> & { firstSlot: number };
  data: SharedArrayBuffer;
  /** Games in the whole batch. */
  total: number;
  actions: SharedArrayBuffer;
  control: SharedArrayBuffer;
  /** Index of this worker's control words and counters. */
  index: number;
  counters: SharedArrayBuffer;
  port: MessagePort;
}

/** Most threads one vector env may ask for. */
export const MAX_THREADS = 64;

/** `threads` as a request gives it ('auto', a whole number, or absent: 'auto'); a RangeError says what is wrong. */
export function parseThreads(v: unknown): Threads {
  if (v === undefined || v === 'auto') return 'auto';
  if (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= MAX_THREADS) return v;
  throw new RangeError(`threads must be 'auto' or a whole number from 1 to ${MAX_THREADS}, got ${JSON.stringify(v)}`);
}

/** The threads a vector env of `numEnvs` games uses for a request of `threads`. */
export function threadsFor(threads: Threads, numEnvs: number, cores = os.availableParallelism()): number {
  const wanted = threads === 'auto' ? Math.min(AUTO_THREADS, cores) : threads;
  return Math.max(1, Math.min(wanted, Math.floor(numEnvs / MIN_GAMES_PER_THREAD)));
}

/** What a worker thread posts when a command failed. */
export interface ThreadFailure {
  message: string;
  /** It was a RangeError (a bad option or action). */
  range: boolean;
}

interface Shard {
  worker: Worker;
  ctl: Int32Array;
  port: MessagePort;
  seq: number;
}

export class ThreadedVectorEnv extends VectorRows implements LearnerBatchEnv {
  readonly threads: number;
  private readonly own: LearnerVectorEnv;
  private readonly shards: Shard[] = [];
  private readonly actions: Int32Array;
  private readonly counters: Float64Array;
  private closed = false;

  /** `threads` (≥ 2) threads in all: this one and threads - 1 workers. */
  constructor(o: Omit<LearnerVectorOptions, 'into' | 'firstSlot'>, threads: number) {
    if (!Number.isInteger(threads) || threads < 2) throw new RangeError(`threads must be a whole number of at least 2, got ${threads}`);
    const n = o.numEnvs;
    if (!Number.isInteger(n) || n < threads) throw new RangeError(`numEnvs (${n}) must be at least the number of threads (${threads})`);
    const data = new SharedArrayBuffer(vectorBytes(n));
    super(n, o.players, vectorArraysIn(data, n));
    const counts = Array.from({ length: threads }, (_, k) => Math.floor(n / threads) + (k < n % threads ? 1 : 0));
    // This thread's shard first: it checks the options and the agent specs, and its errors
    // name them before any worker starts.
    this.own = new LearnerVectorEnv({ ...o, numEnvs: counts[0], firstSlot: 0, into: vectorArraysIn(data, n, 0, counts[0]) });
    this.threads = threads;
    const actions = new SharedArrayBuffer(4 * n);
    this.actions = new Int32Array(actions);
    const control = new SharedArrayBuffer(4 * CTL_WORDS * (threads - 1));
    const counters = new SharedArrayBuffer(8 * 2 * (threads - 1));
    this.counters = new Float64Array(counters);
    try {
      for (let k = 1, first = counts[0]; k < threads; first += counts[k], k++) {
        const { port1, port2 } = new MessageChannel();
        const setup: ShardSetup = { options: { ...o, numEnvs: counts[k], firstSlot: first }, data, total: n, actions, control, index: k - 1, counters, port: port2 };
        const ctl = new Int32Array(control, 4 * CTL_WORDS * (k - 1), CTL_WORDS);
        Atomics.store(ctl, CTL.done, -1);
        const worker = tsWorker(new URL('./vector-thread.ts', import.meta.url), { workerData: setup, transferList: [port2] });
        // The bridge's thread never returns to its event loop while it serves; an idle worker
        // must not keep the process alive once the client has gone.
        worker.unref();
        this.shards.push({ worker, ctl, port: port1, seq: 0 });
      }
      for (const s of this.shards) this.wait(s, START_MS, 'start');
    } catch (e) {
      this.close();
      // This thread made its own shard's bots already: an agent a worker does not know was
      // registered here only (registerAgent is per thread).
      const why = (e as Error).message;
      const hint = /unknown agent/.test(why) ? ' (agents added with registerAgent are known only to the thread that added them; threads: 1 plays every game on this one)' : '';
      const msg = `a vector env thread could not make its games: ${why}${hint}`;
      throw e instanceof RangeError ? new RangeError(msg) : new Error(msg);
    }
  }

  get learnerDecisions(): number {
    let sum = this.own.learnerDecisions;
    for (let k = 0; k < this.shards.length; k++) sum += this.counters[2 * k];
    return sum;
  }

  get engineDecisions(): number {
    let sum = this.own.engineDecisions;
    for (let k = 0; k < this.shards.length; k++) sum += this.counters[2 * k + 1];
    return sum;
  }

  reset(): void {
    this.run(CMD.reset, () => this.own.reset());
  }

  /** As LearnerVectorEnv.step: every action is checked, against the whole batch's masks, before any game moves. */
  step(actions: ArrayLike<number>): void {
    if (this.closed) throw new Error('the vector env is closed');
    checkActions(actions, this.masks, this.numEnvs);
    this.actions.set(actions);
    this.run(CMD.step, () => this.own.stepChecked(this.actions, 0));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const s of this.shards) {
      Atomics.store(s.ctl, CTL.cmd, CMD.exit);
      Atomics.store(s.ctl, CTL.seq, ++s.seq);
      Atomics.notify(s.ctl, CTL.seq);
      void s.worker.terminate();
      s.port.close();
    }
  }

  private run(cmd: number, mine: () => void): void {
    if (this.closed) throw new Error('the vector env is closed');
    for (const s of this.shards) {
      Atomics.store(s.ctl, CTL.cmd, cmd);
      Atomics.store(s.ctl, CTL.seq, ++s.seq);
      Atomics.notify(s.ctl, CTL.seq);
    }
    let failure: unknown = null;
    try {
      mine();
    } catch (e) {
      failure = e;
    }
    // Every worker is waited for, even after an error here: none may still write the batch.
    for (const s of this.shards) {
      try {
        this.wait(s, Infinity, 'step');
      } catch (e) {
        failure ??= e;
      }
    }
    if (failure) throw failure;
  }

  /** Waits until worker `s` has answered its last command; throws its error, if it sent one. */
  private wait(s: Shard, ms: number, what: string): void {
    const deadline = performance.now() + ms;
    // A shard takes about as long as this thread's own, so the answer is mostly near: spin a
    // little before sleeping on it.
    const spinUntil = performance.now() + 2;
    for (;;) {
      const done = Atomics.load(s.ctl, CTL.done);
      if (done === s.seq) break;
      const now = performance.now();
      if (now > deadline) throw new Error(`a vector env thread did not ${what} within ${ms / 1000} s`);
      if (now > spinUntil) Atomics.wait(s.ctl, CTL.done, done, Math.min(100, deadline - now));
    }
    if (Atomics.load(s.ctl, CTL.status) !== STATUS_OK) {
      const failed = receiveMessageOnPort(s.port)?.message as ThreadFailure | undefined;
      const message = failed?.message ?? 'a vector env thread failed';
      // A RangeError is the request's fault (a bad option), as from a single thread.
      throw failed?.range ? new RangeError(message) : new Error(message);
    }
  }
}

/** A vector env on the threads `threads` asks for (one: a plain LearnerVectorEnv). */
export function makeVectorEnv(o: Omit<LearnerVectorOptions, 'into' | 'firstSlot'>, threads: Threads = 'auto'): LearnerBatchEnv {
  const t = threadsFor(parseThreads(threads), o.numEnvs);
  if (t <= 1) return new LearnerVectorEnv(o);
  return new ThreadedVectorEnv(o, t);
}
