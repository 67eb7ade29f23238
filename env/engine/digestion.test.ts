/** Digestion: the roll, abstinence, leaving a row, being wasted, titles, and copies. */
import { describe, expect, it } from 'vitest';
import {
  act, C, events, figure, forceDice, handOf, placeFigure, playTurn, scenario, setHand, tokens,
} from '../../test/helpers/scenario.ts';
import { THROWN_OUT, WASTED } from '../state.ts';

describe('the roll', () => {
  // 3 beers (3) and a Rum with all five tokens (4) make 7 drunkenness.
  it.each([
    [1, 0, 6, 7, 3], // 1 short
    [1, 0, 4, 7, 3], // 3 short
    [1, 0, 3, 7, 4], // 4 short
    [1, 0, 1, 7, 4], // 6 short
    [1, 3, 3, 10, 5], // 7 short
    [1, 3, 1, 10, 5], // 9 short
    [2, 4, 1, 11, 6], // 10 short: one more space for every further 3
    [1, -2, 5, 5, 1], // equal: OK
  ])('level %i space %i, die %i: total %i, moves %i', (level, space, die, total, move) => {
    const g = scenario();
    placeFigure(g, 0, level, space);
    g.s.tokens[0] = 0b11111;
    setHand(g, 0, ['beer', 'beer', 'beer', 'rum']);
    forceDice(g, die);
    playTurn(g, 'play:beer', 'play:beer', 'play:beer', 'play:rum');
    expect(events(g, 'digest')[0]).toMatchObject({ drunkenness: 7, total, die, move });
  });

  it('non-alcoholic orders subtract their printed drunkenness when drunk with alcohol', () => {
    const g = scenario();
    setHand(g, 0, ['beer', 'tea', 'coffee']);
    forceDice(g, 1);
    playTurn(g, 'play:beer', 'play:tea', 'play:coffee');
    expect(events(g, 'digest')[0]).toMatchObject({ points: 1, drunkenness: -3, total: -5, move: 1, abstinence: 0 });
  });

  it('the digest event reports where the figure ended up', () => {
    const g = scenario();
    setHand(g, 0, ['beer', 'beer', 'beer']);
    forceDice(g, 1);
    playTurn(g, 'play:beer', 'play:beer', 'play:beer');
    expect(events(g, 'digest')[0]).toMatchObject({ total: 1, move: 1, level: 0, space: 1 });
    expect(figure(g, 0)).toEqual({ level: 1, space: -1 });
  });
});

describe('abstinence', () => {
  it('moves 1 space back plus 1 per non-alcoholic order, ignoring their printed values', () => {
    const g = scenario();
    placeFigure(g, 0, 1, 3);
    setHand(g, 0, ['tea', 'utopenec']);
    playTurn(g, 'play:tea', 'play:utopenec');
    expect(events(g, 'digest')[0]).toMatchObject({ points: -1, drunkenness: 0, move: -3, abstinence: 1 });
    expect(events(g, 'digest')[0].die).toBeUndefined();
    expect(figure(g, 0)).toEqual({ level: 1, space: 0 });
  });

  it('stops at the first space of the current level', () => {
    const g = scenario();
    placeFigure(g, 0, 2, 1);
    setHand(g, 0, ['tea', 'coffee']);
    playTurn(g, 'play:tea', 'play:coffee');
    expect(figure(g, 0)).toEqual({ level: 2, space: 0 });
  });

  it('any drink discards the abstinence token', () => {
    const g = scenario();
    g.s.abstinence[0] = 2;
    setHand(g, 0, ['small_beer']);
    playTurn(g, 'play:small_beer');
    expect(g.s.abstinence[0]).toBe(0);
    expect(g.s.points[0]).toBe(0);
  });

  it('a third in a row throws the player out: hand and cards to the pile, points kept, skipped after', () => {
    const g = scenario();
    g.s.abstinence[0] = 2;
    g.s.points[0] = 12;
    setHand(g, 0, ['tea', 'rum', 'vodka']);
    playTurn(g, 'play:tea');
    expect(g.s.out[0]).toBe(THROWN_OUT);
    expect(g.s.points[0]).toBe(12);
    expect(handOf(g, 0)).toEqual([]);
    expect(g.s.discard).toEqual([C.rum, C.vodka, C.tea]);
    playTurn(g, 'play:beer');
    playTurn(g, 'play:beer');
    expect(g.s.active).toBe(1);
  });
});

