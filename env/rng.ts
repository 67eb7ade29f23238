/**
 * Seeded random numbers whose whole state is four integers kept in the game state.
 *
 * Seeding uses seedrandom's xor128 generator; drawing steps the same xor128 recurrence
 * (Marsaglia, 2003) on the state array in place, so a draw allocates nothing and the state
 * survives JSON. rng.test.ts checks the draws equal seedrandom's own.
 */
import seedrandom from 'seedrandom';

/** xor128 state [x, y, z, w] as signed 32-bit integers. */
export type RngState = [number, number, number, number];

export function seedRng(seed: number | string): RngState {
  // A string seed: seedrandom's integer seed 0 would leave xor128 all zeros forever.
  const s = seedrandom.xor128(String(seed), { state: true }).state() as { x: number; y: number; z: number; w: number };
  return [s.x | 0, s.y | 0, s.z | 0, s.w | 0];
}

/** The next raw 32-bit output (signed), as seedrandom's `int32()`. */
export function nextInt32(r: RngState): number {
  const x = r[0];
  const t = x ^ (x << 11);
  r[0] = r[1];
  r[1] = r[2];
  r[2] = r[3];
  const w = r[3];
  r[3] = w ^ (w >>> 19) ^ t ^ (t >>> 8);
  return r[3];
}

/** A uniform float in [0, 1), as seedrandom's `prng()`. */
export function nextFloat(r: RngState): number {
  return (nextInt32(r) >>> 0) / 0x100000000;
}

/** A uniform integer in [0, n). */
export function randInt(r: RngState, n: number): number {
  return Math.floor(nextFloat(r) * n);
}

/** Fisher–Yates shuffle in place. */
export function shuffle<T>(r: RngState, a: T[]): void {
  for (let i = a.length - 1; i > 0; i--) {
    const j = randInt(r, i + 1);
    const tmp = a[i];
    a[i] = a[j];
    a[j] = tmp;
  }
}
