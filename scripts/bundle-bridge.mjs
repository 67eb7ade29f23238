// `npm run build:bridge [-- --out DIR]` (and the Python wheel's build, python/setup.py): the
// engine as a program that needs Node and nothing else, no node_modules. Into DIR (default
// python/czech_pub/_engine/) go
//   czech-pub.js      cli/engine.ts's commands (bridge, bench env, --version), every import bundled
//   vector-thread.js  the vector env's worker thread: tsWorker starts this compiled sibling of
//                     bridge/vector-thread.ts, which is not beside the bundle
//   package.json      the package's name and version (eval/harness.ts reads it beside the bundle)
//                     and "type": "module", which makes Node load the two files as ESM
//   models/           the shipped models, where agents/ppo/ppo-agent.ts looks beside the bundle
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const out = resolve(values.out ?? join(root, 'python/czech_pub/_engine'));
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'models'), { recursive: true });

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.6',
  // Identifiers are kept, so that an engine's stack trace still reads.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  // Bundled CommonJS packages require Node's built-ins; an ES module has no `require` of its own.
  banner: { js: "import { createRequire as __czechPubRequire } from 'node:module'; const require = __czechPubRequire(import.meta.url);" },
  metafile: true,
  logLevel: 'warning',
};
const entry = "import { engineMain } from './cli/engine.ts';\nprocess.exitCode = engineMain(process.argv.slice(2));\n";
const results = [
  await build({ ...common, stdin: { contents: entry, resolveDir: root, sourcefile: 'engine-entry.ts', loader: 'ts' }, outfile: join(out, 'czech-pub.js') }),
  await build({ ...common, entryPoints: [join(root, 'bridge/vector-thread.ts')], outfile: join(out, 'vector-thread.js') }),
];

// The promise of the bundle: it imports Node's built-ins and nothing else.
const builtins = new Set(builtinModules);
for (const { metafile } of results) {
  for (const [file, output] of Object.entries(metafile.outputs)) {
    const outside = output.imports.filter((i) => i.external && !i.path.startsWith('node:') && !builtins.has(i.path)).map((i) => i.path);
    if (outside.length) throw new Error(`${file} imports ${outside.join(', ')} at run time: the bundle must need nothing but Node`);
    const tf = Object.keys(output.inputs).filter((i) => /tensorflow|(^|\/)training\//.test(i));
    if (tf.length) throw new Error(`${file} holds ${tf[0]} and ${tf.length - 1} more of TensorFlow.js or training/, which the engine never runs`);
  }
}

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
writeFileSync(join(out, 'package.json'), `${JSON.stringify({ name: pkg.name, version: pkg.version, private: true, type: 'module' }, null, 2)}\n`);
// The same models build-package.mjs ships in dist/models/.
const models = readdirSync(join(root, 'models')).filter((n) => /^ppo-\dp\.json$/.test(n));
for (const name of models) copyFileSync(join(root, 'models', name), join(out, 'models', name));

const size = (name) => `${(statSync(join(out, name)).size / 1024).toFixed(0)} KiB`;
console.log(`${relative(process.cwd(), out) || '.'}/: czech-pub.js ${size('czech-pub.js')}, vector-thread.js ${size('vector-thread.js')}, ${models.length} models`);
