/**
 * `czech-pub train`: PPO self-play (training/). Progress goes to standard error: a bar on a
 * terminal (steps/s, the latest evaluation), a line per iteration otherwise. Ctrl-C stops
 * after the current iteration and still writes the final evaluation and checkpoint.
 */
import { availableParallelism } from 'node:os';
import cliProgress from 'cli-progress';
import { createAgent, rulesetMismatch } from '../agents/index.ts';
import type { Ruleset } from '../env/index.ts';
import { entrySummary, runTournament, type TournamentResult } from '../eval/index.ts';
import {
  CHANGEABLE_ON_RESUME, initBackend, NothingToTrainError, parsePool, readRunOptions, runTraining, TRAIN_OPTIONS, UNBOUNDED_STEPS,
  type BackendChoice, type EvalResult, type IterationMetrics, type PoolEntry, type RunEvents, type SeatEvaluation, type TrainOptionName, type TrainOptions,
} from '../training/index.ts';
import { loadCheckpoint } from '../policy/index.ts';
import { EXIT_FAILURE, EXIT_OK, UsageError, type Io } from './io.ts';
import { loadQueue } from './queue-option.ts';
import { camel, helpText, parseOptions, type CommandSpec } from './options.ts';
import { asUsageError, progress } from './tournament.ts';
import { interrupted, onStopSignals } from './stop-signals.ts';

/** What a resumed run keeps from its own options.json: giving one of these with --resume is refused. */
const FIXED_BY_RUN = (Object.keys(TRAIN_OPTIONS) as TrainOptionName[]).filter((k) => !(CHANGEABLE_ON_RESUME as readonly string[]).includes(k));

export const TRAIN = {
  name: 'train',
  description: `Trains a policy by PPO self-play and writes a run directory (options.json, metrics.jsonl,
model.json, trainer.json, curve.svg). Play the result with --agents ppo:<run dir>/model.json.`,
  // Every option of the run is training/options.ts's; these two are the command's own.
  options: {
    ...TRAIN_OPTIONS,
    resume: {
      type: 'string', arg: 'DIR', conflicts: FIXED_BY_RUN, conflictWhy: 'continues a run with its own options',
      help: 'continue the run in DIR with its own options; --total-steps or --minutes sets the new total',
    },
    queue: {
      type: 'string', arg: 'URL',
      help: "play the rollouts and evaluations on queue workers ('czech-pub worker') through this Redis, e.g. redis://127.0.0.1:6379",
    },
  },
} as const satisfies CommandSpec;

function evalText(e: EvalResult[] | null): string {
  if (!e) return 'no eval yet';
  return e.map((r) => `vs ${r.opponent} ${(100 * r.winRate).toFixed(1)}%`).join(', ');
}

/**
 * What would fail once the run has started (an agent spec, a backend this machine lacks) is
 * checked before the run directory is made: a usage error then, not a stack trace and an
 * empty run directory.
 */
export async function checkBeforeRun(o: TrainOptions): Promise<void> {
  const check = (option: string, f: () => unknown) => {
    try {
      f();
    } catch (e) {
      throw new UsageError(`${option}: ${(e as Error).message.split('\n')[0]}`);
    }
  };
  // Every agent the run will field, made once now; one trained under other rules is refused too.
  const agent = (option: string, spec: string) => {
    check(option, () => {
      const mismatch = rulesetMismatch(createAgent(spec), o.ruleset);
      if (mismatch) throw new Error(mismatch);
    });
  };
  let pool: PoolEntry[] = [];
  check('--opponents', () => (pool = parsePool(o.opponents)));
  for (const e of pool) if (e.name !== 'self' && e.name !== 'past') agent('--opponents', e.name);
  if (o.imitate !== '') agent('--imitate', o.imitate);
  for (const spec of o.evalOpponents) agent('--eval-opponents', spec);
  await startBackend(o.backend);
}

/** Starts the TensorFlow.js backend chosen with --backend; one this machine lacks is a usage error. */
export async function startBackend(choice: BackendChoice): Promise<void> {
  try {
    await initBackend(choice);
  } catch (e) {
    throw new UsageError(`--backend: ${(e as Error).message.split('\n')[0]}; --backend auto takes what this machine has`);
  }
}

/**
 * With --init, the net's shape is the checkpoint's (its trunk, and its adviser if it reads one;
 * one that does not may be given one, which run.ts widens it with). A checkpoint that cannot be
 * read, was trained under other rules, or reads another adviser than --advice names is a usage error.
 */
