/**
 * Expert iteration's learning half: a policy net is trained on what a search chose. The search
 * (`ppo-search` on the current policy) plays tournament games, whose games.jsonl lines hold
 * every action; this module replays them, rebuilds the searching seat's net input at each of
 * its real choices (agents/ppo/input.ts, as the `ppo` agent will read them) and trains the
 * policy head by cross-entropy to a label and the value head to the seat's final reward. The
 * label is the search's choice (`choice`), or (`values`) a distribution over its candidates
 * made from the values its looks found, read from the search's transcript (`SearchLine`):
 * each candidate's prior weighted by exp(β·z), z its paired difference from the policy's choice
 * in standard errors (clipped to ±3), so a departure the search was sure of moves the policy a
 * long way and one within the noise hardly at all. Nothing but the games' seeds and actions is stored between the two halves, so a round's
 * data is a tournament folder any tool can read, and a stopped round resumes as a tournament does.
 *
 * Overfitting is watched, not guessed: a tenth of the games (by a seeded draw) is held out, and
 * the epoch kept is the one whose most likely actions agree most often with the search's there
 * (the `ppo` agent plays its most likely action), the starting net included. Held-out loss
 * alone misleads here: the cross-entropy falls as a sharp net grows less sure of itself, while
 * its most likely action agrees less (the first 4-player round: loss 0.80 → 0.62, agreement
 * 83.4% → 81.6%).
 */
import * as tf from '@tensorflow/tfjs-core';
import fs from 'node:fs';
import { CzechPubEnv, NUM_ACTIONS, seedRng, shuffle, terminalRewards, type RewardScheme, type Ruleset } from '../env/index.ts';
import { agentSeed, SeatInput, type SearchLine } from '../agents/index.ts';
import { argmaxMasked, JsNet, type NetShape, type NetWeights } from '../policy/index.ts';
import { gatherRow, TfNet } from './net.ts';

/** One finished game as a tournament writes it (games.jsonl): enough to replay it. */
export interface PlayedGame {
  seed: string;
  /** seating[seat] = the entry (agent index) playing that seat. */
  seating: number[];
  scores: number[];
  actions: number[];
}

/** The teacher's decisions of a set of games, as rows of net inputs with their targets. */
export interface DistillData {
  n: number;
  width: number;
  obs: Float32Array;
  mask: Uint8Array;
  /** What the teacher played. */
  action: Int32Array;
  /** Per row, the label: a distribution over the actions (one-hot on `action` for `choice` labels). */
  target: Float32Array;
  /** Rows whose label came from a search line (the rest are one-hot on the choice). */
  valueLabelled: number;
  /** The teacher seat's final reward (the value head's target). */
  ret: Float32Array;
  /** The game each row came from (an index into the games given), for a held-out split by game. */
  game: Int32Array;
}

/** A game whose replay does not give the scores it recorded (another engine or rules): refused, never trained on. */
export class ReplayMismatchError extends Error {
  override name = 'ReplayMismatchError';
}

/** How the teacher's decisions are labelled: its choice, or its candidates' values from its search lines. */
export const LABELS = ['choice', 'values'] as const;
export type Labels = (typeof LABELS)[number];

/** The z-score clip of a value label: beyond three standard errors a difference is sure enough. */
const Z_CLIP = 3;

/**
 * A value label: over the search's candidates, prior × exp(beta · z), z the candidate's paired
 * difference from the policy's choice in standard errors (0 for the choice itself and where
 * fewer than two worlds were shared), clipped to ±Z_CLIP; zero elsewhere. Written to `out`.
 */
export function valueLabel(line: SearchLine, beta: number, out: Float32Array, offset = 0): void {
  out.fill(0, offset, offset + NUM_ACTIONS);
  const z = (c: SearchLine['candidates'][number]) => {
    if (c.diff === null || c.se === null) return 0;
    if (c.se === 0) return c.diff === 0 ? 0 : Math.sign(c.diff) * Z_CLIP;
    return Math.max(-Z_CLIP, Math.min(Z_CLIP, c.diff / c.se));
  };
  let total = 0;
  for (const c of line.candidates) total += out[offset + c.a] = c.p * Math.exp(beta * z(c));
  for (const c of line.candidates) out[offset + c.a] /= total;
}

/** The key of a search's decision: the agent's game seed, its seat, the index of its decision. */
const lineKey = (game: string, seat: number, decision: number) => `${game}\u0000${seat}\u0000${decision}`;

