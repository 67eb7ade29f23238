/**
 * The unit project's setup file (vitest.config.ts): while a unit test runs, what would start
 * another process, a worker thread or a listening socket throws instead, so a unit test that
 * reaches one through the modules it calls fails saying so rather than quietly becoming an
 * integration test. Such a test belongs in vitest.config.ts's INTEGRATION list.
 */
import childProcess from 'node:child_process';
import net from 'node:net';
import { syncBuiltinESMExports } from 'node:module';
import workerThreads from 'node:worker_threads';

function refuse(what: string): never {
  throw new Error(`a unit test may not start ${what}: move the test file to INTEGRATION in vitest.config.ts`);
}

const cp = childProcess as unknown as Record<string, unknown>;
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
  cp[name] = () => refuse(`a child process (child_process.${name})`);
}
(workerThreads as { Worker: unknown }).Worker = class {
  constructor() {
    refuse('a worker thread (worker_threads.Worker)');
  }
};
net.Server.prototype.listen = function listen() {
  return refuse('a server listening on a socket (listen)');
};
syncBuiltinESMExports();
