/**
 * The CLI for tests that start it in child processes, as one esbuild bundle of cli/main.ts per
 * test worker. Through bin/czech-pub.js a child loads some 230 modules through tsx's loader,
 * about 1.6 CPU-seconds before it does anything (`--help`); the bundle starts in about 0.5.
 * The suite starts dozens of children (llm-bench killed and resumed, servers, queue workers).
 *
 * The bundle is written under node_modules/.cache, inside the checkout, so that its package
 * imports (left out of it) resolve to the checkout's node_modules as the sources' do; the
 * commands' own modules load lazily as under tsx (code splitting). Each module keeps its own
 * `import.meta.url`, its source file's (eval/bundle-thread.mjs's plugin, which the thread
 * bundles of eval/ts-worker.ts use too), so whatever a module finds beside itself (the shipped
 * models, the web page, the modules of its worker threads) is what it finds when run from the
 * checkout. bin/czech-pub.js itself is what the tests of the documents'
 * examples (test/doc-examples.test.ts) and of the installed package run.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processAlive } from '../../eval/run-lock.ts';
import { ownImportMetaUrl } from '../../eval/bundle-thread.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CACHE = join(ROOT, 'node_modules/.cache/czech-pub-test-cli');

let built: Promise<string> | null = null;

/** The path of a script that runs the CLI: `spawn(process.execPath, [await cliEntry(), ...args])`. */
export function cliEntry(): Promise<string> {
  built ??= bundle();
  return built;
}

async function bundle(): Promise<string> {
  const { build } = await import('esbuild');
  mkdirSync(CACHE, { recursive: true });
  for (const name of readdirSync(CACHE)) {
    const pid = Number(/^(\d+)-/.exec(name)?.[1]);
    // A folder of a worker gone (killed before its exit handler ran) goes at the next start.
    if (pid && pid !== process.pid && !processAlive(pid)) rmSync(join(CACHE, name), { recursive: true, force: true });
  }
  const dir = mkdtempSync(join(CACHE, `${process.pid}-`));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  await build({
    entryPoints: { main: join(ROOT, 'cli/main.ts') },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.6',
    packages: 'external',
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
    plugins: [ownImportMetaUrl()],
  });
  // What bin/czech-pub.js does once it has the CLI: run it on the arguments, exit with its code.
  const entry = join(dir, 'czech-pub.mjs');
  writeFileSync(entry, 'const { main } = await import("./main.mjs");\nprocess.exitCode = await main(process.argv.slice(2));\n');
  return entry;
}