/** A search transcript's lines by decision (a line cut off by a crash is skipped; a decision searched twice, by a resumed run, keeps its last). */
export function readSearchLines(file: string): Map<string, SearchLine> {
  const lines = new Map<string, SearchLine>();
  if (!fs.existsSync(file)) return lines;
  for (const text of fs.readFileSync(file, 'utf8').split('\n')) {
    if (text.trim() === '') continue;
    let l: SearchLine;
    try {
      l = JSON.parse(text) as SearchLine;
    } catch {
      continue;
    }
    lines.set(lineKey(l.game, l.seat, l.decision), l);
  }
  return lines;
}

/** How rows are labelled: with `values`, from these search lines (rows without one fall back to the choice). */
export interface LabelSource {
  labels: Labels;
  lines?: Map<string, SearchLine>;
  beta?: number;
}

/**
 * Replays `games` and collects, for every seat played by entry `teacher`, its decisions with a
 * real choice (more than one legal action: the only ones an agent is asked): the net's input
 * for `shape`, the legal mask, the action played, its label and the seat's terminal reward
 * under `reward`.
 */
export function teacherDecisions(
  games: readonly PlayedGame[], teacher: number, shape: NetShape, players: number, reward: RewardScheme, ruleset?: Ruleset,
  label: LabelSource = { labels: 'choice' },
): DistillData {
  const width = shape.inputs;
  const rows: { obs: Float32Array; mask: Uint8Array; action: number; seat: number; game: number; line: SearchLine | null }[] = [];
  const rets: number[][] = [];
  games.forEach((g, gi) => {
    if (g.seating.length !== players) throw new ReplayMismatchError(`game ${g.seed} has ${g.seating.length} seats, not ${players}`);
    const env = new CzechPubEnv({ seed: g.seed, players, ruleset, log: false });
    // The seed the game gave the agent of each seat (eval/game.ts): the adviser then breaks ties as it did, and search lines are found by it.
    const seeds = g.seating.map((_, seat) => agentSeed(g.seed, seat));
    const inputs = g.seating.map((entry, seat) => {
      if (entry !== teacher) return null;
      const input = new SeatInput(shape);
      input.reset(seat, players, seeds[seat], ruleset);
      return input;
    });
    const asked = g.seating.map(() => 0);
    for (const a of g.actions) {
      if (env.done) throw new ReplayMismatchError(`game ${g.seed} goes on after its end`);
      const legal = env.legalActions();
      if (!legal.includes(a)) throw new ReplayMismatchError(`game ${g.seed}: action ${a} is not legal at step ${env.actions.length}`);
      const seat = env.actor;
      const input = inputs[seat];
      if (input && legal.length > 1) {
        const obs = new Float32Array(width);
        input.writeEnv(env, seat, legal, obs);
        const mask = new Uint8Array(NUM_ACTIONS);
        env.legalMask(mask);
        const line = label.labels === 'values' ? label.lines?.get(lineKey(seeds[seat], seat, asked[seat])) ?? null : null;
        if (line && line.action !== a) throw new ReplayMismatchError(`game ${g.seed}: the search's line for seat ${seat}'s decision ${asked[seat]} played ${line.action}, the game ${a}`);
        asked[seat]++;
        rows.push({ obs, mask, action: a, seat, game: gi, line });
      }
      env.step(a);
    }
    const scores = env.scores();
    if (!env.done || scores.some((s, i) => s !== g.scores[i])) {
      throw new ReplayMismatchError(`game ${g.seed} replays to scores ${scores.join(',')}, not its recorded ${g.scores.join(',')}: it was played by another engine version or under other rules`);
    }
    rets.push(terminalRewards(reward, scores));
  });
  const n = rows.length;
  const d: DistillData = {
    n, width, obs: new Float32Array(n * width), mask: new Uint8Array(n * NUM_ACTIONS), action: new Int32Array(n), target: new Float32Array(n * NUM_ACTIONS),
    valueLabelled: 0, ret: new Float32Array(n), game: new Int32Array(n),
  };
  rows.forEach((r, i) => {
    d.obs.set(r.obs, i * width);
    d.mask.set(r.mask, i * NUM_ACTIONS);
    d.action[i] = r.action;
    if (r.line) {
      valueLabel(r.line, label.beta ?? 1, d.target, i * NUM_ACTIONS);
      d.valueLabelled++;
    } else {
      d.target[i * NUM_ACTIONS + r.action] = 1;
    }
    d.ret[i] = rets[r.game][r.seat];
    d.game[i] = r.game;
  });
  return d;
}

