/**
 * `czech-pub train`: PPO self-play (training/). Progress goes to standard error: a bar on a
 * terminal (steps/s, the latest evaluation), a line per iteration otherwise. Ctrl-C stops
 * after the current iteration and still writes the final evaluation and checkpoint.
 */
import cliProgress from 'cli-progress';
import { REWARD_SCHEMES } from '../env/rewards.ts';
import { createAgent } from '../agents/default-registry.ts';
import { BACKENDS, initBackend, type BackendChoice } from '../training/backend.ts';
import { parsePool } from '../training/collect.ts';
import type { EvalResult } from '../training/evaluate.ts';
import type { IterationMetrics } from '../training/ppo.ts';
import { readRunOptions, RUN_DEFAULTS, runTraining, type RunOptions } from '../training/run.ts';
import { choiceOption, intOption, parseCommand, positiveOption } from './args.ts';
import { EXIT_FAILURE, EXIT_OK, UsageError, type Io } from './io.ts';

export const TRAIN_USAGE = `Usage: czech-pub train [options]

Trains a policy by PPO self-play and writes a run directory (options, metrics.jsonl,
model.json, trainer.json, curve.svg). Play the result with --agents ppo:<run dir>/model.json.

Options:
  --players N        players per training game (default ${RUN_DEFAULTS.players})
  --steps N          learner decisions to train on (default ${RUN_DEFAULTS.totalSteps})
  --minutes M        stop after M minutes instead (the learning rate anneals over the time)
  --seed S           seed of the run (default ${RUN_DEFAULTS.seed}); same seed, same backend: same run
  --out DIR          where the run directory is made (default ${RUN_DEFAULTS.out}/)
  --resume DIR       continue the run in DIR (its own options; --steps/--minutes extend it)
  --backend B        ${BACKENDS.join(', ')} (default auto: node, else wasm, else cpu)
  --envs N           games played side by side (default ${RUN_DEFAULTS.numEnvs})
  --rollout N        learner decisions per update (default ${RUN_DEFAULTS.rolloutSteps})
  --hidden A,B       hidden layer widths (default ${RUN_DEFAULTS.hidden.join(',')})
  --lr X             Adam learning rate (default ${RUN_DEFAULTS.lr})
  --ent-coef X       entropy bonus coefficient (default ${RUN_DEFAULTS.entCoef})
  --reward R         terminal reward: ${REWARD_SCHEMES.join(', ')} (default ${RUN_DEFAULTS.reward})
  --imitate AGENT    warm start: first clone AGENT's choices (e.g. heuristic), then PPO
  --imitate-steps N  teacher decisions to clone (default ${RUN_DEFAULTS.imitateSteps})
  --opponents POOL   weighted pool of the other seats (default ${RUN_DEFAULTS.pool}):
                     self = the current policy, past = frozen snapshots, or agent specs
  --eval-every K     iterations between evaluations (default ${RUN_DEFAULTS.evalEvery}; 0 = at the end only)
  --eval-deals D     deals per evaluation opponent, each in every seat (default ${RUN_DEFAULTS.evalDeals})
  --eval-vs A,B      evaluation opponents (default ${RUN_DEFAULTS.evalOpponents})
  -h, --help         show this help`;

