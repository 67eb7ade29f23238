import { describe, expect, it } from 'vitest';
import { randInt, seedRng } from '../env/index.ts';
import { pairedDeals } from './paired-deals.ts';
import type { RatedGame } from './ratings.ts';

/**
 * Duplicate deals of three seats, rotated: each deal's cards give each seat a luck far larger
 * than the players' difference (A plays `edge` points better than B), plus a little noise.
 */
function duplicateGames(deals: number, edge: number, seed: string): RatedGame[] {
  const rng = seedRng(seed);
  const noise = () => randInt(rng, 5) - 2;
  const out: RatedGame[] = [];
  for (let d = 0; d < deals; d++) {
    const luck = [0, 1, 2].map(() => randInt(rng, 60));
    for (let rot = 0; rot < 3; rot++) {
      const players = [0, 1, 2].map((seat) => ['A', 'B', 'C'][(seat + rot) % 3]);
      const scores = players.map((p, seat) => luck[seat] + (p === 'A' ? edge : 0) + noise());
      out.push({ deal: `run#${d}`, players, scores });
    }
  }
  return out;
}

describe('paired comparison over common deals', () => {
  it('recovers a known difference within its interval, the luck of the cards cancelled', () => {
    const games = duplicateGames(60, 5, 'pairs');
    const c = pairedDeals(games, 'A', 'B', 500, 's');
    expect(c.deals).toBe(60);
    expect(Math.abs(c.meanDifference! - 5)).toBeLessThan(1);
    expect(c.interval![0]).toBeLessThan(5);
    expect(c.interval![1]).toBeGreaterThan(5);
    expect(c.interval![1] - c.interval![0]).toBeLessThan(3);
    expect(c.dealWins + c.dealLosses + c.dealTies).toBe(60);
    expect(c.dealWins).toBeGreaterThan(50);
    expect(c.aAboveShare! + c.bAboveShare!).toBeLessThanOrEqual(1);
    // Each deal's three games seat A and B together three times.
    expect(c.perDeal.every((d) => d.meetings === 3)).toBe(true);
  });

  it('is the same for the same seed, and the mirror of the other order', () => {
    const games = duplicateGames(20, 3, 'again');
    const c = pairedDeals(games, 'A', 'B', 200, 's');
    expect(pairedDeals(games, 'A', 'B', 200, 's')).toEqual(c);
    const m = pairedDeals(games, 'B', 'A', 200, 's');
    expect(m.meanDifference).toBeCloseTo(-c.meanDifference!, 9);
    expect([m.dealWins, m.dealLosses, m.aAboveShare]).toEqual([c.dealLosses, c.dealWins, c.bAboveShare]);
  });

  it('gives no interval under two common deals, and nothing without one', () => {
    const one: RatedGame[] = [
      { deal: 'x#0', players: ['A', 'B'], scores: [4, 1] },
      { deal: 'x#0', players: ['B', 'A'], scores: [3, 2] },
      { deal: 'y#0', players: ['A', 'C'], scores: [1, 1] },
    ];
    const c = pairedDeals(one, 'A', 'B');
    expect(c).toMatchObject({ deals: 1, meanDifference: 1, interval: null, dealWins: 1, aAboveShare: 0.5, bAboveShare: 0.5 });
    expect(pairedDeals(one, 'B', 'C')).toMatchObject({ deals: 0, meanDifference: null, interval: null, aAboveShare: null });
  });
});
