/** Worker threads that run a TypeScript module through tsx, from any working directory. */
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function tsWorker(module: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  // The ESM entry of tsx's API (its CommonJS one cannot register hooks in a worker).
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(module.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}
