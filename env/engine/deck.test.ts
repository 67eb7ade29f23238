/** The draw pile: reshuffling the discard pile, and where CLOSING TIME goes by player count. */
import { describe, expect, it } from 'vitest';
import { CLOSING_TIME, HAND_TYPES } from '../cards.ts';
import { CLOSING_ASIDE, CLOSING_DRAWN, CLOSING_IN_DECK } from '../state.ts';
import { C, events, playTurn, scenario, setHand } from '../../test/helpers/scenario.ts';

/**
 * Seat 0 plays its only beer with an empty draw pile and 40 beers discarded: at cleanup the
 * discard pile (41 cards) is shuffled into a new pile and seat 0 draws 1 card from it.
 * Returns how many cards lay above CLOSING TIME when it was shuffled in, or -1.
 */
function firstDrawAfterReshuffle(players: number, seed: number, earlierReshuffles = 0): number {
  const g = scenario({ players, seed, deck: [] });
  g.s.discard = new Array<number>(40).fill(C.beer);
  g.s.reshuffles = earlierReshuffles;
  setHand(g, 0, ['beer', 'coffee', 'coffee', 'coffee', 'coffee', 'coffee', 'coffee']);
  for (let seat = 1; seat < players; seat++) setHand(g, seat, new Array(7).fill('coffee'));
  playTurn(g, 'play:beer');
  const [reshuffle] = events(g, 'reshuffle');
  expect(reshuffle).toMatchObject({ size: 41 + (reshuffle.closingPlaced ? 1 : 0) });
  if (g.s.closing.where === CLOSING_ASIDE) return -1;
  if (g.s.closing.where === CLOSING_DRAWN) return 0;
  return g.s.deck.length - 1 - g.s.deck.indexOf(CLOSING_TIME) + 1;
}

const depths = (players: number, earlierReshuffles = 0) =>
  Array.from({ length: 40 }, (_, seed) => firstDrawAfterReshuffle(players, seed, earlierReshuffles));

describe('reshuffle', () => {
  it('an empty draw pile takes the shuffled discard pile', () => {
    const g = scenario({ players: 5, deck: [] }); // (5 players: CLOSING TIME waits for the 2nd reshuffle)
    g.s.discard = [C.tea, C.rum, C.vodka, C.coffee, C.coffee, C.coffee, C.coffee, C.coffee];
    setHand(g, 0, ['beer']);
    for (let seat = 1; seat < 5; seat++) setHand(g, seat, new Array(7).fill('coffee'));
    playTurn(g, 'play:beer');
    expect(events(g, 'reshuffle')).toHaveLength(1);
    expect(g.s.handSize[0]).toBe(7);
    expect(g.s.deck.length + g.s.discard.length).toBe(2);
  });

  it('with both piles empty, the player draws what there is', () => {
    const g = scenario({ deck: ['rum', 'rum'] });
    setHand(g, 0, ['tea', 'tea', 'tea']);
    playTurn(g); // an abstinence: nothing goes to the discard pile
    expect(g.s.handSize[0]).toBe(5);
    expect(events(g, 'reshuffle')).toEqual([]);
  });
});

