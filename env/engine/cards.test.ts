/** Orders and pub cards played in one's own turn: limits, costs and each card's effect. */
import { describe, expect, it } from 'vitest';
import {
  act, C, events, figure, frontOf, handOf, legal, placeFigure, playTurn, scenario, setHand, tokens,
} from '../../test/helpers/scenario.ts';
import { PHASE_RESPONSE } from '../state.ts';

describe('order limits and action costs', () => {
  it('at most 3 beers, regular and small together, at most 1 of them small', () => {
    const g = scenario();
    // A spare Coffee keeps the turn open: with nothing left to play, 'done' would be automatic.
    setHand(g, 0, ['beer', 'beer', 'beer', 'beer', 'small_beer', 'small_beer', 'coffee']);
    act(g, 'play:small_beer');
    expect(legal(g)).not.toContain('play:small_beer');
    act(g, 'play:beer', 'play:beer');
    expect(legal(g)).not.toContain('play:beer');
    expect(handOf(g, 0)).toEqual(['beer', 'beer', 'small_beer', 'coffee']);
  });

  it('at most 1 shot order', () => {
    const g = scenario();
    setHand(g, 0, ['rum', 'fernet', 'vodka', 'coffee']);
    act(g, 'play:rum');
    expect(legal(g).filter((k) => k.startsWith('play:'))).toEqual(['play:coffee']);
  });

  it('3 actions a turn: a regular beer costs none, a small beer, shot or tea 1, Utopenec 2', () => {
    const g = scenario();
    setHand(g, 0, ['rum', 'tea', 'coffee', 'utopenec', 'beer', 'beer']);
    act(g, 'play:rum', 'play:tea');
    expect(legal(g)).toContain('play:coffee');
    expect(legal(g)).not.toContain('play:utopenec');
    act(g, 'play:coffee');
    expect(g.s.actionsUsed).toBe(3);
    expect(legal(g)).toEqual(['play:beer', 'done']);
    playTurn(g, 'play:beer', 'play:beer');
    expect(g.s.discard).toEqual([C.rum, C.tea, C.coffee, C.beer, C.beer]);
    expect(handOf(g, 0)).toContain('utopenec');
  });

  it('pub cards cost actions too: Flattery 2 leaves room for one 1-action card', () => {
    const g = scenario();
    setHand(g, 0, ['flattery', 'rum', 'small_beer', 'utopenec']);
    act(g, 'play:flattery:vodka');
    expect(legal(g).filter((k) => k.startsWith('play:'))).toEqual(['play:small_beer', 'play:rum']);
  });
});

describe('Insulted bartender', () => {
  const insultSeat1 = (hand1: Parameters<typeof setHand>[2]) => {
    const g = scenario();
    setHand(g, 0, ['insulted_bartender', 'beer']);
    setHand(g, 1, hand1);
    act(g, 'play:insulted_bartender:+1');
    expect(frontOf(g, 0)).toEqual([]);
    expect(frontOf(g, 1)).toEqual(['insulted_bartender']);
    playTurn(g, 'play:beer');
    expect(g.s.active).toBe(1);
    return g;
  };

  it('the target plays no orders in their next turn, but pub cards (Flattery too) and discarding', () => {
    const g = insultSeat1(['beer', 'rum', 'tea', 'flattery', 'brawl']);
    const keys = legal(g);
    expect(keys.filter((k) => /^play:(beer|small_beer|rum|tea)$/.test(k))).toEqual([]);
    expect(keys).toContain('play:flattery:rum');
    expect(keys).toContain('play:brawl');
    expect(keys).toContain('discard:beer');
  });

  it('is discarded at the end of the target’s turn, and orders are allowed again after it', () => {
    const g = insultSeat1(['beer', 'flattery']);
    playTurn(g, 'play:flattery:rum');
    expect(frontOf(g, 1)).toEqual([]);
    expect(g.s.discard.slice(-2)).toEqual([C.insulted_bartender, C.flattery]);
    playTurn(g, 'play:beer'); // seat 2
    playTurn(g, 'play:beer'); // seat 0
    expect(g.s.active).toBe(1);
    expect(legal(g)).toContain('play:beer');
  });

  it('a third abstinence in a row while insulted does not throw out: −3 points, token stays', () => {
    const g = scenario();
    setHand(g, 0, ['insulted_bartender', 'beer']);
    g.s.abstinence[1] = 2;
    placeFigure(g, 1, 1, 1);
    act(g, 'play:insulted_bartender:+1');
    playTurn(g, 'play:beer');
    playTurn(g);
    expect(g.s.out[1]).toBe(0);
    expect(g.s.points[1]).toBe(-3);
    expect(g.s.abstinence[1]).toBe(2);
    expect(figure(g, 1)).toEqual({ level: 1, space: 0 });
  });

  it('several in front of one player are all discarded at the end of their turn', () => {
    const g = scenario();
    setHand(g, 0, ['insulted_bartender', 'insulted_bartender', 'beer']);
    act(g, 'play:insulted_bartender:+1', 'play:insulted_bartender:+1');
    playTurn(g, 'play:beer');
    expect(frontOf(g, 1)).toEqual(['insulted_bartender', 'insulted_bartender']);
    playTurn(g);
    expect(frontOf(g, 1)).toEqual([]);
    expect(g.s.discard.filter((t) => t === C.insulted_bartender)).toHaveLength(2);
  });
});