/** The share of rows where the policy's most likely legal action is the teacher's. */
export function agreement(weights: NetWeights, d: DistillData, rows: ArrayLike<number> = Array.from({ length: d.n }, (_, i) => i)): number {
  if (rows.length === 0) return NaN;
  const net = new JsNet(weights);
  const logits = new Float32Array(NUM_ACTIONS);
  let same = 0;
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k];
    const mask = d.mask.subarray(i * NUM_ACTIONS, (i + 1) * NUM_ACTIONS);
    net.forward(d.obs.subarray(i * d.width, (i + 1) * d.width), mask, logits);
    if (argmaxMasked(logits, mask, 0, NUM_ACTIONS) === d.action[i]) same++;
  }
  return same / rows.length;
}

export interface FitOptions {
  epochs: number;
  lr: number;
  minibatch: number;
  vfCoef: number;
  /** Share of the games held out to choose the epoch. */
  holdout: number;
  seed: string;
}

export interface EpochMetrics {
  epoch: number;
  /** Mean training loss terms over the epoch's minibatches. */
  policyLoss: number;
  valueLoss: number;
  /** On the held-out games: cross-entropy to the teacher, value error, and agreement of the argmax. */
  heldOutPolicyLoss: number;
  heldOutValueLoss: number;
  heldOutAgreement: number;
}

export interface FitResult {
  /** The kept weights: the epoch's with the highest held-out agreement, then the lowest held-out loss (epoch 0: the start, if no epoch beat it). */
  weights: NetWeights;
  best: number;
  epochs: EpochMetrics[];
  trainRows: number;
  heldOutRows: number;
  /** Held-out agreement of the starting net. */
  startAgreement: number;
  seconds: number;
}

/** Splits rows into training and held-out sets by game: a game's decisions are all on one side. */
export function splitByGame(d: DistillData, holdout: number, seed: string): { train: number[]; held: number[] } {
  const games = Math.max(0, ...Array.from(d.game)) + 1;
  const order = Array.from({ length: games }, (_, i) => i);
  shuffle(seedRng(`distill-split/${seed}`), order);
  // At least one game held out when any is asked for, and at least one kept for training.
  const count = holdout > 0 && games > 1 ? Math.min(games - 1, Math.max(1, Math.round(holdout * games))) : 0;
  const heldGames = new Set(order.slice(0, count));
  const train: number[] = [];
  const held: number[] = [];
  for (let i = 0; i < d.n; i++) (heldGames.has(d.game[i]) ? held : train).push(i);
  return { train, held };
}

/**
 * Trains `start` on the teacher's rows: Adam, `epochs` passes in a seeded order, the policy by
 * cross-entropy to each row's label (illegal actions masked) and the value by squared error
 * to the final reward; returns the weights of the epoch that agrees most with the teacher on
 * the held-out games (the start's if none does better; the last epoch's with none held out).
 */
