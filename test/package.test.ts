/**
 * The npm package as a consumer gets it: `npm pack` (which builds dist/), the tarball installed
 * into an empty project outside the checkout with no dev dependencies (so no tsx and no
 * TypeScript sources), and there the env imported from plain JavaScript and from TypeScript,
 * a seeded game played to the same end as in the repository, and the `czech-pub` binary run
 * (a tournament's worker threads included), its `bridge` serving the Python package.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CzechPubEnv, randInt, seedRng } from '../env/index.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** The same seeded game, as the consumer's script plays it: random legal actions from a seeded stream. */
const GAME = `
const env = new CzechPubEnv({ seed: 7, players: 4 });
const rng = seedRng('consumer');
while (!env.done) {
  const legal = env.legalActions();
  env.step(legal[randInt(rng, legal.length)]);
}
console.log(JSON.stringify({ scores: env.scores(), actions: env.actions.length, ended: env.endReason }));
`;

function repositoryGame() {
  const env = new CzechPubEnv({ seed: 7, players: 4 });
  const rng = seedRng('consumer');
  while (!env.done) {
    const legal = env.legalActions();
    env.step(legal[randInt(rng, legal.length)]);
  }
  return { scores: env.scores(), actions: env.actions.length, ended: env.endReason };
}

let work = '';
let app = '';
let tarball = '';
let files: { path: string; size: number }[] = [];

function run(cmd: string, args: string[], cwd = app) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' }, timeout: 300_000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

describe('the npm package, installed from its tarball', () => {
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'czech-pub-package-'));
    // npm pack runs prepack, which builds dist/.
    const packed = JSON.parse(execFileSync(NPM, ['pack', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] }).replace(/^[^[]*/, '')) as { filename: string; files: { path: string; size: number }[] }[];
    tarball = join(work, packed[0].filename);
    files = packed[0].files;
    app = join(work, 'app');
    run('mkdir', ['-p', app], work);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    run(NPM, ['install', tarball, '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error']);
  }, 600_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('holds the compiled code, the shipped models and the web page, and no tests, sources or experiment records', () => {
    const paths = files.map((f) => f.path);
    expect(paths).toContain('dist/env/index.js');
    expect(paths).toContain('dist/env/index.d.ts');
    expect(paths).toContain('dist/eval/worker.js');
    expect(paths).toContain('bin/czech-pub.js');
    for (const n of [2, 4, 6]) expect(paths).toContain(`dist/models/ppo-${n}p.json`);
    expect(paths).toContain('dist/web/index.html');
    const unwanted = paths.filter((p) => /\.test\.|(^|\/)test\/|^docs\/|results\/|metrics|\.svg$|\.png$|\.py$|(?<!\.d)\.ts$/.test(p));
    expect(unwanted).toEqual([]);
    expect(statSync(tarball).size).toBeLessThan(8 << 20);
  });

  it('installs without tsx or any dev dependency', () => {
    const installed = readdirSync(join(app, 'node_modules'));
    for (const dev of ['tsx', 'typescript', 'vitest', 'typedoc']) expect(installed).not.toContain(dev);
    expect(existsSync(join(app, 'node_modules/czech-pub-gym/dist/cli/main.js'))).toBe(true);
  });

  it('plays a seeded game from plain JavaScript to the same end as the repository', () => {
    writeFileSync(join(app, 'game.mjs'), `import { CzechPubEnv, randInt, seedRng } from 'czech-pub-gym';\n${GAME}`);
    expect(JSON.parse(run(process.execPath, ['game.mjs']))).toEqual(repositoryGame());
  });

  it('type-checks a TypeScript consumer against the shipped types, which catch a wrong type', () => {
    const source = (extra: string) => `import { CzechPubEnv, randInt, seedRng, type PlayerView } from 'czech-pub-gym';
import { createAgent } from 'czech-pub-gym/agents';
import { runTournament } from 'czech-pub-gym/eval';
${GAME}
const view: PlayerView = env.view(0);
console.log(view.seat, createAgent('heuristic').spec, typeof runTournament);
${extra}
`;
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, outDir: 'out', types: [] },
      files: ['game.ts'],
    }));
    writeFileSync(join(app, 'game.ts'), source('const wrong: string = env.scores();'));
    const bad = spawnSync(process.execPath, [TSC, '-p', '.'], { cwd: app, encoding: 'utf8' });
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toMatch(/game\.ts\(\d+,\d+\): error TS2322: Type 'number\[\]' is not assignable to type 'string'/);
    expect(bad.stdout.split('\n').filter((l) => l.includes('error')).length).toBe(1);
    writeFileSync(join(app, 'game.ts'), source(''));
    run(process.execPath, [TSC, '-p', '.']);
    const out = run(process.execPath, ['out/game.js']).split('\n');
    expect(JSON.parse(out[0])).toEqual(repositoryGame());
    expect(out[1]).toBe('0 heuristic function');
  });

  it('runs the czech-pub binary: a narrated game and a tournament on worker threads', () => {
    const play = run(NPM, ['exec', '--', 'czech-pub', 'play', '--seed', '3']);
    expect(play).toMatch(/Winner|Winners/);
    const t = run(NPM, ['exec', '--', 'czech-pub', 'tournament', '--agents', 'ppo,heuristic', '--games', '4', '--workers', '2', '--json']);
    const r = JSON.parse(t) as { games: number; complete: boolean; workers: number; agents: { spec: string; games: number }[] };
    expect(r).toMatchObject({ games: 4, complete: true, workers: 2 });
    expect(r.agents.map((a) => a.spec).sort()).toEqual(['heuristic', 'ppo']);
  });

  it.skipIf(process.env.CZECH_PUB_SKIP_PYTHON === '1')('serves `czech-pub bridge` to the Python package: its handshake, a vector env on worker threads', () => {
    const script = 'import czech_pub\nvec = czech_pub.vector_env(num_envs=32, players=4, seed=1, threads=2)\nobs, mask, info = vec.reset()\nvec.step(mask.argmax(axis=1))\nprint(vec.threads, vec._bridge.info()["package"])';
    const r = spawnSync('/usr/bin/python3', ['-c', script], {
      cwd: app,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, NODE_OPTIONS: '', PYTHONPATH: join(ROOT, 'python'), CZECH_PUB_BRIDGE: `${join(app, 'node_modules/.bin/czech-pub')} bridge` },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(`2 ${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}`);
  });
});
