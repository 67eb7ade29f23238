/** X cards in reaction windows, and Excuse me in answer to a card aimed at a player. */
import { describe, expect, it } from 'vitest';
import {
  act, C, events, frontOf, handOf, legal, playTurn, scenario, setHand, tokens,
} from '../../test/helpers/scenario.ts';

describe('Knocked-over glass', () => {
  it('discards one order: its actions are regained and a knocked shot frees the shot limit', () => {
    const g = scenario({ players: 2 });
    setHand(g, 0, ['small_beer', 'rum', 'fernet', 'utopenec']);
    setHand(g, 1, ['knocked_over']);
    act(g, 'play:small_beer', 'pass', 'play:rum');
    expect(legal(g)).toContain('x:knocked_over:rum');
    act(g, 'x:knocked_over:rum');
    expect(frontOf(g, 0)).toEqual(['small_beer']);
    expect(g.s.discard).toEqual([C.rum, C.knocked_over]);
    expect(g.s.actionsUsed).toBe(1);
    expect(legal(g)).toEqual(expect.arrayContaining(['play:fernet', 'play:utopenec']));
  });

  it("after 'done', a removed card lets the active player play again", () => {
    const g = scenario({ players: 2 });
    setHand(g, 0, ['rum', 'fernet', 'vodka']);
    setHand(g, 1, ['knocked_over']);
    act(g, 'play:rum', 'pass'); // nothing else is playable: 'done' is taken for seat 0
    expect(events(g, 'done')).toHaveLength(1);
    act(g, 'x:knocked_over:rum');
    expect(g.s.active).toBe(0);
    expect(legal(g)).toEqual(['play:fernet', 'play:vodka', 'done']);
    act(g, 'play:fernet');
    expect(events(g, 'digest')[0]).toMatchObject({ seat: 0, points: 5 });
    expect(g.s.tokens[0]).toBe(tokens('fernet'));
  });
});

describe('Mixed-up', () => {
  it('swaps an order for one from the reacting hand; the given card costs nothing and ignores limits', () => {
    const g = scenario({ players: 2 });
    setHand(g, 0, ['beer', 'rum', 'vodka', 'tea']);
    setHand(g, 1, ['mixed_up', 'utopenec']);
    act(g, 'play:beer', 'pass', 'play:rum', 'x:mixed_up:rum>utopenec');
    expect(frontOf(g, 0)).toEqual(['beer', 'utopenec']);
    expect(handOf(g, 1)).toEqual(['rum']);
    expect(g.s.actionsUsed).toBe(0);
    expect(legal(g)).toContain('play:vodka');
    playTurn(g, 'play:vodka');
    expect(events(g, 'digest')[0]).toMatchObject({ points: 1 + 5, drunkenness: 0 - 3 + 1 });
  });
});

describe('That beer is warm', () => {
  it('sends a beer back to the hand, regaining its actions; that card cannot be played again this turn', () => {
    const g = scenario({ players: 2 });
    setHand(g, 0, ['small_beer', 'beer', 'coffee']);
    setHand(g, 1, ['warm_beer', 'warm_beer']);
    act(g, 'play:small_beer', 'x:warm_beer:small_beer');
    expect(handOf(g, 0)).toEqual(['beer', 'small_beer', 'coffee']);
    expect(g.s.actionsUsed).toBe(0);
    expect(legal(g)).not.toContain('play:small_beer');
    act(g, 'play:beer', 'x:warm_beer:beer');
    expect(legal(g)).toEqual(['play:coffee', 'done']);
  });

  it('only the returned card is blocked: another beer in hand may still be played', () => {
    const g = scenario({ players: 2 });
    setHand(g, 0, ['beer', 'beer', 'coffee']);
    setHand(g, 1, ['warm_beer']);
    act(g, 'play:beer', 'x:warm_beer:beer');
    expect(legal(g)).toContain('play:beer');
    act(g, 'play:beer');
    expect(legal(g)).not.toContain('play:beer');
  });
});

