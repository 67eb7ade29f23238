/**
 * One writer per run folder, and every stop the same. An llm-bench run in a child process
 * holds its --out folder: a second bench, `report` and `--resume` on it are refused while it
 * runs, naming its pid, and change nothing; SIGTERM and SIGHUP stop it as Ctrl-C does (the game
 * in play finishes, every report is written marked incomplete, the lock is freed, exit 1); and
 * the lock of a run killed outright is taken over by `--resume`, which says so.
 *
 * The model is a fake OpenAI-compatible server in this process that answers the first legal
 * action. It can hold its answers, which stops the run mid-game: the folder is then still,
 * so a refused writer is seen to leave it byte for byte as it was.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bufferIo } from './io.ts';
import { main } from './main.ts';
import { firstLegalCompletion, legalIds } from '../test/support/first-legal.ts';
import { cliEntry } from '../test/helpers/cli.ts';

/** The CLI, bundled for child processes (test/helpers/cli.ts). */
const BIN = await cliEntry();
let server: Server;
let base = '';
let tmp = '';
/** Requests the fake server has received. */
let requests = 0;
/** While set, answers wait in `held` until release(). */
let hold = false;
const held: (() => void)[] = [];
const children = new Set<ChildProcess>();

function release(): void {
  hold = false;
  for (const answer of held.splice(0)) answer();
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'czech-pub-writers-'));
  server = createServer((req, res) => {
    requests++;
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const legal = legalIds(body);
      const answer = () => setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(firstLegalCompletion(legal));
      }, 10);
      if (hold) held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  release();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmSync(tmp, { recursive: true, force: true });
});

const ARGS = (games: number, model = 'fake-model') => [
  'llm-bench', '--model', model, '--base-url', base, '--games', String(games), '--players', '4', '--opponents', 'random', '--concurrency', '1', '--seed', 'writers',
];
const gameLines = (dir: string) => (existsSync(join(dir, 'games.jsonl')) ? readFileSync(join(dir, 'games.jsonl'), 'utf8').split('\n').filter(Boolean).length : 0);

/**
 * Times for a run to hang before a test gives up on it: its start-up and games take seconds,
 * a busy machine several times more; not a speed check.
 */
const HUNG_MS = 120_000;
const TEST_MS = 300_000;

/** Waits for `ok`, failing after `ms`. */
async function until(ok: () => boolean, what: string, ms = HUNG_MS): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A bench in a child process, its stderr gathered, and its end. */
function startBench(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const run = { child, stderr: '', ended: null as Promise<{ code: number | null; signal: NodeJS.Signals | null }> | null };
  child.stdout!.resume();
  child.stderr!.on('data', (d) => (run.stderr += d));
  run.ended = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return run;
}

