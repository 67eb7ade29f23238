import { describe, expect, it } from 'vitest';
import { terminalRewards } from './rewards.ts';

describe('terminal rewards', () => {
  it('win: 1 to the winner, shared among tied winners', () => {
    expect(terminalRewards('win', [10, 30, 20])).toEqual([0, 1, 0]);
    expect(terminalRewards('win', [30, 30, 20, 5])).toEqual([0.5, 0.5, 0, 0]);
  });
  it('rank: +1 first to -1 last, ties share the mean', () => {
    expect(terminalRewards('rank', [10, 30, 20])).toEqual([-1, 1, 0]);
    const tied = terminalRewards('rank', [30, 30, 20, 5]);
    [2 / 3, 2 / 3, -1 / 3, -1].forEach((v, i) => expect(tied[i]).toBeCloseTo(v, 12));
    expect(terminalRewards('rank', [7, 7])).toEqual([0, 0]);
  });
  it('score: difference to the mean of the others, scaled by 50; sums to zero', () => {
    const r = terminalRewards('score', [60, 10, 20]);
    expect(r[0]).toBeCloseTo((60 - 15) / 50);
    expect(r.reduce((a, b) => a + b, 0)).toBeCloseTo(0);
  });
});
