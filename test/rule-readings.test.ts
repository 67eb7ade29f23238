/**
 * Readings the engine makes where the two rulebooks differ or say nothing, as docs/rules.md
 * states them (each case names its section there). A failure here means the engine changed a
 * reading: change docs/rules.md with it, or the engine back.
 */
import { describe, expect, it } from 'vitest';
import { CLOSING_TIME } from '../env/cards.ts';
import { CLOSING_IN_DECK } from '../env/state.ts';
import {
  act, C, events, figure, forceDice, frontOf, legal, placeFigure, playTurn, scenario, setHand, type Game,
} from './helpers/scenario.ts';

const turnSeats = (g: Game) => events(g, 'turn').map((t) => t.seat);
const closingAt = (g: Game, below = 0): void => {
  g.s.deck.splice(g.s.deck.length - below, 0, CLOSING_TIME);
  g.s.closing.where = CLOSING_IN_DECK;
};

describe('abstinence is judged from what is in front at digestion (rules.md: the rulebooks differ)', () => {
  it('Mixed-up swapping a player\'s only Tea for a Beer: the Beer is drunk, no abstinence, the token goes', () => {
    const g = scenario({ players: 2 });
    g.s.abstinence[0] = 1;
    setHand(g, 0, ['tea']);
    setHand(g, 1, ['mixed_up', 'beer']);
    playTurn(g, 'play:tea', 'x:mixed_up:tea>beer');
    expect(events(g, 'digest')[0]).toMatchObject({ seat: 0, points: 1, drunkenness: 0, abstinence: 0 });
    expect(g.s.abstinence[0]).toBe(0);
  });

  it('a non-alcoholic order given by Mixed-up moves the abstaining figure one more space back', () => {
    const g = scenario({ players: 2 });
    placeFigure(g, 0, 1, 2);
    setHand(g, 0, ['tea']);
    setHand(g, 1, ['mixed_up', 'coffee']);
    playTurn(g, 'play:tea', 'x:mixed_up:tea>coffee');
    expect(events(g, 'digest')[0]).toMatchObject({ seat: 0, points: -1, move: -2, abstinence: 1 });
    expect(figure(g, 0)).toEqual({ level: 1, space: 0 });
  });
});

describe('beers beyond three (rules.md: Digestion)', () => {
  it('5 beers with a small one among them: 7 points, 3 drunkenness', () => {
    const g = scenario({ players: 4 });
    setHand(g, 0, ['beer', 'beer', 'small_beer', 'tea', 'coffee']);
    setHand(g, 1, ['mixed_up', 'beer']);
    setHand(g, 2, ['mixed_up', 'beer']);
    act(g, 'play:beer', 'pass', 'pass', 'play:beer', 'pass', 'pass', 'play:small_beer', 'pass', 'pass');
    playTurn(g, 'play:tea', 'x:mixed_up:tea>beer', 'pass', 'play:coffee', 'x:mixed_up:coffee>beer');
    expect(events(g, 'digest')[0]).toMatchObject({ points: 7, drunkenness: 3 });
  });
});

describe('last turns (rules.md: The end of the game)', () => {
  // English: "Everyone has a last turn counting this one."
  it('after CLOSING TIME, a paused player\'s last turn is the PAUSE turn: no orders', () => {
    const g = scenario();
    closingAt(g); // seat 0 draws it at cleanup
    setHand(g, 0, ['beer', 'coffee', 'coffee', 'coffee', 'coffee', 'coffee']);
    setHand(g, 1, ['beer', 'rum']);
    g.s.paused[1] = 1;
    playTurn(g, 'play:beer');
    expect(events(g, 'closing')).toEqual([{ k: 'closing', seat: 0 }]);
    expect(events(g, 'pause')).toEqual([{ k: 'pause', seat: 1 }]);
    expect(g.s.active).toBe(2);
    playTurn(g, 'play:beer');
    expect(g.s.over).toBe(true);
    expect(turnSeats(g)).toEqual([1, 2]);
    expect(events(g, 'digest').map((d) => d.seat)).toEqual([0, 2]);
  });

  it('I\'ll get the same played in one\'s last turn at a player who has had theirs does nothing', () => {
    const g = scenario();
    closingAt(g, 1); // seat 1 draws it at the start of its turn: seats 1, 2, 0 have a last turn
    setHand(g, 0, ['beer', 'coffee', 'coffee', 'coffee', 'coffee', 'coffee', 'coffee']);
    playTurn(g, 'play:beer');
    expect(events(g, 'closing')).toEqual([{ k: 'closing', seat: 1 }]);
    setHand(g, 1, ['beer']);
    playTurn(g, 'play:beer');
    setHand(g, 2, ['same', 'beer']);
    g.s.abstinence[2] = 1;
    expect(legal(g)).toContain('play:same:+2'); // still offered
    playTurn(g, 'play:same:+2');
    setHand(g, 0, ['beer']);
    playTurn(g, 'play:beer');
    expect(g.s.over).toBe(true);
    expect(turnSeats(g)).toEqual([1, 2, 0]);
    expect(events(g, 'digest').filter((d) => d.seat === 2)).toEqual([]);
    expect(g.s.points[2]).toBe(0);
    expect(g.s.abstinence[2]).toBe(1);
  });
});

describe('an Insulted bartender on a PAUSE turn (rules.md: Insulted bartender)', () => {
  it('is used up: discarded at the end of the PAUSE turn, and the next turn may order', () => {
    const g = scenario({ players: 2 });
    g.s.copying[1] = 0; // seat 1 played I'll get the same at seat 0 in its previous turn
    placeFigure(g, 1, 1, 3); // the last space of level 1: any roll moves seat 1 up a level
    setHand(g, 0, ['insulted_bartender', 'beer', 'beer']);
    setHand(g, 1, ['beer']);
    act(g, 'play:insulted_bartender:+1');
    expect(frontOf(g, 1)).toEqual(['insulted_bartender']);
    forceDice(g, 6, 6);
    playTurn(g, 'play:beer', 'play:beer'); // seat 1 copies the beers, levels up and pauses
    expect(events(g, 'level_up')).toEqual([{ k: 'level_up', seat: 1, level: 1 }]);
    expect(events(g, 'pause')).toEqual([{ k: 'pause', seat: 1 }]);
    expect(frontOf(g, 1)).toEqual([]);
    expect(g.s.discard).toContain(C.insulted_bartender);
    setHand(g, 0, ['beer']);
    playTurn(g, 'play:beer');
    expect(g.s.active).toBe(1);
    expect(legal(g)).toContain('play:beer');
  });
});
