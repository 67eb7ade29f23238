/**
 * The folders form layers; a folder imports only folders below it:
 *
 *   env < policy < agents < eval < training < queue < server < bridge < cli
 *
 * env/ is the pure engine (it imports no other folder and no Node built-in: no I/O); policy/
 * is a trained policy's runtime (plain-JS net, masked sampling, checkpoint format); agents/
 * play; eval/ plays games and tournaments between agents; training/ trains policies (and
 * evaluates them with eval/); queue/ runs eval's games on other machines' workers through
 * Redis; server/, bridge/ (the engine for other processes, python/czech_pub) and cli/ are
 * adapters. test/ holds shared test helpers and may import anything; only tests import it.
 *
 * Each folder's index.ts is its public surface: a file imports another folder only through
 * that folder's index.ts (`../env/index.ts`), never one of its modules, and a subfolder's
 * index is a module of its folder (outside env/, `../env/engine/index.ts` is refused). Inside
 * a folder, files import their siblings directly and never their own folder's index.ts,
 * which would invite import cycles. bin/czech-pub.js, the entry script, imports cli/main.ts.
 *
 * Only non-test files are checked: tests beside a module may import any folder and any
 * module (a scripted agent's test plays games with eval/, an engine test reads its
 * internals), and so may test/ (its helpers and fixtures). A module a worker thread loads
 * (`new URL('./worker.ts', import.meta.url)`) counts as an import: a folder whose worker
 * another folder starts exports the module's URL from its index.
 */
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LAYERS = ['env', 'policy', 'agents', 'eval', 'training', 'queue', 'server', 'bridge', 'cli', 'test'] as const;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/** Every module specifier a file imports: static and dynamic imports, re-exports, worker modules. */
function importSpecifiers(text: string): string[] {
  const info = ts.preProcessFile(text, true, true);
  const workers = [...text.matchAll(/new URL\(\s*['"]([^'"]+\.ts)['"]\s*,\s*import\.meta\.url\s*\)/g)].map((m) => m[1]);
  return [...info.importedFiles.map((f) => f.fileName), ...workers];
}

/** The violations of the layering in one file (path relative to the root), as readable lines. */
function layeringViolations(file: string, text: string): string[] {
  const from = file.split('/')[0];
  const rank = LAYERS.indexOf(from as (typeof LAYERS)[number]);
  const out: string[] = [];
  for (const spec of importSpecifiers(text)) {
    if (!spec.startsWith('.')) {
      if (from === 'env' && (spec.startsWith('node:') || builtinModules.includes(spec))) out.push(`${file}: imports '${spec}' (env/ does no I/O)`);
      continue;
    }
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
    const to = target.split('/')[0];
    if (to === from) continue;
    const toRank = LAYERS.indexOf(to as (typeof LAYERS)[number]);
    if (target.startsWith('..') || toRank < 0) out.push(`${file}: imports '${spec}', outside the layered folders`);
    else if (from === 'env') out.push(`${file}: imports '${spec}' (${to}/); env/ imports nothing outside env/`);
    else if (toRank > rank) out.push(`${file}: imports '${spec}' (${to}/), a folder above ${from}/ (${LAYERS.join(' < ')})`);
  }
  return out;
}

/**
 * The imports in one file (path relative to the root) that reach past another folder's
 * index.ts, or back into the file's own folder's index.ts, as readable lines. test/ is exempt.
 */
function surfaceViolations(file: string, text: string): string[] {
  const from = file.split('/')[0];
  if (from === 'test') return [];
  const out: string[] = [];
  for (const spec of importSpecifiers(text)) {
    if (!spec.startsWith('.')) continue;
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
    const to = target.split('/')[0];
    if (!LAYERS.includes(to as (typeof LAYERS)[number])) continue; // the layering check reports it
    const index = `${to}/index.ts`;
    if (to !== from && target !== index) out.push(`${file}: imports '${spec}', a module inside ${to}/; import ${to}/ through ${index}`);
    else if (to === from && target === index && file !== index) out.push(`${file}: imports its own folder's index '${spec}'; import the module itself`);
  }
  return out;
}

function checkedFiles(): { rel: string; text: string }[] {
  return LAYERS.flatMap((l) => sourceFiles(path.join(ROOT, l))).map((f) => ({
    rel: path.relative(ROOT, f).split(path.sep).join('/'),
    text: fs.readFileSync(f, 'utf8'),
  }));
}

