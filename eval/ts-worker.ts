/**
 * Worker threads for the project's own modules, from any working directory.
 *
 * - In the installed package (compiled, dist/) the `.ts` module a caller names is not there,
 *   and its compiled `.js` sibling runs as it is.
 * - In a checkout a module is TypeScript. A thread runs it as one esbuild bundle of the module
 *   and every project file it imports (packages left out, found in the checkout's
 *   node_modules as the sources find them). Through tsx's hooks a thread loaded some 200
 *   modules one by one, about 1.5 CPU-s a start; from the bundle about 0.5 (a game thread,
 *   measured by process.cpuUsage). The bundle is kept in node_modules/.cache/czech-pub-threads,
 *   one per module, with the size and time of each file it was made from, and made again when
 *   one of them changed. Each file keeps its own `import.meta.url`, its source's, so whatever
 *   a module finds beside itself (the shipped models, other threads' modules) it finds as
 *   under tsx. A thread's stack traces name the bundle's lines.
 * - Where esbuild cannot make the bundle, tsx runs the module as before (and says what is
 *   wrong with it, as a compile error). eval/bundle-thread.mjs makes the bundle.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function tsWorker(module: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  if (module.pathname.endsWith('.ts')) {
    // A checkout: the module's bundle. The package: its compiled sibling.
    const compiled = new URL(module.href.replace(/\.ts$/, '.js'));
    const run = existsSync(module) ? threadBundle(module) : existsSync(compiled) ? compiled : null;
    if (run) return new Worker(run, options);
  }
  // The ESM entry of tsx's API (its CommonJS one cannot register hooks in a worker).
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(module.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}

/** The checkout's cache of thread bundles, in its node_modules so that their package imports resolve there. */
const CACHE = fileURLToPath(new URL('../node_modules/.cache/czech-pub-threads/', import.meta.url));

/** The script that makes a bundle (a checkout's; the package has no TypeScript to bundle). */
const BUNDLER = fileURLToPath(new URL('./bundle-thread.mjs', import.meta.url));

/** What a bundle was made from: each file's size and modification time. */
type Inputs = Record<string, [number, number]>;

/** The bundle of a checkout's TypeScript `module`, made now if it is missing or a file it was made from changed; null if esbuild cannot make it. */
export function threadBundle(module: URL): URL | null {
  const name = createHash('sha256').update(module.href).digest('hex').slice(0, 16);
  const bundle = join(CACHE, `${name}.mjs`);
  const record = join(CACHE, `${name}.json`);
  if (upToDate(bundle, record)) return pathToFileURL(bundle);
  // esbuild's plugins (one keeps each file's import.meta.url) run only in its asynchronous
  // build, and a thread is started synchronously: a child process makes the bundle.
  const made = spawnSync(process.execPath, [BUNDLER, fileURLToPath(module), bundle, record], { stdio: 'ignore', timeout: 120_000 });
  return made.status === 0 ? pathToFileURL(bundle) : null;
}

function upToDate(bundle: string, record: string): boolean {
  try {
    if (!existsSync(bundle)) return false;
    const inputs = JSON.parse(readFileSync(record, 'utf8')) as Inputs;
    return Object.entries(inputs).every(([file, [size, mtime]]) => {
      const s = statSync(file, { throwIfNoEntry: false });
      return s !== undefined && s.size === size && s.mtimeMs === mtime;
    });
  } catch {
    return false;
  }
}
