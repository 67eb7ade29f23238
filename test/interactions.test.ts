/**
 * Interactions of two or more cards or rules that no single card's test covers, each asserted
 * as the rulebooks (seeds/) say. Where they are silent the test says "Assumed" and what it
 * keeps: the engine's reading, as RULES.md records it.
 */
import { describe, expect, it } from 'vitest';
import { CLOSING_TIME } from '../env/cards.ts';
import { CLOSING_DRAWN, CLOSING_IN_DECK, THROWN_OUT } from '../env/state.ts';
import {
  act, C, events, forceDice, frontOf, handOf, legal, placeFigure, playTurn, scenario, setHand, tokens, type Game,
} from './helpers/scenario.ts';

const turnSeats = (g: Game) => events(g, 'turn').map((t) => t.seat);
const closingAt = (g: Game, below = 0): void => {
  g.s.deck.splice(g.s.deck.length - below, 0, CLOSING_TIME);
  g.s.closing.where = CLOSING_IN_DECK;
};

describe("I'll get the same", () => {
  // English: "resolve your Digestion then, counting the orders he played this turn"; Czech:
  // "Všechny jím vynesené objednávky vypijete i vy a spolu s ním".
  it('copying a seat whose order is knocked over: neither drinks the knocked-over Rum', () => {
    const g = scenario();
    setHand(g, 0, ['same']);
    setHand(g, 1, ['beer', 'beer', 'rum']);
    setHand(g, 2, ['knocked_over']);
    act(g, 'play:same:+1');
    expect(g.s.active).toBe(1);
    forceDice(g, 6, 6);
    act(g, 'play:beer', 'pass', 'play:rum', 'x:knocked_over:rum');
    expect(frontOf(g, 1)).toEqual(['same', 'beer']);
    playTurn(g, 'play:beer');
    const [target, copier] = events(g, 'digest');
    expect(target).toMatchObject({ seat: 1, points: 3, drunkenness: 1 });
    expect(copier).toMatchObject({ seat: 0, copyOf: 1, points: 3, drunkenness: 1 });
    expect(g.s.tokens[0]).toBe(0);
    expect(g.s.tokens[1]).toBe(0);
  });

  // English: Insulted bartender "Target player can't play any order during his turn"; the
  // copier drinks the orders played, so none: no card giving drunkenness, an abstinence.
  it('copying a seat who is insulted: the target drinks its Flattery, the copier nothing and abstains', () => {
    const g = scenario({ active: 2 });
    setHand(g, 2, ['same']);
    act(g, 'play:same:+2'); // at seat 1
    expect(g.s.copying[2]).toBe(1);
    setHand(g, 0, ['insulted_bartender', 'beer']);
    act(g, 'play:insulted_bartender:+1');
    playTurn(g, 'play:beer');
    expect(g.s.active).toBe(1);
    setHand(g, 1, ['beer', 'rum', 'flattery']);
    expect(legal(g)).toEqual(expect.not.arrayContaining(['play:beer', 'play:rum']));
    playTurn(g, 'play:flattery:rum');
    const digests = events(g, 'digest').filter((d) => d.seat !== 0);
    expect(digests).toMatchObject([
      { seat: 1, points: 5, abstinence: 0 },
      { seat: 2, copyOf: 1, points: -1, drunkenness: 0, abstinence: 1 },
    ]);
    expect(g.s.tokens[2]).toBe(0);
  });

  it('two copiers of one seat: both drink its orders and each rolls, in clockwise order from it', () => {
    const g = scenario({ active: 2 });
    setHand(g, 2, ['same']);
    act(g, 'play:same:+2'); // seat 2 at seat 1
    setHand(g, 0, ['same']);
    act(g, 'play:same:+1'); // seat 0 at seat 1
    expect(g.s.copying).toEqual([1, -1, 1]);
    expect(frontOf(g, 1)).toEqual(['same', 'same']);
    setHand(g, 1, ['beer', 'beer', 'rum']);
    forceDice(g, 6, 5, 1);
    playTurn(g, 'play:beer', 'play:beer', 'play:rum');
    expect(events(g, 'digest')).toMatchObject([
      { seat: 1, points: 8, drunkenness: 2, die: 6 },
      { seat: 2, copyOf: 1, points: 8, drunkenness: 2, die: 5 },
      { seat: 0, copyOf: 1, points: 8, drunkenness: 2, die: 1 },
    ]);
    expect(g.s.tokens).toEqual([tokens('rum'), tokens('rum'), tokens('rum')]);
    expect(g.s.copying).toEqual([-1, -1, -1]);
  });

  it('a chain: A copies B, who plays I\'ll get the same at C: A gets no order (an abstinence), B drinks C\'s', () => {
    const g = scenario();
    setHand(g, 0, ['same']);
    act(g, 'play:same:+1');
    setHand(g, 1, ['same']);
    act(g, 'play:same:+1'); // seat 1 at seat 2; seat 0's copy resolves now
    expect(events(g, 'digest')).toMatchObject([{ seat: 0, copyOf: 1, points: -1, abstinence: 1 }]);
    expect(g.s.copying).toEqual([-1, 2, -1]);
    setHand(g, 2, ['beer', 'beer']);
    playTurn(g, 'play:beer', 'play:beer');
    expect(events(g, 'digest').slice(1)).toMatchObject([
      { seat: 2, points: 3, drunkenness: 1 },
      { seat: 1, copyOf: 2, points: 3, drunkenness: 1 },
    ]);
  });
});

