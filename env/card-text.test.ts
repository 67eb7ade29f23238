import { describe, expect, it } from 'vitest';
import { A_DISCARD, A_SHOT_BEER, A_SHOT_NOTHING, A_STOP_DISCARD } from './action-codec.ts';
import { actionConsequence, cardShortTexts, cardTexts, glossary } from './card-text.ts';
import { CARD_IDS } from './cards.ts';
import { DEFAULT_RULESET, parseRuleset } from './ruleset.ts';

describe('card texts', () => {
  it('say what every card does, with the numbers of the ruleset given', () => {
    const texts = cardTexts(DEFAULT_RULESET);
    for (const id of [...CARD_IDS, 'closing_time' as const]) expect(texts[id].length).toBeGreaterThan(30);
    const changed = parseRuleset({ ...DEFAULT_RULESET, shotChoice: { beerLoss: 7, smallBeerLoss: 8, nothingLoss: 9 }, shotPoints: 11, abstinence: { ...DEFAULT_RULESET.abstinence, pointLoss: [4, 6] } });
    const t = cardTexts(changed);
    expect(t.lets_do_a_shot).toMatch(/loses 7 points.*loses 8 points.*loses 9 points/);
    expect(t.rum).toContain('11 points');
    expect(glossary(changed).find((g) => g.term === 'Abstinence')?.text).toMatch(/lose 4 points.*6 points/);
    // The goal comes first: what scores, what ends you (past the chart's last level), how the game ends.
    const [goal] = glossary(DEFAULT_RULESET);
    expect(goal.term).toBe('Goal');
    expect(goal.text).toMatch(/highest score.*the harder the roll: past the end of level 4 you are wasted.*CLOSING TIME/);
    const flat = parseRuleset({ ...DEFAULT_RULESET, chart: [{ spaces: [3, 2], handSize: 7 }, { spaces: [1], handSize: 5 }] });
    expect(glossary(flat)[0].text).toMatch(/chart: past the end of level 2 you are wasted/);
    expect(actionConsequence(changed, A_SHOT_BEER, 0)).toBe('You lose 7 points; the beer gives nothing.');
    expect(actionConsequence(changed, A_SHOT_NOTHING, 0)).toBe('You lose 9 points.');
    expect(actionConsequence(changed, A_DISCARD, 1)).toMatch(/abstinence \(you lose 6 points/);
    expect(actionConsequence(changed, A_DISCARD, 2)).toMatch(/thrown out/);
    expect(actionConsequence(changed, A_STOP_DISCARD, 0)).toMatch(/abstinence \(you lose 4 points/);
  });

  it("give every card a face text short enough for a card, with the ruleset's cost and numbers", () => {
    const short = cardShortTexts(DEFAULT_RULESET);
    const long = cardTexts(DEFAULT_RULESET);
    for (const id of [...CARD_IDS, 'closing_time' as const]) {
      expect(short[id].length, id).toBeGreaterThan(8);
      expect(short[id].length, id).toBeLessThanOrEqual(44);
      expect(short[id].length, id).toBeLessThan(long[id].length);
    }
    expect(short.beer).toMatch(/^free · drink: 1 point, more with more$/);
    expect(short.rum).toBe(`1 act. · shot: ${DEFAULT_RULESET.shotPoints} points and its token`);
    expect(short.tea).toBe('1 act. · -2 drunk, no points');
    expect(short.mixed_up).toMatch(/^X · /);
    // A changed ruleset changes the faces: costs, shot points, a non-alcoholic card's drunkenness.
    const changed = parseRuleset({ ...DEFAULT_RULESET, shotPoints: 9, cards: { ...DEFAULT_RULESET.cards, beer: { count: 27, cost: 2 }, tea: { count: 3, cost: 1, drunkenness: -4 } } });
    const t = cardShortTexts(changed);
    expect(t.beer).toMatch(/^2 act\. · /);
    expect(t.vodka).toContain('9 points');
    expect(t.tea).toContain('-4 drunk');
  });
});
