import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bufferIo } from './io.ts';
import { main } from './main.ts';

async function run(...argv: string[]) {
  const io = bufferIo();
  const code = await main(argv, io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

describe('czech-pub train', () => {
  it('prints its usage, and bench train its own', async () => {
    const r = await run('train', '--help');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Usage: czech-pub train/);
    expect(r.out).toContain('--resume DIR');
    const b = await run('bench', 'train', '--help');
    expect(b.code).toBe(0);
    expect(b.out).toMatch(/^Usage: czech-pub bench train/);
  });

  it.each([
    [['train', '--backend', 'gpu'], "--backend must be one of auto, node, wasm, cpu, got 'gpu'"],
    [['train', '--players', '7'], '--players must be a whole number from 2 to 6'],
    [['train', '--reward', 'money'], "--reward must be one of win, rank, score, got 'money'"],
    [['train', '--hidden', '256,x'], "--hidden must be widths like 256,256, got '256,x'"],
    [['train', '--resume', '/nonexistent/run'], '/nonexistent/run is not a training run directory (no options.json)'],
    [['train', '--resume', '/nonexistent/run', '--seed', '3'], '--resume continues a run with its own options; drop --seed'],
    [['bench', 'train', '--iterations', '1'], '--iterations must be a whole number from 2 to 100'],
  ])('%j fails with a usage error naming the problem', async (argv, message) => {
    const r = await run(...argv);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
  });

  it('trains for a few steps from the command line and says where the run is', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-train-'));
    const r = await run('train', '--steps', '300', '--envs', '4', '--rollout', '256', '--hidden', '8', '--eval-deals', '1', '--eval-vs', 'random', '--out', out, '--seed', '5');
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/backend: (node|wasm|cpu)/);
    const dir = r.out.match(/Run directory: (.*)/)?.[1];
    expect(dir && fs.existsSync(path.join(dir, 'model.json'))).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(dir!, 'options.json'), 'utf8')).options.seed).toBe(5);
  });
});
