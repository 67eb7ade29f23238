import { describe, expect, it } from 'vitest';
import { CzechPubEnv } from '../../env/env.ts';
import { randInt, seedRng } from '../../env/rng.ts';
import { NUM_FEATURES, seatFeatures } from './features.ts';
import { Evaluator } from './value.ts';
import { VALUE_WEIGHTS } from './value-model.ts';

describe('ismcts evaluation', () => {
  it('has a weight per feature', () => {
    expect(VALUE_WEIGHTS.length).toBe(NUM_FEATURES);
  });

  it('adds expected points to live seats, and is the score once the game is over', () => {
    const env = new CzechPubEnv({ seed: 'value', players: 4 });
    const rng = seedRng('v');
    for (const kind of ['learned', 'chart'] as const) {
      const out = new Float64Array(4);
      new Evaluator(kind).totals(env, out);
      // At the start every seat has the whole game ahead of it.
      for (let p = 0; p < 4; p++) expect(out[p]).toBeGreaterThan(env.scores()[p] + 10);
    }
    const x = seatFeatures(env, env.view(0), new Float64Array(4 * NUM_FEATURES));
    expect(x[0]).toBe(1);
    expect(x[2]).toBeGreaterThan(5); // turns left
    while (!env.done) {
      const legal = env.legalActions();
      env.step(legal[randInt(rng, legal.length)]);
    }
    expect([...new Evaluator('learned').totals(env, new Float64Array(4))]).toEqual(env.scores());
  });
});

describe('the learned evaluation', () => {
  it('was fitted under the standard rules as they are now (else refit: fit-value.ts)', async () => {
    const { DEFAULT_RULESET, rulesetFingerprint } = await import('../../env/index.ts');
    const { VALUE_RULESET_FINGERPRINT } = await import('./value-model.ts');
    expect(VALUE_RULESET_FINGERPRINT).toBe(rulesetFingerprint(DEFAULT_RULESET));
  });
});
