import { describe, expect, it } from 'vitest';
import { A_PASS, CzechPubEnv, decodeAction } from '../env/index.ts';
import { randInt, seedRng } from '../env/rng.ts';
import { isOrder } from '../env/cards.ts';
import { answers, autoPasses, DEFAULT_AUTO_PASS, reactionCard, windowCard, X_WATCHABLE, type AutoPass } from './auto-pass.ts';
import { Catalogue } from './catalogue.ts';
import { ApiError, GameStore, type LiveGame } from './games.ts';

const ALL_UNWATCHED: AutoPass = { on: true, unwatched: [...X_WATCHABLE], windows: 'all' };

/**
 * Every decision of a few random 4-player games: the actor's legal actions. Asked of every
 * seat (askForced), as at a live game, whose store takes a decision whose only legal action is
 * pass itself before auto-pass is consulted: those decisions are asked of the rules here alone.
 */
function decisions(games = 6): number[][] {
  const out: number[][] = [];
  const rng = seedRng('auto-pass-positions');
  for (let g = 0; g < games; g++) {
    const env = new CzechPubEnv({ seed: `auto-pass/${g}`, players: 4, askForced: true });
    while (!env.done) {
      const legal = env.legalActions();
      out.push(legal);
      env.step(legal[randInt(rng, legal.length)]);
    }
  }
  return out;
}

describe('auto-pass, the rule', () => {
  const all = decisions();
  const reactions = all.filter((l) => l.includes(A_PASS) && l.some((a) => reactionCard(a) !== null));

  it('by default passes exactly when pass is the only legal action', () => {
    expect(all.filter((l) => l.length === 1 && l[0] === A_PASS).length).toBeGreaterThan(50);
    for (const legal of all) expect(autoPasses(DEFAULT_AUTO_PASS, legal)).toBe(legal.length === 1 && legal[0] === A_PASS);
  });

  it('with X cards unwatched passes when every other legal action is one of them; never when off, never at an own-turn decision or an Excuse me', () => {
    expect(reactions.length).toBeGreaterThan(5);
    const excuses = all.filter((l) => l.some((a) => decodeAction(a).group === 'excuse'));
    expect(excuses.length).toBeGreaterThan(0);
    for (const legal of excuses) expect(autoPasses(ALL_UNWATCHED, legal)).toBe(false);
    for (const legal of all) {
      expect(autoPasses({ on: false, unwatched: [...X_WATCHABLE], windows: 'all' }, legal)).toBe(false);
      const onlyX = legal.includes(A_PASS) && legal.every((a) => a === A_PASS || decodeAction(a).group === 'x');
      expect(autoPasses(ALL_UNWATCHED, legal)).toBe(onlyX);
    }
    // One X type unwatched: the window still asks while another, watched, type is playable.
    for (const legal of reactions) {
      const types = new Set(legal.map(reactionCard).filter((x) => x !== null));
      for (const x of X_WATCHABLE) expect(autoPasses({ on: true, unwatched: [x], windows: 'all' }, legal)).toBe(types.size === 1 && types.has(x));
    }
  });
});

/** The card a reaction window is about (public), or -1: what the server hands autoPasses. */
const cardOf = (env: CzechPubEnv): number => windowCard(env.publicView().decision);

