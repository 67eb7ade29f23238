/**
 * Worker threads for the project's own modules, from any working directory. In a checkout a
 * module is TypeScript and runs through tsx; in the installed package (compiled, dist/) the
 * `.ts` module a caller names is not there, and its compiled `.js` sibling runs as it is.
 */
import { existsSync } from 'node:fs';
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function tsWorker(module: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  if (module.pathname.endsWith('.ts') && !existsSync(module)) {
    const compiled = new URL(module.href.replace(/\.ts$/, '.js'));
    if (existsSync(compiled)) return new Worker(compiled, options);
  }
  // The ESM entry of tsx's API (its CommonJS one cannot register hooks in a worker).
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(module.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}
