/**
 * `czech-pub recipe`: a model for a table size and ruleset from scratch in one command. It
 * trains a fresh net with the recipe's options (training/recipe.ts: heuristic's advice, a pool
 * mostly of heuristic, the win reward, …) for --minutes of wall clock, as `czech-pub train`
 * would, then plays the result in one seat against P − 1 × heuristic in a duplicate
 * tournament on deals training never saw. Every trainer option may be given, the recipe's
 * choices being their defaults here: giving one back its trainer default is an ablation,
 * which the summary (recipe.json, recipe.md, recipe.svg in --out) names.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  curveAgainst, RECIPE_CHOICES, RECIPE_FORMAT, RECIPE_OPPONENT, recipeEvaluationSeed, recipeMarkdown, recipeSvg, runTraining, seedPatterns, trainCommandLine,
  trainingSummary, TRAIN_OPTIONS, UNBOUNDED_STEPS, type CurvePointRecord, type RecipeRecord, type TrainOptions,
} from '../training/index.ts';
import { EXIT_FAILURE, EXIT_OK, UsageError, type Io } from './io.ts';
import { camel, helpText, parseOptions, PLAYERS_MAX, PLAYERS_MIN, type CommandSpec } from './options.ts';
import { checkBeforeRun, evaluateSeat, trainingProgress } from './train.ts';

// The trainer's options with the recipe's choices as their defaults; a fresh net always (no
// --init, no cloning stage), and --out is the command's.
const { init: _init, imitate: _imitate, 'imitate-steps': _imitateSteps, out: _out, ...TRAINING } = TRAIN_OPTIONS;

/** Options that set the budget, the seed, where it runs and how it is watched, not how it learns: giving them is no ablation. */
const NOT_METHOD = ['players', 'minutes', 'total-steps', 'seed', 'backend', 'ruleset', 'eval-every', 'eval-deals', 'eval-opponents', 'checkpoint-every'] as const;

function withRecipeDefaults<T extends Record<string, object>>(options: T): T {
  const out: Record<string, object> = { ...options };
  for (const [name, choice] of Object.entries(RECIPE_CHOICES)) {
    const spec = out[name] as { help: string; defaultText?: string };
    const value = choice.value as unknown;
    out[name] = { ...spec, default: value, help: `${spec.help}; recipe: ${choice.why}` };
  }
  return out as T;
}

export const RECIPE = {
  name: 'recipe',
  synopsis: '--players P [options]',
  description: `Trains a model for a table size (and --ruleset) from scratch in one command: a fresh net with
heuristic's advice, against a pool mostly of heuristic, for --minutes of wall clock (default 30); then
plays it against P - 1 x heuristic on unseen deals and reports its win rate over par (1/P) and the
wall-clock curve. Every trainer option may be given; the recipe's choices are the defaults below, and
giving one another value is an ablation the summary names. Writes recipe.json, recipe.md and
recipe.svg to --out, the run and the tournament in folders under it.`,
  options: {
    ...withRecipeDefaults(TRAINING),
    players: { type: 'int', arg: 'P', min: PLAYERS_MIN, max: PLAYERS_MAX, required: true, help: 'players per game: the model and P - 1 × heuristic' },
    'total-steps': { ...TRAINING['total-steps'], defaultText: 'none: --minutes is the budget', help: 'learner decisions to train on instead of --minutes' },
    'eval-games': { type: 'int', arg: 'G', min: 1, max: 10_000_000, default: 4000, help: 'games of the final evaluation, rounded up to whole rotations' },
    'curve-every': { type: 'number', arg: 'M', min: 0, above: true, max: 1e6, default: 5, help: 'keep the policy every M minutes of training: the points of the wall-clock curve' },
    'curve-games': { type: 'int', arg: 'G', min: 1, max: 10_000_000, default: 1000, help: 'games of each curve point’s evaluation (after the run, on the first deals of the final one)' },
    out: { type: 'folder', default: 'recipe', help: 'where the summary, the run and the tournament are written: a new or empty folder' },
    workers: { type: 'int', arg: 'W', min: 0, max: 256, defaultText: 'one per core', help: 'worker threads of the final evaluation; 0 plays in this thread' },
  },
} as const satisfies CommandSpec;