describe('Excuse me redirect chains', () => {
  // Czech: "Nelze však účinek přesunout na hráče, který škodící kartu zahrál, ani na hráče,
  // jenž se mu již pomocí této karty vyhnul."
  it('Insulted bartender passed on twice; the third player may neither send it back nor on to the player who played it', () => {
    const g = scenario({ players: 5 });
    setHand(g, 0, ['insulted_bartender', 'beer']);
    for (const seat of [2, 3, 4]) setHand(g, seat, ['excuse_me']);
    act(g, 'play:insulted_bartender:+2');
    expect(legal(g)).toEqual(['pass', 'excuse_me:cancel', 'excuse_me:left', 'excuse_me:right']);
    act(g, 'excuse_me:left');
    expect(g.s.actor).toBe(3);
    expect(legal(g)).toEqual(['pass', 'excuse_me:cancel', 'excuse_me:left']); // not back to seat 2
    act(g, 'excuse_me:left');
    expect(g.s.actor).toBe(4);
    expect(legal(g)).toEqual(['pass', 'excuse_me:cancel']); // seat 0 played it, seat 3 avoided it
    act(g, 'pass');
    expect(events(g, 'excuse')).toEqual([
      { k: 'excuse', seat: 2, card: C.insulted_bartender, redirect: 3 },
      { k: 'excuse', seat: 3, card: C.insulted_bartender, redirect: 4 },
    ]);
    expect(frontOf(g, 4)).toEqual(['insulted_bartender']);
    expect(frontOf(g, 2)).toEqual([]);
    expect(frontOf(g, 3)).toEqual([]);
  });

  it("That's my order redirected, then cancelled: nobody loses a card", () => {
    const g = scenario({ players: 4 });
    setHand(g, 0, ['thats_my_order', 'beer']);
    setHand(g, 1, ['excuse_me', 'rum']);
    setHand(g, 2, ['excuse_me', 'vodka']);
    act(g, 'play:thats_my_order:+1', 'excuse_me:left', 'excuse_me:cancel');
    expect(handOf(g, 1)).toEqual(['rum']);
    expect(handOf(g, 2)).toEqual(['vodka']);
    expect(handOf(g, 0)).toEqual(['beer']);
    expect(events(g, 'take')).toEqual([]);
  });
});

