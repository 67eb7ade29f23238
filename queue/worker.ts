/**
 * A queue worker: takes game batches from the queue and plays them on its own worker threads,
 * `concurrency` batches at a time. BullMQ keeps each taken job locked while the worker lives;
 * a worker that dies (killed, machine lost) stops renewing its locks, and after `lockMs` its jobs
 * are stalled and handed to another worker. Results are keyed by game, so a batch played twice
 * counts once. ioredis reconnects after a Redis restart; `close` lets the jobs in hand finish.
 */
import { Worker } from 'bullmq';
import type { GamesJob, GamesJobResult } from './jobs.ts';
import { displayUrl, GAMES_QUEUE, redisOptions } from './connection.ts';
import { ThreadPool } from './thread-pool.ts';

export interface QueueWorkerOptions {
  url: string;
  /** Batches played at once, each on its own thread. */
  concurrency: number;
  /** How long a job stays locked without a renewal before another worker may take it. */
  lockMs?: number;
  log?: (line: string) => void;
}

export interface QueueWorker {
  /** Finishes the jobs in hand, then disconnects (a second call, or `force`, hands them back at once). */
  close(force?: boolean): Promise<void>;
}

export async function startQueueWorker(o: QueueWorkerOptions): Promise<QueueWorker> {
  const log = o.log ?? (() => {});
  const pool = new ThreadPool(o.concurrency);
  const lockMs = o.lockMs ?? 30_000;
  let lostConnection = false;
  const worker = new Worker<GamesJob, GamesJobResult>(
    GAMES_QUEUE,
    async (job) => {
      const t0 = performance.now();
      const { results, ms } = await pool.play(job.data.setup, job.data.games);
      log(`job ${job.id}: ${job.data.games.length} games in ${((performance.now() - t0) / 1000).toFixed(2)} s`);
      return { results, ms };
    },
    {
      connection: redisOptions(o.url),
      concurrency: o.concurrency,
      lockDuration: lockMs,
      stalledInterval: Math.max(1000, Math.floor(lockMs / 2)),
      // A job whose worker died is handed on, a few times over, before it counts as failed.
      maxStalledCount: 5,
    },
  );
  worker.on('error', (e) => {
    if (!lostConnection) log(`queue connection: ${e.message} (retrying)`);
    lostConnection = true;
  });
  worker.on('ready', () => {
    if (lostConnection) log('queue connection: back');
    lostConnection = false;
  });
  worker.on('failed', (job, e) => log(`job ${job?.id ?? '?'} failed: ${e.message}`));
  await worker.waitUntilReady();
  log(`worker: taking jobs from ${displayUrl(o.url)} (queue ${GAMES_QUEUE}), ${o.concurrency} at a time`);
  let closing: Promise<void> | null = null;
  return {
    async close(force = false) {
      if (closing && !force) return closing;
      closing = (async () => {
        await worker.close(force);
        await pool.close();
      })();
      return closing;
    },
  };
}