describe('Flattery', () => {
  it('counts as a shot of the chosen type: 5 points, shot drunkenness, its token; not an abstinence', () => {
    const g = scenario();
    setHand(g, 0, ['flattery']);
    playTurn(g, 'play:flattery:becherovka');
    expect(events(g, 'digest')[0]).toMatchObject({ points: 5, drunkenness: 1, abstinence: 0 });
    expect(g.s.tokens[0]).toBe(tokens('becherovka'));
  });

  it('is not an order: a shot order may still be played after it', () => {
    const g = scenario();
    setHand(g, 0, ['flattery', 'rum']);
    act(g, 'play:flattery:fernet');
    expect(legal(g)).toContain('play:rum');
    playTurn(g, 'play:rum');
    expect(events(g, 'digest')[0]).toMatchObject({ points: 10, drunkenness: 2 + 2 });
  });

  it('cannot be aimed at by X cards', () => {
    const g = scenario({ players: 2, askForced: true });
    setHand(g, 0, ['flattery', 'beer']);
    setHand(g, 1, ['knocked_over', 'mixed_up', 'shot_into_beer', 'warm_beer', 'rum', 'tea']);
    act(g, 'play:flattery:rum');
    expect(legal(g)).toEqual(['pass']);
    act(g, 'pass', 'play:beer');
    expect(legal(g).filter((k) => /flattery|front:rum|knocked_over:(?!beer)/.test(k))).toEqual([]);
  });
});

describe('Shot into a beer in one’s own turn', () => {
  it('needs a beer and a shot order already in front', () => {
    const g = scenario();
    setHand(g, 0, ['shot_into_beer', 'beer', 'rum', 'flattery']);
    expect(legal(g)).not.toContain('play:shot_into_beer');
    act(g, 'play:beer', 'play:flattery:rum');
    expect(legal(g)).not.toContain('play:shot_into_beer');
    const h = scenario();
    setHand(h, 0, ['shot_into_beer', 'beer', 'rum']);
    act(h, 'play:rum');
    expect(legal(h)).not.toContain('play:shot_into_beer');
    act(h, 'play:beer');
    expect(legal(h)).toContain('play:shot_into_beer');
  });

  it('the extra shot is dropped without effect (no points, no token) if no beer is left', () => {
    const g = scenario({ players: 2 });
    setHand(g, 0, ['beer', 'rum', 'shot_into_beer', 'fernet']);
    setHand(g, 1, ['knocked_over']);
    act(g, 'play:beer', 'pass', 'play:rum', 'pass', 'play:shot_into_beer', 'pass', 'play:fernet', 'pass');
    act(g, 'x:knocked_over:beer'); // after 'done', taken for seat 0 with an empty hand
    expect(events(g, 'digest')[0]).toMatchObject({ seat: 0, points: 5, drunkenness: 1 });
    expect(g.s.tokens[0]).toBe(tokens('rum'));
  });
});

describe("Let's do a shot and Shots, everyone!", () => {
  it.each([
    ['shot_choice:rum', ['rum', 'beer', 'small_beer'], 0, ['beer', 'small_beer']],
    ['shot_choice:beer', ['rum', 'beer', 'small_beer'], -2, ['rum', 'small_beer']],
    ['shot_choice:small_beer', ['rum', 'beer', 'small_beer'], -3, ['beer', 'rum']],
    ['shot_choice:nothing', ['rum', 'beer', 'small_beer'], -5, ['beer', 'small_beer', 'rum']],
  ] as const)('%s: %i points', (choice, hand, points, left) => {
    const g = scenario();
    setHand(g, 0, ['lets_do_a_shot', 'beer']);
    setHand(g, 1, [...hand]);
    act(g, 'play:lets_do_a_shot:+1');
    expect(legal(g)).toEqual(['shot_choice:rum', 'shot_choice:beer', 'shot_choice:small_beer', 'shot_choice:nothing']);
    act(g, choice);
    expect(g.s.points[1]).toBe(points);
    expect(handOf(g, 1)).toEqual([...left].sort((a, b) => C[a] - C[b]));
    expect(g.s.tokens[1]).toBe(choice === 'shot_choice:rum' ? tokens('rum') : 0);
  });

  it('discarding a card removes an abstinence token; losing 5 points does not', () => {
    const g = scenario();
    setHand(g, 0, ['shots_everyone']);
    setHand(g, 1, ['beer']);
    setHand(g, 2, ['tea']);
    g.s.abstinence[1] = 2;
    g.s.abstinence[2] = 1;
    act(g, 'play:shots_everyone', 'shot_choice:beer');
    expect(g.s.abstinence.slice(1)).toEqual([0, 1]);
    expect(g.s.points.slice(1)).toEqual([-2, -5]);
  });

  it('Shots, everyone! asks every other player in clockwise order, skipping paused and out players', () => {
    const g = scenario({ players: 5, active: 2, askForced: true });
    setHand(g, 2, ['shots_everyone']);
    g.s.paused[4] = 1;
    g.s.out[0] = 2;
    const asked: number[] = [];
    act(g, 'play:shots_everyone');
    while (g.s.phase === PHASE_RESPONSE) {
      asked.push(g.s.actor);
      act(g, 'shot_choice:nothing');
    }
    expect(asked).toEqual([3, 1]);
    expect(g.s.points).toEqual([0, -5, 0, -5, 0]);
  });
});

