/**
 * Small statistics for tournament results: means with Student-t 95% intervals, ranks and
 * percentiles.
 *
 * Games that share a deal (duplicate deals: one seed played once per seat rotation) are not
 * independent, so intervals are taken over per-deal means (one value per deal), not per game.
 * A win rate whose per-deal means show no spread at all (every deal lost, every deal won, or a
 * single deal) would get a zero-width interval, claiming certainty from a sample; it gets the
 * Wilson score interval over its games instead.
 */

/** Two-sided 95% critical values of Student's t for 1..30 degrees of freedom (the standard table). */
const T975_TABLE = [
  12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.306, 2.2622, 2.2281, 2.201, 2.1788, 2.1604,
  2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.093, 2.086, 2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555,
  2.0518, 2.0484, 2.0452, 2.0423,
];

/** Two-sided 95% quantile of Student's t with `df` degrees of freedom. */
export function t975(df: number): number {
  if (!(df >= 1)) return Number.NaN;
  if (df <= T975_TABLE.length) return T975_TABLE[Math.floor(df) - 1];
  // Cornish–Fisher expansion around the normal quantile: its error falls as df^-5, far below
  // 1e-4 past the table.
  const z = 1.959963985;
  const z3 = z ** 3, z5 = z ** 5, z7 = z ** 7, z9 = z ** 9;
  return (
    z +
    (z3 + z) / (4 * df) +
    (5 * z5 + 16 * z3 + 3 * z) / (96 * df ** 2) +
    (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df ** 3) +
    (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * df ** 4)
  );
}

export interface MeanCI {
  mean: number;
  /** 95% interval; not defined (NaN) with fewer than two values: one deal says nothing of the spread. */
  lo: number;
  hi: number;
  n: number;
}

export function meanCI(xs: readonly number[]): MeanCI {
  const n = xs.length;
  if (n === 0) return { mean: Number.NaN, lo: Number.NaN, hi: Number.NaN, n };
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { mean, lo: Number.NaN, hi: Number.NaN, n };
  const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1);
  const h = t975(n - 1) * Math.sqrt(variance / n);
  return { mean, lo: mean - h, hi: mean + h, n };
}

const Z975 = 1.959963985;

/** Wilson score 95% interval of a proportion: `wins` (fractional for shared wins) out of `n` trials. */
export function wilsonCI(wins: number, n: number): [number, number] {
  if (!(n > 0)) return [Number.NaN, Number.NaN];
  const p = wins / n;
  const z2 = Z975 * Z975;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z975 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/**
 * The 95% interval of a win rate: Student's t over the per-deal win shares, clipped to [0, 1];
 * where those have no spread, Wilson's over the `games` (with `wins` among them).
 */
export function winRateCI(perDeal: readonly number[], wins: number, games: number): [number, number] {
  const t = meanCI(perDeal);
  if (t.n >= 1 && t.hi - t.lo > 0) return [Math.max(0, t.lo), Math.min(1, t.hi)];
  return wilsonCI(wins, games);
}

/** Ranks of scores, 1 = best, tied scores sharing the mean of their places. */
export function ranks(scores: readonly number[]): number[] {
  return scores.map((v) => {
    const better = scores.filter((w) => w > v).length;
    const tied = scores.filter((w) => w === v).length;
    return better + (tied + 1) / 2;
  });
}

/** Win shares by seat: 1 among tied winners, split equally. */
export function winShares(scores: readonly number[]): number[] {
  const best = Math.max(...scores);
  const k = scores.filter((v) => v === best).length;
  return scores.map((v) => (v === best ? 1 / k : 0));
}

/** Nearest-rank percentile (p in (0, 100]) of unsorted values; NaN when empty. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length, Math.max(1, Math.ceil((p / 100) * s.length))) - 1];
}
