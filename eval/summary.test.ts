import { describe, expect, it } from 'vitest';
import { schedule } from './schedule.ts';
import { summarize, type GameResult } from './summary.ts';

/** A finished game with given scores by seat (everything else neutral). */
function game(index: number, deal: number, seating: number[], scores: number[], out: GameResult['out'] = []): GameResult {
  return {
    index, deal, seed: `s/${deal}`, seating, scores, points: scores, winners: [], turns: 10, decisions: 40,
    out: seating.map((_, i) => out[i] ?? null), truncated: false,
    agentDecisions: seating.map(() => 10), agentMillis: seating.map(() => 1), actions: [],
  };
}

describe('schedule', () => {
  it('rotates seats so each entry sits in each seat equally often; duplicate deals share a seed', () => {
    const games = schedule({ entries: 4, games: 10, seed: 'x', duplicate: true });
    expect(games.length).toBe(12); // rounded up to whole rotations
    for (let entry = 0; entry < 4; entry++) {
      for (let seat = 0; seat < 4; seat++) expect(games.filter((g) => g.seating[seat] === entry).length).toBe(3);
    }
    expect(new Set(games.slice(0, 4).map((g) => g.seed))).toEqual(new Set(['x/0']));
    expect(games[4].seed).toBe('x/1');
    expect(new Set(schedule({ entries: 3, games: 6, seed: 'y', duplicate: false }).map((g) => g.seed)).size).toBe(6);
  });
});

describe('summarize, against hand-computed figures', () => {
  // Two agents A (entry 0) and B (entry 1), two deals, two rotations each.
  //   deal 0: A 10 – B 5 (A wins); A 3 – B 3 (tie: half each)
  //   deal 1: A 0 – B 8 (B wins);  A 6 – B 2 (A wins)
  const games = [
    game(0, 0, [0, 1], [10, 5]),
    game(1, 0, [1, 0], [3, 3]),
    game(2, 1, [0, 1], [0, 8], [null, 'wasted']),
    game(3, 1, [1, 0], [2, 6], ['thrown_out', null]),
  ];
  const s = summarize(['A', 'B'], [...games].reverse());
  const A = s.agents.find((a) => a.spec === 'A')!;
  const B = s.agents.find((a) => a.spec === 'B')!;

  it('wins count shared wins fractionally; win rate over seat-games', () => {
    expect(A.games).toBe(4);
    expect(A.wins).toBe(2.5);
    expect(B.wins).toBe(1.5);
    expect(A.winRate).toBe(0.625);
    expect(s.agents[0].spec).toBe('A');
  });

  it('intervals are over per-deal means: A has 0.75 and 0.5, so 0.625 ± t(1)·0.125', () => {
    // sd of {0.75, 0.5} = 0.17678, se = 0.125, t975(1) = 12.7062
    // 0.625 ± 1.588, clipped to the range of a rate.
    expect(A.winRateCI).toEqual([0, 1]);
    const many = summarize(['A', 'B'], Array.from({ length: 40 }, (_, i) => game(i, Math.floor(i / 2), i % 2 ? [1, 0] : [0, 1], i % 4 === 3 ? [1, 2] : [2, 1])));
    const a = many.agents.find((x) => x.spec === 'A')!;
    // Per deal A wins 1 and 1 (deals 0, 2, ...) or 1 and 0 (deals 1, 3, ...): 10 × 1 and 10 × 0.5,
    // mean 0.75, sd 0.25649, se 0.057354, t(19) = 2.093.
    expect(a.winRate).toBe(0.75);
    expect(a.winRateCI[0]).toBeCloseTo(0.75 - 2.093 * 0.057354, 4);
    expect(a.winRateCI[1]).toBeCloseTo(0.75 + 2.093 * 0.057354, 4);
    // Scores: deal means A (10+3)/2 = 6.5 and (0+6)/2 = 3; mean 4.75.
    expect(A.meanScore).toBe(4.75);
    expect(A.scoreCI[1] - A.meanScore).toBeCloseTo(12.7062 * 1.75, 3);
  });

  it('mean rank, head to head, wasted and thrown-out rates, decision cost', () => {
    // A's ranks: 1, 1.5, 2, 1 → 1.375
    expect(A.meanRank).toBe(1.375);
    expect(s.headToHead.A.B).toBe(0.625);
    expect(s.headToHead.B.A).toBe(0.375);
    expect(B.wastedRate).toBe(0.25);
    expect(B.thrownOutRate).toBe(0.25);
    expect(A.wastedRate).toBe(0);
    expect(A.msPerDecision).toBe(0.1);
    expect(s.meanTurns).toBe(10);
  });

  it('ratings: the agent that finishes ahead more often is rated higher, with shrinking uncertainty', () => {
    expect(A.rating).toBeGreaterThan(B.rating);
    expect(A.ratingSigma).toBeLessThan(25 / 3);
    expect(A.ratingOrdinal).toBeCloseTo(A.rating - 3 * A.ratingSigma, 9);
  });

  it('a spec filling two seats is summarised over both', () => {
    const two = summarize(['X', 'X', 'Y'], [game(0, 0, [0, 1, 2], [5, 9, 1]), game(1, 0, [2, 0, 1], [4, 4, 0])]);
    const X = two.agents.find((a) => a.spec === 'X')!;
    expect(X.seats).toBe(2);
    expect(X.games).toBe(4);
    expect(X.wins).toBe(1.5); // one win in game 0, a half share in game 1 (tied with Y)
    expect(two.headToHead.X.Y).toBe(0.5 * (1 + 1) / 2 + 0.5 * (0.5 + 0) / 2);
  });
});

describe('summarize, a win rate without spread across deals', () => {
  it('gets a Wilson interval over its games, not 0.0% (0.0–0.0%)', () => {
    // A wins every game of three deals: per-deal shares 1, 1, 1.
    const games = [0, 1, 2].flatMap((deal) => [game(2 * deal, deal, [0, 1], [9, 1]), game(2 * deal + 1, deal, [1, 0], [1, 9])]);
    const s = summarize(['A', 'B'], games);
    const A = s.agents.find((a) => a.spec === 'A')!;
    const B = s.agents.find((a) => a.spec === 'B')!;
    expect(A.winRate).toBe(1);
    expect(A.winRateCI[1]).toBe(1);
    expect(A.winRateCI[0]).toBeCloseTo(0.609666, 5); // Wilson, 6 of 6
    expect(B.winRateCI[0]).toBe(0);
    expect(B.winRateCI[1]).toBeCloseTo(0.390334, 5);
  });
});
