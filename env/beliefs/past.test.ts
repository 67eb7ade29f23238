import { describe, expect, it } from 'vitest';
import { HAND_TYPES } from '../cards.ts';
import { CzechPubEnv } from '../env.ts';
import type { GameEvent } from '../events.ts';
import { resampleState } from '../resample.ts';
import { randInt, seedRng } from '../rng.ts';
import { cloneState, PHASE_REACTION, type GameState } from '../state.ts';
import { replayedSteps, SeatPast, type Candidate, type PastStep } from './past.ts';

const T = HAND_TYPES;
const J = (x: unknown) => JSON.stringify(x);

/** A game played at random to a decision of `seat` well into it. */
function gameAt(seed: string, players: number, askForced: boolean, seat: number, steps: number): CzechPubEnv {
  const env = new CzechPubEnv({ seed, players, askForced, log: false });
  const rng = seedRng(`${seed}/play`);
  while (!env.done && (env.actions.length < steps || env.actor !== seat)) {
    const legal = env.legalActions();
    env.step(legal[randInt(rng, legal.length)]);
  }
  return env;
}

/** Everything a candidate gives, as a string: its world's state, and each position's seat, action, legal actions and state. */
const text = (c: Candidate) => J({ world: c.world.state, impossible: c.impossible, positions: c.positions.map((p) => [p.step, p.seat, p.action, p.legal, p.world.state]) });

/**
 * The past with everything `viewer` could not see dealt anew: each state's hidden parts (the
 * other hands, the pile, the dice, the other seats' knowledge) re-dealt as the resampler deals
 * them, and each event's hidden cards (others' draws, a card taken between two others) drawn at random.
 */
function redealt(env: CzechPubEnv, past: readonly PastStep[], viewer: number, seed: string): PastStep[] {
  const rng = seedRng(seed);
  return past.map(({ state, action, events }, k) => ({
    state: resampleState(env.compiledRules, state, viewer, `${seed}/${k}`),
    action,
    events: events.map((e): GameEvent => {
      if (e.k === 'draw' && e.seat !== viewer) return { ...e, cards: e.cards.map(() => randInt(rng, T)) };
      if (e.k === 'take' && e.from !== viewer && e.to !== viewer) return { ...e, card: randInt(rng, T) };
      return e;
    }),
  }));
}

