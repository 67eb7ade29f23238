/**
 * The documents' runnable blocks run as written, the way a newcomer who cloned the repository
 * runs them: every fenced block marked `<!-- runnable -->` (test/helpers/doc-blocks.ts has
 * the marks) in the README, docs/python.md, python/README.md, docs/http-api.md and
 * docs/llm.md, in that order, each document's blocks in its own order, all in one place:
 *
 * - a fresh copy of the checkout in a temporary folder: its tracked and unignored files, as a
 *   clone has them (so no bundled engine, no build folders), with node_modules linked from
 *   this checkout, as after the README's `npm install`;
 * - a venv made over Debian's python3 with `--system-site-packages` (its numpy and
 *   setuptools), active for every block as a reader's Python environment is: its `python3`
 *   and `pip` come first on the PATH. pip runs without a package index (PIP_NO_INDEX) and
 *   builds with the venv's setuptools (PIP_NO_BUILD_ISOLATION=0), as docs/python.md says to
 *   where there is no index, so the test needs none.
 *
 * A `sh` block runs as one bash script (stopping at the first failing command), its standard
 * input a person answering 1 at every prompt; a `ts` block is saved as example.ts in the copy
 * and run with `node --import tsx example.ts`, as the README says; a `python` block is saved
 * to a file and run with the venv's python3. Each must exit 0. A block marked `server` runs
 * against `czech-pub serve` started from the copy on a free port of 127.0.0.1 (`--no-state`),
 * whose address replaces 127.0.0.1:8787 in the block. A block marked `torch` is skipped,
 * saying why, where the venv's python3 cannot import torch, unless CZECH_PUB_REQUIRE_TORCH=1
 * (.ci/run installs Debian's python3-torch and sets it), where that fails the test.
 * CZECH_PUB_SKIP_PYTHON=1 skips, as elsewhere, every block that runs Python or pip.
 *
 * Unmarked blocks are set-up or long-running (`npm install`, `npm start`, the 15-minute
 * training run) or need what no test here has (a model server, a package index).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeBlocks, type Block } from './helpers/doc-blocks.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOCS = ['README.md', 'docs/python.md', 'python/README.md', 'docs/http-api.md', 'docs/llm.md'];
/** Debian's python3, with numpy and setuptools (.ci/run installs them). */
const PY = '/usr/bin/python3';
const SKIP_PYTHON = process.env.CZECH_PUB_SKIP_PYTHON === '1';
/** Where the documents say the server is. */
const DOC_SERVER = '127.0.0.1:8787';

let work = '';
let copy = '';
let venv = '';
let server: ChildProcess | null = null;
let serverAddress = '';

