import { describe, expect, it } from 'vitest';
import { randomActions } from '../test/helpers/masked-actions.ts';
import { firstDifference } from '../test/helpers/arrays.ts';
import { NUM_ACTIONS } from './actions.ts';
import { createState, legalActions } from './engine/index.ts';
import { encodeObservation, OBS_SIZE } from './observation/encode.ts';
import { terminalRewards } from './rewards.ts';
import { seedRng } from './rng.ts';
import { compileRuleset, DEFAULT_RULESET, MAX_PLAYERS } from './ruleset.ts';
import { VectorEnv } from './vector.ts';

describe('VectorEnv', () => {
  it('writes each game’s observation and mask for its player to act, as the single-game functions do', () => {
    const v = new VectorEnv({ numEnvs: 4, players: 3, seed: 7 });
    v.reset();
    expect(v.obs.length).toBe(4 * OBS_SIZE);
    expect(v.masks.length).toBe(4 * NUM_ACTIONS);
    const rules = compileRuleset(DEFAULT_RULESET);
    for (let i = 0; i < 4; i++) {
      const { state } = createState({ players: 3, seed: `7/${i}/0` });
      const expected = new Float32Array(OBS_SIZE);
      encodeObservation(rules, state, state.actor, expected);
      expect(Array.from(v.obs.subarray(i * OBS_SIZE, (i + 1) * OBS_SIZE))).toEqual(Array.from(expected));
      const mask = Array.from(v.masks.subarray(i * NUM_ACTIONS, (i + 1) * NUM_ACTIONS));
      expect(mask.flatMap((m, a) => (m ? [a] : []))).toEqual(legalActions(rules, state));
      expect(v.actors[i]).toBe(state.actor);
    }
  });

  it('auto-resets finished games, reports their rewards once, and is deterministic for a seed', () => {
    const run = () => {
      const v = new VectorEnv({ numEnvs: 8, players: 4, seed: 'abc' });
      v.reset();
      const rng = seedRng(1);
      const finished: string[] = [];
      let rewardSum = 0;
      for (let step = 0; step < 3000; step++) {
        v.step(randomActions(v, rng));
        for (const f of v.finished) {
          finished.push(`${f.seed}:${f.scores.join(',')}`);
          expect(v.terminated[f.env] || v.truncated[f.env]).toBe(1);
          let sum = 0;
          for (let p = 0; p < MAX_PLAYERS; p++) sum += v.rewards[f.env * MAX_PLAYERS + p];
          expect(sum).toBeCloseTo(1);
        }
        for (let i = 0; i < v.numEnvs; i++) for (let p = 0; p < MAX_PLAYERS; p++) rewardSum += v.rewards[i * MAX_PLAYERS + p];
      }
      return { finished, rewardSum };
    };
    const a = run();
    expect(a.finished.length).toBeGreaterThan(50);
    expect(a.rewardSum).toBeCloseTo(a.finished.length);
    expect(new Set(a.finished.map((f) => f.split(':')[0])).size).toBe(a.finished.length);
    expect(run()).toEqual(a);
  });

  it('rejects a wrong number of actions or an illegal action with a clear error', () => {
    const v = new VectorEnv({ numEnvs: 2, players: 2, seed: 1 });
    v.reset();
    expect(() => v.step([0])).toThrow('expected 2 actions, got 1');
    const illegal = Array.from({ length: NUM_ACTIONS }, (_, a) => a).find((a) => !v.masks[a])!;
    expect(() => v.step([illegal, 0])).toThrow(/illegal action/);
  });

  it('steps one game at a time: stepGame restarts a finished game and returns its results; observe: false writes only on request', () => {
    const all = new VectorEnv({ numEnvs: 3, players: 4, seed: 's', reward: 'rank' });
    const one = new VectorEnv({ numEnvs: 3, players: 4, seed: 's', reward: 'rank', observe: false });
    all.reset();
    one.reset();
    expect(one.obs.every((x) => x === 0) && one.masks.every((x) => x === 0)).toBe(true);
    const rng = seedRng(2);
    const obs = new Float32Array(2 * OBS_SIZE);
    const mask = new Uint8Array(2 * NUM_ACTIONS);
    let ended = 0;
    for (let step = 0; step < 1500; step++) {
      const acts = randomActions(all, rng);
      all.step(acts);
      // The same actions, one game at a time; each game's view written to row 1 of a buffer of our own.
      for (let i = 0; i < 3; i++) {
        const seed = one.seedOf(i);
        const r = one.stepGame(i, acts[i]);
        const f = all.finished.find((e) => e.env === i);
        expect(r).toEqual(f ?? null);
        if (r) {
          ended++;
          expect(r.seed).toBe(seed);
          expect(r.returns).toEqual(terminalRewards('rank', r.scores));
          expect(one.seedOf(i)).not.toBe(seed);
          expect(one.game(i).state.decisions).toBe(0);
        }
        expect(one.actors[i]).toBe(all.actors[i]);
        expect(one.actors[i]).toBe(one.game(i).actor);
        one.writeObservation(i, obs, OBS_SIZE, mask, NUM_ACTIONS);
        expect(firstDifference(obs.subarray(OBS_SIZE), all.obs.subarray(i * OBS_SIZE, (i + 1) * OBS_SIZE))).toBe(-1);
        expect(firstDifference(mask.subarray(NUM_ACTIONS), all.masks.subarray(i * NUM_ACTIONS, (i + 1) * NUM_ACTIONS))).toBe(-1);
      }
    }
    expect(ended).toBeGreaterThan(10);
    expect(one.obs.every((x) => x === 0)).toBe(true);
    expect(obs.subarray(0, OBS_SIZE).every((x) => x === 0)).toBe(true);
  });
});
