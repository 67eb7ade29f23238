/**
 * Redis for the queue tests: the throwaway server of queue/local-redis.ts (a free loopback
 * port, a temp dir, no persistence unless asked, so a restart loses every job as a crash of an
 * unpersisted Redis does), and whether the tests run at all.
 */
import { REDIS_SERVER, redisServerAvailable, startLocalRedis, type LocalRedis } from '../../queue/local-redis.ts';

/**
 * Whether the queue tests run: on a developer's machine without redis-server they are skipped
 * with a notice; under CI (CI set, and .ci/run installs redis-server) they always run, so a
 * missing server fails there.
 */
export function redisTestsRun(): boolean {
  if (redisServerAvailable() || process.env.CI) return true;
  console.warn(`queue tests skipped: no ${REDIS_SERVER} (apt-get install redis-server, or set REDIS_SERVER_PATH; CI never skips them)`);
  return false;
}

export type TestRedis = LocalRedis;

export function startRedis(o: { appendonly?: boolean } = {}): Promise<TestRedis> {
  return startLocalRedis({ persistent: o.appendonly });
}