/** The environment of a reader whose venv is active: no CZECH_PUB_BRIDGE, PYTHONPATH or NODE_OPTIONS of this test run's. */
function readerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${path.join(venv, 'bin')}${path.delimiter}${process.env.PATH}`,
    VIRTUAL_ENV: venv,
    PIP_NO_INDEX: '1',
    PIP_NO_BUILD_ISOLATION: '0',
    PIP_DISABLE_PIP_VERSION_CHECK: '1',
  };
  for (const k of ['CZECH_PUB_BRIDGE', 'PYTHONPATH', 'NODE_OPTIONS', 'PYTHONHOME']) delete env[k];
  return env;
}

function run(cmd: string, args: string[], input?: string) {
  const r = spawnSync(cmd, args, { cwd: copy, env: readerEnv(), input, encoding: 'utf8', timeout: 150_000, maxBuffer: 64 << 20 });
  return { status: r.status, out: `${r.stdout}\n${r.stderr}${r.error ? `\n${r.error.message}` : ''}` };
}

function ok(cmd: string, args: string[], opts: { cwd?: string } = {}): string {
  const r = spawnSync(cmd, args, { cwd: opts.cwd ?? ROOT, encoding: 'utf8', timeout: 150_000, maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** The checkout as a clone has it: the files git tracks or would track, those present now (this work tree's edits included). */
function copyCheckout(to: string): void {
  const files = ok('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard']).split('\0').filter(Boolean);
  for (const f of files) {
    const from = path.join(ROOT, f);
    if (!fs.existsSync(from) || fs.lstatSync(from).isDirectory()) continue;
    fs.mkdirSync(path.dirname(path.join(to, f)), { recursive: true });
    fs.copyFileSync(from, path.join(to, f));
    fs.chmodSync(path.join(to, f), fs.statSync(from).mode);
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(to, 'node_modules'), 'dir');
}

async function startServer(): Promise<string> {
  const child = spawn(process.execPath, ['bin/czech-pub.js', 'serve', '--port', '0', '--no-state'], { cwd: copy, env: readerEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  server = child;
  let said = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`czech-pub serve did not say where it listens in 60 s: ${said}`)), 60_000);
    const read = (d: Buffer) => {
      said += d.toString();
      const m = /listening on http:\/\/(127\.0\.0\.1:\d+)/.exec(said);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => reject(new Error(`czech-pub serve exited ${code}: ${said}`)));
  });
}

const runsPython = (b: Block) => b.lang === 'python' || /\b(python3?|pip)\b/.test(b.code);
const torchImports = () => spawnSync(path.join(venv, 'bin', 'python3'), ['-c', 'import torch'], { stdio: 'ignore' }).status === 0;

/** Runs a block as the module comment says; its exit status and output. */
async function runBlock(b: Block, file: string) {
  let code = b.code;
  if (b.runnable!.includes('server')) {
    serverAddress ||= await startServer();
    code = code.replaceAll(DOC_SERVER, serverAddress);
  }
  const tag = `${path.basename(file, '.md')}-${b.line}`;
  if (b.lang === 'sh' || b.lang === 'bash') {
    const script = path.join(work, `${tag}.sh`);
    fs.writeFileSync(script, `set -eo pipefail\n${code}\n`);
    return run('bash', [script], '1\n'.repeat(2000));
  }
  if (b.lang === 'ts') {
    fs.writeFileSync(path.join(copy, 'example.ts'), code);
    return run(process.execPath, ['--import', 'tsx', 'example.ts']);
  }
  if (b.lang === 'python') {
    const script = path.join(work, `${tag}.py`);
    fs.writeFileSync(script, code);
    return run('python3', [script]);
  }
  throw new Error(`${file}:${b.line}: a runnable block in '${b.lang}', which this test cannot run (sh, ts, python)`);
}

const documents = DOCS.map((file) => ({ file, blocks: codeBlocks(fs.readFileSync(path.join(ROOT, file), 'utf8'), file).filter((b) => b.runnable) }));

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-docs-'));
  copy = path.join(work, 'czech-pub-gym');
  venv = path.join(work, 'venv');
  copyCheckout(copy);
  if (!SKIP_PYTHON) ok(PY, ['-m', 'venv', '--system-site-packages', venv], { cwd: work });
}, 120_000);

afterAll(() => {
  server?.kill();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('the documents mark the blocks a reader runs', () => {
  it('each document has runnable blocks: the install and first examples, a whole game over HTTP, a dry run', () => {
    const langs = Object.fromEntries(documents.map((d) => [d.file, d.blocks.map((b) => `${b.lang}${b.runnable!.length ? `:${b.runnable!.join('+')}` : ''}`)]));
    expect(langs).toEqual({
      'README.md': ['sh', 'sh', 'ts', 'python'],
      'docs/python.md': ['sh', 'python', 'sh:torch'],
      'python/README.md': ['python'],
      'docs/http-api.md': ['sh:server', 'python:server'],
      'docs/llm.md': ['sh'],
    });
  });

  it('reads the marks, and refuses one it cannot read', () => {
    const doc = 'a\n<!-- runnable: server, torch -->\n\n```python\nx\n```\n```sh\ny\n```\n<!-- runnable -->\n```ts\nz\n```\n';
    expect(codeBlocks(doc).map((b) => [b.lang, b.code, b.line, b.runnable])).toEqual([['python', 'x', 4, ['server', 'torch']], ['sh', 'y', 7, null], ['ts', 'z', 11, []]]);
    expect(() => codeBlocks('<!-- runnable: gpu -->\n```sh\nls\n```\n', 'x.md')).toThrow(/x\.md:1: a runnable block needs 'gpu'/);
    expect(() => codeBlocks('<!-- runnable -->\ntext\n```sh\nls\n```\n', 'x.md')).toThrow(/x\.md:1: a runnable mark is not followed by a code block/);
    expect(() => codeBlocks('<!-- runnable-->\n```sh\nls\n```\n', 'x.md')).not.toThrow();
    expect(() => codeBlocks('<!-- runnables -->\n```sh\nls\n```\n', 'x.md')).toThrow(/is not a runnable mark/);
  });
});

for (const { file, blocks } of documents) {
  describe(file, () => {
    for (const b of blocks) {
      const first = b.code.split('\n').find((l) => l.trim() && !l.trim().startsWith('#')) ?? '';
      it(`${file}:${b.line} (${b.lang}${b.runnable!.length ? `, needs ${b.runnable!.join(', ')}` : ''}): ${first.slice(0, 70)}`, async (ctx) => {
        if (SKIP_PYTHON && runsPython(b)) ctx.skip('CZECH_PUB_SKIP_PYTHON=1: a block that runs Python or pip');
        if (b.runnable!.includes('torch') && !torchImports()) {
          if (process.env.CZECH_PUB_REQUIRE_TORCH === '1') throw new Error('CZECH_PUB_REQUIRE_TORCH=1 but torch does not import in the venv (Debian: python3-torch)');
          ctx.skip("PyTorch does not import in the venv made over Debian's python3 (pip install torch, or apt-get install python3-torch): the block that trains with it is skipped");
        }
        const r = await runBlock(b, file);
        expect(r.status, `${file}:${b.line} exited ${r.status}:\n${r.out.slice(-4000)}`).toBe(0);
      }, 180_000);
    }
  });
}
