// `npm run build` (and `npm pack`'s prepack): the package a consumer installs. The TypeScript
// sources compile to ESM JavaScript with .d.ts types in dist/, in the sources' own layout, and
// the files the code finds beside itself are copied to the same places in dist/: the shipped
// models (models/ppo-<n>p.json, not their training records) and the web page.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const built = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

/** Copies the files of `from` (relative to the root) whose names `keep` accepts into dist/. */
function copy(from, keep) {
  mkdirSync(join(dist, from), { recursive: true });
  const names = readdirSync(join(root, from)).filter(keep);
  for (const name of names) copyFileSync(join(root, from, name), join(dist, from, name));
  return names.length;
}
const models = copy('models', (n) => /^ppo-\dp\.json$/.test(n));
const web = copy('web', (n) => /\.(html|js|css)$/.test(n));

// tsc rewrites the .ts extensions of relative imports in the JavaScript, not in the .d.ts files.
let declarations = 0;
for (const entry of readdirSync(dist, { recursive: true })) {
  if (!entry.endsWith('.d.ts')) continue;
  const file = join(dist, entry);
  const text = readFileSync(file, 'utf8');
  const fixed = text.replace(/(from\s+|import\()(['"])(\.{1,2}\/[^'"]*?)\.ts\2/g, '$1$2$3.js$2');
  if (fixed !== text) {
    writeFileSync(file, fixed);
    declarations++;
  }
}
console.log(`dist/: compiled; ${models} models and ${web} web files copied; ${declarations} declaration files' imports pointed at .js`);
