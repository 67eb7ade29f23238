/**
 * `czech-pub train`: PPO self-play (training/). Progress goes to standard error: a bar on a
 * terminal (steps/s, the latest evaluation), a line per iteration otherwise. Ctrl-C stops
 * after the current iteration and still writes the final evaluation and checkpoint.
 */
import cliProgress from 'cli-progress';
import { REWARD_SCHEMES } from '../env/rewards.ts';
import { rulesetMismatch } from '../agents/agent.ts';
import { createAgent } from '../agents/default-registry.ts';
import { BACKENDS, initBackend, type BackendChoice } from '../training/backend.ts';
import { loadCheckpoint } from '../policy/checkpoint.ts';
import { ADVISERS } from '../policy/weights.ts';
import { parsePool, type PoolEntry } from '../training/collect.ts';
import type { EvalResult } from '../training/evaluate.ts';
import type { IterationMetrics } from '../training/ppo.ts';
import { NothingToTrainError, readRunOptions, RUN_DEFAULTS, runTraining, type RunOptions } from '../training/run.ts';
import { EXIT_FAILURE, EXIT_OK, UsageError, type Io } from './io.ts';
import { loadQueue } from './queue-option.ts';
import { helpText, parseOptions, PLAYERS_MAX, PLAYERS_MIN, type CommandSpec } from './options.ts';

/** What a resumed run keeps from its own options.json: giving one of these with --resume is refused. */
const FIXED_BY_RUN = ['players', 'seed', 'out', 'envs', 'rollout', 'staleness', 'hidden', 'advice', 'lr', 'ent-coef', 'reward', 'opponents', 'imitate', 'imitate-steps', 'ruleset', 'init'] as const;

