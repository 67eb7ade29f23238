import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../policy/checkpoint.ts';

const BIN = new URL('../bin/czech-pub.js', import.meta.url).pathname;

function lines(file: string): number {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
}

describe('czech-pub tournament, interrupted with Ctrl-C', () => {
  it('writes the results of the games finished so far and exits 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'czech-pub-sigint-'));
    const child = spawn(process.execPath, [BIN, 'tournament', '--agents', 'random,random,random,random', '--games', '2000000',
      '--workers', '1', '--out', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    const gamesFile = join(dir, 'games.jsonl');
    const deadline = Date.now() + 30_000;
    while (lines(gamesFile) < 50 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(1);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    expect(results.complete).toBe(false);
    expect(results.gamesPlayed).toBeGreaterThanOrEqual(50);
    expect(results.gamesPlayed).toBe(lines(gamesFile));
    expect(results.summary.agents[0].games).toBe(4 * results.gamesPlayed);
    expect(stdout).toContain('interrupted:');
  }, 60_000);
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
    const deadline = Date.now() + 40_000;
    while (!/iter 3:/.test(stderr) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(1);
    const dir = stdout.match(/Run directory: (.*)/)?.[1] ?? '';
    const iterations = readFileSync(join(dir, 'metrics.jsonl'), 'utf8').split('\n').filter((l) => l.includes('"kind":"iteration"')).length;
    expect(iterations).toBeGreaterThanOrEqual(3);
    expect(loadCheckpoint(join(dir, 'model.json')).iteration).toBe(iterations);
    expect(readFileSync(join(dir, 'metrics.jsonl'), 'utf8')).toContain('"kind":"eval"');
    expect(stdout).toContain('interrupted:');
  }, 60_000);
});
