import { beforeAll, describe, expect, it } from 'vitest';
import { NUM_ACTIONS } from '../env/actions.ts';
import { OBS_SIZE } from '../env/observation/encode.ts';
import { initWeights, netInputs } from '../policy/weights.ts';
import * as tf from '@tensorflow/tfjs-core';
import { initBackend } from './backend.ts';
import {
  ChunkPlayer, decodeChunk, encodeChunk, HIDDEN_HANDS_WIDTH, parsePool, replayChunk, RolloutBuffer, RolloutTally, writeHiddenHands, type ChunkGame, type ChunkSpec,
} from './collect.ts';
import { HAND_TYPES } from '../env/cards.ts';
import { CzechPubEnv } from '../env/env.ts';
import { TfNet } from './net.ts';

const shape = { inputs: OBS_SIZE, hidden: [8], actions: NUM_ACTIONS };

function spec(pool: string, seed = 'c3', snapshots = 1): ChunkSpec {
  return { seed, games: 6, players: 3, pool: parsePool(pool), reward: 'rank', snapshots };
}

/** Plays a chunk and replays it into a buffer, as the trainer does. */
function run(pool: string, seed?: string) {
  const s = spec(pool, seed);
  const net = new TfNet(initWeights(shape, 'collect'));
  const past = new TfNet(initWeights(shape, 'past'));
  const games = new ChunkPlayer().play(s, net, [past]);
  net.dispose();
  past.dispose();
  const b = new RolloutBuffer(4);
  const tally = new RolloutTally();
  replayChunk(s, games, b, 0.99, 0.95, tally);
  return {
    games, stats: tally.stats(), size: b.size,
    action: [...b.action.subarray(0, b.size)], logp: [...b.logp.subarray(0, b.size)], value: [...b.value.subarray(0, b.size)],
    adv: [...b.adv.subarray(0, b.size)], ret: [...b.ret.subarray(0, b.size)],
    obs: b.obs.slice(0, b.size * OBS_SIZE), mask: b.mask.slice(0, b.size * NUM_ACTIONS),
  };
}

