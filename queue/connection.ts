/**
 * Where the job queue lives: a `redis://` or `rediss://` URL, checked and turned into the
 * connection options BullMQ hands to ioredis. Commands wait out a Redis restart instead of
 * failing (`maxRetriesPerRequest: null`, which BullMQ's workers require), and reconnects back
 * off up to two seconds.
 */
import type { RedisOptions } from 'ioredis';

/** The one queue every tournament's game batches go through. */
export const GAMES_QUEUE = 'czech-pub-games';

export class QueueUrlError extends Error {
  override name = 'QueueUrlError';
}

export function redisOptions(url: string): RedisOptions {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new QueueUrlError(`--queue must be a redis:// URL, got '${url}'`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') {
    throw new QueueUrlError(`--queue must be a redis:// or rediss:// URL, got '${u.protocol}//…'`);
  }
  const db = u.pathname && u.pathname !== '/' ? Number(u.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0 || db > 15) throw new QueueUrlError(`--queue: database '${u.pathname.slice(1)}' is not a number from 0 to 15`);
  const port = u.port ? Number(u.port) : 6379;
  return {
    host: u.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
    port,
    db,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
    retryStrategy: (times: number) => Math.min(2000, 50 * times),
  };
}

/** The URL as it may be printed: without its password. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}