describe('the draw pile runs out during a turn', () => {
  // English: "When the draw deck runs out, shuffle the discard pile and use it to replace the draw deck."
  it('drawing after discarding instead of playing: the last card, then the pile renewed from the discards', () => {
    const g = scenario({ players: 5, deck: ['beer'] }); // (5 players: no CLOSING TIME yet)
    setHand(g, 0, ['tea', 'tea', 'coffee', 'rum', 'rum', 'vodka']);
    act(g, 'discard:tea', 'discard:tea', 'discard:coffee');
    act(g, 'stop_discarding'); // 3 cards in hand, 4 to draw: the Beer, then 3 from the new pile
    expect(events(g, 'reshuffle')).toEqual([{ k: 'reshuffle', size: 3, closingPlaced: false }]);
    expect(handOf(g, 0)).toEqual(['beer', 'rum', 'rum', 'vodka', 'tea', 'tea', 'coffee']);
    expect(g.s.deck).toEqual([]);
  });

  it('the last card drawn mid-turn with one card discarded: that card is the new pile at once', () => {
    const g = scenario({ players: 5, deck: ['beer'] });
    setHand(g, 0, ['tea', 'rum', 'rum', 'rum', 'rum', 'vodka', 'vodka']);
    for (let seat = 1; seat < 5; seat++) setHand(g, seat, new Array(7).fill('coffee'));
    act(g, 'discard:tea', 'stop_discarding');
    expect(g.s.deck).toEqual([C.tea]);
    expect(g.s.discard).toEqual([]);
    expect(g.s.reshuffles).toBe(1);
  });
});

describe('CLOSING TIME drawn outside the cleanup draw', () => {
  // English: "If you draw the Closing Time card, reveal it immediately ... Everyone has a last
  // turn counting this one."
  it('drawn mid-turn, after discarding instead of playing: that turn is the last, then one each for the others', () => {
    const g = scenario();
    closingAt(g);
    setHand(g, 0, ['tea', 'coffee', 'coffee', 'coffee', 'coffee', 'coffee', 'coffee']);
    act(g, 'discard:tea', 'stop_discarding');
    expect(events(g, 'closing')).toEqual([{ k: 'closing', seat: 0 }]);
    expect(g.s.closing.where).toBe(CLOSING_DRAWN);
    expect(g.s.handSize[0]).toBe(7);
    expect(g.s.active).toBe(1);
    playTurn(g, 'play:beer');
    playTurn(g, 'play:beer');
    expect(g.s.over).toBe(true);
    expect(turnSeats(g)).toEqual([1, 2]);
  });

  it('drawn in a PAUSE turn: that PAUSE turn counts as the player\'s last (Assumed: "counting this one")', () => {
    const g = scenario();
    closingAt(g, 1); // seat 0 draws one card at cleanup, then paused seat 1 draws CLOSING TIME
    setHand(g, 0, ['beer', 'coffee', 'coffee', 'coffee', 'coffee', 'coffee', 'coffee']);
    setHand(g, 1, ['coffee', 'coffee', 'coffee', 'coffee', 'coffee']);
    g.s.paused[1] = 1;
    playTurn(g, 'play:beer');
    expect(events(g, 'pause')).toEqual([{ k: 'pause', seat: 1 }]);
    expect(events(g, 'closing')).toEqual([{ k: 'closing', seat: 1 }]);
    expect(g.s.handSize[1]).toBe(7);
    expect(g.s.active).toBe(2);
    playTurn(g, 'play:beer');
    playTurn(g, 'play:beer');
    expect(g.s.over).toBe(true);
    expect(turnSeats(g)).toEqual([1, 2, 0]);
    expect(events(g, 'digest').map((d) => d.seat)).toEqual([0, 2, 0]);
  });
});

describe('That beer is warm on a beer given by Mixed-up (Assumed effect: the seeds name the card only)', () => {
  it('the given beer goes to the active player\'s hand, regains no actions (it cost none) and cannot be played this turn', () => {
    const g = scenario({ players: 2 });
    setHand(g, 0, ['tea', 'beer']);
    setHand(g, 1, ['mixed_up', 'warm_beer', 'small_beer']);
    act(g, 'play:tea', 'x:mixed_up:tea>small_beer');
    expect(frontOf(g, 0)).toEqual(['small_beer']);
    expect(g.s.actionsUsed).toBe(0); // the Tea's action regained, the given card costs none
    act(g, 'x:warm_beer:small_beer');
    expect(frontOf(g, 0)).toEqual([]);
    expect(handOf(g, 0)).toEqual(['beer', 'small_beer']);
    expect(g.s.actionsUsed).toBe(0);
    expect(legal(g)).toContain('play:beer');
    expect(legal(g)).not.toContain('play:small_beer');
  });
});

