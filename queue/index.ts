export { displayUrl, GAMES_QUEUE, QueueUrlError, redisOptions } from './connection.ts';
export { queueRunner, type QueueRunnerOptions } from './games.ts';
export type { GamesJob, GamesJobResult } from './jobs.ts';
export { startQueueWorker, type QueueWorker, type QueueWorkerOptions } from './worker.ts';
export { redisServerAvailable, startLocalRedis, stopProcess, type LocalRedis } from './local-redis.ts';
