import { describe, expect, it } from 'vitest';
import { bufferIo } from './io.ts';
import { main } from './main.ts';

async function play(...args: string[]): Promise<string[]> {
  const io = bufferIo();
  expect(await main(['play', ...args], io)).toBe(0);
  expect(io.stderr).toEqual([]);
  return io.stdout;
}

describe('czech-pub play', () => {
  it('prints a narrated game, a score table and the winner', async () => {
    const out = await play('--seed', '1');
    expect(out[0]).toBe('Czech Pub: 4 players, seed 1, random agents (ruleset czech-pub-standard).');
    expect(out).toContain('=== Turn 1: Player 0 ===');
    expect(out.some((l) => /^ {2}Player \d (plays|discards|draws) /.test(l))).toBe(true);
    expect(out.some((l) => l.startsWith('  Game over. Scores: '))).toBe(true);
    expect(out.some((l) => /^Final scores after \d+ turns and \d+ decisions:$/.test(l))).toBe(true);
    expect(out.at(-1)).toMatch(/^Winners?( \(shared\))?: Player \d/);
    expect(out.filter((l) => /^ {2}Player \d[ *]/.test(l) && /\d+$/.test(l))).toHaveLength(4);
  });

  it('prints the same game for the same seed, and another for another seed', async () => {
    const a = await play('--seed', 'pub-42', '--players', '3');
    const b = await play('--seed', 'pub-42', '--players', '3');
    const c = await play('--seed', 'pub-43', '--players', '3');
    expect(a).toEqual(b);
    expect(c).not.toEqual(a);
  });

  it('plays every player count, and with everyone asked', async () => {
    for (const n of [2, 6]) {
      const out = await play('--seed', '7', '--players', String(n));
      expect(out[0]).toContain(`${n} players`);
      expect(out.at(-1)).toMatch(/^Winner/);
    }
    const asked = await play('--seed', '7', '--ask-all');
    expect(asked[0]).toContain('everyone asked at every window');
    expect(asked.at(-1)).toMatch(/^Winner/);
  });
});
