import { describe, expect, test } from 'vitest';
import { CARD_IDS, CzechPubEnv, ORDER_TYPES, DEFAULT_RULESET, type PlayerView } from '../env/index.ts';
import { randInt, seedRng } from '../env/rng.ts';
import { parsePostedView, viewChecker } from './view-schema.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const json = (v: unknown): Json => JSON.parse(JSON.stringify(v));

/**
 * Plays random legal actions from `seed` and calls `visit` with the env before each step and at
 * the end, until it returns true. A `thirsty` player orders a drink when it can, so that fewer
 * are thrown out for abstinence and games reach CLOSING TIME.
 */
function play(seed: number, players: number, visit: (env: CzechPubEnv, step: number) => boolean | void, thirsty = false): void {
  const env = new CzechPubEnv({ seed, players });
  const rng = seedRng(`view-schema ${seed}`);
  for (let step = 0; ; step++) {
    if (visit(env, step) === true || env.done) return;
    const legal = env.legalActions();
    const drinks = thirsty ? legal.filter((a) => a < ORDER_TYPES) : [];
    const from = drinks.length > 0 ? drinks : legal;
    env.step(from[randInt(rng, from.length)]);
  }
}

/** The first real view (as posted: through JSON) that satisfies `want`. */
function realView(players: number, want: (v: PlayerView) => boolean): Json {
  for (let seed = 0; seed < 50; seed++) {
    let found: PlayerView | undefined;
    play(seed, players, (env) => {
      for (let seat = 0; seat < players && !found; seat++) if (want(env.view(seat))) found = env.view(seat);
      return found !== undefined;
    }, true);
    if (found) return json(found);
  }
  throw new Error('no such view');
}

/** CPU-bound (games played, views parsed): the timeout bounds a hang, not the machine's speed. */
const SLOW = { timeout: 300_000 };

describe('real views', SLOW, () => {
  test.each([2, 3, 4, 5, 6])('every seat of 30 random and 10 thirsty games of %i players parses to the same object', (players) => {
    const seen = new Set<string>();
    const check = (seed: number, thirsty: boolean) =>
      play(seed, players, (env, step) => {
        if (step % 10 !== 0 && env.decisionKind !== 'response' && !env.done) return;
        for (let seat = 0; seat < players; seat++) {
          const posted = json(env.view(seat));
          const result = parsePostedView(posted);
          if (!result.ok) throw new Error(`seed ${seed}${thirsty ? ' thirsty' : ''} step ${step} seat ${seat}: ${result.error}`);
          expect(result.view).toStrictEqual(posted);
          seen.add(posted.decision.kind).add(posted.closingTime.where);
        }
      }, thirsty);
    for (let seed = 0; seed < 30; seed++) check(seed, false);
    for (let seed = 0; seed < 10; seed++) check(seed, true);
    // The sample reached every kind of decision and every place of CLOSING TIME.
    expect([...seen].sort()).toEqual(['aside', 'discard', 'drawn', 'in_deck', 'over', 'play', 'reaction', 'response']);
  });

  test('a public view is not a posted view', () => {
    const env = new CzechPubEnv({ seed: 1, players: 3 });
    expect(parsePostedView(json(env.publicView()))).toEqual({ ok: false, error: expect.stringMatching(/^view\.seat: /) });
  });

  test('the checker for the default ruleset is built once', () => {
    expect(viewChecker()).toBe(viewChecker(DEFAULT_RULESET));
  });
});

