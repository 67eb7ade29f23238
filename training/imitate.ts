/**
 * Behaviour cloning, an optional warm start for PPO: the net is trained by cross-entropy to
 * pick what a teacher agent (by default `heuristic`) picks, on decisions from games the
 * teacher plays against itself; the value head meanwhile learns the teacher's terminal
 * rewards. Self-play from a random net spends its first millions of steps learning what a
 * scripted player already knows (drink what you can digest, don't abstain); starting from
 * a clone leaves PPO the part the scripts get wrong.
 *
 * Data is generated in chunks and each chunk is used once, so nothing is stored and the net
 * never sees the same decision twice.
 */
import * as tf from '@tensorflow/tfjs-core';
import { CzechPubEnv, NUM_ACTIONS, seedRng, shuffle, type RewardScheme, type Ruleset } from '../env/index.ts';
import { agentSeed, createAgent, EnvObservation, SeatInput } from '../agents/index.ts';
import type { NetShape } from '../policy/index.ts';
import { gatherRow, maskBias, type TfNet } from './net.ts';

export interface ImitateOptions {
  teacher: string;
  decisions: number;
  players: number;
  seed: string;
  /** The rules the teacher's games are played under (default: the standard rules). */
  ruleset?: Ruleset;
  reward: RewardScheme;
  lr: number;
  minibatch: number;
  vfCoef: number;
  /** Decisions generated per chunk. */
  chunk: number;
}

export interface ImitateReport {
  decisions: number;
  /** Share of the last chunk's decisions where the net's argmax equals the teacher's choice, before training on it. */
  agreement: number;
  loss: number;
  seconds: number;
}

/** Plays teacher self-play games until `n` decisions (with a real choice) are recorded. */
function generate(o: ImitateOptions, shape: NetShape, n: number, gameIndex: { next: number }) {
  const width = shape.inputs;
  const obs = new Float32Array(n * width);
  const inputs = Array.from({ length: o.players }, () => new SeatInput(shape));
  const mask = new Uint8Array(n * NUM_ACTIONS);
  const action = new Int32Array(n);
  const ret = new Float32Array(n);
  let k = 0;
  while (k < n) {
    const seed = `${o.seed}/imitate/${gameIndex.next++}`;
    const env = new CzechPubEnv({ seed, players: o.players, ruleset: o.ruleset, log: false, reward: o.reward });
    const agents = Array.from({ length: o.players }, (_, seat) => {
      const a = createAgent(o.teacher);
      a.reset?.({ seat, players: o.players, seed: agentSeed(seed, seat), ruleset: o.ruleset });
      inputs[seat].reset(seat, o.players, agentSeed(seed, seat), o.ruleset);
      return a;
    });
    const rows: { row: number; seat: number }[] = [];
    while (!env.done) {
      const seat = env.actor;
      const legal = env.legalActions();
      const a = legal.length === 1 ? legal[0] : agents[seat].act(new EnvObservation(env, seat, legal));
      if (typeof a !== 'number') throw new Error(`imitation needs a synchronous teacher, '${o.teacher}' is not`);
      if (legal.length > 1 && k < n) {
        inputs[seat].writeEnv(env, seat, legal, obs, k * width);
        env.legalMask(mask.subarray(k * NUM_ACTIONS, (k + 1) * NUM_ACTIONS));
        action[k] = a;
        rows.push({ row: k, seat });
        k++;
      }
      env.step(a);
    }
    const returns = env.returns();
    for (const r of rows) ret[r.row] = returns[r.seat];
  }
  return { obs, mask, action, ret };
}

export function imitate(net: TfNet, o: ImitateOptions, log: (line: string) => void = () => {}, now: () => number = () => performance.now()): ImitateReport {
  const t0 = now();
  const optimizer = tf.train.adam(o.lr, 0.9, 0.999, 1e-5);
  const rng = seedRng(`imitate/${o.seed}`);
  const games = { next: 0 };
  let done = 0;
  let agreement = NaN;
  let lastLoss = NaN;
  const mb = o.minibatch;
  const width = net.shape.inputs;
  const xs = new Float32Array(mb * width);
  const ms = new Float32Array(mb * NUM_ACTIONS);
  const acts = new Int32Array(mb);
  const rets = new Float32Array(mb);
  while (done < o.decisions) {
    const n = Math.max(mb, Math.min(o.chunk, o.decisions - done));
    const d = generate(o, net.shape, n, games);
    // How often the net already agrees with the teacher on decisions it has not seen.
    agreement = tf.tidy(() => {
      const { logits } = net.forward(tf.tensor2d(d.obs, [n, width]), tf.tensor2d(maskBias(d.mask), [n, NUM_ACTIONS]));
      const arg = tf.argMax(logits, 1).dataSync();
      let same = 0;
      for (let i = 0; i < n; i++) if (arg[i] === d.action[i]) same++;
      return same / n;
    });
    const order = Array.from({ length: n }, (_, i) => i);
    shuffle(rng, order);
    let lossSum = 0;
    let batches = 0;
    for (let s = 0; s + mb <= n; s += mb) {
      for (let j = 0; j < mb; j++) {
        const r = order[s + j];
        gatherRow(d.obs, d.mask, r, xs, ms, j, width, NUM_ACTIONS);
        acts[j] = d.action[r];
        rets[j] = d.ret[r];
      }
      const loss = tf.tidy(() => {
        const x = tf.tensor2d(xs, [mb, width]);
        const m = tf.tensor2d(ms, [mb, NUM_ACTIONS]);
        const onehot = tf.oneHot(tf.tensor1d(acts, 'int32'), NUM_ACTIONS);
        const ret = tf.tensor1d(rets);
        const value = optimizer.minimize(() => {
          const { logits, value } = net.forward(x, m);
          const ce = tf.neg(tf.mean(tf.sum(tf.mul(tf.logSoftmax(logits), onehot), 1)));
          const vl = tf.mul(0.5, tf.mean(tf.square(tf.sub(value, ret))));
          return tf.add(ce, tf.mul(o.vfCoef, vl)) as tf.Scalar;
        }, true, net.vars);
        return value!.dataSync()[0];
      });
      lossSum += loss;
      batches++;
    }
    done += n;
    lastLoss = lossSum / Math.max(1, batches);
    log(`imitate ${o.teacher}: ${done}/${o.decisions} decisions, agreement before training ${(100 * agreement).toFixed(1)}%, loss ${lastLoss.toFixed(3)}`);
  }
  optimizer.dispose();
  return { decisions: done, agreement, loss: lastLoss, seconds: (now() - t0) / 1000 };
}
