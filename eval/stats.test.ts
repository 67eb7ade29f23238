import { describe, expect, it } from 'vitest';
import { meanCI, percentile, ranks, t975, wilsonCI, winRateCI, winShares } from './stats.ts';

describe('stats', () => {
  it('t quantiles match the table', () => {
    // Two-sided 95% critical values of Student's t.
    const table: [number, number][] = [[1, 12.706], [2, 4.303], [3, 3.182], [5, 2.571], [10, 2.228], [30, 2.042], [40, 2.021], [60, 2.000], [120, 1.980]];
    for (const [df, t] of table) expect(t975(df)).toBeCloseTo(t, 3);
    expect(t975(1e9)).toBeCloseTo(1.96, 3);
  });

  it('mean and interval, computed by hand', () => {
    // xs = 1, 2, 3, 4: mean 2.5, sample sd = sqrt(5/3) = 1.29099, se = 0.645497, t(3) = 3.18245
    const ci = meanCI([1, 2, 3, 4]);
    expect(ci.mean).toBe(2.5);
    expect(ci.hi - ci.mean).toBeCloseTo(3.1824 * 0.645497, 4);
    expect(ci.lo).toBeCloseTo(2.5 - 2.05426, 3);
    // One value says nothing of the spread: no interval, not a zero-wide one.
    expect(meanCI([7])).toEqual({ mean: 7, lo: Number.NaN, hi: Number.NaN, n: 1 });
    expect(Number.isNaN(meanCI([]).mean)).toBe(true);
  });

  it('Wilson score interval, computed by hand', () => {
    // 0 of 100: upper end z²/n / (1 + z²/n) = 3.8415 / 103.8415.
    const [lo0, hi0] = wilsonCI(0, 100);
    expect(lo0).toBe(0);
    expect(hi0).toBeCloseTo(0.036994, 5);
    // 50 of 100: 0.5 ± 1.96·sqrt(0.0025 + 0.000096)/1.038415.
    const [lo, hi] = wilsonCI(50, 100);
    expect(lo).toBeCloseTo(0.403832, 5);
    expect(hi).toBeCloseTo(0.596168, 5);
    expect(wilsonCI(10, 10)[1]).toBe(1);
    expect(wilsonCI(10, 10)[0]).toBeCloseTo(0.722467, 5);
    expect(wilsonCI(0, 0).every(Number.isNaN)).toBe(true);
  });

  it('a win rate with no spread across deals gets Wilson, not a zero-width interval', () => {
    // Every deal lost: the t interval is [0, 0]; 40 games lost are not certainty.
    const lost = winRateCI(new Array(10).fill(0), 0, 40);
    expect(lost).toEqual(wilsonCI(0, 40));
    expect(lost[1]).toBeGreaterThan(0.08);
    // One deal: no spread to measure either.
    expect(winRateCI([0.5], 2, 4)).toEqual(wilsonCI(2, 4));
    // With spread, the per-deal t interval (clipped to [0, 1]).
    const t = meanCI([0, 0.25, 0.5, 0.25]);
    expect(winRateCI([0, 0.25, 0.5, 0.25], 4, 16)).toEqual([Math.max(0, t.lo), t.hi]);
  });

  it('ranks share tied places; win shares split ties', () => {
    expect(ranks([10, 30, 20, 30])).toEqual([4, 1.5, 3, 1.5]);
    expect(winShares([10, 30, 20, 30])).toEqual([0, 0.5, 0, 0.5]);
    expect(winShares([5, 1])).toEqual([1, 0]);
  });

  it('percentile is nearest-rank', () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10);
    expect(percentile(Array.from({ length: 100 }, (_, i) => i + 1), 95)).toBe(95);
    expect(percentile([], 50)).toBeNaN();
  });
});
