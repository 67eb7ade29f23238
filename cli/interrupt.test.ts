import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../policy/checkpoint.ts';
import { cliEntry } from '../test/helpers/cli.ts';

/** The CLI, bundled for child processes (test/helpers/cli.ts). */
const BIN = await cliEntry();

function lines(file: string): number {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
}

/**
 * Waits until `ok()` holds, failing if the child exits first or `ms` pass: a bound for a hung
 * run, far beyond what a busy machine takes, not a speed check.
 */
async function until(child: ChildProcess, ok: () => boolean, what: string, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the run ended before ${what}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`no ${what} in ${ms / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('czech-pub tournament, stopped by Ctrl-C or SIGTERM', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('%s: writes the results of the games finished so far, frees the folder and exits 1', async (signal) => {
    const dir = mkdtempSync(join(tmpdir(), 'czech-pub-sigint-'));
    // Enough games to be stopped long before the end (a larger schedule takes seconds to make).
    const child = spawn(process.execPath, [BIN, 'tournament', '--agents', 'random,random,random,random', '--games', '20000',
      '--workers', '1', '--out', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const gamesFile = join(dir, 'games.jsonl');
    await until(child, () => lines(gamesFile) >= 50, '50 games');
    expect(JSON.parse(readFileSync(join(dir, 'run.lock'), 'utf8')).pid).toBe(child.pid);
    child.kill(signal);
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(1);
    expect(stderr).toContain(`${signal === 'SIGINT' ? 'Interrupted' : `Interrupted (${signal})`}: finishing with the games played so far (--resume goes on with the run).`);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    expect(results.complete).toBe(false);
    expect(results.gamesPlayed).toBeGreaterThanOrEqual(50);
    expect(results.gamesPlayed).toBe(lines(gamesFile));
    expect(results.summary.agents[0].games).toBe(4 * results.gamesPlayed);
    expect(stdout).toContain('interrupted:');
    expect(existsSync(join(dir, 'run.lock'))).toBe(false);
  }, 180_000);
});

describe('czech-pub train, interrupted with Ctrl-C', () => {
  it('finishes the iteration, evaluates, writes a loadable checkpoint and exits 1', async () => {
    const out = mkdtempSync(join(tmpdir(), 'czech-pub-train-sigint-'));
    const child = spawn(process.execPath, [BIN, 'train', '--steps', '100000000', '--envs', '4', '--rollout', '256', '--hidden', '8',
      '--eval-every', '1000', '--eval-deals', '1', '--eval-vs', 'random', '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    await until(child, () => /iter 3:/.test(stderr), 'third iteration');
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(1);
    const dir = stdout.match(/Run directory: (.*)/)?.[1] ?? '';
    const iterations = readFileSync(join(dir, 'metrics.jsonl'), 'utf8').split('\n').filter((l) => l.includes('"kind":"iteration"')).length;
    expect(iterations).toBeGreaterThanOrEqual(3);
    expect(loadCheckpoint(join(dir, 'model.json')).iteration).toBe(iterations);
    expect(readFileSync(join(dir, 'metrics.jsonl'), 'utf8')).toContain('"kind":"eval"');
    expect(stdout).toContain('interrupted:');
  }, 180_000);
});
