import { describe, expect, it } from 'vitest';
import { HAND_TYPES } from '../cards.ts';
import { CzechPubEnv } from '../env.ts';
import type { GameEvent } from '../events.ts';
import { randInt, seedRng } from '../rng.ts';
import { recordSteps, replayedSteps } from './past.ts';
import { knowledgeBefore, uniformChooser, walkBack, type Chooser } from './walk.ts';

const T = HAND_TYPES;
const J = (x: unknown) => JSON.stringify(x);

/** Random games at every table size, both ways of asking, played to a decision well into the game (or to its end). */
function games(): CzechPubEnv[] {
  const out: CzechPubEnv[] = [];
  for (let g = 0; g < 15; g++) {
    const env = new CzechPubEnv({ seed: `walk/${g}`, players: 2 + (g % 5), askForced: g % 2 === 0, log: false });
    const rng = seedRng(`walk/${g}/play`);
    const stop = 60 + randInt(rng, 240);
    while (!env.done && env.actions.length < stop) {
      const legal = env.legalActions();
      env.step(legal[randInt(rng, legal.length)]);
    }
    out.push(env);
  }
  return out;
}

/** Takes the cards the unfiltered event names, after checking the walk would have offered them. */
const truth: Chooser = (_seat, count, free, bound, e) => {
  const cards = e.k === 'draw' ? e.cards : e.k === 'take' ? [e.card] : [];
  if (cards.length !== count) throw new Error(`${JSON.stringify(e)} names ${cards.length} cards, the walk undoes ${count}`);
  const n = new Int32Array(T);
  for (const t of cards) n[t]++;
  for (let t = 0; t < T; t++) {
    if (n[t] > free[t] || (bound && n[t] > bound[t])) throw new Error(`the walk would not have offered ${n[t]} of type ${t} for ${JSON.stringify(e)}`);
  }
  return [...cards];
};

describe('walking the hands back', () => {
  const all = games();

  it('meets every hand the game had, walked back from the true hands with the true draws, and never excludes them', () => {
    let checked = 0;
    const wrong: string[] = [];
    for (const env of all) {
      const past = replayedSteps(env);
      const n = env.players;
      const out = env.state.out.map((o) => o !== 0);
      for (let viewer = 0; viewer < n; viewer++) {
        // Shown everything, so the chooser can name the true cards.
        const steps = recordSteps(past, viewer, (e: GameEvent) => e);
        const keep = new Set(past.map((_, k) => k));
        const walk = walkBack(steps, 0, keep, n, viewer, env.state.hand, out, truth, seedRng('unused'));
        expect(walk.stuck).toBeNull();
        for (let k = 0; k < past.length; k++) {
          const tracked = walk.tracked.get(k)!;
          const hands = walk.hands.get(k)!;
          for (let p = 0; p < n; p++) {
            if (!tracked[p]) continue;
            if (J(Array.from(hands.slice(p * T, (p + 1) * T))) !== J(past[k].state.hand.slice(p * T, (p + 1) * T))) wrong.push(`step ${k}, seat ${p}, viewer ${viewer}`);
            checked++;
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(all.filter((env) => !env.done).length).toBeGreaterThan(4);
    expect(checked).toBeGreaterThan(5_000);
  });

  it("keeps the viewer's knowledge of every hand as the engine does, event by event", () => {
    for (const env of all.slice(0, 5)) {
      const past = replayedSteps(env);
      const n = env.players;
      for (let viewer = 0; viewer < n; viewer++) {
        const steps = recordSteps(past, viewer);
        for (let k = 0; k + 1 < steps.length; k++) expect(Array.from(knowledgeBefore(steps[k], n, viewer).after), `step ${k}`).toEqual(steps[k + 1].known);
      }
    }
  });

  it('walks back from the true hands with draws chosen at random (what the viewer saw only) without a contradiction', () => {
    let walks = 0;
    for (const env of all) {
      const past = replayedSteps(env);
      const n = env.players;
      const out = env.state.out.map((o) => o !== 0);
      for (let viewer = 0; viewer < n; viewer++) {
        const walk = walkBack(recordSteps(past, viewer), 0, new Set(), n, viewer, env.state.hand, out, uniformChooser, seedRng(`w/${viewer}`));
        // Random draws can leave a later card without its source; the truth always has one, and most random choices do too.
        if (walk.stuck === null) walks++;
      }
    }
    expect(walks).toBeGreaterThan(0);
  });
});