export const TRAIN = {
  name: 'train',
  description: `Trains a policy by PPO self-play and writes a run directory (options, metrics.jsonl,
model.json, trainer.json, curve.svg). Play the result with --agents ppo:<run dir>/model.json.`,
  options: {
    players: { type: 'int', arg: 'N', min: PLAYERS_MIN, max: PLAYERS_MAX, default: RUN_DEFAULTS.players, help: 'players per training game' },
    steps: { type: 'int', arg: 'N', min: 1, max: 1e12, default: RUN_DEFAULTS.totalSteps, conflicts: ['minutes'], help: 'learner decisions to train on' },
    minutes: { type: 'number', arg: 'M', min: 0, above: true, max: 1e6, help: 'train for M minutes instead of a number of steps (the learning rate anneals over the time)' },
    seed: { type: 'int', arg: 'S', min: 0, max: 2 ** 31 - 1, default: RUN_DEFAULTS.seed, help: 'seed of the run; same seed, same backend: same run' },
    out: { type: 'folder', default: RUN_DEFAULTS.out, help: 'where the run directory is made' },
    resume: {
      type: 'string', arg: 'DIR', conflicts: FIXED_BY_RUN, conflictWhy: 'continues a run with its own options',
      help: 'continue the run in DIR with its own options; --steps or --minutes sets the new total',
    },
    backend: { type: 'choice', arg: 'B', choices: BACKENDS, default: RUN_DEFAULTS.backend, help: 'TensorFlow.js backend (auto: node, else wasm, else cpu)' },
    envs: { type: 'int', arg: 'N', min: 1, max: 4096, default: RUN_DEFAULTS.numEnvs, help: 'games per rollout chunk, played side by side (with --queue, one job)' },
    rollout: { type: 'int', arg: 'N', min: 64, max: 1_000_000, default: RUN_DEFAULTS.rolloutSteps, help: 'learner decisions per update (whole games: a little more)' },
    staleness: {
      type: 'int', arg: 'S', min: 0, max: 16, default: RUN_DEFAULTS.staleness,
      help: "an iteration's games may be played by the policy of up to S updates before (with --queue, workers play ahead while the learner updates)",
    },
    hidden: { type: 'list', arg: 'A,B', default: RUN_DEFAULTS.hidden.map(String), help: 'hidden layer widths, each 1-4096' },
    advice: {
      type: 'choice', arg: 'AGENT', choices: ['none', ...ADVISERS], default: 'none',
      help: "the net also reads what AGENT would play at each decision, and learns where to depart from it (with --init: added to that net)",
    },
    lr: { type: 'number', arg: 'X', min: 0, above: true, max: 1, default: RUN_DEFAULTS.lr, help: 'Adam learning rate' },
    'ent-coef': { type: 'number', arg: 'X', min: 0, max: 1, default: RUN_DEFAULTS.entCoef, help: 'entropy bonus coefficient' },
    reward: { type: 'choice', arg: 'R', choices: REWARD_SCHEMES, default: RUN_DEFAULTS.reward, help: 'terminal reward' },
    ruleset: { type: 'ruleset', help: 'train under the ruleset in this JSON file (recorded in the run and its checkpoints)' },
    imitate: { type: 'string', arg: 'AGENT', defaultText: 'none', help: "warm start: first clone AGENT's choices (e.g. heuristic), then PPO" },
    'imitate-steps': { type: 'int', arg: 'N', min: 0, max: 1e9, default: RUN_DEFAULTS.imitateSteps, help: 'teacher decisions to clone' },
    init: {
      type: 'string', arg: 'CHECKPOINT', conflicts: ['imitate', 'hidden'], conflictWhy: 'starts from that checkpoint’s net',
      help: "start from a saved policy's weights (e.g. models/ppo-4p.json or a run's model.json) with a fresh optimizer: fine-tuning, at another table size too",
    },
    opponents: { type: 'string', arg: 'POOL', default: RUN_DEFAULTS.pool, help: 'weighted pool of the other seats: self = the current policy, past = frozen snapshots, or agent specs' },
    'eval-every': { type: 'int', arg: 'K', min: 0, max: 1e9, default: RUN_DEFAULTS.evalEvery, help: 'iterations between evaluations; 0 = at the end only' },
    'eval-deals': { type: 'int', arg: 'D', min: 1, max: 1e6, default: RUN_DEFAULTS.evalDeals, help: 'deals per evaluation opponent, each in every seat' },
    'eval-vs': { type: 'list', arg: 'A,B', default: RUN_DEFAULTS.evalOpponents.split(','), help: 'evaluation opponents' },
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
async function checkBeforeRun(o: RunOptions): Promise<void> {
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
  check('--opponents', () => (pool = parsePool(o.pool)));
  for (const e of pool) if (e.name !== 'self' && e.name !== 'past') agent('--opponents', e.name);
  if (o.imitate !== '') agent('--imitate', o.imitate);
  for (const spec of o.evalOpponents.split(',').map((x) => x.trim()).filter((x) => x !== '')) agent('--eval-vs', spec);
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

/** The run's options: a fresh run's from the command line, a resumed run's from its directory with the new budget. */
function runOptions(parsed: NonNullable<ReturnType<typeof parseOptions<typeof TRAIN.options>>>): RunOptions {
  const v = parsed.values;
  let o: RunOptions;
  if (v.resume !== undefined) {
    try {
      o = readRunOptions(v.resume);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  } else {
    const hidden = v.hidden.map(Number);
    if (hidden.some((x) => !Number.isInteger(x) || x < 1 || x > 4096)) throw new UsageError(`--hidden must be widths like 256,256, got '${v.hidden.join(',')}'`);
    o = {
      ...RUN_DEFAULTS, players: v.players, seed: v.seed, out: v.out, numEnvs: v.envs, rolloutSteps: v.rollout, staleness: v.staleness, minibatch: Math.min(RUN_DEFAULTS.minibatch, v.rollout),
      hidden, lr: v.lr, entCoef: v.entCoef, reward: v.reward, pool: v.opponents, imitate: v.imitate ?? '', imitateSteps: v.imitateSteps, ruleset: parsed.ruleset,
      init: v.init ?? '', advice: v.advice === 'none' ? '' : v.advice,
    };
    if (o.init !== '') {
      // The net's shape is the checkpoint's; one that cannot be read, or was trained under other rules, is a usage error.
      try {
        const shape = loadCheckpoint(o.init, o.ruleset, 'play').weights.shape;
        o.hidden = shape.hidden;
        // A checkpoint that reads advice keeps its adviser; one that does not may be given one (run.ts widens it).
        if (shape.advice && parsed.given.has('advice') && o.advice !== shape.advice) {
          throw new Error(`the checkpoint reads ${shape.advice}'s advice, not ${v.advice}'s`);
        }
        o.advice = shape.advice ?? o.advice;
      } catch (e) {
        throw new UsageError(`--init: ${(e as Error).message.split('\n')[0]}`);
      }
    }
  }
  // The budget: --steps or --minutes (never both), else the run's own.
  if (parsed.given.has('steps')) o.totalSteps = v.steps;
  if (v.minutes !== undefined) {
    o.minutes = v.minutes;
    o.totalSteps = Number.MAX_SAFE_INTEGER;
  } else if (parsed.given.has('steps')) {
    o.minutes = 0;
  }
  // A resumed run keeps its own backend and evaluation settings unless they are given again.
  const set = (name: string) => v.resume === undefined || parsed.given.has(name);
  if (set('backend')) o.backend = v.backend;
  if (set('eval-every')) o.evalEvery = v.evalEvery;
  if (set('eval-deals')) o.evalDeals = v.evalDeals;
  if (set('eval-vs')) o.evalOpponents = v.evalVs.join(',');
  return o;
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

  let stop = false;
  const onSigint = () => {
    io.err('Interrupted: stopping after this iteration (final evaluation and checkpoint follow).');
    stop = true;
  };
  process.once('SIGINT', onSigint);
  const tty = process.stderr.isTTY === true;
  const budget = o.minutes > 0 ? o.minutes * 60 : o.totalSteps;
  const bar = tty
    ? new cliProgress.SingleBar(
        { format: `train {bar} {percentage}% | {steps} steps | {rate} steps/s | {eval} | ETA {eta_formatted}`, stream: process.stderr, etaBuffer: 20 },
        cliProgress.Presets.shades_classic,
      )
    : null;
  let barStarted = false;
  const onIteration = (m: IterationMetrics, e: EvalResult[] | null) => {
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
  try {
    const r = await runTraining(
      o,
      {
        log: (line) => {
          if (barStarted && bar) bar.stop();
          barStarted = false;
          io.err(line);
        },
        iteration: onIteration,
        shouldStop: () => stop,
        evalRunner,
        rollouts,
      },
      resume,
      ['czech-pub', 'train', ...args],
    );
    if (bar && barStarted) bar.stop();
    const last = r.metrics[r.metrics.length - 1];
    io.out(`Run directory: ${r.dir}`);
    if (last) io.out(`${last.steps} learner decisions in ${last.seconds.toFixed(0)} s; latest: ${evalText(r.evals[r.evals.length - 1] ?? null)}`);
    io.out(`Play it: czech-pub tournament --agents ppo:${r.dir}/model.json,heuristic,heuristic,heuristic`);
    if (stop) {
      io.out(`interrupted: stopped before the budget; continue with czech-pub train --resume ${r.dir}`);
      return EXIT_FAILURE;
    }
    return EXIT_OK;
  } catch (e) {
    // A resumed run already past the budget asked for: nothing was done, and the command line says why.
    if (e instanceof NothingToTrainError) throw new UsageError(e.message);
    throw e;
  } finally {
    if (bar && barStarted) bar.stop();
    process.removeListener('SIGINT', onSigint);
    await rollouts?.close();
  }
}
