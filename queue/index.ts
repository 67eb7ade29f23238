/**
 * The job queue (BullMQ on Redis): eval's games and training's rollout chunks played by
 * workers on other machines. What other folders import of queue/: the submitting sides (a
 * tournament's runner, a trainer's rollout source), the worker that plays the jobs, the
 * connection URL's checks, the job shapes, and a local Redis for tests and benchmarks.
 */
export { displayUrl, GAMES_QUEUE, QueueUrlError, redisOptions } from './connection.ts';
export { queueRunner, type QueueRunnerOptions } from './games.ts';
export type { GamesJob, GamesJobResult, RolloutJob, RolloutJobResult } from './jobs.ts';
export { queueRollouts, type QueueRollouts } from './rollouts.ts';
export { startQueueWorker, type QueueWorker, type QueueWorkerOptions } from './worker.ts';
export { redisServerAvailable, startLocalRedis, stopProcess, type LocalRedis } from './local-redis.ts';
