/**
 * The folders form layers; a folder imports only folders below it:
 *
 *   env < policy < agents < eval < training < queue < server < bridge < cli
 *
 * env/ is the pure engine (it imports no other folder and no Node built-in: no I/O); policy/
 * is a trained policy's runtime (plain-JS net, masked sampling, checkpoint format); agents/
 * play; eval/ plays games and tournaments between agents; training/ trains policies (and
 * evaluates them with eval/); queue/ runs eval's games on other machines' workers through
Redis; server/, bridge/ (the engine for other processes, python/czech_pub) and cli/ are adapters. test/ holds shared test helpers
 * and may import anything; only tests import it. Tests beside a module may import any folder
 * (a scripted agent's test plays games with eval/), so only non-test files are checked.
 * A module a worker thread loads (`new URL('./worker.ts', import.meta.url)`) counts as an import.
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

describe('layering', () => {
  it(`no folder imports a folder above it (${LAYERS.join(' < ')}); env/ imports no other folder`, () => {
    const files = LAYERS.flatMap((l) => sourceFiles(path.join(ROOT, l)));
    expect(files.length).toBeGreaterThan(100);
    const violations = files.flatMap((f) => {
      const rel = path.relative(ROOT, f).split(path.sep).join('/');
      return layeringViolations(rel, fs.readFileSync(f, 'utf8'));
    });
    expect(violations).toEqual([]);
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
});
