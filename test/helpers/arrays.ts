/**
 * Exact comparison of number arrays for checks made at every step of many games: the first
 * index at which `a` and `b` differ (as toEqual compares numbers, with Object.is), or -1 when
 * they are equal; arrays of different lengths differ at the shorter one's end. vitest's
 * toEqual walks a typed array element by element through its generic equality, which in such
 * loops took most of a test's time; `expect(firstDifference(a, b)).toBe(-1)` says the same.
 */
export function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (!Object.is(a[i], b[i])) return i;
  return a.length === b.length ? -1 : n;
}