describe('auto-pass at answering windows only', () => {
  const ANSWERING: AutoPass = { on: true, unwatched: [], windows: 'answering' };

  it('an X card answers an order just played when it takes, warms or pours that very card; nothing answers "done"', () => {
    const rng = seedRng('answers');
    let answering = 0;
    let notAnswering = 0;
    for (let g = 0; g < 8; g++) {
      const env = new CzechPubEnv({ seed: `answers/${g}`, players: 4, askForced: true });
      while (!env.done) {
        const legal = env.legalActions();
        const card = cardOf(env);
        for (const a of legal) {
          if (reactionCard(a) === null) continue;
          const d = decodeAction(a);
          if (card < 0) expect(answers(a, card)).toBe(false);
          else if (isOrder(card) && (d.kind === 'knock' || d.kind === 'mixed' || d.kind === 'warm')) {
            expect(answers(a, card)).toBe(d.card === card);
          }
          if (answers(a, card)) answering++;
          else notAnswering++;
        }
        // Pass-only, a turn's choice and an answer to a card aimed at the seat are decided as by the default.
        if (!legal.every((a) => a === A_PASS || reactionCard(a) !== null)) expect(autoPasses(ANSWERING, legal, card)).toBe(false);
        else expect(autoPasses(ANSWERING, legal, card)).toBe(legal.includes(A_PASS) && !legal.some((a) => answers(a, card)));
        env.step(legal[randInt(rng, legal.length)]);
      }
    }
    expect(answering).toBeGreaterThan(20);
    expect(notAnswering).toBeGreaterThan(20);
  });

  it('at a live game asks the person exactly at the windows where a held X card answers the card just played', async () => {
    const store = newStore();
    const { game } = await store.create({ seats: ['remote', 'heuristic', 'heuristic', 'heuristic'], seed: 'auto-pass-answering', reward: 'win' });
    const before = game.env.actions.length;
    expect(await store.setAutoPass(game, 0, { windows: 'answering' })).toEqual(ANSWERING);
    const asked = new Set<number>();
    const rng = seedRng('answering-person');
    while (!game.env.done) {
      expect(game.env.actor).toBe(0);
      asked.add(game.env.actions.length);
      const legal = game.env.legalActions();
      await store.act(game, 0, legal.includes(A_PASS) && randInt(rng, 3) > 0 ? A_PASS : legal[randInt(rng, legal.length)]);
    }
    const env = new CzechPubEnv({ ...game.env.config, log: false });
    let windows = 0;
    let passedFor = 0;
    for (const a of game.env.actions) {
      const k = env.actions.length;
      if (k >= before && env.actor === 0 && env.legalActions().length > 1) {
        const legal = env.legalActions();
        const xOnly = legal.includes(A_PASS) && legal.every((b) => b === A_PASS || reactionCard(b) !== null);
        if (xOnly) windows++;
        const wanted = !xOnly || legal.some((b) => answers(b, cardOf(env)));
        expect(asked.has(k)).toBe(wanted);
        if (!wanted) passedFor++;
      }
      env.step(a);
    }
    expect(windows).toBeGreaterThan(passedFor);
    expect(passedFor).toBeGreaterThan(3);
  });
});

/** A store whose clock stands still (bots always wanted). */
const newStore = () => new GameStore({ maxGames: 10, idleMs: 60_000, maxGamesPerClient: 10, maxOpenGames: 2 }, new Catalogue(), null, () => 1_000_000);

/**
 * Plays seat 0 of `game` to the end, choosing with `choose`; returns the steps at which the
 * person was asked (the rest of seat 0's actions were the server's auto-passes).
 */
async function playPerson(store: GameStore, game: LiveGame, choose: (legal: number[]) => number): Promise<Map<number, number[]>> {
  const asked = new Map<number, number[]>();
  for (let guard = 0; !game.env.done; guard++) {
    expect(guard).toBeLessThan(3000);
    expect(game.env.actor).toBe(0);
    const legal = game.env.legalActions();
    asked.set(game.env.actions.length, legal);
    await store.act(game, 0, choose(legal));
  }
  return asked;
}

/** Seat 0's positions, as the replay of the game's actions steps through them: legal actions by step. */
function seatPositions(game: LiveGame): Map<number, number[]> {
  const env = new CzechPubEnv({ ...game.env.config, log: false });
  const out = new Map<number, number[]>();
  for (const a of game.env.actions) {
    // A forced decision (one legal action) is the engine's, never the person's: not a position of theirs.
    if (env.actor === 0 && env.legalActions().length > 1) out.set(env.actions.length, env.legalActions());
    env.step(a);
  }
  return out;
}

