import { describe, expect, it } from 'vitest';
import { A_DONE, A_PASS } from '../actions.ts';
import { CzechPubEnv } from '../env.ts';
import type { GameEvent } from '../events.ts';
import { randInt, seedRng } from '../rng.ts';
import { canPreview, previewDigestion, previewsAction } from './preview.ts';

type Digest = Extract<GameEvent, { k: 'digest' }>;

/** Plays on from `env` with nobody reacting until `seat`'s own digestion; its event. */
function digestAfter(env: CzechPubEnv, seat: number, actions: number[]): Digest | null {
  const e = env.clone();
  const from = e.eventCount;
  for (const a of actions) e.step(a);
  while (!e.done && e.state.active === seat) {
    const legal = e.legalActions();
    if (e.currentPlayer === seat) e.step(legal.includes(A_DONE) ? A_DONE : legal[0]);
    else e.step(legal.includes(A_PASS) ? A_PASS : legal[0]);
  }
  const ev = e.fullLog.slice(from).find((x): x is Digest => x.k === 'digest' && x.seat === seat && x.copyOf === undefined);
  return ev ?? null;
}

describe('previewDigestion', () => {
  it("equals the engine's digestion of the same cards: now, and after each order or Flattery", () => {
    let compared = 0;
    let rolled = 0;
    for (const seed of ['p1', 'p2', 'p3']) {
      const env = new CzechPubEnv({ seed, players: 4, log: true });
      const rng = seedRng(`${seed}:moves`);
      while (!env.done) {
        const seat = env.currentPlayer;
        const legal = env.legalActions();
        if (canPreview(env.state, seat) && legal.includes(A_DONE)) {
          for (const a of [undefined, ...legal.filter(previewsAction)]) {
            const p = previewDigestion(env.compiledRules, env.state, seat, a);
            const ev = digestAfter(env, seat, a === undefined ? [] : [a]);
            if (!ev) continue;
            expect({ points: p.points, drunkenness: p.drunkenness, total: p.total }).toEqual({ points: ev.points, drunkenness: ev.drunkenness, total: ev.total ?? null });
            expect(p.abstinence).toBe(ev.total === undefined);
            if (p.total !== null) {
              rolled++;
              const sides = env.config.ruleset.roll.dieSides;
              expect(p.passChance).toBeCloseTo(Math.max(0, Math.min(sides, sides - p.total + 1)) / sides);
            }
            compared++;
          }
        }
        env.step(legal[randInt(rng, legal.length)]);
      }
    }
    expect(compared).toBeGreaterThan(100);
    expect(rolled).toBeGreaterThan(50);
  });

  it('leaves the state untouched and refuses a seat that is not choosing what to play', () => {
    const env = new CzechPubEnv({ seed: 'p4', players: 3 });
    const before = JSON.stringify(env.state);
    const seat = env.currentPlayer;
    for (const a of env.legalActions().filter(previewsAction)) previewDigestion(env.compiledRules, env.state, seat, a);
    expect(JSON.stringify(env.state)).toBe(before);
    expect(() => previewDigestion(env.compiledRules, env.state, (seat + 1) % 3)).toThrow(/not choosing/);
  });
});
