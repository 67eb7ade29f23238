/**
 * Every option of a training run, declared once (as CleanRL's one `Args` class): name, type,
 * range, default and a one-line doc, in cli/options.ts's terms. From this declaration come
 *
 * - the trainer's options and their defaults (`TrainOptions`, `TRAIN_DEFAULTS`),
 * - the one range check (`checkTrainOptions`: the trainer's; the command line runs the same),
 * - `czech-pub train`'s flags and --help (cli/train.ts adds only --resume and --queue),
 * - the `options` of a run's options.json,
 *
 * all under one name: kebab-case on the command line, camelCase in code and JSON
 * (`--num-envs`, `numEnvs`). Older spellings are read through `aliases` on the command line
 * and `fromOptionsJson` for older runs' options.json.
 */
import {
  checkOptions, DEFAULT_RULESET, optionDefaults, parseRuleset, PLAYERS_MAX, PLAYERS_MIN, REWARD_SCHEMES, type OptionSpecs, type Values,
} from '../env/index.ts';
import { ADVISERS } from '../policy/index.ts';
import { BACKENDS } from './backend.ts';

/** A step budget no run reaches: the total when the budget is in minutes. */
export const UNBOUNDED_STEPS = 1e12;

export const TRAIN_OPTIONS = {
  // ---- the run ----
  players: { type: 'int', arg: 'N', min: PLAYERS_MIN, max: PLAYERS_MAX, default: 4, help: 'players per training game' },
  'total-steps': {
    type: 'int', arg: 'N', min: 1, max: UNBOUNDED_STEPS, default: 5_000_000, aliases: ['steps'], conflicts: ['minutes'],
    help: 'learner decisions to train on in all; with --resume, the new total',
  },
  minutes: {
    type: 'number', arg: 'M', min: 0, max: 1e6, default: 0,
    help: 'train for M minutes instead of a number of steps, the learning rate annealing over the time; 0 = no time budget',
  },
  seed: {
    type: 'int', arg: 'S', min: 0, max: 2 ** 31 - 1, default: 1,
    help: 'seed of everything random (deals, seating, sampling, initial weights, minibatches); same seed, same backend: same run',
  },
  out: { type: 'folder', default: 'runs', help: 'where the run directory is made' },
  backend: { type: 'choice', arg: 'B', choices: BACKENDS, default: 'auto', help: 'TensorFlow.js backend (auto: node, else wasm, else cpu)' },
  ruleset: { type: 'ruleset', default: DEFAULT_RULESET, help: 'train under this ruleset: micro, standard, or a JSON file, recorded in the run and its checkpoints (under micro each evaluation also reports the exact NashConv)' },

  // ---- rollouts ----
  // The learner's decisions in a chunk's games share one forward pass; an iteration takes
  // chunks until it has rollout-steps decisions.
  'num-envs': { type: 'int', arg: 'N', min: 1, max: 4096, default: 32, aliases: ['envs'], help: 'games per rollout chunk, played side by side; with --queue, one job' },
  'rollout-steps': { type: 'int', arg: 'N', min: 64, max: 1_000_000, default: 8192, aliases: ['rollout'], help: 'learner decisions per update; whole games, so a little more' },
  // Iteration i's games are played by policy version i − 1 − staleness (iterations trained).
  staleness: {
    type: 'int', arg: 'S', min: 0, max: 16, default: 0,
    help: "an iteration's games may be played by the policy of up to S updates before; with --queue, workers play ahead while the learner updates",
  },
  opponents: {
    type: 'string', arg: 'POOL', default: '4*self,2*past,2*heuristic,cautious,greedy',
    help: 'weighted pool of the other seats: self = the current policy, past = frozen snapshots, or agent specs',
  },
  reward: { type: 'choice', arg: 'R', choices: REWARD_SCHEMES, default: 'rank', help: 'terminal reward the learner maximises' },

  // ---- the network and its start ----
  // 256 wide where the sparse 569-float observation comes in, 128 after: with 256 → 256 the
  // update ran at ~9,300–10,400 samples/s on wasm here, under the 10,000 aimed for; 256 → 128
  // at ~12,000 (`czech-pub bench train`).
  hidden: { type: 'ints', arg: 'A,B', min: 1, max: 4096, default: [256, 128], help: 'hidden layer widths of the shared trunk' },
  // Fixed by the net's shape (agents/ppo/input.ts).
  advice: {
    type: 'choice', arg: 'AGENT', choices: ['none', ...ADVISERS], default: 'none',
    help: 'the net also reads what AGENT would play at each decision, and learns where to depart from it; with --init, added to that net',
  },
  // A centralised critic (as PerfectDou's perfect-information distillation, MAPPO's critics):
  // the baseline may see what the seat cannot, the policy never does.
  critic: {
    type: 'choice', arg: 'C', choices: ['seat', 'table'], default: 'seat',
    help: "the advantages' baseline: seat = the net's own value head (the seat's observation); table = a separate critic, trained beside it, that also reads every other seat's hand (training only: the policy still reads only its seat)",
  },
  'critic-hidden': { type: 'ints', arg: 'A,B', min: 1, max: 4096, default: [128, 64], help: "hidden layer widths of the table critic's trunk" },
  init: {
    type: 'string', arg: 'CHECKPOINT', default: '', defaultText: 'none', conflicts: ['imitate', 'hidden'], conflictWhy: 'starts from that checkpoint’s net',
    help: "start from a saved policy's weights (e.g. models/ppo-4p.json or a run's model.json) with a fresh optimizer: fine-tuning, at another table size too",
  },
  imitate: { type: 'string', arg: 'AGENT', default: '', defaultText: 'none', help: "warm start: first clone AGENT's choices (e.g. heuristic), then PPO" },
  'imitate-steps': { type: 'int', arg: 'N', min: 0, max: 1e9, default: 1_000_000, help: 'teacher decisions to clone' },

  // ---- PPO ----
  lr: { type: 'number', arg: 'X', min: 0, above: true, max: 1, default: 3e-4, help: 'Adam learning rate, annealed linearly to 0 over the budget' },
  'constant-lr': { type: 'flag', help: 'keep the learning rate at --lr instead of annealing it' },
  gamma: { type: 'number', arg: 'X', min: 0, max: 1, default: 0.995, help: 'discount per own decision' },
  lambda: { type: 'number', arg: 'X', min: 0, max: 1, default: 0.95, help: "GAE's λ" },
  epochs: { type: 'int', arg: 'N', min: 1, max: 100, default: 4, help: 'passes over each batch' },
  minibatch: { type: 'int', arg: 'N', min: 1, max: 1_000_000, default: 2048, help: 'samples per minibatch, at most the batch' },
  clip: { type: 'number', arg: 'X', min: 0, above: true, max: 1, default: 0.2, help: "PPO's ratio clip ε, also used to clip the value update" },
  'ent-coef': { type: 'number', arg: 'X', min: 0, max: 1, default: 0.01, help: 'entropy bonus coefficient' },
  'vf-coef': { type: 'number', arg: 'X', min: 0, max: 100, default: 0.5, help: 'value loss coefficient' },
  'max-grad-norm': { type: 'number', arg: 'X', min: 0, above: true, max: 1000, default: 0.5, help: 'global gradient-norm clip' },
  'target-kl': { type: 'number', arg: 'X', min: 0, max: 10, default: 0.03, help: "stop an update's epochs once the approximate KL passes X; 0 = never" },
  'snapshot-every': { type: 'int', arg: 'K', min: 1, max: 1e6, default: 10, help: 'iterations between the frozen snapshots `past` opponents play' },
  'max-snapshots': { type: 'int', arg: 'N', min: 1, max: 1000, default: 8, help: 'snapshots kept, the oldest dropped' },
  'plain-dense': { type: 'flag', help: "differentiate dense layers with tf's own gradient instead of net.ts's (slower on wasm; for benchmarks)" },

  // ---- evaluation and checkpoints ----
  'eval-every': { type: 'int', arg: 'K', min: 0, max: 1e9, default: 10, help: 'iterations between evaluations; 0 = at the end only' },
  'eval-deals': { type: 'int', arg: 'D', min: 1, max: 1e6, default: 50, help: 'deals per evaluation opponent, each in every seat' },
  'eval-opponents': { type: 'list', arg: 'A,B', default: ['random', 'heuristic'], aliases: ['eval-vs'], help: 'evaluation opponents: the policy in one seat, the opponent in the others' },
  'checkpoint-every': { type: 'int', arg: 'K', min: 1, max: 1e9, default: 5, help: 'iterations between checkpoints; one is also written when the run ends' },
} as const satisfies OptionSpecs;