export function takeInitShape(o: TrainOptions, adviceGiven: boolean): void {
  if (o.init === '') return;
  try {
    const shape = loadCheckpoint(o.init, o.ruleset, 'play').weights.shape;
    o.hidden = shape.hidden;
    if (shape.advice && adviceGiven && o.advice !== shape.advice) throw new Error(`the checkpoint reads ${shape.advice}'s advice, not ${o.advice}'s`);
    o.advice = shape.advice ?? o.advice;
  } catch (e) {
    throw new UsageError(`--init: ${(e as Error).message.split('\n')[0]}`);
  }
}

/** The run's options: a fresh run's from the command line, a resumed run's from its directory with what may change. */
function runOptions(parsed: NonNullable<ReturnType<typeof parseOptions<typeof TRAIN.options>>>): TrainOptions {
  const { resume, queue: _queue, ...v } = parsed.values;
  let o: TrainOptions;
  if (resume !== undefined) {
    try {
      o = readRunOptions(resume);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    // What may change is taken when given again; the rest is the run's own.
    const changes = o as Record<string, unknown>;
    for (const name of CHANGEABLE_ON_RESUME) if (parsed.given.has(name)) changes[camel(name)] = (v as Record<string, unknown>)[camel(name)];
  } else {
    o = v;
    takeInitShape(o, parsed.given.has('advice'));
  }
  // The budget is --total-steps or --minutes (never both): given minutes, steps do not end the run.
  if (parsed.given.has('minutes') && o.minutes > 0) o.totalSteps = UNBOUNDED_STEPS;
  else if (parsed.given.has('total-steps')) o.minutes = 0;
  if (resume !== undefined && o.minutes === 0 && o.totalSteps === UNBOUNDED_STEPS) throw new UsageError(`the run in ${resume} was trained for a time; give --minutes (more than 0) or --total-steps`);
  return o;
}

/**
 * A run's progress on standard error (a bar on a terminal: steps/s, the latest evaluation; a
 * line per iteration otherwise) and Ctrl-C as a clean stop after the current iteration: the
 * events runTraining is given, for `train` and `exploit` alike. `close` stops the bar and
 * gives Ctrl-C back.
 */
export function trainingProgress(io: Io, o: TrainOptions, label = 'train'): { events: Pick<RunEvents, 'log' | 'iteration' | 'shouldStop' | 'now'>; stopped(): boolean; close(): void } {
  let stop = false;
  const stopListening = onStopSignals((signal) => {
    io.err(`${interrupted(signal)}: stopping after this iteration (final evaluation and checkpoint follow).`);
    stop = true;
  });
  const tty = process.stderr.isTTY === true;
  const budget = o.minutes > 0 ? o.minutes * 60 : o.totalSteps;
  const bar = tty
    ? new cliProgress.SingleBar(
        { format: `${label} {bar} {percentage}% | {steps} steps | {rate} steps/s | {eval} | ETA {eta_formatted}`, stream: process.stderr, etaBuffer: 20 },
        cliProgress.Presets.shades_classic,
      )
    : null;
  let barStarted = false;
  const stopBar = () => {
    if (bar && barStarted) bar.stop();
    barStarted = false;
  };
  const iteration = (m: IterationMetrics, e: EvalResult[] | null) => {
    const rate = Math.round(m.steps / Math.max(m.seconds, 1e-9));
    const done = o.minutes > 0 ? Math.min(m.seconds, budget) : Math.min(m.steps, budget);
    if (bar) {
      if (!barStarted) bar.start(budget, 0, { steps: 0, rate: 0, eval: '' });
      barStarted = true;
      bar.update(done, { steps: m.steps, rate, eval: evalText(e) });
    } else {
      io.err(
        `iter ${m.iteration}: ${m.steps} steps, ${rate} steps/s, rollout ${Math.round(m.rolloutStepsPerSec)} env steps/s, update ${Math.round(m.updateSamplesPerSec)} samples/s, ` +
          `${Number.isNaN(m.winShare) ? 'no game ended' : `win share ${(100 * m.winShare).toFixed(1)}%`}, entropy ${m.entropy.toFixed(3)}, kl ${m.approxKl.toFixed(4)}, ev ${m.explainedVariance.toFixed(2)} | ${evalText(e)}`,
      );
    }
  };
  return {
    events: {
      log: (line) => {
        stopBar();
        io.err(line);
      },
      iteration,
      shouldStop: () => stop,
      ...(io.now ? { now: io.now } : {}),
    },
    stopped: () => stop,
    close: () => {
      stopBar();
      stopListening();
    },
  };
}

/** A duplicate tournament of one seat against P − 1 copies of an opponent: its size, deals and where it is written. */
export interface SeatTournament {
  players: number;
  games: number;
  /** The tournament seed: deals `<seed>/<deal>`, never training's. */
  seed: string;
  /** Worker threads (default one per core; 0 plays in this thread). */
  workers?: number;
  ruleset: Ruleset;
  folder: string;
  /** Go on with the tournament already in `folder` (its finished games kept). */
  resume?: boolean;
}

/**
 * Plays `spec` in one seat against P − 1 copies of `opponent` (seats rotated, each deal in
 * every seat), with a progress bar and Ctrl-C as a clean stop; its figures, or null when
 * interrupted.
 */
export async function evaluateSeat(spec: string, opponent: string, t: SeatTournament, io: Io): Promise<SeatEvaluation | null> {
  const result = await playSeat(spec, opponent, t, io);
  return result && seatEvaluation(result, t);
}

/** The tournament of evaluateSeat, whole (its summary has the seat's decisions and time too); null when interrupted. */
export async function playSeat(spec: string, opponent: string, t: SeatTournament, io: Io): Promise<TournamentResult | null> {
  const controller = new AbortController();
  const stopListening = onStopSignals((signal) => {
    io.err(`${interrupted(signal)}: stopping the evaluation.`);
    controller.abort();
  });
  const bar = progress(io);
  let result;
  try {
    result = await runTournament({
      agents: [spec, ...Array.from({ length: t.players - 1 }, () => opponent)], players: t.players,
      games: t.games, seed: t.seed, workers: t.workers ?? availableParallelism(),
      ruleset: t.ruleset, out: t.folder, resume: t.resume, signal: controller.signal, onGame: (done, total) => bar.update(done, total),
    });
  } catch (e) {
    throw asUsageError(e);
  } finally {
    bar.stop();
    stopListening();
  }
  return result.complete ? result : null;
}

/** The seat's figures in a finished tournament of playSeat. */
export function seatEvaluation(result: TournamentResult, t: SeatTournament): SeatEvaluation {
  const mine = entrySummary(result);
  const P = t.players;
  return {
    folder: t.folder, games: mine.games, deals: result.summary.deals, winRate: mine.winRate, winRateCI: mine.winRateCI,
    overPar: mine.winRate * P, overParCI: [mine.winRateCI[0] * P, mine.winRateCI[1] * P],
  };
}

export async function trainCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseOptions(TRAIN, args);
  if (!parsed) {
    io.out(helpText(TRAIN));
    return EXIT_OK;
  }
  const resume = parsed.values.resume;
  const o = runOptions(parsed);
  await checkBeforeRun(o);
  const queueUrl = parsed.values.queue;
  const queue = queueUrl !== undefined ? await loadQueue(queueUrl) : undefined;
  const evalRunner = queue?.queueRunner(queueUrl!, { log: (line) => io.err(line) });
  const rollouts = queue ? await queue.queueRollouts(queueUrl!, { log: (line) => io.err(line) }) : undefined;

  const progress = trainingProgress(io, o);
  try {
    const r = await runTraining(o, { ...progress.events, evalRunner, rollouts }, resume, ['czech-pub', 'train', ...args]);
    progress.close();
    const last = r.metrics[r.metrics.length - 1];
    io.out(`Run directory: ${r.dir}`);
    if (last) io.out(`${last.steps} learner decisions in ${last.seconds.toFixed(0)} s; latest: ${evalText(r.evals[r.evals.length - 1] ?? null)}`);
    io.out(`Play it: czech-pub tournament --agents ppo:${r.dir}/model.json,heuristic,heuristic,heuristic`);
    if (progress.stopped()) {
      io.out(`interrupted: stopped before the budget; continue with czech-pub train --resume ${r.dir}`);
      return EXIT_FAILURE;
    }
    return EXIT_OK;
  } catch (e) {
    // A resumed run already past the budget asked for: nothing was done, and the command line says why.
    if (e instanceof NothingToTrainError) throw new UsageError(e.message);
    throw e;
  } finally {
    progress.close();
    await rollouts?.close();
  }
}
