import { beforeAll, describe, expect, it } from 'vitest';
import { NUM_ACTIONS } from '../env/actions.ts';
import { OBS_SIZE } from '../env/observation/encode.ts';
import { initWeights } from '../policy/weights.ts';
import { initBackend } from './backend.ts';
import { Collector, parsePool, type CollectOptions } from './collect.ts';
import { TfNet } from './net.ts';

const shape = { inputs: OBS_SIZE, hidden: [8], actions: NUM_ACTIONS };

function options(pool: string, seed = 3): CollectOptions {
  return { numEnvs: 6, players: 3, seed, pool: parsePool(pool), reward: 'rank', gamma: 0.99, lambda: 0.95, minSteps: 300 };
}

/** Two rollouts, the second after startNextRollout, as the trainer runs them. */
function run(pool: string, seed?: number) {
  const c = new Collector(options(pool, seed));
  const net = new TfNet(initWeights(shape, 'collect'));
  const past = new TfNet(initWeights(shape, 'past'));
  const first = c.collect(net, [past]);
  const rows1 = { size: c.buffer.size, ready: [...c.buffer.ready], action: [...c.buffer.action.subarray(0, c.buffer.size)] };
  c.startNextRollout();
  const second = c.collect(net, [past]);
  const b = c.buffer;
  const out = {
    first, second, rows1,
    size: b.size, ready: [...b.ready],
    action: [...b.action.subarray(0, b.size)], logp: [...b.logp.subarray(0, b.size)],
    adv: [...b.adv.subarray(0, b.size)], ret: [...b.ret.subarray(0, b.size)],
    obs: b.obs.slice(0, b.size * OBS_SIZE), mask: b.mask.slice(0, b.size * NUM_ACTIONS),
  };
  net.dispose();
  past.dispose();
  return out;
}

describe('rollout collector', () => {
  beforeAll(async () => {
    await initBackend('auto');
  });

  it('records only the learner’s real choices, legal, with finalised advantages, and plays whole games', () => {
    const r = run('self,past,greedy,random');
    expect(r.rows1.size).toBeGreaterThanOrEqual(300);
    expect(r.first.games).toBeGreaterThan(0);
    expect(r.first.envSteps).toBeGreaterThan(r.rows1.size);
    for (let row = 0; row < r.size; row++) {
      const mask = r.mask.subarray(row * NUM_ACTIONS, (row + 1) * NUM_ACTIONS);
      expect(mask.reduce((a, m) => a + m, 0)).toBeGreaterThan(1);
      expect(mask[r.action[row]]).toBe(1);
      expect(r.logp[row]).toBeLessThanOrEqual(0);
      expect(r.obs.subarray(row * OBS_SIZE, (row + 1) * OBS_SIZE).some((x) => x !== 0)).toBe(true);
    }
    // Each ready row once; its advantage and return are finite.
    expect(new Set(r.ready).size).toBe(r.ready.length);
    for (const row of r.ready) {
      expect(row).toBeLessThan(r.size);
      expect(Number.isFinite(r.adv[row]) && Number.isFinite(r.ret[row])).toBe(true);
    }
    // Under 'rank' a learner's return lies in [−1, 1].
    expect(Math.abs(r.second.meanReturn)).toBeLessThanOrEqual(1);
  });

  it('is deterministic for a seed, and differs for another', () => {
    const a = run('2*self,past,heuristic', 5);
    const b = run('2*self,past,heuristic', 5);
    expect(b).toEqual(a);
    const c = run('2*self,past,heuristic', 6);
    expect(c.action).not.toEqual(a.action);
  });

  it('seats one learner per game against a scripted pool, and reports its win share by opponent', () => {
    const r = run('random');
    expect(Object.keys(r.first.winShareVs)).toEqual(['random']);
    // Random opponents against a random-initialised learner: it wins some and loses some.
    expect(r.first.winShare).toBeGreaterThan(0);
    expect(r.first.winShare).toBeLessThan(1);
  });
});