export type TrainOptionName = keyof typeof TRAIN_OPTIONS;

/** The options of a training run: the trainer's, and options.json's `options`. */
export type TrainOptions = Values<typeof TRAIN_OPTIONS>;

export const TRAIN_DEFAULTS: Readonly<TrainOptions> = optionDefaults(TRAIN_OPTIONS);

/** What a resumed run may be given anew: its budget, where it runs, how it is evaluated; the rest is the run's own. */
export const CHANGEABLE_ON_RESUME = ['total-steps', 'minutes', 'backend', 'eval-every', 'eval-deals', 'eval-opponents', 'checkpoint-every'] as const satisfies readonly TrainOptionName[];

/** The one range check (cli/options.ts's, as the command line's): a RangeError naming the option and its range. */
export function checkTrainOptions(o: TrainOptions): void {
  checkOptions(TRAIN_OPTIONS, o, { ruleset: o.ruleset });
}

/**
 * The options of a run's options.json, from runs of before too: older names are mapped,
 * options that did not exist yet take their defaults (a run before rulesets: the standard
 * rules), and names no longer declared are dropped. Checked like any options.
 */
export function fromOptionsJson(json: Record<string, unknown>): TrainOptions {
  const j = { ...json };
  // Until Dec 2026: `pool` was the opponents, `annealLr` the opposite of constant-lr,
  // '' no advice, the evaluation opponents one comma-separated string, and a run in minutes
  // recorded Number.MAX_SAFE_INTEGER steps.
  if ('pool' in j && !('opponents' in j)) j.opponents = j.pool;
  if (typeof j.annealLr === 'boolean' && !('constantLr' in j)) j.constantLr = !j.annealLr;
  if (j.advice === '') j.advice = 'none';
  if (typeof j.evalOpponents === 'string') j.evalOpponents = j.evalOpponents.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (typeof j.totalSteps === 'number' && j.totalSteps > UNBOUNDED_STEPS) j.totalSteps = UNBOUNDED_STEPS;
  const o: Record<string, unknown> = { ...TRAIN_DEFAULTS };
  for (const k of Object.keys(o)) if (k in j && j[k] !== undefined) o[k] = j[k];
  o.ruleset = j.ruleset ? parseRuleset(j.ruleset) : DEFAULT_RULESET;
  const options = o as TrainOptions;
  checkTrainOptions(options);
  return options;
}