describe('Shot into a beer as an X card', () => {
  it("pours a shot in front: drunkenness and token, no points, and it frees the active player's shot limit", () => {
    const g = scenario({ players: 2 });
    setHand(g, 0, ['beer', 'rum', 'fernet']);
    setHand(g, 1, ['shot_into_beer']);
    act(g, 'play:beer', 'play:rum', 'x:shot_into_beer:front:rum');
    expect(legal(g)).toContain('play:fernet');
    playTurn(g, 'play:fernet');
    expect(events(g, 'digest')[0]).toMatchObject({ points: 1 + 5, drunkenness: 0 + 2 * 2 });
    expect(g.s.tokens[0]).toBe(tokens('rum', 'fernet'));
  });

  it('needs a beer in front of the active player', () => {
    const g = scenario({ players: 2, askForced: true });
    setHand(g, 0, ['rum']);
    setHand(g, 1, ['shot_into_beer', 'vodka']);
    act(g, 'play:rum');
    expect(legal(g)).toEqual(['pass']);
  });

  it('from the hand only when the active player has no shot to pour (Czech rulebook)', () => {
    const g = scenario({ players: 2, askForced: true });
    setHand(g, 0, ['beer', 'rum']);
    setHand(g, 1, ['shot_into_beer', 'vodka']);
    act(g, 'play:beer');
    expect(legal(g)).toEqual(['pass', 'x:shot_into_beer:hand:vodka']);
    act(g, 'pass', 'play:rum');
    expect(legal(g)).toEqual(['pass', 'x:shot_into_beer:front:rum']);
  });

  it('with no beer left at digestion, a shot added from a hand does not count (an abstinence)', () => {
    const g = scenario();
    setHand(g, 0, ['beer', 'coffee']);
    setHand(g, 1, ['shot_into_beer', 'vodka']);
    setHand(g, 2, ['knocked_over']);
    act(g, 'play:beer', 'x:shot_into_beer:hand:vodka', 'x:knocked_over:beer', 'done');
    expect(events(g, 'digest')[0]).toMatchObject({ points: -1, abstinence: 1 });
    expect(g.s.tokens[0]).toBe(0);
  });

  it('with no beer left, a poured shot of their own is drunk as an ordinary shot (the card has no effect)', () => {
    const g = scenario();
    setHand(g, 0, ['beer', 'rum', 'coffee']);
    setHand(g, 1, ['shot_into_beer']);
    setHand(g, 2, ['knocked_over']);
    act(g, 'play:beer', 'pass', 'play:rum', 'x:shot_into_beer:front:rum', 'x:knocked_over:beer', 'done');
    expect(events(g, 'digest')[0]).toMatchObject({ points: 5, drunkenness: 1 });
  });
});

