/**
 * The paired test the searching agents use to overrule their guide's own choice: the k-th
 * samples of two actions met the same world, so their differences cancel the world's luck.
 */

/**
 * The mean paired difference x − base over the pairs both have, and its standard error; null
 * when there are fewer than two pairs to judge by.
 */
export function pairedDifference(x: readonly number[], base: readonly number[]): { mean: number; se: number; n: number } | null {
  const n = Math.min(x.length, base.length);
  if (n < 2) return null;
  let sum = 0;
  let sq = 0;
  for (let k = 0; k < n; k++) {
    const d = x[k] - base[k];
    sum += d;
    sq += d * d;
  }
  const mean = sum / n;
  const variance = Math.max(0, sq / n - mean * mean) / (n - 1);
  return { mean, se: Math.sqrt(variance), n };
}

/**
 * Whether `x` beats `base` by more than `z` standard errors of the mean paired difference
 * (over the pairs both have); null when there are fewer than two pairs to judge by.
 */
export function beatsPaired(x: readonly number[], base: readonly number[], z: number): boolean | null {
  const d = pairedDifference(x, base);
  return d === null ? null : d.mean > z * d.se;
}
