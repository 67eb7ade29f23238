import { describe, expect, it } from 'vitest';
import { nextFloat, randInt, seedRng } from '../env/rng.ts';
import { argmaxMasked, logProb, sampleMasked } from './masked.ts';

const N = 12;

function randomCase(seed: number) {
  const rng = seedRng(`case/${seed}`);
  const logits = Float32Array.from({ length: N }, () => 10 * (nextFloat(rng) - 0.5));
  const mask = new Uint8Array(N);
  const legal = 1 + randInt(rng, N - 1);
  for (let k = 0; k < legal; k++) mask[randInt(rng, N)] = 1;
  // The illegal actions get the largest logits, so a mask that leaked would show.
  for (let a = 0; a < N; a++) if (!mask[a]) logits[a] = 50;
  return { logits, mask };
}

describe('masked categorical policy (JavaScript side)', () => {
  it('never samples an illegal action, even when illegal logits are the largest', () => {
    const rng = seedRng('sample');
    for (let c = 0; c < 200; c++) {
      const { logits, mask } = randomCase(c);
      for (let k = 0; k < 50; k++) expect(mask[sampleMasked(logits, mask, 0, N, rng).action]).toBe(1);
      expect(mask[argmaxMasked(logits, mask, 0, N)]).toBe(1);
    }
  });

  it('log-probabilities sum to 1 over the legal actions and ignore the illegal logits', () => {
    for (let c = 0; c < 50; c++) {
      const { logits, mask } = randomCase(c);
      let total = 0;
      for (let a = 0; a < N; a++) if (mask[a]) total += Math.exp(logProb(logits, mask, 0, N, a));
      expect(total).toBeCloseTo(1, 6);
      const changed = logits.slice();
      for (let a = 0; a < N; a++) if (!mask[a]) changed[a] = -7;
      for (let a = 0; a < N; a++) if (mask[a]) expect(logProb(changed, mask, 0, N, a)).toBeCloseTo(logProb(logits, mask, 0, N, a), 6);
      const illegal = [...mask].findIndex((m) => m === 0);
      if (illegal >= 0) expect(logProb(logits, mask, 0, N, illegal)).toBe(-Infinity);
    }
  });

  it('samples in proportion to the softmax of the legal logits', () => {
    const logits = Float32Array.from([0, Math.log(3), 99, 0]);
    const mask = Uint8Array.from([1, 1, 0, 0]);
    const rng = seedRng('freq');
    let ones = 0;
    for (let k = 0; k < 20000; k++) ones += sampleMasked(logits, mask, 0, 4, rng).action === 1 ? 1 : 0;
    expect(ones / 20000).toBeGreaterThan(0.73);
    expect(ones / 20000).toBeLessThan(0.77);
  });
});
