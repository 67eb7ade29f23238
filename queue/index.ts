export { displayUrl, GAMES_QUEUE, QueueUrlError, redisOptions } from './connection.ts';
export { queueRunner, type QueueRunnerOptions } from './games.ts';
export type { GamesJob, GamesJobResult, RolloutJob, RolloutJobResult } from './jobs.ts';
export { queueRollouts, type QueueRollouts } from './rollouts.ts';
export { startQueueWorker, type QueueWorker, type QueueWorkerOptions } from './worker.ts';
export { redisServerAvailable, startLocalRedis, stopProcess, type LocalRedis } from './local-redis.ts';