describe('Brawl', () => {
  const brawl = (players: number, hands: Parameters<typeof setHand>[2][]) => {
    const g = scenario({ players });
    hands.forEach((h, seat) => setHand(g, seat, h));
    act(g, 'play:brawl');
    return events(g, 'take').map((t) => [t.from, t.to]);
  };

  it('starts with the fewest cards in hand; each player takes one card from every other, once', () => {
    const takes = brawl(4, [
      ['brawl', 'coffee', 'coffee'],
      ['rum', 'rum', 'rum', 'rum', 'rum'],
      ['tea'],
      ['vodka', 'vodka', 'vodka'],
    ]);
    expect(takes).toEqual([
      [3, 2], [0, 2], [1, 2],
      [0, 3], [1, 3], [2, 3],
      [1, 0], [2, 0], [3, 0],
      [2, 1], [3, 1], [0, 1],
    ]);
  });

  it('a tie goes to the one nearest clockwise from the active player', () => {
    expect(brawl(3, [['brawl', 'tea', 'tea', 'tea'], ['rum', 'rum'], ['vodka', 'vodka']])[0]).toEqual([2, 1]);
  });

  it('a tie including the active player (engine choice) starts with the active player', () => {
    expect(brawl(3, [['brawl', 'tea', 'tea'], ['rum', 'rum'], ['vodka', 'vodka']])[0]).toEqual([1, 0]);
  });

  it('paused players take no part', () => {
    const g = scenario({ players: 3 });
    setHand(g, 0, ['brawl', 'tea']);
    setHand(g, 1, ['rum']);
    setHand(g, 2, ['vodka', 'vodka']);
    g.s.paused[2] = 1;
    act(g, 'play:brawl');
    expect(events(g, 'take').map((t) => [t.from, t.to])).toEqual([[1, 0], [0, 1]]);
    expect(events(g, 'take')[0].card).toBe(C.rum);
    expect(handOf(g, 2)).toEqual(['vodka', 'vodka']);
    expect(g.s.handSize).toEqual([1, 1, 2]);
  });
});

describe("You don't want it anymore? and That's my order", () => {
  it('takes the top card of the discard pile; not playable on an empty pile', () => {
    const g = scenario();
    setHand(g, 0, ['dont_want_it', 'beer']);
    expect(legal(g)).not.toContain('play:dont_want_it');
    g.s.discard = [C.tea, C.vodka];
    act(g, 'play:beer', 'play:dont_want_it');
    expect(handOf(g, 0)).toEqual(['vodka']);
    expect(g.s.discard).toEqual([C.tea]);
    expect(frontOf(g, 0)).toEqual(['beer', 'dont_want_it']);
  });

  it("That's my order takes one random card from the target's hand", () => {
    const g = scenario();
    setHand(g, 0, ['thats_my_order', 'beer']);
    setHand(g, 2, ['rum', 'rum']);
    act(g, 'play:thats_my_order:+2');
    expect(handOf(g, 0)).toEqual(['beer', 'rum']);
    expect(handOf(g, 2)).toEqual(['rum']);
    expect(events(g, 'take')).toEqual([{ k: 'take', from: 2, to: 0, card: C.rum, by: 'thats_my_order' }]);
  });

  it("That's my order on an empty hand takes nothing", () => {
    const g = scenario();
    setHand(g, 0, ['thats_my_order', 'beer']);
    act(g, 'play:thats_my_order:+1');
    expect(handOf(g, 0)).toEqual(['beer']);
    expect(events(g, 'take')).toEqual([]);
  });
});