describe("a seat's record of the past", () => {
  it('deals the same world as the seat channel does, and the same candidate for the same seed', () => {
    const env = gameAt('past/det', 4, false, 0, 90);
    const past = new SeatPast(env, 0, 4);
    expect(past.decisions.length).toBeGreaterThan(0);
    expect(past.decisions.every((d) => d.seat !== 0)).toBe(true);
    const a = past.candidate('s1');
    expect(J(a.world.state)).toBe(J(env.resample(0, 's1').state));
    expect(text(new SeatPast(env, 0, 4).candidate('s1'))).toBe(text(a));
    expect(text(past.candidate('s2'))).not.toBe(text(a));
  });

  it('replays a game again after its env is reset, not the game it held before', () => {
    // Asked at the deal: nothing on the record yet, so any game's actions would extend it.
    const env = new CzechPubEnv({ seed: 'past/first', players: 4, askForced: true, log: false });
    new SeatPast(env, 0, 4).candidate('x');
    env.reset({ seed: 'past/second', players: 4, askForced: true, log: false });
    const rng = seedRng('past/first/play');
    while (env.actions.length < 40 || env.actor !== 0) {
      const legal = env.legalActions();
      env.step(legal[randInt(rng, legal.length)]);
    }
    const fresh = CzechPubEnv.fromJSON(JSON.parse(J(env.toJSON())));
    expect(text(new SeatPast(env, 0, 4).candidate('x'))).toBe(text(new SeatPast(fresh, 0, 4).candidate('x')));
  });

  it("keeps each other seat's last `window` decisions, and lays the candidate's hands at each", () => {
    const env = gameAt('past/window', 4, true, 1, 120);
    const past = new SeatPast(env, 1, 3);
    const bySeat = new Map<number, number>();
    for (const d of past.decisions) bySeat.set(d.seat, (bySeat.get(d.seat) ?? 0) + 1);
    for (const [, k] of bySeat) expect(k).toBeLessThanOrEqual(3);
    for (let i = 0; i < 10; i++) {
      const c = past.candidate(`w${i}`);
      if (c.impossible) continue;
      for (const p of c.positions) {
        expect(p.world.actor).toBe(p.seat);
        expect(p.legal).toContain(p.action);
        // The seat's hand then holds as many cards as the table saw it hold.
        const s = p.world.state;
        expect(s.hand.slice(p.seat * T, (p.seat + 1) * T).reduce((x, y) => x + y, 0)).toBe(s.handSize[p.seat]);
      }
    }
  });

  it('gives the same candidates when everything the seat could not see, then and now, is dealt anew', () => {
    let compared = 0;
    let positions = 0;
    for (let g = 0; g < 16; g++) {
      const players = 2 + (g % 5);
      const viewer = g % players;
      const env = gameAt(`past/leak/${g}`, players, g % 2 === 0, viewer, 40 + 10 * (g % 10));
      if (env.done) continue;
      const past = replayedSteps(env);
      // The game now, its hidden parts dealt anew (fromJSON takes a state it cannot replay as given).
      const now = CzechPubEnv.fromJSON({ config: env.config, state: resampleState(env.compiledRules, env.state as GameState, viewer, `now/${g}`), actions: [...env.actions] });
      expect(J([now.state.hand, now.state.deck])).not.toBe(J([env.state.hand, env.state.deck]));
      const mine = new SeatPast(env, viewer, 4, past);
      const theirs = new SeatPast(now, viewer, 4, redealt(env, past, viewer, `then/${g}`));
      expect(J(theirs.decisions)).toBe(J(mine.decisions));
      for (let i = 0; i < 4; i++) {
        const c = mine.candidate(`c${i}`);
        expect(text(theirs.candidate(`c${i}`)), `game ${g}, candidate ${i}`).toBe(text(c));
        compared++;
        positions += c.positions.length;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(24);
    // Past positions, each laid from a walk through the record, were compared too.
    expect(positions).toBeGreaterThan(100);
  });

  it('tells apart a record whose visible part differs (the check above would catch a leak)', () => {
    const env = gameAt('past/differ', 4, true, 0, 80);
    const past = replayedSteps(env);
    // One other seat's visible play changed: the same card played as another type.
    const k = past.findIndex((s) => s.state.actor !== 0 && s.events.some((e) => e.k === 'play'));
    expect(k).toBeGreaterThanOrEqual(0);
    const changed = past.map((s, i) => (i !== k ? s : { ...s, state: cloneState(s.state), events: s.events.map((e) => (e.k === 'play' ? { ...e, card: (e.card + 1) % 10 } : e)) }));
    const a = new SeatPast(env, 0, 50, past);
    const b = new SeatPast(env, 0, 50, changed);
    let differ = 0;
    for (let i = 0; i < 4; i++) if (text(a.candidate(`c${i}`)) !== text(b.candidate(`c${i}`))) differ++;
    expect(differ).toBeGreaterThan(0);
  });

  it('says a world cannot be where a seat the record shows asked (askForced off) would have had no choice', () => {
    let impossible = 0;
    let tried = 0;
    for (let g = 0; tried < 40 && g < 60; g++) {
      const env = gameAt(`past/asked/${g}`, 4, false, 0, 40 + 5 * g);
      if (env.done) continue;
      const past = new SeatPast(env, 0, 6);
      // Positions where another seat was asked in a reaction window: it held an X card it could play.
      const steps = replayedSteps(env);
      if (!past.decisions.some((d) => steps[d.step].state.phase === PHASE_REACTION)) continue;
      expect(past.hadChoice).toBe(true);
      for (let i = 0; i < 8; i++) {
        tried++;
        const c = past.candidate(`a${i}`);
        if (c.impossible) {
          impossible++;
          expect(c.positions).toEqual([]);
        } else {
          for (const p of c.positions) expect(p.legal.length).toBeGreaterThan(1);
        }
      }
    }
    expect(tried).toBeGreaterThan(20);
    expect(impossible).toBeGreaterThan(0);
  });
});