describe('Excuse me', () => {
  it("cancels Let's do a shot: no choice to make, the Excuse me is discarded", () => {
    const g = scenario();
    setHand(g, 0, ['lets_do_a_shot', 'beer']);
    setHand(g, 1, ['excuse_me', 'rum']);
    act(g, 'play:lets_do_a_shot:+1');
    expect(legal(g)).toEqual(['excuse_me:cancel', 'excuse_me:left', 'shot_choice:rum', 'shot_choice:nothing']);
    act(g, 'excuse_me:cancel');
    expect(handOf(g, 1)).toEqual(['rum']);
    expect(g.s.points[1]).toBe(0);
    expect(g.s.discard).toEqual([C.excuse_me]);
  });

  it('redirects to a neighbour, who then responds; never back to the player who played the card', () => {
    const g = scenario({ players: 4 });
    setHand(g, 0, ['lets_do_a_shot', 'beer']);
    setHand(g, 1, ['excuse_me']);
    setHand(g, 2, ['beer']);
    act(g, 'play:lets_do_a_shot:+1');
    expect(legal(g)).not.toContain('excuse_me:right');
    act(g, 'excuse_me:left');
    expect(g.s.actor).toBe(2);
    act(g, 'shot_choice:beer');
    expect(g.s.points).toEqual([0, 0, -2, 0]);
    expect(events(g, 'excuse')).toEqual([{ k: 'excuse', seat: 1, card: C.lets_do_a_shot, redirect: 2 }]);
  });

  it('never to a player who already avoided the card', () => {
    const g = scenario({ players: 4 });
    setHand(g, 0, ['lets_do_a_shot', 'beer']);
    setHand(g, 2, ['excuse_me']);
    setHand(g, 3, ['excuse_me']);
    act(g, 'play:lets_do_a_shot:+2');
    expect(legal(g)).toEqual(expect.arrayContaining(['excuse_me:left', 'excuse_me:right']));
    act(g, 'excuse_me:left');
    expect(g.s.actor).toBe(3);
    expect(legal(g)).toEqual(['excuse_me:cancel', 'shot_choice:nothing']);
  });

  it('never to a paused player; an out neighbour is skipped for the next player still in (engine choice)', () => {
    const g = scenario({ players: 5 });
    setHand(g, 0, ['lets_do_a_shot', 'beer']);
    setHand(g, 2, ['excuse_me']);
    g.s.paused[1] = 1;
    g.s.out[3] = 1;
    act(g, 'play:lets_do_a_shot:+2');
    expect(legal(g).filter((k) => k.startsWith('excuse'))).toEqual(['excuse_me:cancel', 'excuse_me:left']);
    act(g, 'excuse_me:left');
    expect(events(g, 'excuse')[0].redirect).toBe(4);
    expect(g.s.points).toEqual([0, 0, 0, 0, -5]);
  });

  it("redirects I'll get the same and Insulted bartender to the new target", () => {
    const g = scenario();
    setHand(g, 0, ['same']);
    setHand(g, 1, ['excuse_me']);
    act(g, 'play:same:+1', 'excuse_me:left');
    expect(g.s.copying[0]).toBe(2);
    expect(frontOf(g, 2)).toEqual(['same']);

    const h = scenario();
    setHand(h, 0, ['insulted_bartender', 'beer']);
    setHand(h, 1, ['excuse_me']);
    act(h, 'play:insulted_bartender:+1', 'excuse_me:left');
    expect(frontOf(h, 1)).toEqual([]);
    expect(frontOf(h, 2)).toEqual(['insulted_bartender']);
  });

  it("a cancelled I'll get the same (engine choice): the player then digests, an abstinence", () => {
    const g = scenario();
    setHand(g, 0, ['same']);
    setHand(g, 1, ['excuse_me']);
    act(g, 'play:same:+1', 'excuse_me:cancel');
    expect(g.s.copying[0]).toBe(-1);
    expect(events(g, 'digest')[0]).toMatchObject({ seat: 0, points: -1, abstinence: 1 });
  });

  it('against Shots, everyone! it can only cancel, and only for that player', () => {
    const g = scenario();
    setHand(g, 0, ['shots_everyone', 'beer']);
    setHand(g, 1, ['excuse_me']);
    act(g, 'play:shots_everyone');
    expect(legal(g)).toEqual(['excuse_me:cancel', 'shot_choice:nothing']);
    act(g, 'excuse_me:cancel');
    expect(g.s.points).toEqual([0, 0, -5]);
  });

  it('against Brawl the player takes no part: takes no card and loses none', () => {
    const g = scenario();
    setHand(g, 0, ['brawl', 'tea']);
    setHand(g, 1, ['excuse_me', 'rum']);
    setHand(g, 2, ['vodka']);
    act(g, 'play:brawl');
    expect(legal(g)).toEqual(['pass', 'excuse_me:cancel']);
    act(g, 'excuse_me:cancel');
    expect(handOf(g, 1)).toEqual(['rum']);
    expect(events(g, 'take').map((t) => [t.from, t.to])).toEqual([[2, 0], [0, 2]]);
  });

  it('is not playable in a reaction window nor in one’s own turn', () => {
    const g = scenario({ players: 2, askForced: true });
    setHand(g, 0, ['beer', 'excuse_me']);
    setHand(g, 1, ['excuse_me']);
    expect(legal(g).filter((k) => k.startsWith('excuse_me'))).toEqual([]);
    act(g, 'play:beer');
    expect(legal(g)).toEqual(['pass']);
  });
});
