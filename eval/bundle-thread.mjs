// Run by eval/ts-worker.ts in a checkout, in a child process (esbuild's plugins need its
// asynchronous build, and a thread is started synchronously):
//   node eval/bundle-thread.mjs ENTRY.ts BUNDLE.mjs RECORD.json
// bundles ENTRY and the project files it imports (packages left out) into BUNDLE, each file
// keeping its own import.meta.url, and writes into RECORD the size and modification time of
// each file it was made from. Both go through a temporary file renamed into place, for another
// process may be making the same bundle. Its plugin that keeps each file's import.meta.url is
// exported for test/helpers/cli.ts, which bundles the CLI the same way.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** An esbuild plugin: every TypeScript file's `import.meta.url` is its source's, as if it ran where it lies. */
export function ownImportMetaUrl() {
  return {
    name: 'own-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, ({ path }) => {
        const source = readFileSync(path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href)), loader: 'ts' };
      });
    },
  };
}

/** Bundles `entry` into `bundle` and records what it was made from in `record`. */
async function bundleThread(entry, bundle, record) {
  mkdirSync(dirname(bundle), { recursive: true });
  const part = `.${process.pid}.part`;
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.6',
    packages: 'external',
    outfile: bundle + part,
    absWorkingDir: dirname(entry),
    metafile: true,
    logLevel: 'error',
    plugins: [ownImportMetaUrl()],
  });
  const inputs = {};
  for (const input of Object.keys(result.metafile.inputs)) {
    const file = resolve(dirname(entry), input);
    const { size, mtimeMs } = statSync(file);
    inputs[file] = [size, mtimeMs];
  }
  renameSync(bundle + part, bundle);
  writeFileSync(record + part, JSON.stringify(inputs));
  renameSync(record + part, record);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [entry, bundle, record] = process.argv.slice(2);
  if (!record) {
    console.error('usage: node eval/bundle-thread.mjs ENTRY.ts BUNDLE.mjs RECORD.json');
    process.exit(2);
  }
  await bundleThread(entry, bundle, record);
}
