/**
 * The npm package as a consumer gets it: `npm pack` (which builds dist/), the tarball installed
 * into an empty project outside the checkout with no dev dependencies (so no tsx and no
 * TypeScript sources), and there the env imported from plain JavaScript and from TypeScript,
 * a seeded game played to the same end as in the repository, and the `czech-pub` binary run
 * (a tournament's worker threads included), its `bridge` serving the Python package. No
 * container builder runs here, so the Dockerfile and the systemd unit are checked against the
 * same package: every path the image copies, and their start commands run from the installed,
 * compiled tree.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CzechPubEnv, randInt, seedRng } from '../env/index.ts';
import { loadConfig } from '../server/index.ts';

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

/**
 * A test that runs the installed package in child processes (tsc, the CLI, the server): bounded
 * as they are (run()'s 300 s; serveAndCheck's 60 s to listen, 600 looks at the game and 30 s
 * for the health check), not by the 60 s default, which tsc alone may take on a busy machine.
 */
const CHILD_TEST_MS = 300_000;

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
    // Hundreds of megabytes of node_modules.
    if (work) rmSync(work, { recursive: true, force: true });
  }, 120_000);

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
  }, CHILD_TEST_MS);

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
  }, CHILD_TEST_MS);

  it('runs the czech-pub binary: a narrated game and a tournament on worker threads', () => {
    const play = run(NPM, ['exec', '--', 'czech-pub', 'play', '--seed', '3']);
    expect(play).toMatch(/Winner|Winners/);
    const t = run(NPM, ['exec', '--', 'czech-pub', 'tournament', '--agents', 'ppo,heuristic', '--games', '4', '--workers', '2', '--json']);
    const r = JSON.parse(t) as { games: number; complete: boolean; workers: number; agents: { spec: string; games: number }[] };
    expect(r).toMatchObject({ games: 4, complete: true, workers: 2 });
    expect(r.agents.map((a) => a.spec).sort()).toEqual(['heuristic', 'ppo']);
  }, CHILD_TEST_MS);

  it("builds the image from paths that exist, and the image's CMD and HEALTHCHECK serve from the packed package", async () => {
    const docker = readFileSync(join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ');
    const lines = docker.split('\n').filter((l) => l.trim() && !l.startsWith('#'));
    const stages = lines.filter((l) => l.startsWith('FROM ')).map((l) => /^FROM (\S+) AS (\S+)$/.exec(l)?.[2]);
    expect(stages).toEqual(['build', 'runtime']);
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n').filter(Boolean);
    for (const l of lines.filter((x) => x.startsWith('COPY ') && !x.includes('--from='))) {
      for (const src of l.split(/\s+/).slice(1, -1)) {
        expect(existsSync(join(ROOT, src)), `${src} (${l})`).toBe(true);
        expect(ignored, `${src} is in .dockerignore`).not.toContain(src.replace(/\/$/, ''));
      }
    }
    // npm pack's tarball holds the package under package/; the runtime copies that.
    expect(lines).toContain('COPY --from=build /pkg/package/ ./');
    loadConfig(join(ROOT, 'deploy/config.json'));
    expect(lines.filter((l) => l.startsWith('USER '))).toEqual(['USER node']);
    const cmd = JSON.parse(/^CMD (.*)$/m.exec(docker)![1]) as string[];
    const health = JSON.parse(/^HEALTHCHECK .*?CMD (\[.*\])$/m.exec(docker)![1]) as string[];
    expect(cmd.slice(0, 3)).toEqual(['node', 'bin/czech-pub.js', 'serve']);
    // Live games survive a restart of the container (docs/deploy.md).
    expect(cmd[cmd.indexOf('--state-dir') + 1]).toBe('/data/games');
    expect(files.map((f) => f.path)).toContain(cmd[1]);
    const port = cmd[cmd.indexOf('--port') + 1];
    expect(health.join(' ')).toContain(`http://127.0.0.1:${port}/healthz`);
    // The CMD as the image runs it, in the installed package (WORKDIR /app), on a free loopback port.
    const mounts = { '/config/config.json': join(ROOT, 'deploy/config.json'), '/models': join(work, 'models'), '/data/games': join(work, 'docker-games') };
    await serveAndCheck(cmd, join(app, 'node_modules/czech-pub-gym'), mounts, (url) => health.map((a) => a.replace(`127.0.0.1:${port}`, new URL(url).host)));
  }, CHILD_TEST_MS);

  it('the systemd unit starts the same compiled server from the installed package', async () => {
    const unit = readFileSync(join(ROOT, 'deploy/czech-pub.service'), 'utf8');
    const exec = /^ExecStart=(.*)$/m.exec(unit)![1].split(/\s+/);
    expect(exec.slice(0, 3)).toEqual(['/usr/bin/node', '/opt/czech-pub/node_modules/czech-pub-gym/bin/czech-pub.js', 'serve']);
    const cmd = [process.execPath, exec[1].replace('/opt/czech-pub', app), ...exec.slice(2)];
    const mounts = { '/etc/czech-pub/config.json': join(ROOT, 'deploy/config.json'), '/var/lib/czech-pub/models': join(work, 'models'), '/var/lib/czech-pub/games': join(work, 'unit-games') };
    await serveAndCheck(cmd, app, mounts, null);
  }, CHILD_TEST_MS);

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

/**
 * Starts the server as `cmd` says (paths mapped to the test's own, the port 0 and the host
 * loopback), checks /healthz, the web page, a game its bot pool's worker threads play and the
 * health check command, then stops it with SIGTERM, as docker and systemd do.
 */
async function serveAndCheck(cmd: readonly string[], cwd: string, mounts: Record<string, string>, healthCheck: ((url: string) => string[]) | null) {
  mkdirSync(join(work, 'models'), { recursive: true });
  const args = cmd.slice(1).map((a, i, all) => (all[i - 1] === '--port' ? '0' : all[i - 1] === '--host' ? '127.0.0.1' : (mounts[a] ?? a)));
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    let err = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no 'listening' line in 60 s: ${err}`)), 60_000);
      child.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
        const m = /listening on (http:\/\/\S+?) /.exec(err);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child.once('exit', (code) => reject(new Error(`the server exited ${code}: ${err}`)));
    });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
    // A game of the catalogue's search bots, which the server's bot pool plays on worker threads.
    const made = await fetch(`${url}/v1/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seats: ['ismcts', 'random'], seed: 'pool' }) });
    expect(made.status).toBe(201);
    const { id, watchToken } = (await made.json()) as { id: string; watchToken: string };
    let view: { done: boolean; steps: number } = { done: false, steps: 0 };
    for (let k = 0; k < 600 && !view.done; k++) {
      if (k > 0) await new Promise((r) => setTimeout(r, 100));
      view = (await (await fetch(`${url}/v1/games/${id}/view`, { headers: { authorization: `Bearer ${watchToken}` } })).json()) as typeof view;
    }
    expect(view.done).toBe(true);
    expect(view.steps).toBeGreaterThan(10);
    if (healthCheck) {
      const [exe, ...rest] = healthCheck(url);
      expect(exe).toBe('node');
      expect(spawnSync(process.execPath, rest, { timeout: 30_000 }).status).toBe(0);
    }
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