describe('rollout chunks', () => {
  beforeAll(async () => {
    await initBackend('auto');
  }, 120_000); // loads a tensor backend: seconds on a busy machine, past a hook's 10 s default

  it('records only the learner’s real choices, legal, with advantages, from whole games', () => {
    const r = run('self,past,greedy,random');
    expect(r.stats.games).toBe(6);
    expect(r.size).toBe(r.games.reduce((n, g) => n + g.logp.length, 0));
    expect(r.size).toBeGreaterThan(6);
    expect(r.stats.envSteps).toBe(r.games.reduce((n, g) => n + g.actions.length, 0));
    for (let row = 0; row < r.size; row++) {
      const mask = r.mask.subarray(row * NUM_ACTIONS, (row + 1) * NUM_ACTIONS);
      expect(mask.reduce((a, m) => a + m, 0)).toBeGreaterThan(1);
      expect(mask[r.action[row]]).toBe(1);
      expect(r.logp[row]).toBeLessThanOrEqual(0);
      expect(r.obs.subarray(row * OBS_SIZE, (row + 1) * OBS_SIZE).some((x) => x !== 0)).toBe(true);
      expect(Number.isFinite(r.adv[row]) && Number.isFinite(r.ret[row])).toBe(true);
    }
    // Every game has a learner seat; under 'rank' a learner's return lies in [−1, 1].
    for (const g of r.games) expect(g.recorded.length).toBeGreaterThan(0);
    expect(Math.abs(r.stats.meanReturn)).toBeLessThanOrEqual(1);
  });

  it('is deterministic for a seed, and differs for another', () => {
    const a = run('2*self,past,heuristic', 'c5');
    const b = run('2*self,past,heuristic', 'c5');
    expect(b).toEqual(a);
    const c = run('2*self,past,heuristic', 'c6');
    expect(c.action).not.toEqual(a.action);
  });

  it('travels as JSON and replays the same; a game altered on the way is refused by name', () => {
    const a = run('self,past,heuristic', 'c7');
    const s = spec('self,past,heuristic', 'c7');
    const back = decodeChunk(JSON.parse(JSON.stringify(encodeChunk(a.games))));
    expect(back).toEqual(a.games);
    const replay = (games: ChunkGame[]) => replayChunk(s, games, new RolloutBuffer(), 0.99, 0.95, new RolloutTally());
    const wrongScores = back.map((g, i) => (i === 2 ? { ...g, scores: g.scores.map((x) => x + 1) } : g));
    expect(() => replay(wrongScores)).toThrow(/chunk c7 game 2 does not replay \(scores/);
    const cut = back.map((g, i) => (i === 1 ? { ...g, actions: g.actions.subarray(0, g.actions.length - 1) } : g));
    expect(() => replay(cut)).toThrow(/game 1 does not replay/);
    expect(() => replay(back.slice(1))).toThrow(/5 games sent, 6 played/);
  });

  it('with a row target, uses games in order up to the one that reaches it', () => {
    const a = run('self,heuristic', 'c9');
    const perGame = a.games.map((g) => g.logp.length);
    const target = perGame[0] + 1;
    const b = new RolloutBuffer();
    const used = replayChunk(spec('self,heuristic', 'c9'), a.games, b, 0.99, 0.95, new RolloutTally(), target);
    expect(used).toBe(2);
    expect(b.size).toBe(perGame[0] + perGame[1]);
    expect([...b.action.subarray(0, b.size)]).toEqual(a.action.slice(0, b.size));
  });

  it('seats one learner per game against a scripted pool, and reports its win share by opponent', () => {
    const r = run('random', 'c8');
    expect(Object.keys(r.stats.winShareVs)).toEqual(['random']);
    for (const g of r.games) expect(g.recorded.length).toBe(1);
  });

  it('with an adviser, the replay rebuilds the very inputs the player fed the net', () => {
    // A net that reads heuristic's advice: if the replay asked the advisers at other decisions
    // (or in another order) its inputs would differ, and so would the net's log-probabilities.
    const adv = { inputs: netInputs('heuristic'), hidden: [8], actions: NUM_ACTIONS, advice: 'heuristic' as const };
    const s = spec('self,past,heuristic', 'c11');
    // Policy heads far from uniform, so that what the net reads shows in its log-probabilities.
    const sharp = (w: ReturnType<typeof initWeights>) => {
      w.layers[1].w.forEach((x, i, a) => (a[i] = 300 * x));
      return w;
    };
    const net = new TfNet(sharp(initWeights(adv, 'advised')));
    const past = new TfNet(sharp(initWeights(adv, 'advised-past')));
    const games = new ChunkPlayer().play(s, net, [past]);
    const b = new RolloutBuffer(4, adv.inputs);
    replayChunk(s, games, b, 0.99, 0.95, new RolloutTally(), Infinity, net.shape);
    expect(b.size).toBeGreaterThan(20);
    const logp = tf.tidy(() => {
      const x = tf.tensor2d(b.obs.subarray(0, b.size * adv.inputs), [b.size, adv.inputs]);
      const bias = tf.tensor2d(Float32Array.from(b.mask.subarray(0, b.size * NUM_ACTIONS), (m) => (m ? 0 : -1e9)), [b.size, NUM_ACTIONS]);
      const { logits } = net.forward(x, bias);
      const onehot = tf.oneHot(tf.tensor1d(b.action.subarray(0, b.size), 'int32'), NUM_ACTIONS);
      return tf.sum(tf.mul(tf.logSoftmax(logits), onehot), 1).dataSync() as Float32Array;
    });
    for (let r = 0; r < b.size; r++) {
      expect(logp[r]).toBeCloseTo(b.logp[r], 4);
      // One advised action per row, and a legal one.
      const advice = b.obs.subarray(r * adv.inputs + OBS_SIZE, (r + 1) * adv.inputs);
      const a = advice.indexOf(1);
      expect(advice.reduce((x, y) => x + y, 0)).toBe(1);
      expect(b.mask[r * NUM_ACTIONS + a]).toBe(1);
    }
    net.dispose();
    past.dispose();
  });

  it("a table critic's rows hold the other seats' hands, relative to the seat, and episodes cover every row once", () => {
    const env = new CzechPubEnv({ seed: 'hands', players: 3 });
    const out = new Float32Array(HIDDEN_HANDS_WIDTH + 2).fill(9);
    writeHiddenHands(env.state, 1, 3, out, 1);
    expect(out[0]).toBe(9);
    expect(out[HIDDEN_HANDS_WIDTH + 1]).toBe(9);
    const hand = (seat: number) => Array.from({ length: HAND_TYPES }, (_, t) => env.state.hand[seat * HAND_TYPES + t] / 4);
    // Slot 0: the seat to its left (2), slot 1: the next (0); the seat's own hand is not there; slots past the table are zero.
    expect([...out.subarray(1, 1 + HAND_TYPES)]).toEqual(hand(2));
    expect([...out.subarray(1 + HAND_TYPES, 1 + 2 * HAND_TYPES)]).toEqual(hand(0));
    expect(out.subarray(1 + 2 * HAND_TYPES, 1 + HIDDEN_HANDS_WIDTH).every((x) => x === 0)).toBe(true);
    expect(hand(2).some((x) => x > 0)).toBe(true);

    const s = spec('self,heuristic');
    const net = new TfNet(initWeights(shape, 'collect'));
    const past = new TfNet(initWeights(shape, 'past'));
    const games = new ChunkPlayer().play(s, net, [past]);
    net.dispose();
    past.dispose();
    const b = new RolloutBuffer(4, OBS_SIZE, true);
    replayChunk(s, games, b, 0.99, 0.95, new RolloutTally());
    expect(b.hidden.length).toBeGreaterThanOrEqual(b.size * HIDDEN_HANDS_WIDTH);
    for (let r = 0; r < b.size; r++) expect(b.hidden.subarray(r * HIDDEN_HANDS_WIDTH, (r + 1) * HIDDEN_HANDS_WIDTH).some((x) => x > 0)).toBe(true);
    expect(b.episodes.flatMap((e) => e.rows).sort((x, y) => x - y)).toEqual(Array.from({ length: b.size }, (_, r) => r));
    // Without a table critic nothing of the kind is kept.
    expect(new RolloutBuffer(4).hidden.length).toBe(0);
  });
});
