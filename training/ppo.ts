/**
 * PPO self-play for Czech Pub (Schulman et al. 2017), in the manner of CleanRL's ppo.py:
 * the options (declared with their defaults and ranges in options.ts), then one loop read
 * top to bottom — rollout, advantages, update epochs, logging. Plumbing (backend, rollouts,
 * checkpoints, run directory, evaluation) lives in the files beside this one.
 *
 * The policy is a masked categorical over the 198 actions (in the loss illegal actions get a
 * logit of −1e9, which the softmax turns into exactly 0; the sampler skips them) and every
 * decision kind — play, discard, X-card reactions, responses — is learned the same way.
 * Rewards are terminal (env/rewards.ts); each seat's own decisions form its trajectory.
 */
import * as tf from '@tensorflow/tfjs-core';
import { NUM_ACTIONS, OBS_SIZE, seedRng, shuffle } from '../env/index.ts';
import { describeBackend, initBackend, type BackendInfo } from './backend.ts';
import { episodeGae, HIDDEN_HANDS_WIDTH, parsePool, replayChunk, RolloutBuffer, RolloutTally, type ChunkSpec } from './collect.ts';
import { LocalRollouts, type IterationChunks, type RolloutSource } from './rollouts.ts';
import { createAgent } from '../agents/index.ts';
import { explainedVariance } from './gae.ts';
import { imitate } from './imitate.ts';
import { countParams, initWeights, netInputs, type NetWeights } from '../policy/index.ts';
import { checkTrainOptions, type TrainOptions } from './options.ts';
import { gatherRow, TfNet } from './net.ts';

/** The checks beyond the declared ranges: the opponent pool and the teacher must make agents. */
function checkAgents(o: TrainOptions): void {
  parsePool(o.opponents);
  if (o.imitate !== '') createAgent(o.imitate);
}

/** One iteration's log line. */
export interface IterationMetrics {
  iteration: number;
  /** Learner decisions trained on so far. */
  steps: number;
  envSteps: number;
  seconds: number;
  lr: number;
  policyLoss: number;
  valueLoss: number;
  entropy: number;
  approxKl: number;
  clipFraction: number;
  explainedVariance: number;
  /** With --critic table: its value loss and how much of the returns' variance its values explain. */
  criticLoss?: number;
  criticExplainedVariance?: number;
  epochsRun: number;
  /** The policy version (iterations trained) that played this iteration's games, and how many chunks they were. */
  rolloutVersion: number;
  chunks: number;
  games: number;
  meanReturn: number;
  winShare: number;
  winShareVs: Record<string, number>;
  /** Env steps (all seats) per second while collecting, and samples per second in the update. */
  rolloutStepsPerSec: number;
  updateSamplesPerSec: number;
}

/** Where a run starts from (a fresh net unless resuming or fine-tuning) and what it reports to. */
export interface TrainHooks {
  initial?: {
    weights: NetWeights; iteration: number; steps: number; seconds: number; optimizer?: SavedTensor[]; snapshots?: NetWeights[];
    /** A resumed run's table critic (--critic table) and its optimizer. */
    critic?: { weights: NetWeights; optimizer: SavedTensor[] };
  };
  log?(line: string): void;
  /** Once the backend has started, before anything runs on it (also logged as `backend: …`). */
  onBackend?(b: BackendInfo): void;
  /** After every iteration, with everything needed to checkpoint. */
  onIteration?(m: IterationMetrics, state: TrainerState): Promise<void> | void;
  /** Once the loop has ended, while the net is still alive (final evaluation and checkpoint). */
  onEnd?(): Promise<void> | void;
  /** Polled between iterations: true stops the run cleanly. */
  shouldStop?(): boolean;
  /** Where the rollouts' chunks are played (default: in this thread). */
  rollouts?: RolloutSource;
  now?(): number;
}

/** An optimizer's variable as trainer.json keeps it. */
export interface SavedTensor {
  name: string;
  shape: number[];
  data: Float32Array;
}

export interface TrainerState {
  net: TfNet;
  optimizer: tf.Optimizer;
  snapshots: NetWeights[];
  /** With --critic table: the critic and its own optimizer. */
  critic?: { net: TfNet; optimizer: tf.Optimizer };
}