describe('auto-pass at a live game', () => {
  const rng = seedRng('auto-pass-person');
  // A person who plays orders, sometimes an X card, and says done.
  const person = (legal: number[]) => {
    const x = legal.filter((a) => reactionCard(a) !== null);
    if (x.length > 0 && randInt(rng, 2) === 0) return x[randInt(rng, x.length)];
    const orders = legal.filter((a) => decodeAction(a).group === 'order');
    return orders.length > 0 && randInt(rng, 4) > 0 ? orders[randInt(rng, orders.length)] : legal[0];
  };

  /** A reaction window whose only choices besides pass are X cards. */
  const xWindow = (legal: readonly number[]) => legal.length > 1 && legal.includes(A_PASS) && legal.every((a) => a === A_PASS || reactionCard(a) !== null);

  it('by default watches every X card: asks at every window the person could react in, passes nowhere (the engine takes every pass-only decision)', async () => {
    const store = newStore();
    const { game } = await store.create({ seats: ['remote', 'heuristic', 'heuristic', 'heuristic'], seed: 'auto-pass-1', reward: 'win' });
    expect(await store.setAutoPass(game, 0, {})).toEqual({ on: true, unwatched: [], windows: 'all' });
    const asked = await playPerson(store, game, person);
    const mine = seatPositions(game);
    expect(asked.size).toBe(mine.size);
    expect([...asked.values()].filter(xWindow).length).toBeGreaterThan(0);
    // Never for bots: they have no settings, and the heuristic seats played X cards themselves.
    expect(game.autoPass.slice(1)).toEqual([null, null, null]);
    expect(() => store.autoPassOf(game, 1)).toThrow(ApiError);
    expect(game.env.actions.some((a, k) => game.actors[k] !== 0 && reactionCard(a) !== null)).toBe(true);
  });

  it('with X cards unwatched passes for the person at exactly the windows whose only choices are those cards; the record replays', async () => {
    const store = newStore();
    const { game } = await store.create({ seats: ['remote', 'heuristic', 'heuristic', 'heuristic'], seed: 'auto-pass-2', reward: 'win' });
    const before = game.env.actions.length;
    await store.setAutoPass(game, 0, { unwatched: [...X_WATCHABLE] });
    const asked = await playPerson(store, game, person);
    let auto = 0;
    for (const [step, legal] of seatPositions(game)) {
      if (step < before) continue;
      if (asked.has(step)) expect(xWindow(legal)).toBe(false);
      else {
        auto++;
        expect(xWindow(legal)).toBe(true);
        expect(game.env.actions[step]).toBe(A_PASS);
      }
    }
    expect(auto).toBeGreaterThan(10);
    expect(asked.size).toBeGreaterThan(10);
    // Auto-passes are ordinary actions: the record replays to the same scores.
    const env = new CzechPubEnv({ ...game.env.config, log: false });
    for (const a of game.env.actions) env.step(a);
    expect(env.scores()).toEqual(game.env.scores());
  });

  it('one X card unwatched: asks while another is playable; off: asks every window', async () => {
    const store = newStore();
    const { game } = await store.create({ seats: ['remote', 'heuristic', 'heuristic'], seed: 'auto-pass-3', reward: 'win' });
    const before = game.env.actions.length;
    await store.setAutoPass(game, 0, { unwatched: ['knocked_over'] });
    const asked = await playPerson(store, game, person);
    const only = (legal: readonly number[]) => xWindow(legal) && legal.every((a) => a === A_PASS || reactionCard(a) === 'knocked_over');
    let auto = 0;
    for (const [step, legal] of seatPositions(game)) {
      if (step < before) continue;
      expect(asked.has(step)).toBe(!only(legal));
      if (!asked.has(step)) auto++;
    }
    expect(auto).toBeGreaterThan(0);

    const off = newStore();
    const { game: g2 } = await off.create({ seats: ['remote', 'heuristic', 'heuristic'], seed: 'auto-pass-3', reward: 'win' });
    expect(await off.setAutoPass(g2, 0, { on: false, unwatched: [...X_WATCHABLE] })).toEqual({ on: false, unwatched: [...X_WATCHABLE], windows: 'all' });
    const all = await playPerson(off, g2, person);
    expect(all.size).toBe(seatPositions(g2).size);
  });

  it('changed at a window it now passes, passes at once and the bots play on', async () => {
    const store = newStore();
    const { game } = await store.create({ seats: ['remote', 'heuristic', 'heuristic', 'heuristic'], seed: 'auto-pass-4', reward: 'win' });
    for (let guard = 0; !xWindow(game.env.legalActions()); guard++) {
      expect(guard).toBeLessThan(500);
      expect(game.env.done).toBe(false);
      await store.act(game, 0, person(game.env.legalActions().filter((a) => reactionCard(a) === null)));
    }
    const at = game.env.actions.length;
    await store.setAutoPass(game, 0, { unwatched: [...X_WATCHABLE] });
    expect(game.env.actions[at]).toBe(A_PASS);
    expect(game.actors[at]).toBe(0);
    expect(game.env.done || (game.env.actor === 0 && !xWindow(game.env.legalActions()))).toBe(true);
  });
});
