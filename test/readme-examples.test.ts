/**
 * The README's commands run as written. A code block that follows a `<!-- runnable -->` line is
 * run from the project folder as a reader would: a `sh` block line by line (a line that asks a
 * person types 1 at every prompt), a `ts` block saved beside the folders and run through tsx,
 * a `python` block with the package on the path (as `pip install ./python` would put it). Every
 * npm script the README names must exist. Unmarked blocks are set-up (`npm install`) or
 * long-running (`npm start`) commands. Every `npx czech-pub …` command the README quotes (the
 * results table's long runs among them) is read by its command's declaration as written, and
 * its agents are made, without playing.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agents/index.ts';
import { commandSpecs } from '../cli/readme-options.ts';
import { parseOptions } from '../cli/options.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

interface Block {
  lang: string;
  code: string;
  runnable: boolean;
  /** 1-based line of the opening fence. */
  line: number;
}

/** The fenced code blocks of a Markdown text, each marked runnable when the line before its fence (blank lines aside) is `<!-- runnable -->`. */
function codeBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)/.exec(lines[i]);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith('```'));
    if (end < 0) throw new Error(`README.md:${i + 1}: a code block is not closed`);
    let before = i - 1;
    while (before >= 0 && lines[before].trim() === '') before--;
    out.push({ lang: open[1], code: lines.slice(i + 1, end).join('\n'), runnable: lines[before]?.trim() === '<!-- runnable -->', line: i + 1 });
    i = end;
  }
  return out;
}

/** A sh block's commands: one per line, the trailing comment dropped. */
const commands = (code: string): string[] => code.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter((l) => l && !l.startsWith('#'));

function pythonWithNumpy(): string | null {
  for (const py of process.env.CZECH_PUB_PYTHON ? [process.env.CZECH_PUB_PYTHON] : ['/usr/bin/python3', 'python3']) {
    if (spawnSync(py, ['-c', 'import numpy'], { stdio: 'ignore' }).status === 0) return py;
  }
  return null;
}

function run(cmd: string, args: string[], o: { input?: string; env?: NodeJS.ProcessEnv } = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', input: o.input, env: { ...process.env, ...o.env }, timeout: 120_000, maxBuffer: 64 << 20 });
  return { status: r.status, out: `${r.stdout}\n${r.stderr}`, stdout: r.stdout };
}

const blocks = codeBlocks(README);
const runnable = blocks.filter((b) => b.runnable);

describe('README', () => {
  it('finds its code blocks and which are runnable', () => {
    expect(codeBlocks('a\n<!-- runnable -->\n\n```sh\nls\n```\n```ts\nx\n```\n').map((b) => [b.lang, b.code, b.runnable, b.line])).toEqual([
      ['sh', 'ls', true, 4],
      ['ts', 'x', false, 7],
    ]);
    expect(commands('npx a --b 1   # says\n# a comment\n\nnpm start')).toEqual(['npx a --b 1', 'npm start']);
    expect(runnable.map((b) => b.lang).sort()).toEqual(['python', 'sh', 'ts']);
  });

  it('names only npm scripts that exist', () => {
    const scripts = Object.keys(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts);
    const named = [...README.matchAll(/npm (?:run )?([\w:-]+)/g)].map((m) => m[1]).filter((n) => !['install', 'ci', 'run', 'pack'].includes(n));
    expect(named.length).toBeGreaterThan(3);
    expect(named.filter((n) => !scripts.includes(n))).toEqual([]);
  });

  it('quotes only czech-pub commands that parse as written, with agents that exist', async () => {
    const inline = [...README.matchAll(/`npx czech-pub ([^`]+)`/g)].map((m) => m[1].trim());
    const inBlocks = blocks.filter((x) => x.lang === 'sh').flatMap((x) => commands(x.code)).filter((c) => c.startsWith('npx czech-pub ')).map((c) => c.slice(14));
    const quoted = [...inline, ...inBlocks];
    expect(quoted.length).toBeGreaterThan(5);
    const specs = await commandSpecs();
    const problems: string[] = [];
    for (const cmd of quoted) {
      const words = cmd.split(/\s+/);
      const spec = specs.find((s) => s.name === `${words[0]} ${words[1]}`) ?? specs.find((s) => s.name === words[0]);
      if (!spec) {
        problems.push(`${cmd}: no command ${words[0]}`);
        continue;
      }
      const args = words.slice(spec.name.split(' ').length);
      try {
        const parsed = parseOptions(spec, args) as { values: { agents?: string[] } } | null;
        for (const a of parsed?.values.agents ?? []) createAgent(a);
      } catch (e) {
        problems.push(`${cmd}: ${(e as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
  });

  for (const b of runnable.filter((x) => x.lang === 'sh')) {
    for (const cmd of commands(b.code)) {
      it(`README.md:${b.line}: ${cmd}`, () => {
        const words = cmd.split(/\s+/);
        // `npx czech-pub` is this package's bin, run the way npx runs it.
        const [exe, args] = words[0] === 'npx' && words[1] === 'czech-pub' ? [process.execPath, ['bin/czech-pub.js', ...words.slice(2)]] : [words[0], words.slice(1)];
        const r = run(exe, args, { input: '1\n'.repeat(2000) });
        expect(r.status, r.out).toBe(0);
        expect(r.stdout).toMatch(/Winner|wins|won/);
      }, 130_000);
    }
  }

  for (const b of runnable.filter((x) => x.lang === 'ts')) {
    it(`README.md:${b.line}: the TypeScript example runs through tsx`, () => {
      const file = path.join(ROOT, `.readme-example-${process.pid}.ts`);
      fs.writeFileSync(file, b.code);
      try {
        const r = run(process.execPath, ['--import', 'tsx', file]);
        expect(r.status, r.out).toBe(0);
        expect(r.stdout).toMatch(/returns \[.*\] scores \[.*\]/s);
      } finally {
        fs.rmSync(file, { force: true });
      }
    }, 130_000);
  }

  for (const b of runnable.filter((x) => x.lang === 'python')) {
    it.skipIf(process.env.CZECH_PUB_SKIP_PYTHON === '1')(`README.md:${b.line}: the Python example runs`, () => {
      const py = pythonWithNumpy();
      if (!py) throw new Error('no python3 with numpy found: install python3-numpy (or set CZECH_PUB_SKIP_PYTHON=1)');
      const r = run(py, ['-c', b.code], { env: { PYTHONPATH: path.join(ROOT, 'python') } });
      expect(r.status, r.out).toBe(0);
    }, 130_000);
  }
});
