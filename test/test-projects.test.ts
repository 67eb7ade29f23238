/**
 * The suite's layers (vitest.config.ts) keep holding. Every `*.test.ts` file of the repository
 * belongs to exactly one project (unit, integration or e2e), so none is silently left out of
 * `npm test`. And a unit test file starts nothing, checked by a static rule on the file and
 * the test/helpers and test/support modules it imports: no import of a start-up module (FORBIDDEN_IMPORTS:
 * child_process, worker_threads, net/http, fastify and the server's app and bot pool, the
 * browser, Redis and the queue, the bridge, the trainer) and, comments aside, no start-up call
 * (FORBIDDEN_CALLS: listen(, a tournament with workers, the train/serve/bridge/worker
 * commands, Python, bin/czech-pub). What a unit test reaches through the modules it calls
 * is caught at run time by test/helpers/unit-guard.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import config, { E2E, INTEGRATION } from '../vitest.config.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * What a unit test file may not import (a module specifier ending so), and may not call in its
 * code (comments removed), each with what it would start.
 */
const FORBIDDEN_IMPORTS: [RegExp, string][] = [
  [/^node:child_process$|^esbuild$|helpers\/cli\.ts$/, 'another process (esbuild\'s, or the command line bundled for child processes)'],
  [/^node:(worker_threads|cluster)$|\/ts-worker\.ts$|helpers\/\w+-worker\.ts$|\/vector-threads\.ts$/, 'worker threads'],
  [/^node:(net|http|https|http2)$|^fastify$|\/server\/app\.ts$|\/bot-pool\.ts$|helpers\/serve\.ts$/, 'a server (a socket, or the server and its bot pool)'],
  [/^playwright(-core)?$|helpers\/browser\.ts$/, 'a browser'],
  [/^(bullmq|ioredis)$|local-redis\.ts$|helpers\/redis\.ts$|^\/queue\//, 'Redis'],
  [/\/bridge\/(bridge|process|vector-threads)\.ts$/, 'the bridge'],
  [/\/training\/(train|run)\.ts$/, 'a training run'],
];
const FORBIDDEN_CALLS: [RegExp, string][] = [
  [/\.listen\(/, 'a listening socket'],
  [/\bworkers\s*[,}]|\bworkers:(?!\s*0\b)|'--workers',\s*'(?!0')/, 'a tournament on worker threads (workers 0 plays in this thread)'],
  [/\b(main\(\[|run\()\s*'(train|exploit|serve|bridge|worker)'(?!,\s*'--help')/, 'a training run (train, exploit), a server, the bridge or a queue worker from the command line'],
  [/\bpython3?\b|CZECH_PUB_PYTHON|bin\/czech-pub/, 'Python, or the command line in another process'],
];
/** This file names the APIs in its rule. */
const SELF = 'test/test-projects.test.ts';

interface Project {
  name: string;
  include: string[];
  exclude: string[];
}

const projects: Project[] = (config.test?.projects ?? []).map((p) => {
  if (typeof p !== 'object' || p === null || !('test' in p) || !p.test) throw new Error('every project is an inline configuration');
  const t = p.test as { name?: unknown; include?: string[]; exclude?: string[] };
  return { name: String(t.name), include: t.include ?? [], exclude: t.exclude ?? [] };
});

/**
 * Whether a path relative to the root matches one of the patterns vitest.config.ts uses: a
 * literal path, `**∕*SUFFIX` (any folder, a file name ending in SUFFIX) or `**∕NAME∕**` (under a
 * folder NAME anywhere). Any other shape of pattern fails the test below, so this stays exact.
 */
function matches(file: string, pattern: string): boolean {
  let m = /^\*\*\/\*([^*/]+)$/.exec(pattern);
  if (m) return path.posix.basename(file).endsWith(m[1]);
  m = /^\*\*\/([^*/]+)\/\*\*$/.exec(pattern);
  if (m) return file.split('/').slice(0, -1).includes(m[1]);
  if (/[*?[\]{}!]/.test(pattern)) throw new Error(`pattern shape this test does not read: ${pattern}`);
  return file === pattern;
}

const inProject = (file: string, p: Project) => p.include.some((g) => matches(file, g)) && !p.exclude.some((g) => matches(file, g));

/** Every `*.test.ts` under the root, outside node_modules and .git (what vitest excludes). */
function testFiles(dir = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && e.name !== '.git') out.push(...testFiles(rel));
    } else if (e.isFile() && e.name.endsWith('.test.ts')) out.push(rel);
  }
  return out;
}

/** Comments removed, roughly: enough that prose naming an API is not taken for a call. */
const code = (src: string) => src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

/** What the rule finds in a file and the test/helpers modules it imports, transitively. */
function offences(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const src = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const found: string[] = [];
  for (const m of src.matchAll(/^\s*(?:import|export)\b[^'";]*?'([^']+)'|\bimport\(\s*'([^']+)'/gm)) {
    const spec = m[1] ?? m[2];
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
    // A relative import is matched as the path from the root, '/training/train.ts'.
    const name = spec.startsWith('.') ? `/${target}` : spec;
    for (const [re, what] of FORBIDDEN_IMPORTS) if (re.test(name)) found.push(`${file} imports '${spec}': ${what}`);
    if (spec.startsWith('.') && /^test\/(helpers|support)\//.test(target)) found.push(...offences(target, seen));
  }
  const body = code(src);
  for (const [re, what] of FORBIDDEN_CALLS) {
    const hit = re.exec(body);
    if (hit) found.push(`${file}: '${hit[0]}' starts ${what}`);
  }
  return found;
}

const FILES = testFiles();

describe('the test layers', () => {
  it('are the unit, integration and e2e projects, with patterns this test reads', () => {
    expect(projects.map((p) => p.name)).toEqual(['unit', 'integration', 'e2e']);
    for (const p of projects) for (const g of [...p.include, ...p.exclude]) expect(() => matches('a/b.test.ts', g)).not.toThrow();
  });

  it('put every test file in exactly one project', () => {
    expect(FILES.length).toBeGreaterThan(80);
    const wrong = FILES.map((f) => ({ f, in: projects.filter((p) => inProject(f, p)).map((p) => p.name) })).filter((x) => x.in.length !== 1);
    expect(wrong).toEqual([]);
  });

  it('name only files that exist in INTEGRATION, none of them a browser test', () => {
    for (const f of Object.keys(INTEGRATION)) {
      expect(FILES, f).toContain(f);
      expect(E2E.some((g) => matches(f, g)), f).toBe(false);
    }
  });

  it('keep the start-up APIs out of every unit test file', () => {
    const unit = projects.find((p) => p.name === 'unit')!;
    const found = FILES.filter((f) => f !== SELF && inProject(f, unit)).flatMap((f) => offences(f));
    expect(found, 'list such a file in INTEGRATION in vitest.config.ts').toEqual([]);
  });

  it('see what each integration file starts, or name it slow', () => {
    const unseen = Object.entries(INTEGRATION).filter(([f, why]) => !why.startsWith('slow') && offences(f).length === 0).map(([f]) => f);
    expect(unseen).toEqual([]);
  });
});
