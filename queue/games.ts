/**
 * A tournament's games played through the queue: the submitting side. The schedule is cut into
 * batches and enqueued; any number of workers (queue/worker.ts) play them. Results are keyed by
 * game index, so they are the same as a local run's whatever the workers and batches, and a
 * batch played twice (its worker died after finishing part of it) counts once.
 *
 * Batch size: probe batches of a few games, one per worker listening (each sets up its threads
 * meanwhile), measure how long a game takes on a worker thread; later batches are sized by the
 * latest batch's time per game (a cold first measure is soon replaced) to about `batchMs` each,
 * so the queue's per-job cost stays small, and shrink as the schedule runs out so the last ones
 * end close together. Batches are added while few wait, so every worker finds one.
 *
 * A job that vanished from Redis (restarted without persistence) is enqueued again; a job that
 * failed on a worker stops the run with the worker's message; an abort removes what waits.
 */
import { randomBytes } from 'node:crypto';
import { gameSetup, type GameResult, type RunOptions, type RunOutcome, type ScheduledGame } from '../eval/index.ts';
import type { GamesJob, GamesJobResult } from './jobs.ts';
import { JobTracker } from './tracker.ts';

export interface QueueRunnerOptions {
  /** Target time a batch takes on a worker thread (default 1000 ms). */
  batchMs?: number;
  /** Fixed games per batch instead of measuring (1 and up). */
  batch?: number;
  /** How often outstanding jobs are looked up, besides the completion events (default 3000 ms): a fallback for events missed while Redis was away. */
  sweepMs?: number;
  /** Where a lost (and regained) connection to Redis is told, once per outage (default: nowhere). */
  log?: (line: string) => void;
}

const PROBE_GAMES = 4;
/** How long without a finished game before the submitter says it is still waiting. */
const STALL_NOTICE_MS = 30_000;
/** The remaining games are cut into at least this many batches per worker. */
const TAIL_SHARES = 4;

export function queueRunner(url: string, q: QueueRunnerOptions = {}): (o: RunOptions) => Promise<RunOutcome> {
  return (o) => runOnQueue(url, o, q);
}

async function runOnQueue(url: string, o: RunOptions, q: QueueRunnerOptions): Promise<RunOutcome> {
  const run = randomBytes(6).toString('hex');
  // A budget's counters are shared memory of this process: they cannot travel to other machines.
  if (o.gates?.some((g) => g)) throw new Error('a run with budgets on outside calls (gates) cannot be played through the queue');
  const setup = gameSetup(o);
  const results = new Map<number, GameResult>();
  let seq = 0;
  let next = 0;
  /** Worker-side milliseconds per game of the latest batch: sizes the next ones. */
  let perGame: number | undefined;
  let refilling = false;
  /** Workers listening (counted again every round: more may join). */
  let slots = 1;
  const games = o.games;
  let failure: Error | undefined;
  let wake: () => void = () => {};

  const jobs = new JobTracker<GamesJob, GamesJobResult>(url, {
    log: q.log,
    onResult: (_id, value) => {
      if (value.results.length > 0) perGame = Math.max(0.01, value.ms / value.results.length);
      void refill().catch(() => {});
      for (const r of value.results) {
        if (results.has(r.index)) continue;
        results.set(r.index, r);
        o.onGame?.(r);
      }
      wake();
    },
    onFailure: (_id, why) => {
      failure ??= new Error(`a queue worker failed: ${why}`);
      wake();
    },
  });
  const queue = jobs.queue;
  const add = (batch: ScheduledGame[]) => jobs.add(`${run}-${seq++}`, 'games', { run, setup, games: batch });

  const sizeNext = () => {
    if (q.batch !== undefined) return q.batch;
    if (perGame === undefined) return PROBE_GAMES;
    const byTime = Math.max(1, Math.round((q.batchMs ?? 1000) / perGame));
    // Smaller as the schedule runs out, so the last batches end close together.
    return Math.max(1, Math.min(byTime, Math.ceil((games.length - next) / (TAIL_SHARES * slots))));
  };
  /** Adds batches while no more than one per worker waits (none before a probe is back). */
  async function refill(): Promise<void> {
    if (refilling) return;
    refilling = true;
    try {
      while (next < games.length && failure === undefined && !o.signal?.aborted) {
        if (q.batch === undefined && perGame === undefined) break;
        if ((await queue.getWaitingCount()) > slots) break;
        const size = sizeNext();
        await add(games.slice(next, next + size));
        next = Math.min(games.length, next + size);
      }
    } finally {
      refilling = false;
    }
  }

  const waitRound = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
  const onAbort = () => wake();
  o.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    await jobs.ready();
    let listening = await queue.getWorkersCount();
    slots = Math.max(1, listening);
    if (listening === 0) q.log?.(`no worker is taking jobs from this queue yet: start 'czech-pub worker --queue …' on a machine that reaches it; waiting`);
    let lastProgress = Date.now();
    let told = Date.now();
    // Probes first, one per worker listening (each sets up its threads meanwhile); then, as
    // batches come back, the next ones are sized by the latest worker-side time per game and
    // added while fewer than `slots` + 1 wait, so workers always find one.
    if (q.batch === undefined) {
      for (let k = 0; k < slots && next < games.length; k++) {
        await add(games.slice(next, next + PROBE_GAMES));
        next = Math.min(games.length, next + PROBE_GAMES);
      }
    }
    await refill();
    while (!(next >= games.length && jobs.size === 0) && failure === undefined && !o.signal?.aborted) {
      const before = results.size;
      await waitRound(q.sweepMs ?? 3000);
      listening = await queue.getWorkersCount();
      slots = Math.max(1, listening);
      if (results.size > before) lastProgress = Date.now();
      else if (Date.now() - lastProgress > STALL_NOTICE_MS && Date.now() - told > STALL_NOTICE_MS) {
        told = Date.now();
        q.log?.(`no game came back for ${Math.round((Date.now() - lastProgress) / 1000)} s; ${listening} worker${listening === 1 ? '' : 's'} listening; waiting`);
      }
      await jobs.sweep(() => failure !== undefined || o.signal?.aborted === true);
      await refill();
    }
    if (failure) {
      await jobs.drop();
      throw failure;
    }
    if (o.signal?.aborted) await jobs.drop();
    return { results: [...results.values()], interrupted: o.signal?.aborted === true || results.size < games.length };
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
    await jobs.close();
  }
}