describe('leaving a row', () => {
  it('past the last space: first space of the next level, no further movement, PAUSE', () => {
    const g = scenario();
    placeFigure(g, 0, 1, 2);
    setHand(g, 0, ['beer', 'beer', 'beer']);
    forceDice(g, 1); // total 3 + 2 = 5: 4 short, 4 spaces
    playTurn(g, 'play:beer', 'play:beer', 'play:beer');
    expect(events(g, 'level_up')).toEqual([{ k: 'level_up', seat: 0, level: 1 }]);
    expect(figure(g, 0)).toEqual({ level: 2, space: 0 });
    expect(g.s.paused[0]).toBe(1);
    expect(g.s.handSize[0]).toBe(6); // drawn up to the new level's hand size
  });

  it('past the last space of level 4 the player is wasted, keeping points and tokens', () => {
    const g = scenario();
    placeFigure(g, 0, 4, 4);
    g.s.points[0] = 30;
    setHand(g, 0, ['beer', 'rum']);
    forceDice(g, 6);
    playTurn(g, 'play:beer', 'play:rum');
    expect(g.s.out[0]).toBe(WASTED);
    expect(events(g, 'out')).toEqual([{ k: 'out', seat: 0, how: 'wasted' }]);
    expect(g.s.points[0]).toBe(36);
    expect(g.s.tokens[0]).toBe(tokens('rum'));
    expect(handOf(g, 0)).toEqual([]);
  });
});

describe('titles', () => {
  it('are taken once the points reach them, after the points are added, while tokens last', () => {
    const g = scenario({ players: 2 });
    g.s.points = [55, 59];
    setHand(g, 0, ['beer', 'beer', 'beer']);
    playTurn(g, 'play:beer', 'play:beer', 'play:beer');
    expect(g.s.titles[0]).toBe(0b111);
    expect(g.s.titlesLeft).toEqual([5, 2, 0]);
    playTurn(g, 'play:beer', 'play:beer');
    expect(g.s.points[1]).toBe(62);
    expect(g.s.titles[1]).toBe(0b011);
    expect(g.s.titlesLeft).toEqual([4, 1, 0]);
    expect(events(g, 'title').map((t) => [t.seat, t.title])).toEqual([[0, 0], [0, 1], [0, 2], [1, 0], [1, 1]]);
  });

  it('are not taken by an abstinence, nor on the way down', () => {
    const g = scenario();
    g.s.points[0] = 21;
    setHand(g, 0, ['tea']);
    playTurn(g, 'play:tea');
    expect(g.s.points[0]).toBe(20);
    expect(g.s.titles[0]).toBe(0);
  });
});

describe("I'll get the same at digestion", () => {
  const copyOf1 = () => {
    const g = scenario();
    setHand(g, 0, ['same']);
    setHand(g, 1, ['beer', 'beer', 'beer', 'rum', 'coffee', 'coffee', 'coffee']);
    act(g, 'play:same:+1');
    expect(g.s.active).toBe(1);
    return g;
  };

  it('the copy still drinks when the target is wasted by their own roll', () => {
    const g = copyOf1();
    placeFigure(g, 1, 4, 4);
    forceDice(g, 6, 6);
    playTurn(g, 'play:beer', 'play:beer', 'play:beer', 'play:rum');
    expect(g.s.out[1]).toBe(WASTED);
    expect(events(g, 'digest').map((d) => [d.seat, d.points])).toEqual([[1, 11], [0, 11]]);
    expect(events(g, 'copy_lost')).toEqual([]);
  });

  it('is lost when the target is out before their turn', () => {
    const g = scenario();
    g.s.copying[2] = 1; // seat 2 played I'll get the same at seat 1 in its last turn
    placeFigure(g, 2, 4, 4);
    setHand(g, 0, ['same']);
    act(g, 'play:same:+2');
    playTurn(g, 'play:beer'); // seat 1 drinks, and so does seat 2: wasted
    expect(g.s.out[2]).toBe(WASTED);
    expect(events(g, 'copy_lost')).toEqual([{ k: 'copy_lost', seat: 0, target: 2 }]);
    expect(g.s.copying[0]).toBe(-1);
    expect(events(g, 'digest').filter((d) => d.seat === 0)).toEqual([]);
  });

  it('is lost when the target spends the turn on PAUSE', () => {
    const g = scenario({ players: 2, askForced: true });
    setHand(g, 0, ['same']);
    act(g, 'play:same:+1', 'pass', 'pass');
    g.s.paused[1] = 1; // set up directly: the target on PAUSE by its next turn
    act(g, 'done');
    expect(events(g, 'pause')).toEqual([{ k: 'pause', seat: 1 }]);
    expect(events(g, 'copy_lost')).toEqual([{ k: 'copy_lost', seat: 0, target: 1 }]);
    expect(g.s.active).toBe(0);
  });

  it('with nothing to drink, the copier abstains then', () => {
    const g = copyOf1();
    playTurn(g, 'play:coffee');
    expect(events(g, 'digest').map((d) => [d.seat, d.points, d.abstinence])).toEqual([[1, -1, 1], [0, -1, 1]]);
  });
});
