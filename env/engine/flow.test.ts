/** Turn flow: PAUSE turns, discarding, reaction windows, the end of the game, scores, illegal actions. */
import { describe, expect, it } from 'vitest';
import { actionFromKey, NUM_ACTIONS } from '../actions.ts';
import { CLOSING_TIME } from '../cards.ts';
import { randInt, seedRng } from '../rng.ts';
import { CLOSING_IN_DECK, PHASE_DISCARD, PHASE_PLAY, PHASE_REACTION, THROWN_OUT } from '../state.ts';
import { applyStep, createState, finalScores, IllegalActionError, legalActions, winners } from './index.ts';
import {
  act, events, handOf, legal, placeFigure, playTurn, scenario, setHand, tokens, type Game,
} from '../../test/helpers/scenario.ts';

describe('a PAUSE turn', () => {
  it('only flips the coaster back and draws up: no play, no digestion, not an abstinence', () => {
    const g = scenario({ askForced: true });
    g.s.paused[1] = 1;
    g.s.abstinence[1] = 1;
    setHand(g, 1, ['knocked_over', 'rum', 'rum']);
    setHand(g, 0, ['beer', 'lets_do_a_shot']);
    expect(legal(g)).not.toContain('play:lets_do_a_shot:+1');
    expect(legal(g)).toContain('play:lets_do_a_shot:+2');
    act(g, 'play:beer');
    expect(g.s.actor).toBe(2); // seat 1, paused, is not asked
    act(g, 'pass', 'done', 'pass');
    expect(events(g, 'pause')).toEqual([{ k: 'pause', seat: 1 }]);
    expect(g.s.paused[1]).toBe(0);
    expect(g.s.handSize[1]).toBe(7);
    expect(g.s.abstinence[1]).toBe(1);
    expect(events(g, 'digest').map((d) => d.seat)).toEqual([0]);
    expect(g.s.active).toBe(2);
  });
});

describe('discarding instead of playing', () => {
  it('any number of cards, then draw up; nothing can be played after, and it is an abstinence', () => {
    const g = scenario();
    setHand(g, 0, ['beer', 'rum', 'tea', 'coffee', 'vodka', 'brawl', 'excuse_me']);
    act(g, 'discard:tea');
    expect(g.s.phase).toBe(PHASE_DISCARD);
    expect(legal(g)).toEqual([
      'discard:beer', 'discard:rum', 'discard:vodka', 'discard:coffee', 'discard:brawl', 'discard:excuse_me', 'stop_discarding',
    ]);
    act(g, 'discard:excuse_me', 'stop_discarding');
    expect(g.s.discard).toHaveLength(2);
    expect(events(g, 'digest')[0]).toMatchObject({ seat: 0, points: -1, abstinence: 1 });
    expect(handOf(g, 0)).toEqual(['beer', 'beer', 'beer', 'rum', 'vodka', 'coffee', 'brawl']);
  });

  it('is not allowed once a card has been played', () => {
    const g = scenario();
    setHand(g, 0, ['beer', 'rum', 'tea']);
    act(g, 'play:beer');
    expect(legal(g).filter((k) => k.startsWith('discard'))).toEqual([]);
  });
});

describe('the reaction window', () => {
  it('asks clockwise from the active player’s left, round until all pass since the last X card', () => {
    const g = scenario({ players: 4, active: 2, askForced: true });
    for (const seat of [0, 1, 3]) setHand(g, seat, ['knocked_over']);
    setHand(g, 2, ['beer', 'beer']);
    act(g, 'play:beer');
    const asked: number[] = [];
    for (const m of ['pass', 'x:knocked_over:beer', 'pass', 'pass', 'pass']) {
      asked.push(g.s.actor);
      act(g, m);
    }
    expect(asked).toEqual([3, 0, 1, 3, 0]);
    expect(g.s.phase).toBe(PHASE_PLAY);
    expect(g.s.actor).toBe(2);
  });
});

const closingOnTop = (g: Game, below = 0): void => {
  g.s.deck.splice(g.s.deck.length - below, 0, CLOSING_TIME);
  g.s.closing.where = CLOSING_IN_DECK;
};
const turnsAfter = (g: Game) => events(g, 'turn').map((t) => t.seat);

describe('CLOSING TIME', () => {
  it('drawn at cleanup: replaced, that turn was the last, then every other player has one', () => {
    const g = scenario();
    closingOnTop(g);
    setHand(g, 0, ['beer', 'coffee', 'coffee', 'coffee', 'coffee', 'coffee']);
    playTurn(g, 'play:beer');
    expect(events(g, 'closing')).toEqual([{ k: 'closing', seat: 0 }]);
    expect(g.s.handSize[0]).toBe(7);
    playTurn(g, 'play:beer');
    expect(g.s.over).toBe(false);
    playTurn(g, 'play:beer');
    expect(g.s.over).toBe(true);
    expect(turnsAfter(g)).toEqual([1, 2]);
    expect(events(g, 'end')[0]).toEqual({ k: 'end', scores: finalScores(g.rules, g.s), winners: winners(g.rules, g.s) });
  });

  it('drawn at the start of a turn: that turn and one more for each other player', () => {
    const g = scenario();
    closingOnTop(g, 1); // seat 0 draws one card at cleanup, seat 1 draws CLOSING TIME
    setHand(g, 0, ['beer', 'coffee', 'coffee', 'coffee', 'coffee', 'coffee', 'coffee']);
    playTurn(g, 'play:beer');
    expect(events(g, 'closing')).toEqual([{ k: 'closing', seat: 1 }]);
    for (let i = 0; i < 3; i++) playTurn(g, 'play:beer');
    expect(g.s.over).toBe(true);
    expect(turnsAfter(g)).toEqual([1, 2, 0]);
  });

  it('players who are out take no last turn', () => {
    const g = scenario({ players: 4 });
    g.s.out[2] = THROWN_OUT;
    closingOnTop(g);
    setHand(g, 0, ['beer', 'coffee']);
    playTurn(g, 'play:beer');
    playTurn(g, 'play:beer');
    playTurn(g, 'play:beer');
    expect(g.s.over).toBe(true);
    expect(turnsAfter(g)).toEqual([1, 3]);
  });
});