describe('hostile views', SLOW, () => {
  // Four players, mid-game: cards in front of seat 0, a discard pile, CLOSING TIME in the deck.
  const base = realView(4, (v) => v.table[0].front.length > 0 && v.closingTime.where === 'in_deck' && !v.over);
  const response = realView(4, (v) => v.decision.kind === 'response' && v.decision.playedBy !== undefined);
  const over = realView(3, (v) => v.over);
  const other = (v: Json) => (v.seat + 1) % v.players;
  /** A mutation returns this to post something else than the mutated view. */
  const post = (instead: unknown) => ({ post: instead });

  const cases: [string, (v: Json) => unknown, RegExp, Json?][] = [
    ['a hand count of 1e9', (v) => (v.hand.beer = 1e9), /^view\.hand\.beer: must be an integer from 0 to 27$/],
    ['a negative count', (v) => (v.hand.rum = -1), /^view\.hand\.rum: must be an integer from 0 to 4$/],
    ['a fractional count', (v) => (v.hand.tea = 1.5), /^view\.hand\.tea: /],
    ['a count as a string', (v) => (v.hand.beer = '3'), /^view\.hand\.beer: /],
    ['a missing card id', (v) => delete v.hand.vodka, /^view\.hand\.vodka: is missing$/],
    ['an unknown card id', (v) => (v.hand.unicorn = 0), /^view\.hand: unknown key "unicorn"$/],
    ['a __proto__ key in the hand', (v) => post(JSON.parse(JSON.stringify(v).replace('"hand":{', '"hand":{"__proto__":{"beer":1e9},'))), /^view\.hand: unknown key "__proto__"$/],
    ['an unknown card id in known', (v) => (v.table[other(v)].known.joker = 1), /^view\.table\.\d\.known: unknown key "joker"$/],
    ['a known count beyond the deck', (v) => (v.table[other(v)].known.utopenec = 3), /^view\.table\.\d\.known\.utopenec: must be an integer from 0 to 2$/],
    ['mayHold beyond the deck', (v) => (v.deck.mayHold.beer = 28), /^view\.deck\.mayHold\.beer: /],
    ['seat = players', (v) => (v.seat = 4), /^view\.seat: must be a seat from 0 to 3$/],
    ['7 players', (v) => (v.players = 7), /^view\.players: must be an integer from 2 to 6$/],
    ['1 player', (v) => (v.players = 1), /^view\.players: /],
    ['players missing', (v) => delete v.players, /^view\.players: /],
    ['a table of 1000 seats', (v) => (v.table = Array.from({ length: 1000 }, () => v.table[0])), /^view\.table: must list the 4 seats/],
    ['a table in the wrong order', (v) => v.table.reverse(), /^view\.table\.0\.seat: must be 0/],
    ['10,000 cards in front', (v) => (v.table[0].front = Array.from({ length: 10_000 }, () => ({ card: 'beer' }))), /^view\.table\.0\.front: must be a list of at most 100 cards$/],
    ['CLOSING TIME in front', (v) => (v.table[0].front[0].card = 'closing_time'), /^view\.table\.0\.front\.0\.card: must be a card id/],
    ['placedBy off the table', (v) => (v.table[0].front[0].placedBy = 9), /^view\.table\.0\.front\.0\.placedBy: must be a seat/],
    ['a megabyte ruleset name', (v) => (v.ruleset = 'x'.repeat(1 << 20)), /^view\.ruleset: must be a string of 1 to 100 characters$/],
    ['handSize "NaN"', (v) => (v.handSize = 'NaN'), /^view\.handSize: /],
    ['points Infinity', (v) => (v.table[1].points = Infinity), /^view\.table\.1\.points: /],
    ['a hand that does not add up to handSize', (v) => (v.hand.beer = Math.min(27, v.hand.beer + 1)), /^view\.handSize: must equal the number of cards in hand$/],
    ['a decision kind unknown', (v) => (v.decision.kind = 'dance'), /^view\.decision\.kind: must be one of: play, discard/],
    ['decision.actor -1 before the end', (v) => (v.decision.actor = -1), /^view\.decision\.actor: must be -1 exactly when the game is over$/],
    ['a missing decision', (v) => delete v.decision, /^view\.decision: is missing$/],
    ['turnState.active -1', (v) => (v.turnState.active = -1), /^view\.turnState\.active: /],
    ['actionsLeft 1e6', (v) => (v.turnState.actionsLeft = 1e6), /^view\.turnState\.actionsLeft: must be an integer from 0 to 3$/],
    ['level 9', (v) => (v.table[2].level = 9), /^view\.table\.2\.level: must be an integer from 1 to 4$/],
    ['a space off its level', (v) => Object.assign(v.table[2], { level: 4, space: 5 }), /^view\.table\.2\.space: must be from 0 to 2 on level 4$/],
    ['out unknown', (v) => (v.table[0].out = 'asleep'), /^view\.table\.0\.out: /],
    ['ten titles', (v) => (v.table[0].titles = Array.from({ length: 10 }, (_, i) => `t${i}`)), /^view\.table\.0\.titles: must be a list of at most 3$/],
    ['a title the ruleset lacks', (v) => (v.table[0].titles = ['Mayor']), /^view\.table\.0\.titles\.0: must be one of the ruleset's titles: Regular, Drinker, Legend$/],
    ['cardRemoved missing', (v) => delete v.turnState.cardRemoved, /^view\.turnState\.cardRemoved: is missing$/],
    ['soloLast as a number', (v) => (v.soloLast = 1), /^view\.soloLast: must be true or false$/],
    ['a front card marked "yes"', (v) => (v.table[0].front = [{ card: 'insulted_bartender', marker: 'yes', placedBy: 1 }]), /^view\.table\.0\.front\.0\.marker: must be true or false$/],
    ['a repeated shot token', (v) => (v.table[0].shotTokens = ['rum', 'rum']), /^view\.table\.0\.shotTokens: must not repeat an entry$/],
    ['a title with more tokens left than it has', (v) => (v.titlesLeft[0].left = 7), /^view\.titlesLeft\.0\.left: must be an integer from 0 to 6$/],
    ['deck size 1e9', (v) => (v.deck.size = 1e9), /^view\.deck\.size: /],
    ['a discard pile that does not add up', (v) => (v.discard.size += 1), /^view\.discard\.size: /],
    ['CLOSING TIME under the bar', (v) => (v.closingTime.where = 'under_the_bar'), /^view\.closingTime\.where: /],
    ['a depth range backwards', (v) => (v.closingTime.depth = [5, 2]), /^view\.closingTime\.depth: /],
    ['more beers in sight than the deck has', (v) => (v.table[1].front = Array.from({ length: 27 }, () => ({ card: 'beer' }))), /^view: holds more beer cards/],
    ['avoided listing one seat many times', (v) => (v.decision.avoided = [0, 0, 0]), /^view\.decision\.avoided: /, response],
    ['playedBy off the table', (v) => (v.decision.playedBy = 4), /^view\.decision\.playedBy: /, response],
    ['a winner off the table', (v) => (v.winners = [3]), /^view\.winners\.0: must be a seat from 0 to 2$/, over],
    ['final scores for some seats', (v) => (v.finalScores = [1]), /^view\.finalScores: must list the 3 seats' scores/, over],
    ['not an object', () => post('hello'), /^view: must be an object$/],
    ['null', () => post(null), /^view: must be an object$/],
    ['a list', () => post([]), /^view: must be an object$/],
    ['players as a string', (v) => (v.players = '4'), /^view\.players: must be an integer from 2 to 6$/],
    ['an unknown card id and a bad count', (v) => Object.assign(v.hand, { joker: 1, warm_beer: -1 }), /^view\.hand\.warm_beer: /],
    ['a list too long, with bad entries', (v) => (v.table[0].shotTokens = Array.from({ length: 6 }, () => 'beer')), /^view\.table\.0\.shotTokens: must be a list of at most 5$/],
    ['a name of 101 characters in surrogate pairs', (v) => (v.ruleset = '🍺'.repeat(101)), /^view\.ruleset: must be a string of 1 to 100 characters$/],
  ];

  test.each(cases)('%s is refused', (_, mutate, path, from = base) => {
    const v = structuredClone(from);
    const changed = mutate(v) as Json;
    const result = parsePostedView(changed !== null && typeof changed === 'object' && 'post' in changed ? changed.post : v);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatch(path);
    expect(result.error).not.toMatch(/\n/);
    expect(result.error.length).toBeLessThanOrEqual(200);
  });

  test('the bases themselves are valid', () => {
    for (const v of [base, response, over]) expect(parsePostedView(v).ok).toBe(true);
  });

  test('a long unknown key is not echoed in full', () => {
    const v = structuredClone(base);
    v.hand['k'.repeat(100_000)] = 0;
    const result = parsePostedView(v);
    expect(result.ok || result.error).toMatch(/^view\.hand: unknown key "k+…"$/);
    expect(result.ok || result.error.length).toBeLessThan(60);
  });

  test('__proto__ and constructor keys outside card counts are dropped, never followed', () => {
    const text = JSON.stringify(base)
      .replace('{', '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},')
      .replace('"offset":', '"__proto__":{"polluted":1},"offset":')
      .replace('"card":', '"__proto__":{"polluted":1},"card":');
    const posted = JSON.parse(text);
    expect(Object.keys(posted)).toContain('__proto__');
    const result = parsePostedView(posted);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const objects: unknown[] = [result.view, result.view.table[0], result.view.table[0].front[0], result.view.hand];
    for (const o of objects) {
      expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
      expect(Object.keys(o as object)).not.toContain('__proto__');
      expect((o as { polluted?: number }).polluted).toBeUndefined();
    }
    expect(Object.keys(result.view)).not.toContain('constructor');
    expect(({} as { polluted?: number }).polluted).toBeUndefined();
    expect(result.view).toStrictEqual(base);
  });

  test('card counts posted in another key order parse in CARD_IDS order', () => {
    const v = structuredClone(base);
    v.hand = Object.fromEntries(Object.entries(v.hand).reverse());
    v.deck.mayHold = Object.fromEntries(Object.entries(v.deck.mayHold).reverse());
    const result = parsePostedView(v);
    expect(result.ok && result.view).toStrictEqual(base);
    expect(result.ok && Object.keys(result.view.hand)).toEqual([...CARD_IDS]);
  });

  test('a name is counted in characters: 100 in surrogate pairs is allowed', () => {
    const v = { ...structuredClone(base), ruleset: '🍺'.repeat(100) };
    expect(parsePostedView(v)).toEqual({ ok: true, view: v });
  });

  test("another ruleset's bounds apply", () => {
    const ruleset = structuredClone(DEFAULT_RULESET);
    ruleset.players.max = 3;
    expect(viewChecker(ruleset)).not.toBe(viewChecker());
    expect(parsePostedView(base, ruleset)).toEqual({ ok: false, error: 'view.players: must be an integer from 2 to 3' });
  });

  test('every card id is required in a hand and nothing else', () => {
    const result = parsePostedView(base);
    expect(result.ok && Object.keys(result.view.hand)).toEqual([...CARD_IDS]);
  });
});
