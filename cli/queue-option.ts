/**
 * A --queue URL checked as a usage error, and the queue module it needs, loaded only then
 * (the local default needs neither BullMQ nor a Redis).
 */
import { UsageError } from './io.ts';

export async function loadQueue(url: string): Promise<typeof import('../queue/index.ts')> {
  const q = await import('../queue/index.ts');
  try {
    q.redisOptions(url);
  } catch (e) {
    if (e instanceof q.QueueUrlError) throw new UsageError(e.message);
    throw e;
  }
  return q;
}
