/**
 * A training run on disk, around the algorithm in ppo.ts. The run directory, named like
 * CleanRL's `{env}__{algo}__{seed}__{time}` (`czechpub__ppo__1__1764432000`), holds:
 *
 * | file           | what                                                                  |
 * |----------------|-----------------------------------------------------------------------|
 * | options.json   | every option (options.ts), the env spec, the backend, the command line |
 * | metrics.jsonl  | one line per iteration (`"kind":"iteration"`) and per evaluation (`"kind":"eval"`) |
 * | model.json     | the latest policy checkpoint (`ppo:<dir>/model.json` plays it)         |
 * | trainer.json   | what --resume needs beyond the policy: optimizer moments, snapshots    |
 * | curve.svg      | evaluation win rates (95% bands) and training win share against steps |
 *
 * Checkpoints are written atomically every `checkpointEvery` iterations and when the run
 * ends or is stopped. A resumed run reads options.json and the two checkpoints and goes on
 * appending to the same files; its sampling is reseeded from the iteration it resumes at, so
 * it is deterministic but not identical to an uninterrupted run.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { envSpec } from '../env/index.ts';
import {
  decodeFloats, decodeWeights, encodeFloats, encodeWeights, loadCheckpoint, saveCheckpoint, withAdvice, writeFileAtomic, type Adviser,
  type EncodedWeights, type NetWeights,
} from '../policy/index.ts';
import { describeBackend } from './backend.ts';
import { curveSvg, type CurvePoint } from './curve.ts';
import { evaluatePolicy, type EvalResult, type GamesRunner } from './evaluate.ts';
import { measuresNashConv, NashConvMeter, type NashConvPoint } from './nashconv.ts';
import { fromOptionsJson, type TrainOptions } from './options.ts';
import { CRITIC_INPUTS, train, type IterationMetrics, type SavedTensor, type TrainerState, type TrainHooks } from './ppo.ts';
import type { RolloutSource } from './rollouts.ts';

export interface RunEvents {
  log?(line: string): void;
  /** Plays the evaluations' games (the job queue's runner: on workers); default in this thread. */
  evalRunner?: GamesRunner;
  /** Plays the rollouts' chunks (the job queue's source: on workers); default in this thread. */
  rollouts?: RolloutSource;
  iteration?(m: IterationMetrics, latestEval: EvalResult[] | null): void;
  /** Also keep a copy of the policy each time this many more seconds of training have passed (kept/ in the run directory). */
  keepEvery?: number;
  shouldStop?(): boolean;
  /** The training's clock in milliseconds (its seconds, the --minutes budget, kept copies): performance.now when absent. */
  now?(): number;
}

const TRAINER_FORMAT = 'czech-pub-gym/trainer-state';

/** A resumed run that is already at or past the budget asked for: nothing would be trained. */
export class NothingToTrainError extends Error {
  override name = 'NothingToTrainError';
}

function runName(seed: number, time: number): string {
  return `czechpub__ppo__${seed}__${Math.floor(time / 1000)}`;
}

function decodeSaved(saved: { name: string; shape: number[]; data: string }[]): SavedTensor[] {
  return saved.map((t) => ({ name: t.name, shape: t.shape, data: decodeFloats(t.data) }));
}

function encodeTensor(t: tf.Tensor): { shape: number[]; data: string } {
  return { shape: t.shape, data: encodeFloats(t.dataSync() as Float32Array) };
}