export async function train(opts: TrainOptions, hooks: TrainHooks = {}): Promise<{ metrics: IterationMetrics[]; weights: NetWeights }> {
  checkTrainOptions(opts);
  checkAgents(opts);
  const now = hooks.now ?? (() => performance.now());
  const log = hooks.log ?? (() => {});
  const backend = await initBackend(opts.backend);
  hooks.onBackend?.(backend);
  log(`backend: ${describeBackend(backend)}`);

  // ---- network, optimizer, opponents ----
  const start = hooks.initial;
  const advice = opts.advice === 'none' ? undefined : opts.advice;
  const fresh = () => initWeights({ inputs: netInputs(advice), hidden: opts.hidden, actions: NUM_ACTIONS, ...(advice ? { advice } : {}) }, opts.seed);
  if (start && (start.weights.shape.advice ?? 'none') !== opts.advice) throw new Error(`the starting net reads ${start.weights.shape.advice ?? 'no'} advice, the options say ${opts.advice}`);
  const net = new TfNet(start?.weights ?? fresh(), opts.plainDense);
  const inputs = net.shape.inputs;
  log(`network: ${inputs}${net.shape.advice ? ` (observation ${OBS_SIZE} + ${net.shape.advice}'s advice)` : ''} → ${net.shape.hidden.join(' → ')} → ${NUM_ACTIONS} logits + 1 value (${countParams(net.weights())} parameters)`);
  if (!start && opts.imitate !== '' && opts.imitateSteps > 0) {
    const r = imitate(net, {
      teacher: opts.imitate, decisions: opts.imitateSteps, players: opts.players, seed: `${opts.seed}`, ruleset: opts.ruleset, reward: opts.reward,
      lr: opts.lr, minibatch: opts.minibatch, vfCoef: opts.vfCoef, chunk: 65536,
    }, log, now);
    log(`warm start: cloned ${r.decisions} ${opts.imitate} decisions in ${r.seconds.toFixed(0)} s (agreement ${(100 * r.agreement).toFixed(1)}% on unseen ones)`);
  }
  const adam = async (saved?: SavedTensor[]) => {
    const o = tf.train.adam(opts.lr, 0.9, 0.999, 1e-5);
    if (saved) await o.setWeights(saved.map((t) => ({ name: t.name, tensor: tf.tensor(t.data, t.shape) })));
    return o;
  };
  const optimizer = await adam(start?.optimizer);
  // The table critic: its own net (the observation and the other seats' hands in, a value out) and optimizer.
  let critic: TrainerState['critic'];
  if (opts.critic === 'table') {
    if (start && start.iteration > 0 && !start.critic) throw new Error('the run has no table critic to resume');
    const weights = start?.critic?.weights ?? initWeights({ inputs: CRITIC_INPUTS, hidden: opts.criticHidden, actions: 1 }, `${opts.seed}/critic`);
    critic = { net: new TfNet(weights), optimizer: await adam(start?.critic?.optimizer) };
    log(`table critic: ${CRITIC_INPUTS} (observation ${OBS_SIZE} + the other seats' hands ${HIDDEN_HANDS_WIDTH}) → ${opts.criticHidden.join(' → ')} → 1 value (${countParams(weights)} parameters)`);
  }
  const snapshots: NetWeights[] = start?.snapshots ? [...start.snapshots] : [];
  const runSeed = start ? `${opts.seed}/resume${start.iteration}` : `${opts.seed}`;
  const chunkBase = { games: opts.numEnvs, players: opts.players, ruleset: opts.ruleset, pool: parsePool(opts.opponents), reward: opts.reward };
  const source = hooks.rollouts ?? new LocalRollouts();
  /** Iterations whose chunks are asked for (ahead by up to `staleness`). */
  const pending = new Map<number, IterationChunks>();
  const buffer = new RolloutBuffer(opts.rolloutSteps + 64 * opts.numEnvs, inputs, critic !== undefined);
  /** With a table critic: its values and returns, by row. */
  let criticValue = new Float32Array(0);
  let criticRet = new Float32Array(0);
  const rng = seedRng(`ppo/${runSeed}`);

  let iteration = start?.iteration ?? 0;
  let steps = start?.steps ?? 0;
  const t0 = now() - (start?.seconds ?? 0) * 1000;
  const metrics: IterationMetrics[] = [];
  const progress = () => Math.max(steps / opts.totalSteps, opts.minutes > 0 ? (now() - t0) / 60000 / opts.minutes : 0);

  try {
    while (progress() < 1 && !hooks.shouldStop?.()) {
      iteration++;
      const lr = opts.constantLr ? opts.lr : opts.lr * Math.max(0.02, 1 - progress());
      (optimizer as unknown as { learningRate: number }).learningRate = lr;
      if (critic) (critic.optimizer as unknown as { learningRate: number }).learningRate = lr;

      // ---- rollout ----
      const tRoll = now();
      // Chunks are asked for with the policy as it is now: this iteration's at the start, and,
      // with staleness s, those of the s iterations after it (played while this one trains).
      for (let j = iteration; j <= iteration + opts.staleness; j++) {
        if (pending.has(j)) continue;
        const version = iteration - 1;
        const snaps = snapshots.length;
        pending.set(j, source.start({
          iteration: j, version, weights: net.weights(), snapshots: [...snapshots],
          spec: (k): ChunkSpec => ({ ...chunkBase, snapshots: snaps, seed: `${runSeed}/${j}/${k}` }),
        }));
      }
      const chunks = pending.get(iteration)!;
      pending.delete(iteration);
      const rolloutVersion = chunks.request.version;
      if (rolloutVersion < iteration - 1 - opts.staleness) throw new Error(`iteration ${iteration}'s games were played by policy version ${rolloutVersion}, older than the staleness bound ${opts.staleness} allows`);
      const b = buffer;
      b.clear();
      const tally = new RolloutTally();
      let chunkCount = 0;
      try {
        while (b.size < opts.rolloutSteps) {
          const k = chunkCount++;
          // Games in order until the batch is full: the last chunk's later games are not used.
          replayChunk(chunks.request.spec(k), await chunks.chunk(k), b, opts.gamma, opts.lambda, tally, opts.rolloutSteps, net.shape);
        }
      } finally {
        chunks.close();
      }
      const roll = tally.stats();
      const rollSecs = (now() - tRoll) / 1000;
      const n = b.size;

      // ---- advantages from the table critic ----
      // Its values replace the value head's as the baseline: the policy's advantages come from
      // a critic that knew the other hands; the value head still learns its own returns.
      if (critic) {
        if (criticValue.length < n) {
          criticValue = new Float32Array(b.obs.length / inputs);
          criticRet = new Float32Array(criticValue.length);
        }
        criticValue.set(criticValues(critic.net, b, n, inputs));
        for (const e of b.episodes) episodeGae(e.rows, e.reward, criticValue, opts.gamma, opts.lambda, b.adv, criticRet);
      }

      // ---- update ----
      const tUpd = now();
      const mb = Math.min(opts.minibatch, n);
      const xs = new Float32Array(mb * inputs);
      const ms = new Float32Array(mb * NUM_ACTIONS);
      const acts = new Int32Array(mb);
      const oldLogp = new Float32Array(mb);
      const oldValue = new Float32Array(mb);
      const advs = new Float32Array(mb);
      const rets = new Float32Array(mb);
      const cx = critic ? new Float32Array(mb * CRITIC_INPUTS) : null;
      const cOld = critic ? new Float32Array(mb) : null;
      const cRets = critic ? new Float32Array(mb) : null;
      // The batch is the buffer's first n rows, shuffled each epoch.
      const order = Array.from({ length: n }, (_, r) => r);
      const sums = { pg: 0, v: 0, cv: 0, ent: 0, kl: 0, clip: 0, count: 0 };
      let epochsRun = 0;
      let samples = 0;
      for (let epoch = 0; epoch < opts.epochs; epoch++) {
        shuffle(rng, order);
        let epochKl = 0;
        let batches = 0;
        for (let s = 0; s + mb <= n; s += mb) {
          // Gather the minibatch; advantages are normalised within it.
          let mean = 0;
          for (let j = 0; j < mb; j++) {
            const r = order[s + j];
            gatherRow(b.obs, b.mask, r, xs, ms, j, inputs, NUM_ACTIONS);
            acts[j] = b.action[r];
            oldLogp[j] = b.logp[r];
            oldValue[j] = b.value[r];
            advs[j] = b.adv[r];
            rets[j] = b.ret[r];
            if (cx) {
              criticRow(b, r, inputs, cx, j);
              cOld![j] = criticValue[r];
              cRets![j] = criticRet[r];
            }
            mean += advs[j];
          }
          mean /= mb;
          let sq = 0;
          for (let j = 0; j < mb; j++) sq += (advs[j] - mean) ** 2;
          const sd = Math.sqrt(sq / mb) + 1e-8;
          for (let j = 0; j < mb; j++) advs[j] = (advs[j] - mean) / sd;

          const stats = tf.tidy(() => {
            const x = tf.tensor2d(xs, [mb, inputs]);
            const m = tf.tensor2d(ms, [mb, NUM_ACTIONS]);
            const onehot = tf.oneHot(tf.tensor1d(acts, 'int32'), NUM_ACTIONS);
            const lpOld = tf.tensor1d(oldLogp);
            const vOld = tf.tensor1d(oldValue);
            const adv = tf.tensor1d(advs);
            const ret = tf.tensor1d(rets);
            const aux: { t?: tf.Tensor } = {};
            const { grads } = tf.variableGrads(() => {
              const { logits, value } = net.forward(x, m);
              const logp = tf.logSoftmax(logits);
              const newLogp = tf.sum(tf.mul(logp, onehot), 1);
              const logRatio = tf.sub(newLogp, lpOld);
              const ratio = tf.exp(logRatio);
              // Clipped surrogate objective.
              const pg = tf.neg(tf.mean(tf.minimum(tf.mul(ratio, adv), tf.mul(tf.clipByValue(ratio, 1 - opts.clip, 1 + opts.clip), adv))));
              // Clipped value loss.
              const vClipped = tf.add(vOld, tf.clipByValue(tf.sub(value, vOld), -opts.clip, opts.clip));
              const vLoss = tf.mul(0.5, tf.mean(tf.maximum(tf.square(tf.sub(value, ret)), tf.square(tf.sub(vClipped, ret)))));
              // Entropy over the legal actions (illegal ones have probability exactly 0).
              const entropy = tf.mean(tf.neg(tf.sum(tf.mul(tf.exp(logp), logp), 1)));
              const kl = tf.mean(tf.sub(tf.sub(ratio, 1), logRatio));
              const clipped = tf.mean(tf.cast(tf.greater(tf.abs(tf.sub(ratio, 1)), opts.clip), 'float32'));
              aux.t = tf.keep(tf.stack([pg, vLoss, entropy, kl, clipped]));
              return tf.add(tf.sub(pg, tf.mul(opts.entCoef, entropy)), tf.mul(opts.vfCoef, vLoss)) as tf.Scalar;
            }, net.vars);
            // Global gradient-norm clipping.
            const names = Object.keys(grads);
            const norm = tf.sqrt(tf.addN(names.map((k) => tf.sum(tf.square(grads[k])))));
            const scale = tf.minimum(1, tf.div(opts.maxGradNorm, tf.add(norm, 1e-6)));
            optimizer.applyGradients(names.map((k) => ({ name: k, tensor: tf.mul(grads[k], scale) })));
            return aux.t!;
          });
          const [pg, v, ent, kl, clipped] = stats.dataSync();
          stats.dispose();
          if (critic) sums.cv += criticStep(critic, cx!, cOld!, cRets!, mb, opts);
          sums.pg += pg;
          sums.v += v;
          sums.ent += ent;
          sums.kl += kl;
          sums.clip += clipped;
          sums.count++;
          epochKl += kl;
          batches++;
          samples += mb;
        }
        epochsRun++;
        if (opts.targetKl > 0 && batches > 0 && epochKl / batches > opts.targetKl) break;
      }
      const updSecs = (now() - tUpd) / 1000;
      steps += n;

      // ---- snapshots for `past` ----
      if (iteration % opts.snapshotEvery === 0) {
        snapshots.push(net.weights());
        if (snapshots.length > opts.maxSnapshots) snapshots.shift();
      }

      // ---- logging ----
      const c = Math.max(1, sums.count);
      const m: IterationMetrics = {
        iteration,
        steps,
        envSteps: roll.envSteps,
        seconds: (now() - t0) / 1000,
        lr,
        policyLoss: sums.pg / c,
        valueLoss: sums.v / c,
        entropy: sums.ent / c,
        approxKl: sums.kl / c,
        clipFraction: sums.clip / c,
        explainedVariance: explainedVariance(b.value.subarray(0, n), b.ret.subarray(0, n)),
        ...(critic ? { criticLoss: sums.cv / c, criticExplainedVariance: explainedVariance(criticValue.subarray(0, n), criticRet.subarray(0, n)) } : {}),
        epochsRun,
        rolloutVersion,
        chunks: chunkCount,
        games: roll.games,
        meanReturn: roll.meanReturn,
        winShare: roll.winShare,
        winShareVs: roll.winShareVs,
        rolloutStepsPerSec: roll.envSteps / rollSecs,
        updateSamplesPerSec: samples / updSecs,
      };
      metrics.push(m);
      await hooks.onIteration?.(m, { net, optimizer, snapshots, critic });
      // Let the event loop run (signals, timers): the loop is otherwise all synchronous work.
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    // Chunks asked for ahead of a run that ends are not wanted.
    for (const c of pending.values()) c.close();
  }
  await hooks.onEnd?.();
  const weights = net.weights();
  net.dispose();
  optimizer.dispose();
  critic?.net.dispose();
  critic?.optimizer.dispose();
  return { metrics, weights };
}

/** The table critic's input: the seat's observation (its row's first OBS_SIZE floats, without the advice) and the hidden hands. */
export const CRITIC_INPUTS = OBS_SIZE + HIDDEN_HANDS_WIDTH;

function criticRow(b: RolloutBuffer, r: number, inputs: number, out: Float32Array, j: number): void {
  out.set(b.obs.subarray(r * inputs, r * inputs + OBS_SIZE), j * CRITIC_INPUTS);
  out.set(b.hidden.subarray(r * HIDDEN_HANDS_WIDTH, (r + 1) * HIDDEN_HANDS_WIDTH), j * CRITIC_INPUTS + OBS_SIZE);
}

/** The critic's values of the batch's n rows, a few thousand rows a pass. */
function criticValues(net: TfNet, b: RolloutBuffer, n: number, inputs: number): Float32Array {
  const out = new Float32Array(n);
  const block = 4096;
  const x = new Float32Array(block * CRITIC_INPUTS);
  for (let s = 0; s < n; s += block) {
    const k = Math.min(block, n - s);
    for (let j = 0; j < k; j++) criticRow(b, s + j, inputs, x, j);
    const v = tf.tidy(() => net.forward(tf.tensor2d(x.subarray(0, k * CRITIC_INPUTS), [k, CRITIC_INPUTS])).value);
    out.set(v.dataSync() as Float32Array, s);
    v.dispose();
  }
  return out;
}

/** One step of the critic on a minibatch: the value loss clipped as the value head's is, its own gradient-norm clip; returns the loss. */
function criticStep(critic: NonNullable<TrainerState['critic']>, xs: Float32Array, old: Float32Array, rets: Float32Array, mb: number, opts: TrainOptions): number {
  const loss = tf.tidy(() => {
    const x = tf.tensor2d(xs, [mb, CRITIC_INPUTS]);
    const vOld = tf.tensor1d(old);
    const ret = tf.tensor1d(rets);
    const aux: { t?: tf.Tensor } = {};
    const { grads } = tf.variableGrads(() => {
      const { value } = critic.net.forward(x);
      const vClipped = tf.add(vOld, tf.clipByValue(tf.sub(value, vOld), -opts.clip, opts.clip));
      const vLoss = tf.mul(0.5, tf.mean(tf.maximum(tf.square(tf.sub(value, ret)), tf.square(tf.sub(vClipped, ret))))) as tf.Scalar;
      aux.t = tf.keep(vLoss);
      return vLoss;
    }, critic.net.vars);
    const names = Object.keys(grads);
    const norm = tf.sqrt(tf.addN(names.map((k) => tf.sum(tf.square(grads[k])))));
    const scale = tf.minimum(1, tf.div(opts.maxGradNorm, tf.add(norm, 1e-6)));
    critic.optimizer.applyGradients(names.map((k) => ({ name: k, tensor: tf.mul(grads[k], scale) })));
    return aux.t!;
  });
  const v = loss.dataSync()[0];
  loss.dispose();
  return v;
}
