import { describe, expect, it } from 'vitest';
import { DEFAULT_RULESET, parseRuleset } from '../../env/index.ts';
import { promptHashes } from './provenance.ts';

describe('prompt hashes', () => {
  it('are the same for the same rules, and the rules hash follows what the model is told', () => {
    const a = promptHashes(DEFAULT_RULESET);
    const copy = parseRuleset(JSON.parse(JSON.stringify(DEFAULT_RULESET)));
    expect(promptHashes(copy)).toEqual(a);
    const other = parseRuleset({ ...JSON.parse(JSON.stringify(DEFAULT_RULESET)), name: 'thirsty', limits: { ...DEFAULT_RULESET.limits, beers: 4 } });
    expect(promptHashes(other).rulesHash).not.toBe(a.rulesHash);
    expect(a.rulesHash).not.toBe(a.promptHash);
  });
});
