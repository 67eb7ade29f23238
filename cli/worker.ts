/**
 * `czech-pub worker`: takes tournament game batches from a Redis job queue and plays them on
 * this machine's worker threads, until SIGTERM or Ctrl-C (the jobs in hand are finished first;
 * a second signal hands them back at once). One per machine, or several.
 */
import { availableParallelism } from 'node:os';
import { EXIT_OK, type Io } from './io.ts';
import { loadQueue } from './queue-option.ts';
import { helpText, parseOptions, type CommandSpec } from './options.ts';

export const WORKER = {
  name: 'worker',
  description: `Plays what 'czech-pub tournament --queue URL' and 'czech-pub train --queue URL' put on a
Redis job queue (tournament games, training rollouts and evaluations) on this machine's worker
threads. Start as many as there are machines; a worker that dies has its jobs handed to another
after --lock-ms.`,
  options: {
    queue: { type: 'string', arg: 'URL', required: true, help: 'the Redis holding the queue, e.g. redis://127.0.0.1:6379' },
    concurrency: { type: 'int', arg: 'N', min: 1, max: 256, defaultText: 'one per core', help: 'jobs played at once, each on its own thread' },
    'lock-ms': {
      type: 'int', arg: 'MS', min: 1000, max: 600_000, default: 30_000,
      help: 'a job of a worker that stopped answering goes to another worker after this long',
    },
  },
} as const satisfies CommandSpec;

export async function workerCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseOptions(WORKER, args);
  if (!parsed) {
    io.out(helpText(WORKER));
    return EXIT_OK;
  }
  const { startQueueWorker } = await loadQueue(parsed.values.queue);
  const worker = await startQueueWorker({
    url: parsed.values.queue,
    concurrency: parsed.values.concurrency ?? availableParallelism(),
    lockMs: parsed.values.lockMs,
    log: (line) => io.err(`${new Date().toISOString()} ${line}`),
  });
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      io.err(`${signal}: finishing the jobs in hand (send it again to hand them back now)`);
      process.once('SIGINT', () => void worker.close(true));
      process.once('SIGTERM', () => void worker.close(true));
      void worker.close().then(resolve, resolve);
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  io.err('worker stopped');
  return EXIT_OK;
}