export function fitToTeacher(start: NetWeights, d: DistillData, o: FitOptions, log: (line: string) => void = () => {}): FitResult {
  const t0 = performance.now();
  const { train, held } = splitByGame(d, o.holdout, o.seed);
  if (train.length === 0) throw new Error('no training rows: the teacher made no decision with a choice in the games kept for training');
  const net = new TfNet(start);
  const optimizer = tf.train.adam(o.lr, 0.9, 0.999, 1e-5);
  const rng = seedRng(`distill-fit/${o.seed}`);
  const width = d.width;
  const heldOut = () => losses(net, d, held);
  const total = (l: { policy: number; value: number }) => l.policy + o.vfCoef * l.value;
  const startLoss = held.length > 0 ? heldOut() : { policy: NaN, value: NaN };
  const startAgreement = agreement(start, d, held);
  // Better: more held-out agreement, then less held-out loss.
  const better = (a: { agree: number; loss: number }, b: { agree: number; loss: number }) => a.agree > b.agree || (a.agree === b.agree && a.loss < b.loss);
  let best = { epoch: 0, agree: held.length > 0 ? startAgreement : -Infinity, loss: held.length > 0 ? total(startLoss) : Infinity, weights: start };
  const epochs: EpochMetrics[] = [];
  const mb = Math.min(o.minibatch, train.length);
  const batch = newBatch(mb, width);
  const { xs, ms, tgs, rets } = batch;
  for (let e = 1; e <= o.epochs; e++) {
    const order = train.slice();
    shuffle(rng, order);
    let policySum = 0;
    let valueSum = 0;
    let batches = 0;
    for (let s = 0; s + mb <= order.length; s += mb) {
      gatherBatch(d, order, s, mb, batch);
      const [pl, vl] = tf.tidy(() => {
        const x = tf.tensor2d(xs, [mb, width]);
        const m = tf.tensor2d(ms, [mb, NUM_ACTIONS]);
        const target = tf.tensor2d(tgs, [mb, NUM_ACTIONS]);
        const ret = tf.tensor1d(rets);
        let parts: tf.Scalar[] = [];
        optimizer.minimize(() => {
          const { logits, value } = net.forward(x, m);
          const ce = tf.neg(tf.mean(tf.sum(tf.mul(tf.logSoftmax(logits), target), 1))) as tf.Scalar;
          const ve = tf.mul(0.5, tf.mean(tf.square(tf.sub(value, ret)))) as tf.Scalar;
          parts = [tf.keep(ce), tf.keep(ve)];
          return tf.add(ce, tf.mul(o.vfCoef, ve)) as tf.Scalar;
        }, false, net.vars);
        const v = parts.map((t) => t.dataSync()[0]);
        for (const t of parts) t.dispose();
        return v;
      });
      policySum += pl;
      valueSum += vl;
      batches++;
    }
    const h = held.length > 0 ? heldOut() : { policy: NaN, value: NaN };
    const weights = net.weights();
    const m: EpochMetrics = {
      epoch: e, policyLoss: policySum / batches, valueLoss: valueSum / batches,
      heldOutPolicyLoss: h.policy, heldOutValueLoss: h.value, heldOutAgreement: agreement(weights, d, held),
    };
    epochs.push(m);
    log(`epoch ${e}/${o.epochs}: loss ${m.policyLoss.toFixed(4)} (value ${m.valueLoss.toFixed(4)}); held out ${m.heldOutPolicyLoss.toFixed(4)} ` +
      `(value ${m.heldOutValueLoss.toFixed(4)}), agreement ${(100 * m.heldOutAgreement).toFixed(1)}%`);
    // Without held-out games the last epoch is kept.
    const score = held.length > 0 ? { agree: m.heldOutAgreement, loss: total(h) } : { agree: e, loss: 0 };
    if (better(score, best)) best = { epoch: e, ...score, weights };
  }
  optimizer.dispose();
  net.dispose();
  return { weights: best.weights, best: best.epoch, epochs, trainRows: train.length, heldOutRows: held.length, startAgreement, seconds: (performance.now() - t0) / 1000 };
}

/** A minibatch's buffers: inputs, mask biases, the labels and the rewards. */
interface Batch {
  xs: Float32Array;
  ms: Float32Array;
  tgs: Float32Array;
  rets: Float32Array;
}

const newBatch = (n: number, width: number): Batch => ({
  xs: new Float32Array(n * width), ms: new Float32Array(n * NUM_ACTIONS), tgs: new Float32Array(n * NUM_ACTIONS), rets: new Float32Array(n),
});

/** Fills `b` with rows[from … from + n) of `d`. */
function gatherBatch(d: DistillData, rows: readonly number[], from: number, n: number, b: Batch): Batch {
  for (let j = 0; j < n; j++) {
    const r = rows[from + j];
    gatherRow(d.obs, d.mask, r, b.xs, b.ms, j, d.width, NUM_ACTIONS);
    b.tgs.set(d.target.subarray(r * NUM_ACTIONS, (r + 1) * NUM_ACTIONS), j * NUM_ACTIONS);
    b.rets[j] = d.ret[r];
  }
  return b;
}

/** Mean cross-entropy and value error of `net` over `rows`, in batches. */
function losses(net: TfNet, d: DistillData, rows: readonly number[]): { policy: number; value: number } {
  const B = 1024;
  const width = d.width;
  let policy = 0;
  let value = 0;
  for (let s = 0; s < rows.length; s += B) {
    const n = Math.min(B, rows.length - s);
    const { xs, ms, tgs, rets } = gatherBatch(d, rows, s, n, newBatch(n, width));
    const [p, v] = tf.tidy(() => {
      const { logits, value: val } = net.forward(tf.tensor2d(xs, [n, width]), tf.tensor2d(ms, [n, NUM_ACTIONS]));
      const ce = tf.neg(tf.sum(tf.mul(tf.logSoftmax(logits), tf.tensor2d(tgs, [n, NUM_ACTIONS]))));
      const ve = tf.mul(0.5, tf.sum(tf.square(tf.sub(val, tf.tensor1d(rets)))));
      return [ce.dataSync()[0], ve.dataSync()[0]];
    });
    policy += p;
    value += v;
  }
  return { policy: policy / rows.length, value: value / rows.length };
}