export async function recipeCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseOptions(RECIPE, args);
  if (!parsed) {
    io.out(helpText(RECIPE));
    return EXIT_OK;
  }
  const { evalGames, curveEvery, curveGames, workers, out, ...v } = parsed.values;
  // The budget is --minutes or --total-steps, never both: given steps, time does not end the run.
  const bySteps = parsed.given.has('total-steps');
  const o: TrainOptions = {
    ...(v as Omit<TrainOptions, 'init' | 'imitate' | 'imitateSteps' | 'out'>),
    init: '', imitate: '', imitateSteps: TRAIN_OPTIONS['imitate-steps'].default,
    out: path.join(out, 'run'), minutes: bySteps ? 0 : v.minutes, totalSteps: bySteps ? v.totalSteps : UNBOUNDED_STEPS,
  };
  if (!bySteps && o.minutes === 0) throw new UsageError('--minutes: a recipe run needs a budget: more than 0 minutes, or --total-steps');
  if (!o.evalOpponents.includes(RECIPE_OPPONENT)) throw new UsageError(`--eval-opponents: the wall-clock curve is against ${RECIPE_OPPONENT}; keep it in the list`);
  if (fs.existsSync(out) && fs.readdirSync(out).length > 0) throw new UsageError(`--out ${out} already holds files; name a new or empty folder`);
  await checkBeforeRun(o);

  // A method option given another value than the recipe's (its choice, else the trainer's default): an ablation.
  const declared = RECIPE.options as Record<string, { default?: unknown }>;
  const departures = [...parsed.given]
    .filter((name) => name in TRAINING && !(NOT_METHOD as readonly string[]).includes(name))
    .map((name) => ({ option: name, recipe: declared[name].default ?? null, given: (o as Record<string, unknown>)[camel(name)] }))
    .filter((d) => JSON.stringify(d.recipe) !== JSON.stringify(d.given));
  const argv = ['czech-pub', 'recipe', ...args];

  io.err(`recipe: training a fresh net at ${o.players} players for ${bySteps ? `${o.totalSteps} learner decisions` : `${o.minutes} minutes`}`);
  const training = trainingProgress(io, o, 'recipe');
  let r;
  try {
    r = await runTraining(o, { ...training.events, keepEvery: curveEvery * 60 }, undefined, argv);
  } finally {
    training.close();
  }
  if (training.stopped()) {
    io.err(`interrupted: no summary written; the run so far is in ${r.dir} (czech-pub train --resume ${r.dir} continues it)`);
    return EXIT_FAILURE;
  }
  const model = path.join(r.dir, 'model.json');
  const tournament = (games: number, folder: string) => ({ players: o.players, games, seed: recipeEvaluationSeed(o.seed), workers, ruleset: o.ruleset, folder: path.join(out, folder) });
  io.err(`recipe: evaluating ppo:${model} against ${o.players - 1} × ${RECIPE_OPPONENT}`);
  const evaluation = await evaluateSeat(`ppo:${model}`, RECIPE_OPPONENT, tournament(evalGames, 'evaluation'), io);
  const summary = trainingSummary(r);
  const lastIteration = r.metrics[r.metrics.length - 1]?.iteration;
  // The policy kept at the last iteration is the final model, evaluated above.
  const points = r.kept.filter((k) => k.iteration !== lastIteration);
  const curve: CurvePointRecord[] = [];
  for (const k of evaluation ? points : []) {
    io.err(`recipe: evaluating the policy at ${(k.seconds / 60).toFixed(1)} minutes`);
    const e = await evaluateSeat(`ppo:${k.file}`, RECIPE_OPPONENT, tournament(curveGames, path.join('curve', `${Math.round(k.seconds)}s`)), io);
    if (!e) break;
    curve.push({ seconds: k.seconds, steps: k.steps, model: k.file, evaluation: e });
  }
  if (!evaluation || curve.length < points.length) {
    io.err(`interrupted: no summary written; the model is ${model}`);
    return EXIT_FAILURE;
  }
  curve.push({ seconds: summary.seconds, steps: summary.steps, model, evaluation });

  const { ruleset: _ruleset, ...options } = o;
  const record: RecipeRecord = {
    format: RECIPE_FORMAT, players: o.players, par: 1 / o.players, ruleset: o.ruleset.name, minutes: o.minutes,
    options, departures,
    trainCommand: trainCommandLine(o),
    run: r.dir, model, training: summary, evaluation, curve, curveEvery, trainerCurve: curveAgainst(r, RECIPE_OPPONENT),
    seeds: seedPatterns(o.seed, recipeEvaluationSeed(o.seed)),
    backend: r.backend, command: argv, createdAt: new Date().toISOString(),
  };
  fs.writeFileSync(path.join(out, 'recipe.json'), `${JSON.stringify(record, null, 2)}\n`);
  fs.writeFileSync(path.join(out, 'recipe.md'), recipeMarkdown(record));
  fs.writeFileSync(path.join(out, 'recipe.svg'), recipeSvg(record));
  io.out(
    `recipe at ${o.players} players: ${(100 * evaluation.winRate).toFixed(1)}% (95% ${(100 * evaluation.winRateCI[0]).toFixed(1)}–${(100 * evaluation.winRateCI[1]).toFixed(1)}%) ` +
      `against ${o.players - 1} × ${RECIPE_OPPONENT}, ${evaluation.overPar.toFixed(2)}× par (${(100 * record.par).toFixed(1)}%), ${evaluation.games} games; ` +
      `trained ${record.training.steps} learner decisions in ${(record.training.seconds / 60).toFixed(1)} minutes`,
  );
  io.out(`Summary in ${out}/ (recipe.md, recipe.json, recipe.svg). Play it: --agents ppo:${model}`);
  return EXIT_OK;
}