describe('layering', () => {
  it(`no folder imports a folder above it (${LAYERS.join(' < ')}); env/ imports no other folder`, () => {
    const files = checkedFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((f) => layeringViolations(f.rel, f.text))).toEqual([]);
  });

  it("imports another folder only through its index.ts, and never the file's own folder's index.ts", () => {
    const files = checkedFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((f) => surfaceViolations(f.rel, f.text))).toEqual([]);
  });

  it('finds every kind of import, and names the file and the import that break the order', () => {
    const text = [
      "import { a } from '../training/run.ts';",
      "import type { B } from '../cli/io.ts';",
      "export * from '../server/app.ts';",
      "const m = await import('../eval/game.ts');",
      "import '../agents/agent.ts';",
      "const w = new URL('../cli/main.ts', import.meta.url);",
      "import fs from 'node:fs';",
      "import { z } from 'zod';",
    ].join('\n');
    expect(layeringViolations('eval/x.ts', text)).toEqual([
      "eval/x.ts: imports '../training/run.ts' (training/), a folder above eval/ (env < policy < agents < eval < training < queue < server < bridge < cli < test)",
      "eval/x.ts: imports '../cli/io.ts' (cli/), a folder above eval/ (env < policy < agents < eval < training < queue < server < bridge < cli < test)",
      "eval/x.ts: imports '../server/app.ts' (server/), a folder above eval/ (env < policy < agents < eval < training < queue < server < bridge < cli < test)",
      "eval/x.ts: imports '../cli/main.ts' (cli/), a folder above eval/ (env < policy < agents < eval < training < queue < server < bridge < cli < test)",
    ]);
    expect(layeringViolations('env/engine/x.ts', "import { s } from '../state.ts';\nimport { r } from '../../policy/masked.ts';\nimport fs from 'node:fs';")).toEqual([
      "env/engine/x.ts: imports '../../policy/masked.ts' (policy/); env/ imports nothing outside env/",
      "env/engine/x.ts: imports 'node:fs' (env/ does no I/O)",
    ]);
    expect(layeringViolations('agents/ppo/x.ts', "import { m } from '../../models/x.ts';")).toEqual([
      "agents/ppo/x.ts: imports '../../models/x.ts', outside the layered folders",
    ]);
    expect(layeringViolations('training/x.ts', "import { g } from '../eval/game.ts';\nimport { j } from '../policy/weights.ts';")).toEqual([]);
  });

  it("finds every kind of import that reaches past a folder's index.ts, and accepts the index and siblings", () => {
    const text = [
      "import { a } from '../env/engine/flow.ts';",
      "import type { B } from '../env/engine/index.ts';",
      "export { c } from '../policy/masked.ts';",
      "const m = await import('../eval/game.ts');",
      "const w = new URL('../training/chunk-worker.ts', import.meta.url);",
      "import '../agents/agent.ts';",
      "import { d } from '../env/index.ts';",
      "export * from '../policy/index.ts';",
      "const q = await import('../eval/index.ts');",
      "import type { T } from '../training/index.ts';",
      "import { e } from './jobs.ts';",
      "import { z } from 'zod';",
    ].join('\n');
    expect(surfaceViolations('queue/x.ts', text)).toEqual([
      "queue/x.ts: imports '../env/engine/flow.ts', a module inside env/; import env/ through env/index.ts",
      "queue/x.ts: imports '../env/engine/index.ts', a module inside env/; import env/ through env/index.ts",
      "queue/x.ts: imports '../policy/masked.ts', a module inside policy/; import policy/ through policy/index.ts",
      "queue/x.ts: imports '../eval/game.ts', a module inside eval/; import eval/ through eval/index.ts",
      "queue/x.ts: imports '../agents/agent.ts', a module inside agents/; import agents/ through agents/index.ts",
      "queue/x.ts: imports '../training/chunk-worker.ts', a module inside training/; import training/ through training/index.ts",
    ]);
    const nested = "import { d } from '../../env/index.ts';\nimport { r } from '../../env/rng.ts';\nimport { s } from '../ppo/input.ts';\nimport { i } from '../index.ts';";
    expect(surfaceViolations('agents/llm/x.ts', nested)).toEqual([
      "agents/llm/x.ts: imports '../../env/rng.ts', a module inside env/; import env/ through env/index.ts",
      "agents/llm/x.ts: imports its own folder's index '../index.ts'; import the module itself",
    ]);
    expect(surfaceViolations('env/engine/x.ts', "import { i } from './index.ts';\nimport { j } from '../index.ts';")).toEqual([
      "env/engine/x.ts: imports its own folder's index '../index.ts'; import the module itself",
    ]);
    expect(surfaceViolations('test/helpers/x.ts', "import { a } from '../../env/engine/flow.ts';")).toEqual([]);
  });
});
