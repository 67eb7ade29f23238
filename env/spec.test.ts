import { describe, expect, it } from 'vitest';
import { DEFAULT_RULESET, parseRuleset } from './ruleset.ts';
import { assertCompatible, envSpec, rulesetFingerprint } from './spec.ts';

describe('env spec', () => {
  it('the fingerprint follows the rules, not the name, the schema version, card ids or key order', () => {
    const same = JSON.parse(JSON.stringify(DEFAULT_RULESET));
    same.name = 'renamed';
    expect(rulesetFingerprint(same)).toBe(rulesetFingerprint(DEFAULT_RULESET));
    const reordered = Object.fromEntries(Object.entries(DEFAULT_RULESET).reverse());
    expect(rulesetFingerprint(reordered as typeof DEFAULT_RULESET)).toBe(rulesetFingerprint(DEFAULT_RULESET));
    const { peppermint, ...others } = DEFAULT_RULESET.cards;
    const v1 = { ...DEFAULT_RULESET, version: 1, cards: { ...others, zelena: peppermint } };
    expect(rulesetFingerprint(parseRuleset(v1))).toBe(rulesetFingerprint(DEFAULT_RULESET));
    const changed = JSON.parse(JSON.stringify(DEFAULT_RULESET));
    changed.cards.beer.count = 26;
    expect(rulesetFingerprint(changed)).not.toBe(rulesetFingerprint(DEFAULT_RULESET));
    expect(rulesetFingerprint(DEFAULT_RULESET)).toMatch(/^[0-9a-f]{8}$/);
  });

  it('assertCompatible names what differs', () => {
    const spec = envSpec(DEFAULT_RULESET);
    expect(() => assertCompatible(spec, { ...spec })).not.toThrow();
    const other = { ...spec, observationVersion: spec.observationVersion + 1, ruleset: { name: 'x', fingerprint: '00000000' } };
    expect(() => assertCompatible(spec, other, 'checkpoint.json')).toThrow(
      /checkpoint.json was made with a different environment: observation version .*; ruleset fingerprint 00000000/,
    );
  });

  it('a policy from an older engine may play, but not resume or mix results', () => {
    const spec = envSpec(DEFAULT_RULESET);
    const older = { ...spec, engineVersion: spec.engineVersion - 1 };
    expect(() => assertCompatible(spec, older, 'model.json')).toThrow(/engine version/);
    expect(() => assertCompatible(spec, older, 'model.json', false)).not.toThrow();
    const otherObs = { ...older, observationSize: spec.observationSize + 1 };
    expect(() => assertCompatible(spec, otherObs, 'model.json', false)).toThrow(/observation size/);
  });
});