describe('everyone wasted', () => {
  it('when all but one are out, that one takes one last turn', () => {
    const g = scenario();
    g.s.out[1] = THROWN_OUT;
    placeFigure(g, 2, 4, 4);
    setHand(g, 0, ['beer', 'coffee']);
    playTurn(g, 'play:beer');
    playTurn(g, 'play:beer'); // seat 2 is wasted
    expect(g.s.out[2]).not.toBe(0);
    expect(g.s.over).toBe(false);
    playTurn(g, 'play:beer');
    expect(g.s.over).toBe(true);
    expect(turnsAfter(g)).toEqual([2, 0]);
  });

  it('when the second-last goes out in the last one’s own turn, the last one still has a turn (engine choice)', () => {
    const g = scenario();
    g.s.out[1] = THROWN_OUT;
    g.s.copying[2] = 0; // seat 2 played I'll get the same at seat 0 in its last turn
    placeFigure(g, 2, 4, 4);
    setHand(g, 0, ['beer', 'coffee']);
    playTurn(g, 'play:beer');
    expect(g.s.out[2]).not.toBe(0);
    expect(g.s.over).toBe(false);
    playTurn(g, 'play:beer');
    expect(g.s.over).toBe(true);
    expect(turnsAfter(g)).toEqual([0]);
  });

  it('when the last two go out together, the game ends at once', () => {
    const g = scenario({ players: 2 });
    g.s.copying[1] = 0; // seat 1 played I'll get the same at seat 0 in its last turn
    placeFigure(g, 0, 4, 4);
    placeFigure(g, 1, 4, 4);
    setHand(g, 0, ['beer']);
    playTurn(g, 'play:beer');
    expect(events(g, 'out').map((o) => o.seat)).toEqual([0, 1]);
    expect(g.s.over).toBe(true);
    expect(turnsAfter(g)).toEqual([]);
  });
});

describe('final scores', () => {
  it('add the shot-type bonus 1, 3, 6, 10, 15', () => {
    const g = scenario({ players: 4 });
    g.s.points = [10, 7, 4, 0];
    g.s.tokens = [0, tokens('rum', 'vodka'), 0b11111, tokens('fernet')];
    expect(finalScores(g.rules, g.s)).toEqual([10, 10, 19, 1]);
    expect(winners(g.rules, g.s)).toEqual([2]);
    g.s.tokens[1] = tokens('rum', 'fernet', 'becherovka', 'peppermint');
    expect(finalScores(g.rules, g.s)).toEqual([10, 17, 19, 1]);
  });

  it('tied players share the win, out players included', () => {
    const g = scenario();
    g.s.points = [10, 7, 9];
    g.s.tokens = [0, tokens('rum', 'vodka'), 0];
    g.s.out[1] = THROWN_OUT;
    expect(winners(g.rules, g.s)).toEqual([0, 1]);
  });
});

describe('illegal actions', () => {
  const refused = (g: Game, a: number) => {
    const before = structuredClone(g.s);
    expect(() => applyStep(g.rules, g.s, a)).toThrow(IllegalActionError);
    expect(g.s).toEqual(before);
  };

  it('throw IllegalActionError and leave the state as it was, in every phase', () => {
    const g = scenario();
    setHand(g, 0, ['beer', 'lets_do_a_shot', 'beer']);
    setHand(g, 1, ['knocked_over', 'beer']);
    for (const a of [actionFromKey('play:rum'), actionFromKey('pass'), -1, NUM_ACTIONS, 1.5]) refused(g, a);
    act(g, 'play:beer');
    expect(g.s.phase).toBe(PHASE_REACTION);
    refused(g, actionFromKey('done'));
    refused(g, actionFromKey('x:knocked_over:rum'));
    act(g, 'pass', 'play:lets_do_a_shot:+1');
    refused(g, actionFromKey('pass'));
    refused(g, actionFromKey('shot_choice:small_beer'));
  });

  it('after the end of the game, every action is refused', () => {
    const g = scenario({ players: 2 });
    g.s.out[1] = THROWN_OUT;
    g.s.soloLast = 1;
    setHand(g, 0, ['beer']);
    playTurn(g, 'play:beer');
    expect(g.s.over).toBe(true);
    expect(legalActions(g.rules, g.s)).toEqual([]);
    refused(g, actionFromKey('done'));
  });
});

describe('legal actions', () => {
  it('are listed in ascending order in every phase of random games', () => {
    const pick = seedRng('policy');
    for (let seed = 0; seed < 150; seed++) {
      const { rules, state } = createState({ players: 2 + (seed % 5), seed, askForced: seed % 2 === 0 });
      while (!state.over) {
        const la = legalActions(rules, state);
        expect(la.length).toBeGreaterThan(0);
        for (let i = 1; i < la.length; i++) if (la[i] <= la[i - 1]) expect.fail(`not ascending: ${la.join(', ')}`);
        applyStep(rules, state, la[randInt(pick, la.length)]);
      }
    }
  });
});
