import { describe, expect, it } from 'vitest';
import * as A from '../../env/actions.ts';
import { HAND_TYPES } from '../../env/cards.ts';
import { DEFAULT_RULESET } from '../../env/ruleset.ts';
import { decisionKind } from './common.ts';
import { beerTable, digest, emptyDrinks, numbers, risk } from './drink.ts';
import { futureTable, meanFuture } from './future.ts';
import { bestPlan, nextAction, type TurnInput } from './plan.ts';

const n = numbers(DEFAULT_RULESET);

function input(hand: Partial<Record<number, number>>, tokens = 0): TurnInput {
  const h = new Array<number>(HAND_TYPES).fill(0);
  for (const [t, k] of Object.entries(hand)) h[Number(t)] = k ?? 0;
  return {
    hand: h, actionsLeft: 3, beerSlots: 3, smallSlots: 1, shotSlots: 1, blockedBeer: 0, blockedSmall: 0,
    insulted: false, front: emptyDrinks(), ownShotInFront: false, tokens,
  };
}

describe('drinking arithmetic', () => {
  it('reads the beer table, shots and tokens from the ruleset', () => {
    expect(beerTable(DEFAULT_RULESET, 3, false)).toEqual({ points: 6, drunk: 3 });
    expect(beerTable(DEFAULT_RULESET, 3, true)).toEqual({ points: 5, drunk: 1 });
    expect(beerTable(DEFAULT_RULESET, 4, false)).toEqual({ points: 7, drunk: 4 });
    // Karel: 3 beers and a first Rum: 11 points, drunkenness 4.
    const dr = { ...emptyDrinks(), beers: 3, shots: 1, shotMask: 1, scoring: 1 };
    expect(digest(n, dr, 0)).toEqual({ drinks: true, points: 11, drunk: 4, tokens: 1 });
  });

  it('prices the roll: failing, leaving the row, being wasted', () => {
    // Level 1, space −2, drunkenness 4: total 2, a 1 fails.
    expect(risk(n, 0, 0, 4).fail).toBeCloseTo(1 / 6);
    expect(risk(n, 0, 0, 4).levelUp).toBe(0);
    // Last space of level 1: any move leaves the row.
    expect(risk(n, 0, 5, 0).levelUp).toBeCloseTo(1);
    // Level 4, space 3, drunkenness 3: total 6, a failed roll wastes the player.
    expect(risk(n, 3, 1, 3).wasted).toBeCloseTo(5 / 6);
  });

  it('values places on the chart: lower and earlier is worth more, nothing with no turns left', () => {
    const f = futureTable(DEFAULT_RULESET);
    const v = meanFuture(f, 10, 10, new Float64Array(f.places * f.abst));
    expect(v[0]).toBeGreaterThan(v[f.levelStart[1] * f.abst]);
    expect(v[f.levelStart[1] * f.abst]).toBeGreaterThan(v[f.levelStart[3] * f.abst]);
    // On the last space of the last level only abstaining keeps a player in: a third would throw them out.
    const edge = (f.levelStart[3] + 2) * f.abst;
    expect(v[edge]).toBeGreaterThan(v[edge + 2]);
    expect(meanFuture(f, 0, 0, new Float64Array(v.length)).every((x) => x === 0)).toBe(true);
  });
});

describe('turn planning', () => {
  it('finds the rulebook\'s 16-point turn: 3 beers, Fernet, Shot into a beer, Rum', () => {
    const t = input({ 0: 3, 2: 1, 3: 1, 12: 1 });
    const plan = bestPlan(n, t, (dig) => dig.points);
    expect(plan.dig).toMatchObject({ points: 16, drunk: 7 });
    expect(plan.sib).toBe(true);
    expect(nextAction(plan, t, [A.A_ORDER, A.A_ORDER + 2, A.A_ORDER + 3, A.A_DONE])).toBe(A.A_ORDER);
  });

  it('keeps to the limits: one small beer among three, one shot, three actions', () => {
    const t = input({ 0: 2, 1: 2, 2: 2, 7: 3 });
    const plan = bestPlan(n, t, (dig) => dig.points);
    expect(plan).toMatchObject({ beers: 2, small: 1, shots: [0] });
    expect(plan.actions).toBeLessThanOrEqual(3);
  });

  it('names Flattery as a new shot type or an owned one, whichever the evaluator prefers', () => {
    const t = input({ 11: 1 }, 0b00001);
    const newType = bestPlan(n, t, (dig) => dig.tokens === 0b00001 ? 0 : 1);
    expect(newType.flattery).toHaveLength(1);
    expect(newType.flattery[0]).not.toBe(0);
    const owned = bestPlan(n, t, (dig) => (dig.tokens === 0b00001 && dig.drinks ? 1 : 0));
    expect(owned.flattery).toEqual([0]);
  });
});

describe('decision kind', () => {
  it('tells the decision kind from the legal actions alone', () => {
    expect(decisionKind([A.A_ORDER, A.A_DONE])).toBe('play');
    expect(decisionKind([A.A_DISCARD, A.A_STOP_DISCARD])).toBe('discard');
    expect(decisionKind([A.A_PASS, A.A_KNOCK])).toBe('reaction');
    expect(decisionKind([A.A_PASS, A.A_EXCUSE_CANCEL])).toBe('response');
    expect(decisionKind([A.A_SHOT_BEER, A.A_SHOT_NOTHING])).toBe('response');
  });
});