/** Reads a run directory's options for --resume (older runs' too), with a clear error for anything that is not one. */
export function readRunOptions(dir: string): TrainOptions {
  const file = path.join(dir, 'options.json');
  if (!fs.existsSync(file)) throw new Error(`${dir} is not a training run directory (no options.json)`);
  const j = JSON.parse(fs.readFileSync(file, 'utf8')) as { options?: Record<string, unknown> };
  if (!j.options) throw new Error(`${file} has no options`);
  try {
    return fromOptionsJson(j.options);
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message.split('\n')[0]}`);
  }
}

/**
 * Trains with `o`, writing the run directory. With `resume`, continues the run in that
 * directory (its own options, except the step and time budgets given here).
 */
/** What a run did: its directory, its iterations, and this session's evaluations, each with when it was made. */
export interface RunResult {
  dir: string;
  metrics: IterationMetrics[];
  evals: EvalResult[][];
  /** This session's evaluations (those of a resumed run's earlier sessions are in metrics.jsonl), in order; under the micro ruleset each with its exact NashConv. */
  curve: { iteration: number; steps: number; seconds: number; results: EvalResult[]; nashConv?: NashConvPoint }[];
  /** The policies kept on the way (RunEvents.keepEvery), oldest first. */
  kept: KeptPolicy[];
  /** The backend that ran, as options.json records it. */
  backend: string;
}

/** A copy of the policy kept during a run: a point of a wall-clock curve to evaluate afterwards. */
export interface KeptPolicy {
  file: string;
  iteration: number;
  steps: number;
  seconds: number;
}

/**
 * A policy's duplicate tournament on deals training never saw: it in one seat, P − 1 copies of
 * one opponent, seats rotated (what `exploit` and `recipe` report as their figure).
 */
export interface SeatEvaluation {
  /** The tournament's folder (games.jsonl, results.json, report). */
  folder: string;
  games: number;
  deals: number;
  winRate: number;
  winRateCI: [number, number];
  /** winRate × P: 1 is par. */
  overPar: number;
  overParCI: [number, number];
}

/** One of the trainer's periodic evaluations against one opponent: a learning curve's point, by steps and by wall clock. */
export interface EvalPoint {
  iteration: number;
  steps: number;
  seconds: number;
  winRate: number;
  winRateCI: [number, number];
}

/** Where a measured run's deals come from: training's and its evaluations' (run seed S), and the final evaluation's, which never share a seed. */
export interface SeedPatterns {
  seed: number;
  trainingGames: string;
  trainingEvaluations: string;
  evaluation: string;
}

/** The seed patterns of a run with this seed (training/ppo.ts chunks, env/vector.ts games, training/evaluate.ts) and a final evaluation seeded `evaluation`. */
export function seedPatterns(seed: number, evaluation: string): SeedPatterns {
  return { seed, trainingGames: `${seed}/<iteration>/<chunk>/<game>/<episode>`, trainingEvaluations: `${seed}/eval/<deal>`, evaluation: `${evaluation}/<deal>` };
}

/** What a run trained: its wall clock, learner decisions, games and iterations (this session's). */
export interface TrainingSummary {
  seconds: number;
  steps: number;
  games: number;
  iterations: number;
}

export function trainingSummary(r: RunResult): TrainingSummary {
  const last = r.metrics[r.metrics.length - 1];
  return { seconds: last?.seconds ?? 0, steps: last?.steps ?? 0, games: r.metrics.reduce((s, m) => s + m.games, 0), iterations: r.metrics.length };
}

/** A run's learning curve against `opponent` (one of its evaluation opponents). */
export function curveAgainst(r: RunResult, opponent: string): EvalPoint[] {
  return r.curve.map((c) => {
    const e = c.results.find((x) => x.opponent === opponent);
    if (!e) throw new Error(`the run was not evaluated against ${opponent}`);
    return { iteration: c.iteration, steps: c.steps, seconds: c.seconds, winRate: e.winRate, winRateCI: e.winRateCI };
  });
}

export async function runTraining(o: TrainOptions, events: RunEvents = {}, resume?: string, argv: string[] = []): Promise<RunResult> {
  const log = events.log ?? (() => {});
  const started = Date.now();
  let dir: string;
  let initial: TrainHooks['initial'];
  if (resume) {
    dir = resume;
    const model = loadCheckpoint(path.join(dir, 'model.json'), o.ruleset, 'resume');
    const stateFile = path.join(dir, 'trainer.json');
    if (!fs.existsSync(stateFile)) throw new Error(`${dir} has no trainer.json to resume from`);
    const st = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
    if (st.format !== TRAINER_FORMAT) throw new Error(`${stateFile} is not a trainer state file`);
    if (st.iteration !== model.iteration) throw new Error(`${dir}: model.json (iteration ${model.iteration}) and trainer.json (iteration ${st.iteration}) disagree`);
    if (o.minutes === 0 && model.steps >= o.totalSteps) {
      throw new NothingToTrainError(`the run in ${dir} is already at ${model.steps} learner decisions, at or past its budget of ${o.totalSteps}: nothing to train; give a larger total with --total-steps (more than ${model.steps}) or --minutes`);
    }
    if (o.minutes > 0 && st.seconds >= o.minutes * 60) {
      throw new NothingToTrainError(`the run in ${dir} has already trained for ${(st.seconds / 60).toFixed(1)} minutes, at or past its budget of ${o.minutes}: nothing to train; give a larger --minutes or --total-steps`);
    }
    initial = {
      weights: model.weights,
      iteration: model.iteration,
      steps: model.steps,
      seconds: st.seconds,
      optimizer: decodeSaved(st.optimizer),
      snapshots: st.snapshots.map((s: EncodedWeights, i: number) => decodeWeights(s, `${stateFile} snapshot ${i}`)),
      ...(st.critic ? { critic: { weights: decodeWeights(st.critic.weights, `${stateFile} critic`, CRITIC_INPUTS), optimizer: decodeSaved(st.critic.optimizer) } } : {}),
    };
    log(`resuming ${dir} at iteration ${model.iteration} (${model.steps} steps)`);
  } else {
    if (o.init !== '') {
      // Fine-tuning: the checkpoint's weights (trained under these rules), a fresh optimizer and count.
      const from = loadCheckpoint(o.init, o.ruleset, 'play');
      const widen = o.advice !== 'none' && !from.weights.shape.advice;
      initial = { weights: widen ? withAdvice(from.weights, o.advice as Adviser) : from.weights, iteration: 0, steps: 0, seconds: 0 };
      log(`starting from the weights of ${o.init} (${from.steps} learner decisions, iteration ${from.iteration})${widen ? `, reading ${o.advice}'s advice from now on` : ''}`);
    }
    dir = path.join(o.out, runName(o.seed, started));
    fs.mkdirSync(dir, { recursive: true });
  }
  const metricsFile = path.join(dir, 'metrics.jsonl');
  const evalHistory: { steps: number; results: EvalResult[] }[] = [];
  const trainHistory: CurvePoint[] = [];
  if (resume && fs.existsSync(metricsFile)) {
    for (const line of fs.readFileSync(metricsFile, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const j = JSON.parse(line);
      if (j.kind === 'eval') evalHistory.push({ steps: j.steps, results: j.results });
      if (j.kind === 'iteration') trainHistory.push({ steps: j.steps, value: j.winShare });
    }
  }
  const opponents = o.evalOpponents;
  const evals: EvalResult[][] = [];
  const curve: RunResult['curve'] = [];
  const latestEval = () => evals[evals.length - 1] ?? null;
  let backendName = '';

  const writeOptions = () =>
    writeFileAtomic(path.join(dir, 'options.json'), JSON.stringify({ options: o, env: envSpec(o.ruleset), backend: backendName, command: argv, startedAt: new Date(started).toISOString() }, null, 2));

  const checkpoint = async (m: IterationMetrics, st: TrainerState) => {
    // trainer.json first: a crash between the two leaves model.json older, which resume detects.
    const saved = async (o: tf.Optimizer) => (await o.getWeights()).map((t) => ({ name: t.name, ...encodeTensor(t.tensor) }));
    const optimizer = await saved(st.optimizer);
    const critic = st.critic ? { weights: encodeWeights(st.critic.net.weights()), optimizer: await saved(st.critic.optimizer) } : undefined;
    writeFileAtomic(path.join(dir, 'trainer.json'), JSON.stringify({ format: TRAINER_FORMAT, iteration: m.iteration, seconds: m.seconds, optimizer, snapshots: st.snapshots.map(encodeWeights), critic }));
    savePolicy(path.join(dir, 'model.json'), m, st);
  };
  const savePolicy = (file: string, m: IterationMetrics, st: TrainerState) =>
    saveCheckpoint(file, {
      // The ruleset once, at the top: the checkpoint's env spec is made from it.
      ruleset: o.ruleset, players: o.players, iteration: m.iteration, steps: m.steps, options: { ...o, ruleset: undefined }, createdAt: new Date().toISOString(),
      metrics: { ...m, eval: latestEval() }, weights: st.net.weights(),
    });
  // Policies kept on the way (events.keepEvery): kept/model-<seconds>s.json, the first once that much time has passed.
  const kept: KeptPolicy[] = [];
  let nextKeep = events.keepEvery ?? Infinity;
  const keep = (m: IterationMetrics, st: TrainerState) => {
    if (m.seconds < nextKeep) return;
    while (nextKeep <= m.seconds) nextKeep += events.keepEvery!;
    const file = path.join(dir, 'kept', `model-${Math.round(m.seconds)}s.json`);
    savePolicy(file, m, st);
    kept.push({ file, iteration: m.iteration, steps: m.steps, seconds: m.seconds });
  };

  // Under the micro ruleset, every evaluation also measures the net's exact NashConv (the tree is walked at the first).
  const nashConvMeter = measuresNashConv(o.ruleset) ? new NashConvMeter(o.ruleset, o.players, o.reward) : null;
  const evaluate = async (m: IterationMetrics, weights: NetWeights) => {
    const results: EvalResult[] = [];
    for (const opp of opponents) results.push(await evaluatePolicy(weights, opp, o.evalDeals, o.players, `${o.seed}`, o.ruleset, events.evalRunner));
    const nashConv = nashConvMeter?.measure(weights);
    evals.push(results);
    curve.push({ iteration: m.iteration, steps: m.steps, seconds: m.seconds, results, ...(nashConv ? { nashConv } : {}) });
    evalHistory.push({ steps: m.steps, results });
    fs.appendFileSync(metricsFile, `${JSON.stringify({ kind: 'eval', iteration: m.iteration, steps: m.steps, results, ...(nashConv ? { nashConv } : {}) })}\n`);
    const exact = nashConv ? `; NashConv (${o.reward} payoff) ${nashConv.sampled.toFixed(4)} sampled, ${nashConv.argmax.toFixed(4)} argmax` : '';
    log(`eval at ${m.steps} steps: ${results.map((r) => `vs ${r.opponent} ${(100 * r.winRate).toFixed(1)}% (${(100 * r.winRateCI[0]).toFixed(1)}–${(100 * r.winRateCI[1]).toFixed(1)})`).join(', ')}${exact}`);
    writeCurve();
  };

  const writeCurve = () => {
    const series: { name: string; points: CurvePoint[] }[] = opponents.map((opp) => ({
      name: `eval vs ${opp}`,
      points: evalHistory.flatMap((e) => e.results.filter((r) => r.opponent === opp).map((r) => ({ steps: e.steps, value: r.winRate, lo: r.winRateCI[0], hi: r.winRateCI[1] }))),
    }));
    series.push({ name: 'training win share', points: trainHistory });
    fs.writeFileSync(path.join(dir, 'curve.svg'), curveSvg(`PPO self-play, ${o.players} players (seed ${o.seed})`, series, 1 / o.players));
  };

  let last: { m: IterationMetrics; st: TrainerState } | null = null;
  const result = await train(o, {
    initial,
    log,
    onBackend: (b) => {
      backendName = describeBackend(b);
      writeOptions();
    },
    shouldStop: events.shouldStop,
    rollouts: events.rollouts,
    ...(events.now ? { now: events.now } : {}),
    onIteration: async (m, st) => {
      last = { m, st };
      fs.appendFileSync(metricsFile, `${JSON.stringify({ kind: 'iteration', ...m })}\n`);
      trainHistory.push({ steps: m.steps, value: m.winShare });
      if (o.evalEvery > 0 && m.iteration % o.evalEvery === 0) await evaluate(m, st.net.weights());
      if (m.iteration % o.checkpointEvery === 0) await checkpoint(m, st);
      keep(m, st);
      events.iteration?.(m, latestEval());
    },
    onEnd: async () => {
      if (!last) return;
      const { m, st } = last;
      const evalNow = o.evalEvery === 0 || m.iteration % o.evalEvery !== 0;
      if (evalNow) await evaluate(m, st.net.weights());
      // The last iteration's checkpoint is already written unless an evaluation has come since.
      if (evalNow || m.iteration % o.checkpointEvery !== 0) await checkpoint(m, st);
    },
  });
  return { dir, metrics: result.metrics, evals, curve, kept, backend: backendName };
}
