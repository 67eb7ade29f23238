import { describe, expect, it } from 'vitest';
import { CARD_IDS } from './cards.ts';
import { createState } from './engine/index.ts';
import { compileRuleset, DEFAULT_RULESET, parseRuleset, RulesetError, type Ruleset } from './ruleset.ts';

const copy = (): Ruleset => JSON.parse(JSON.stringify(DEFAULT_RULESET));

describe('ruleset', () => {
  it('the default ruleset matches RULES.md: 100 cards, 23 types, 3 actions, chart of 4 levels', () => {
    const r = compileRuleset(DEFAULT_RULESET);
    expect(r.deckSize).toBe(100);
    expect(r.totalCards).toBe(101);
    expect(Object.keys(DEFAULT_RULESET.cards)).toEqual([...CARD_IDS]);
    expect(DEFAULT_RULESET.chart.map((l) => l.handSize)).toEqual([7, 6, 5, 4]);
    expect(DEFAULT_RULESET.chart[0].spaces[0]).toBe(-2);
  });

  it.each([
    ['cards.beer.count', (r: any) => (r.cards.beer.count = -1)],
    ['cards.rum.cost', (r: any) => (r.cards.rum.cost = 1.5)],
    ['shotDrunkenness', (r: any) => (r.shotDrunkenness = [1, 2, 3])],
    ['chart.1.spaces', (r: any) => (r.chart[1].spaces = [])],
    ['players.max', (r: any) => (r.players.max = 7)],
    ['closingTime.4.to', (r: any) => (r.closingTime['4'] = { reshuffle: 1, from: 0.8, to: 0.2 })],
    ['start.space', (r: any) => (r.start.space = 6)],
    ['titles.1.points', (r: any) => (r.titles[1].points = 10)],
    ['version', (r: any) => (r.version = 3)],
    ['cards', (r: any) => (r.cards.nonsense = { count: 1, cost: 0 })],
  ])('rejects a bad %s with a message naming it', (field, mutate) => {
    const r = copy();
    mutate(r);
    expect(() => parseRuleset(r)).toThrow(RulesetError);
    expect(() => parseRuleset(r)).toThrow(field);
  });

  it.each([null, 'beer', 42, {}, [], { version: 1 }])('rejects a non-ruleset %j with a RulesetError, not a crash', (input) => {
    expect(() => parseRuleset(input)).toThrow(RulesetError);
  });

  it('reads a version 1 ruleset, whose card peppermint was called zelena, as version 2', () => {
    const { peppermint, ...others } = copy().cards;
    const v1 = { ...copy(), version: 1, cards: { ...others, zelena: peppermint } };
    const read = parseRuleset(v1);
    expect(read.version).toBe(2);
    expect(read.cards.peppermint).toEqual(peppermint);
    expect(Object.keys(read.cards)).not.toContain('zelena');
    expect(() => parseRuleset({ ...v1, version: 2 })).toThrow('zelena');
  });

  it('a corrected ruleset is used by the engine', () => {
    const r = copy();
    r.cards.beer.count = 30;
    r.name = 'more-beer';
    const { rules, state } = createState({ players: 3, seed: 1, ruleset: r });
    expect(rules.deckSize).toBe(103);
    expect(state.deck.length + state.handSize.reduce((a, b) => a + b, 0)).toBe(103);
  });

  it('an invalid ruleset is refused by the engine before a game starts', () => {
    const r = copy();
    r.limits.actionsPerTurn = -3;
    expect(() => createState({ players: 3, seed: 1, ruleset: r })).toThrow('limits.actionsPerTurn');
  });

  it('a parsed ruleset is frozen and compiled once for every game played under it', () => {
    const r = copy();
    r.cards.beer.count = 25;
    const parsed = parseRuleset(r);
    expect(Object.isFrozen(parsed.cards.beer)).toBe(true);
    expect(() => {
      (parsed.cards.beer as { count: number }).count = -1;
    }).toThrow(TypeError);
    expect(parseRuleset(parsed)).toBe(parsed);
    const a = createState({ players: 3, seed: 1, ruleset: parsed }).rules;
    const b = createState({ players: 3, seed: 2, ruleset: parsed }).rules;
    expect(a).toBe(b);
    // An unparsed copy is validated again (and so compiled anew): it may have changed.
    expect(createState({ players: 3, seed: 1, ruleset: r }).rules).not.toBe(a);
  });
});
