import { describe, expect, it } from 'vitest';
import { randInt, seedRng } from '../env/index.ts';
import { fitRatings, tieGroups, type RatedGame } from './ratings.ts';

/** Three-player games among players of known Elo ratings: who finishes above whom follows Bradley–Terry. */
function games(truth: Record<string, number>, n: number, seed: string): RatedGame[] {
  const rng = seedRng(seed);
  const names = Object.keys(truth);
  const out: RatedGame[] = [];
  for (let g = 0; g < n; g++) {
    const players = [0, 1, 2].map(() => names[randInt(rng, names.length)]);
    // Pairwise BT wins summed into a score: a seat scores one point per opponent it beats.
    const scores = players.map(() => 0);
    for (let a = 0; a < 3; a++) {
      for (let b = a + 1; b < 3; b++) {
        const p = 1 / (1 + 10 ** ((truth[players[b]] - truth[players[a]]) / 400));
        if (randInt(rng, 1_000_000) / 1_000_000 < p) scores[a] += 1;
        else scores[b] += 1;
      }
    }
    out.push({ deal: `d${g}`, players, scores });
  }
  return out;
}

describe('batch-fitted ratings', () => {
  const truth = { strong: 200, middle: 0, weak: -200 };
  const played = games(truth, 1500, 'bt');

  it('recover known strengths with the anchor held where it is put, and intervals that hold the truth', () => {
    const r = fitRatings(played, new Map([['middle', 0]]), 100);
    expect(r.map((x) => x.player)).toEqual(['strong', 'middle', 'weak']);
    const of = (p: string) => r.find((x) => x.player === p)!;
    expect(of('middle').rating).toBe(0);
    expect(of('middle').anchor).toBe(true);
    for (const p of ['strong', 'weak'] as const) {
      const { rating, interval } = of(p);
      expect(Math.abs(rating - truth[p])).toBeLessThan(60);
      expect(interval![0]).toBeLessThan(truth[p]);
      expect(interval![1]).toBeGreaterThan(truth[p]);
    }
    expect(tieGroups(r)).toEqual([1, 2, 3]);
  });

  it('are the same for the same seed, put players they cannot tell apart in one group, and give no interval from one deal', () => {
    const even = games({ a: 0, b: 0, c: 0 }, 300, 'even');
    const r = fitRatings(even, new Map(), 50, 's');
    expect(fitRatings(even, new Map(), 50, 's')).toEqual(r);
    expect(tieGroups(r)).toEqual([1, 1, 1]);
    const one = fitRatings([{ deal: 'only', players: ['a', 'b'], scores: [3, 1] }]);
    expect(one.every((x) => x.interval === null && Number.isFinite(x.rating))).toBe(true);
    expect(() => fitRatings(even, new Map([['nobody', 0]]))).toThrow(/anchor 'nobody' played no game here/);
  });
});
