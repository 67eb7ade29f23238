/**
 * A queue worker: takes jobs from the queue and runs them on its own worker threads,
 * `concurrency` at a time: game batches (eval/worker.ts) and training rollout chunks
 * (training/chunk-worker.ts, whose nets' weights it reads from Redis by key, once per version).
 * BullMQ keeps each taken job locked while the worker lives; a worker that dies (killed,
 * machine lost) stops renewing its locks, and after `lockMs` its jobs are stalled and handed
 * to another worker. Results are keyed (by game, by chunk), so a job played twice counts once.
 * ioredis reconnects after a Redis restart; `close` lets the jobs in hand finish.
 */
import { hostname } from 'node:os';
import { Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { ENGINE_VERSION, parseRuleset } from '../env/index.ts';
import type { EncodedWeights } from '../policy/index.ts';
import type { GamesJob, GamesJobResult, RolloutJob, RolloutJobResult } from './jobs.ts';
import { WEIGHTS_PREFIX } from './jobs.ts';
import { displayUrl, GAMES_QUEUE, redisOptions } from './connection.ts';
import { ChunkThreads, GameThreads } from './thread-pool.ts';

export interface QueueWorkerOptions {
  url: string;
  /** Jobs run at once, each on its own thread. */
  concurrency: number;
  /** How long a job stays locked without a renewal before another worker may take it. */
  lockMs?: number;
  log?: (line: string) => void;
}

export interface QueueWorker {
  /** Finishes the jobs in hand, then disconnects (a second call, or `force`, hands them back at once). */
  close(force?: boolean): Promise<void>;
}

/** The name a worker process gives BullMQ, which records it on each job it takes (`processedBy`): which machine and process played it. */
export function queueWorkerName(pid = process.pid): string {
  return `${hostname()}:${pid}`;
}

/** Weights read from Redis, kept by key (a version is read once, however many chunks it plays). */
const WEIGHTS_KEPT = 16;

export async function startQueueWorker(o: QueueWorkerOptions): Promise<QueueWorker> {
  const log = o.log ?? (() => {});
  const games = new GameThreads(o.concurrency);
  const chunks = new ChunkThreads(o.concurrency);
  const lockMs = o.lockMs ?? 30_000;
  const redis = new Redis({ ...redisOptions(o.url), lazyConnect: true });
  redis.on('error', () => {}); // told by the BullMQ worker's own listener below
  const weights = new Map<string, EncodedWeights>();
  const readWeights = async (key: string): Promise<EncodedWeights> => {
    let w = weights.get(key);
    if (!w) {
      const text = await redis.get(WEIGHTS_PREFIX + key);
      if (text === null) throw new Error(`the weights ${key} are not in Redis (expired, or lost with a restart): the learner publishes them again when it re-enqueues`);
      w = JSON.parse(text) as EncodedWeights;
    }
    weights.delete(key);
    weights.set(key, w);
    while (weights.size > WEIGHTS_KEPT) weights.delete(weights.keys().next().value as string);
    return w;
  };

  const playGames = async (job: Job<GamesJob>): Promise<GamesJobResult> => {
    const t0 = performance.now();
    const out = await games.play(job.data.setup, job.data.games);
    log(`job ${job.id}: ${job.data.games.length} games in ${((performance.now() - t0) / 1000).toFixed(2)} s`);
    return out;
  };
  const playChunk = async (job: Job<RolloutJob>): Promise<RolloutJobResult> => {
    const d = job.data;
    if (d.engine !== ENGINE_VERSION) throw new Error(`this worker runs engine version ${ENGINE_VERSION}, the learner ${d.engine}: run the same czech-pub-gym on both`);
    const t0 = performance.now();
    const spec = { ...d.spec, ruleset: d.spec.ruleset ? parseRuleset(d.spec.ruleset) : undefined };
    const out = await chunks.play({ backend: 'auto' }, { spec, policy: d.policy.key, snapshots: d.snapshots }, readWeights);
    log(`job ${job.id}: rollout chunk of ${d.spec.games} games (policy version ${d.policy.version}) in ${((performance.now() - t0) / 1000).toFixed(2)} s`);
    return { version: d.policy.version, games: out.games, ms: out.ms };
  };

  let lostConnection = false;
  const worker = new Worker<GamesJob | RolloutJob, GamesJobResult | RolloutJobResult>(
    GAMES_QUEUE,
    async (job) => {
      if (job.name === 'games') return playGames(job as Job<GamesJob>);
      if (job.name === 'rollout') return playChunk(job as Job<RolloutJob>);
      throw new Error(`unknown job kind '${job.name}' (this worker plays 'games' and 'rollout')`);
    },
    {
      connection: redisOptions(o.url),
      name: queueWorkerName(),
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
  await redis.connect();
  log(`worker: taking jobs from ${displayUrl(o.url)} (queue ${GAMES_QUEUE}), ${o.concurrency} at a time`);
  let closing: Promise<void> | null = null;
  return {
    async close(force = false) {
      if (closing && !force) return closing;
      closing = (async () => {
        await worker.close(force);
        await Promise.all([games.close(), chunks.close()]);
        redis.disconnect();
      })();
      return closing;
    },
  };
}
