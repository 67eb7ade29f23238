import { describe, expect, it } from 'vitest';
import { explainedVariance, gae } from './gae.ts';

describe('gae', () => {
  it('matches hand-computed advantages for a finished game', () => {
    // γ = 0.9, λ = 0.5, values 0.5, 0.2, 0.4, terminal reward 1 on the last decision.
    // δ2 = 1 − 0.4 = 0.6;            A2 = 0.6
    // δ1 = 0.9·0.4 − 0.2 = 0.16;     A1 = 0.16 + 0.45·0.6 = 0.43
    // δ0 = 0.9·0.2 − 0.5 = −0.32;    A0 = −0.32 + 0.45·0.43 = −0.1265
    const adv = new Float32Array(3);
    const ret = new Float32Array(3);
    gae([0, 0, 1], [0.5, 0.2, 0.4], 0, 0.9, 0.5, adv, ret);
    expect([...adv].map((x) => +x.toFixed(6))).toEqual([-0.1265, 0.43, 0.6]);
    expect([...ret].map((x) => +x.toFixed(6))).toEqual([0.3735, 0.63, 1]);
  });

  it('bootstraps a cut run from the next value', () => {
    // One decision, V = 0.3, next value 0.8, γ = 1: A = 0.8 − 0.3.
    const adv = [0];
    const ret = [0];
    gae([0], [0.3], 0.8, 1, 0.95, adv, ret);
    expect(adv[0]).toBeCloseTo(0.5, 12);
    expect(ret[0]).toBeCloseTo(0.8, 12);
  });

  it('with λ = 1 and γ = 1 gives return minus value', () => {
    const adv = [0, 0, 0, 0];
    const ret = [0, 0, 0, 0];
    gae([0, 0, 0, -1], [0.1, -0.2, 0.3, 0], 0, 1, 1, adv, ret);
    expect(adv).toEqual([-1.1, -0.8, -1.3, -1]);
    expect(ret).toEqual([-1, -1, -1, -1]);
  });
});

describe('explainedVariance', () => {
  it('is 1 for a perfect fit, 0 for a constant at the mean, negative when worse', () => {
    expect(explainedVariance([1, 2, 3], [1, 2, 3])).toBe(1);
    expect(explainedVariance([2, 2, 2], [1, 2, 3])).toBe(0);
    expect(explainedVariance([3, 2, 1], [1, 2, 3])).toBeLessThan(0);
  });
});