const OPTIONS = {
  players: { type: 'string' },
  steps: { type: 'string' },
  minutes: { type: 'string' },
  seed: { type: 'string' },
  out: { type: 'string' },
  resume: { type: 'string' },
  backend: { type: 'string' },
  envs: { type: 'string' },
  rollout: { type: 'string' },
  hidden: { type: 'string' },
  lr: { type: 'string' },
  reward: { type: 'string' },
  'ent-coef': { type: 'string' },
  opponents: { type: 'string' },
  imitate: { type: 'string' },
  'imitate-steps': { type: 'string' },
  'eval-every': { type: 'string' },
  'eval-deals': { type: 'string' },
  'eval-vs': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

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
  check('--opponents', () => parsePool(o.pool));
  if (o.imitate !== '') check('--imitate', () => createAgent(o.imitate));
  for (const spec of o.evalOpponents.split(',').map((x) => x.trim()).filter((x) => x !== '')) check('--eval-vs', () => createAgent(spec));
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

export async function trainCommand(args: readonly string[], io: Io): Promise<number> {
  const { values } = parseCommand(args, OPTIONS);
  if (values.help) {
    io.out(TRAIN_USAGE);
    return EXIT_OK;
  }
  const resume = typeof values.resume === 'string' ? values.resume : undefined;
  let o: RunOptions;
  if (resume) {
    const fixed = ['players', 'seed', 'out', 'envs', 'rollout', 'hidden', 'lr', 'ent-coef', 'reward', 'opponents', 'imitate', 'imitate-steps'].filter((k) => values[k] !== undefined);
    if (fixed.length > 0) throw new UsageError(`--resume continues a run with its own options; drop ${fixed.map((k) => `--${k}`).join(', ')}`);
    try {
      o = readRunOptions(resume);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  } else {
    o = { ...RUN_DEFAULTS, hidden: [...RUN_DEFAULTS.hidden] };
    o.players = intOption(values, 'players', o.players, 2, 6);
    o.seed = intOption(values, 'seed', o.seed, 0, 2 ** 31 - 1);
    if (typeof values.out === 'string') o.out = values.out;
    o.numEnvs = intOption(values, 'envs', o.numEnvs, 1, 4096);
    o.rolloutSteps = intOption(values, 'rollout', o.rolloutSteps, 64, 1_000_000);
    o.minibatch = Math.min(o.minibatch, o.rolloutSteps);
    if (typeof values.hidden === 'string') {
      const h = values.hidden.split(',').map(Number);
      if (h.length === 0 || h.some((x) => !Number.isInteger(x) || x < 1 || x > 4096)) throw new UsageError(`--hidden must be widths like 256,256, got '${values.hidden}'`);
      o.hidden = h;
    }
    o.lr = positiveOption(values, 'lr', o.lr, 1);
    if (values['ent-coef'] !== undefined) {
      const e = Number(values['ent-coef']);
      if (typeof values['ent-coef'] !== 'string' || values['ent-coef'].trim() === '' || !(e >= 0 && e <= 1)) throw new UsageError(`--ent-coef must be a number from 0 to 1, got '${String(values['ent-coef'])}'`);
      o.entCoef = e;
    }
    o.reward = choiceOption(values, 'reward', REWARD_SCHEMES, o.reward);
    if (typeof values.opponents === 'string') o.pool = values.opponents;
    if (typeof values.imitate === 'string') o.imitate = values.imitate;
    o.imitateSteps = intOption(values, 'imitate-steps', o.imitateSteps, 0, 1e9);
  }
  if (values.steps !== undefined) o.totalSteps = intOption(values, 'steps', o.totalSteps, 1, 1e12);
  if (values.minutes !== undefined) {
    o.minutes = positiveOption(values, 'minutes', 0, 1e6);
    if (values.steps === undefined) o.totalSteps = Number.MAX_SAFE_INTEGER;
  }
  o.backend = choiceOption(values, 'backend', BACKENDS, o.backend);
  o.evalEvery = intOption(values, 'eval-every', o.evalEvery, 0, 1e9);
  o.evalDeals = intOption(values, 'eval-deals', o.evalDeals, 1, 1e6);
  if (typeof values['eval-vs'] === 'string') o.evalOpponents = values['eval-vs'];
  await checkBeforeRun(o);

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
          `win share ${(100 * m.winShare).toFixed(1)}%, entropy ${m.entropy.toFixed(3)}, kl ${m.approxKl.toFixed(4)}, ev ${m.explainedVariance.toFixed(2)} | ${evalText(e)}`,
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
  } finally {
    if (bar && barStarted) bar.stop();
    process.removeListener('SIGINT', onSigint);
  }
}
