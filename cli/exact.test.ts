import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CfrRecord } from './cfr.ts';
import { bufferIo } from './io.ts';
import { main } from './main.ts';
import type { NashConvRecord } from './nashconv.ts';

async function run(...argv: string[]) {
  const io = bufferIo();
  const code = await main(argv, io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

describe('czech-pub nashconv and cfr on the micro ruleset', () => {
  it('solves by CFR+, writes a tabular agent, and nashconv reads it back at the NashConv the solver reached', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-cfr-'));
    const out = path.join(dir, 'cfr');
    const solved = await run('cfr', '--players', '2', '--iterations', '20', '--out', out);
    expect(solved.code, solved.err).toBe(0);
    expect(solved.out).toMatch(/^tree of czech-pub-micro at 2 players: 28,606 nodes/);
    expect(solved.out).toMatch(/random's NashConv: 0\.465\d+/);
    const record = JSON.parse(fs.readFileSync(path.join(out, 'curve.json'), 'utf8')) as CfrRecord;
    expect(record.curve.map((p) => p.iterations)).toEqual([1, 2, 5, 10, 20]);
    expect(record.final.iterations).toBe(20);
    expect(record.final.nashConv).toBeLessThan(record.randomNashConv / 10);
    expect(fs.readFileSync(path.join(out, 'curve.svg'), 'utf8')).toMatch(/^<svg/);

    const json = path.join(dir, 'nashconv.json');
    const measured = await run('nashconv', '--agent', `random,tabular:${out}/policy.json,greedy`, '--out', json);
    expect(measured.code, measured.err).toBe(0);
    const r = JSON.parse(fs.readFileSync(json, 'utf8')) as NashConvRecord;
    expect(r.tree).toMatchObject({ nodes: 28_606, infosets: [3332, 4082] });
    expect(r.agents.map((a) => a.agent)).toEqual(['random', `tabular:${out}/policy.json`, 'greedy']);
    expect(r.agents[0].nashConv).toBeCloseTo(record.randomNashConv, 10);
    // The table holds the policy to 6 digits.
    expect(Math.abs(r.agents[1].nashConv - record.final.nashConv)).toBeLessThan(1e-3);
    for (const a of r.agents) for (let s = 0; s < 2; s++) expect(a.bestResponse[s]).toBeGreaterThanOrEqual(a.values[s]);
    // The same tree, under another name: the table is not for 3 players.
    const three = await run('nashconv', '--players', '3', '--agent', `tabular:${out}/policy.json`, '--ruleset', 'micro');
    expect(three.code).toBe(2);
    expect(three.err).toMatch(/is a policy for 2 players, not 3/);
    expect(three.out).toBe('');
    fs.rmSync(dir, { recursive: true });
  }, 300_000); // the tree walked twice and solved: seconds, a minute and more on a busy machine

  it('refuses what it cannot measure, in one line each', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-cfr-'));
    fs.writeFileSync(path.join(dir, 'x'), '');
    const cases: [string[], RegExp][] = [
      [['nashconv', '--agent', 'ismcts'], /agent 'ismcts' searches copies of the game/],
      [['nashconv', '--agent', 'random', '--players', '4'], /--players must be a whole number from 2 to 3, got '4'/],
      [['nashconv', '--agent', 'random', '--ruleset', 'standard', '--max-nodes', '500'], /ruleset czech-pub-standard at 2 players: .* more than 500 /],
      [['cfr', '--out', dir], /already holds files/],
    ];
    for (const [argv, want] of cases) {
      const r = await run(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(want);
    }
    fs.rmSync(dir, { recursive: true });
  });
});