describe('Mixed-up giving an order of the same type', () => {
  // English: the given cards "don't count toward limits"; Czech: "Akce zrušených karet může
  // aktivní hráč znovu využít, stejně jako může například vynést dalšího panáka".
  it('a Beer for a Beer: the given one is beyond the limit, so a 4th beer may be ordered (7 points)', () => {
    const g = scenario({ players: 2 });
    setHand(g, 0, ['beer', 'beer', 'beer', 'beer']);
    setHand(g, 1, ['mixed_up', 'beer']);
    act(g, 'play:beer', 'pass', 'play:beer', 'pass', 'play:beer', 'x:mixed_up:beer>beer');
    expect(legal(g)).toContain('play:beer');
    forceDice(g, 6);
    playTurn(g, 'play:beer');
    expect(events(g, 'digest')[0]).toMatchObject({ points: 7, drunkenness: 4 });
  });

  it('a Rum for a Rum: the shot limit is free again, so a Vodka may be ordered too', () => {
    const g = scenario({ players: 2 });
    setHand(g, 0, ['beer', 'rum', 'vodka']);
    setHand(g, 1, ['mixed_up', 'rum']);
    act(g, 'play:beer', 'pass', 'play:rum', 'x:mixed_up:rum>rum');
    expect(handOf(g, 1)).toEqual(['rum']);
    expect(legal(g)).toContain('play:vodka');
    forceDice(g, 6);
    playTurn(g, 'play:vodka');
    expect(events(g, 'digest')[0]).toMatchObject({ points: 1 + 5 + 5 });
    expect(g.s.tokens[0]).toBe(tokens('rum', 'vodka'));
  });
});

describe('hand sizes at levels 3 and 4 (Assumed: 5 and 4, RULES.md; the English text gives level 2 only)', () => {
  it('a player draws up to 5 on level 3 and up to 4 on level 4, at the start of the turn and at cleanup', () => {
    const g = scenario();
    setHand(g, 0, ['beer']);
    setHand(g, 1, ['rum', 'tea']);
    setHand(g, 2, []);
    placeFigure(g, 1, 3, 1);
    placeFigure(g, 2, 4, 2);
    playTurn(g, 'play:beer');
    expect(g.s.handSize[1]).toBe(5);
    playTurn(g, 'play:beer');
    expect(g.s.handSize[1]).toBe(5);
    expect(g.s.handSize[2]).toBe(4);
    playTurn(g, 'play:beer');
    expect(g.s.handSize[2]).toBe(4);
    expect(events(g, 'draw').filter((d) => d.seat !== 0).map((d) => [d.seat, d.count])).toEqual([[1, 3], [1, 1], [2, 4], [2, 1]]);
  });
});

describe('everyone wasted while the last player is paused', () => {
  // English: "If all but one player is wasted, the last player has one last turn"; a paused
  // player's next turn is the PAUSE turn ("When it's your turn you simply flip the coaster
  // back"). Assumed: that PAUSE turn is the last turn, and the game ends after it.
  it('the last player\'s last turn is the PAUSE turn: no play, then the game ends', () => {
    const g = scenario({ active: 2 });
    g.s.out[1] = THROWN_OUT;
    g.s.paused[0] = 1;
    placeFigure(g, 0, 2, 0);
    placeFigure(g, 2, 4, 4);
    setHand(g, 2, ['beer']);
    playTurn(g, 'play:beer'); // seat 2 is wasted at its digestion
    expect(g.s.out[2]).not.toBe(0);
    expect(g.s.over).toBe(true);
    expect(turnSeats(g)).toEqual([0]);
    expect(events(g, 'pause')).toEqual([{ k: 'pause', seat: 0 }]);
    expect(events(g, 'digest').map((d) => d.seat)).toEqual([2]);
  });
});