/** Bounded: the exit of a child that was told to stop. */
async function exitOf(run: ReturnType<typeof startBench>, ms = HUNG_MS) {
  return Promise.race([run.ended!, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the bench did not exit')), ms))]);
}

/** Stops the run mid-game: once `lines` games are written, answers are held until the run waits on one. */
async function pauseAt(dir: string, lines: number): Promise<void> {
  await until(() => gameLines(dir) >= lines, `${lines} games in ${dir}`);
  hold = true;
  await until(() => held.length > 0, 'the run to wait on a held answer');
}

/** Every file of a folder and its bytes. */
function snapshot(dir: string): Map<string, string> {
  return new Map(readdirSync(dir).sort().map((f) => [f, readFileSync(join(dir, f), 'latin1')]));
}

function expectStopped(dir: string) {
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
  expect(results.complete).toBe(false);
  expect(results.gamesPlayed).toBe(gameLines(dir));
  expect(readFileSync(join(dir, 'leaderboard.md'), 'utf8')).toContain('llm:fake-model');
  expect(existsSync(join(dir, 'report.html'))).toBe(true);
  expect(existsSync(join(dir, 'run.lock'))).toBe(false);
  return results;
}

describe('a run folder has one writer', () => {
  it('a second bench, report and --resume are refused while a bench runs, and change nothing; SIGTERM stops it as Ctrl-C does', async () => {
    const dir = join(tmp, 'first');
    const first = startBench([...ARGS(40), '--out', dir]);
    await pauseAt(dir, 2);
    const pid = first.child.pid!;
    expect(JSON.parse(readFileSync(join(dir, 'run.lock'), 'utf8'))).toMatchObject({ pid, command: 'czech-pub llm-bench' });
    const before = snapshot(dir);
    const sent = requests;

    const second = bufferIo();
    expect(await main([...ARGS(40, 'second-model'), '--out', dir], second)).toBe(1);
    expect(second.stderr.join('\n')).toMatch(new RegExp(`^llm-bench: .*first is in use by pid ${pid} \\(czech-pub llm-bench, since \\S+\\); wait for it to end, or stop it$`, 'm'));

    const report = bufferIo();
    expect(await main(['report', dir], report)).toBe(1);
    expect(report.stderr.join('\n')).toContain(`report: ${dir} is in use by pid ${pid} (czech-pub llm-bench`);

    const resume = bufferIo();
    expect(await main([...ARGS(40), '--out', dir, '--resume'], resume)).toBe(1);
    expect(resume.stderr.join('\n')).toContain(`is in use by pid ${pid}`);

    // Nothing sent, nothing written: the folder is the first run's, byte for byte.
    expect(requests).toBe(sent);
    expect(snapshot(dir)).toEqual(before);

    first.child.kill('SIGTERM');
    release();
    expect(await exitOf(first)).toEqual({ code: 1, signal: null });
    expect(first.stderr).toContain('Interrupted (SIGTERM): finishing with the games played so far (--resume goes on with the run).');
    const results = expectStopped(dir);
    expect(results.gamesPlayed).toBeGreaterThanOrEqual(2);
    expect(results.gamesPlayed).toBeLessThan(40);
    expect(readFileSync(join(dir, 'games.jsonl'), 'utf8')).not.toContain('second-model');
    // Once it has ended, the folder is free: report makes the reports again.
    expect(await main(['report', dir], bufferIo())).toBe(0);
  }, TEST_MS);

  it('SIGHUP stops a bench as Ctrl-C does', async () => {
    const dir = join(tmp, 'hangup');
    const run = startBench([...ARGS(8), '--out', dir]);
    await pauseAt(dir, 1);
    run.child.kill('SIGHUP');
    release();
    expect(await exitOf(run)).toEqual({ code: 1, signal: null });
    expect(run.stderr).toContain('Interrupted (SIGHUP): finishing with the games played so far (--resume goes on with the run).');
    expect(expectStopped(dir).gamesPlayed).toBeLessThan(8);
  }, TEST_MS);

  it('--resume takes over the lock of a run killed outright, says so, and completes the run', async () => {
    const dir = join(tmp, 'killed');
    const run = startBench([...ARGS(8), '--out', dir]);
    await pauseAt(dir, 2);
    const pid = run.child.pid!;
    run.child.kill('SIGKILL');
    expect(await exitOf(run)).toEqual({ code: null, signal: 'SIGKILL' });
    release();
    expect(JSON.parse(readFileSync(join(dir, 'run.lock'), 'utf8')).pid).toBe(pid);
    expect(existsSync(join(dir, 'results.json'))).toBe(false);

    const resumed = bufferIo();
    expect(await main([...ARGS(8), '--out', dir, '--resume'], resumed)).toBe(0);
    expect(resumed.stderr).toContain(`llm-bench: took over the lock of pid ${pid}, which is no longer running`);
    expect(gameLines(dir)).toBe(8);
    expect(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'))).toMatchObject({ complete: true, gamesPlayed: 8 });
    expect(existsSync(join(dir, 'run.lock'))).toBe(false);
  }, TEST_MS);
});