describe('the draw pile runs out', () => {
  it('with the last card drawn, the discard pile is shuffled in at once, and every seat knows what it holds', () => {
    const g = scenario({ players: 5, deck: ['beer'] }); // (5 players: no CLOSING TIME in the 1st pile)
    g.s.discard = [C.rum, C.vodka];
    setHand(g, 0, ['beer', 'coffee', 'coffee', 'coffee', 'coffee', 'coffee', 'coffee']);
    for (let seat = 1; seat < 5; seat++) setHand(g, seat, new Array(7).fill('coffee'));
    playTurn(g, 'play:beer');
    expect(events(g, 'reshuffle')).toEqual([{ k: 'reshuffle', size: 3, closingPlaced: false }]);
    expect([...g.s.deck].sort()).toEqual([C.beer, C.rum, C.vodka].sort());
    expect(g.s.discard).toEqual([]);
    // The card seat 0 drew came from the old pile: its knowledge of the new one is whole.
    for (let seat = 0; seat < 5; seat++) {
      const row = g.s.pileKnown.slice(seat * HAND_TYPES, (seat + 1) * HAND_TYPES);
      expect([row[C.beer], row[C.rum], row[C.vodka]]).toEqual([1, 1, 1]);
      expect(row.reduce((a, b) => a + b, 0)).toBe(3);
    }
  });

  it('with the discard pile empty too, the reshuffle waits for the next draw that finds cards in it', () => {
    const g = scenario({ players: 5, deck: ['beer', 'tea'] });
    setHand(g, 0, ['coffee', 'coffee', 'coffee', 'coffee', 'coffee']);
    for (let seat = 1; seat < 5; seat++) setHand(g, seat, new Array(7).fill('coffee'));
    playTurn(g); // an abstinence, nothing in front: cleanup draws the Tea and the Beer
    expect(events(g, 'reshuffle')).toEqual([]);
    expect(g.s.deck).toEqual([]);
    expect(g.s.discard).toEqual([]);
    playTurn(g, 'play:coffee'); // seat 1's Coffee is discarded at cleanup, shuffled in and drawn
    expect(events(g, 'reshuffle')).toEqual([{ k: 'reshuffle', size: 1, closingPlaced: false }]);
    expect(g.s.handSize[1]).toBe(7);
    expect(g.s.deck).toEqual([]);
  });

  it('CLOSING TIME as the last card: the pile is renewed, then the replacement is drawn from it', () => {
    const g = scenario({ players: 5, deck: [] });
    g.s.deck = [CLOSING_TIME];
    g.s.closing.where = CLOSING_IN_DECK;
    g.s.reshuffles = 2;
    g.s.discard = [C.rum];
    setHand(g, 0, ['beer', 'coffee', 'coffee', 'coffee', 'coffee', 'coffee', 'coffee']);
    for (let seat = 1; seat < 5; seat++) setHand(g, seat, new Array(7).fill('coffee'));
    playTurn(g, 'play:beer');
    expect(events(g, 'reshuffle')).toEqual([{ k: 'reshuffle', size: 2, closingPlaced: false }]);
    expect(events(g, 'closing')).toEqual([{ k: 'closing', seat: 0 }]);
    expect(g.s.closing.where).toBe(CLOSING_DRAWN);
    expect(g.s.handSize[0]).toBe(7);
    expect(g.s.deck).toHaveLength(1);
  });
});

describe('CLOSING TIME placement', () => {
  it.each([2, 3])('%i players: into the first half of the first reshuffle', (players) => {
    const d = depths(players);
    expect(Math.min(...d)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...d)).toBeLessThanOrEqual(20);
    expect(Math.max(...d)).toBeGreaterThan(10);
  });

  it('4 players: into the second half of the first reshuffle', () => {
    const d = depths(4);
    expect(Math.min(...d)).toBeGreaterThanOrEqual(20);
    expect(Math.max(...d)).toBeLessThanOrEqual(41);
    expect(Math.min(...d)).toBeLessThan(30);
  });

  it.each([5, 6])('%i players: not into the first reshuffle', (players) => {
    expect(new Set(depths(players))).toEqual(new Set([-1]));
  });

  it('5 players: into the first half of the second reshuffle; 6 players: its second half', () => {
    const five = depths(5, 1);
    expect(Math.min(...five)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...five)).toBeLessThanOrEqual(20);
    const six = depths(6, 1);
    expect(Math.min(...six)).toBeGreaterThanOrEqual(20);
    expect(Math.max(...six)).toBeLessThanOrEqual(41);
  });

  it('when drawn it is revealed and replaced by the next card', () => {
    const g = scenario({ deck: ['beer', 'rum'] });
    g.s.deck.push(CLOSING_TIME);
    g.s.closing.where = CLOSING_IN_DECK;
    setHand(g, 0, ['beer', 'coffee', 'coffee', 'coffee', 'coffee', 'coffee', 'coffee']);
    setHand(g, 1, new Array(7).fill('coffee'));
    playTurn(g, 'play:beer');
    expect(events(g, 'closing')).toEqual([{ k: 'closing', seat: 0 }]);
    expect(events(g, 'draw')[0]).toEqual({ k: 'draw', seat: 0, count: 1, cards: [C.rum] });
    expect(g.s.closing.where).toBe(CLOSING_DRAWN);
    expect(g.s.deck).toEqual([C.beer]);
  });
});
