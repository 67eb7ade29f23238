/**
 * The from-scratch recipe: the trainer's options `czech-pub recipe` starts from, for any table
 * size and ruleset, and the record it writes (recipe.json, recipe.md, recipe.svg). A recipe
 * run is one `runTraining` with these options (nothing is hand-run between stages), then a
 * duplicate tournament of the result against P − 1 × `heuristic` on deals training never saw.
 *
 * Each choice is an option of the trainer, so an ablation is the same command with one option
 * given back its trainer default (`--advice none`, `--reward rank`, …), and recipe.md prints the
 * `czech-pub train` line that repeats the run.
 */
import { DEFAULT_RULESET } from '../env/index.ts';
import { curveSvg } from './curve.ts';
import { TRAIN_DEFAULTS, type TrainOptionName, type TrainOptions } from './options.ts';
import type { EvalPoint, SeatEvaluation, SeedPatterns, TrainingSummary } from './run.ts';

export const RECIPE_FORMAT = 'czech-pub-recipe/1';

/** The bot the recipe learns beside, plays against, and is measured against. */
export const RECIPE_OPPONENT = 'heuristic';

/**
 * Where the recipe departs from the trainer's defaults, and why (figures: docs/results/,
 * 2 Dec 2026). The same at every table size: each is a weight or a rate, not a count of seats.
 */
export const RECIPE_CHOICES = {
  minutes: { value: 30, why: 'the budget it is measured at' },
  advice: {
    value: 'heuristic',
    why: 'starts by playing as heuristic does, with no cloning stage',
  },
  opponents: {
    value: '3*heuristic,self,past',
    why: 'mostly the bot it is measured against, and itself and its past so as not to overfit one',
  },
  reward: { value: 'win', why: 'the measure is the win rate (rank also pays for second place)' },
  lr: { value: 1e-3, why: 'at 3e-4 the advised policy barely moves in 30 minutes (KL ~1e-4 an update)' },
  'eval-opponents': { value: [RECIPE_OPPONENT], why: 'the wall-clock curve is against the measure' },
  'eval-every': { value: 20, why: 'about twenty points on a 30-minute curve, a few seconds each' },
} as const satisfies { [K in TrainOptionName]?: { value: unknown; why: string } };

/** The tournament seed of the final evaluation: its deals (`recipe/S/<deal>`) share no seed with training's (`S/…`). */
export function recipeEvaluationSeed(seed: number): string {
  return `recipe/${seed}`;
}

/** The `czech-pub train` command line that trains what `o` describes (options at their trainer default left out). */
export function trainCommandLine(o: TrainOptions): string {
  const parts = ['czech-pub train'];
  for (const [name, value] of Object.entries(o) as [string, unknown][]) {
    if (name === 'ruleset' || name === 'out' || name === 'totalSteps') continue;
    const dflt = (TRAIN_DEFAULTS as Record<string, unknown>)[name];
    if (JSON.stringify(value) === JSON.stringify(dflt)) continue;
    const flag = `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    if (typeof value === 'boolean') parts.push(flag);
    else {
      const text = Array.isArray(value) ? value.join(',') : String(value);
      parts.push(flag, /^[\w.,:/@-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`);
    }
  }
  // The ruleset was read from a file the record does not keep: named, for the reader to give.
  if (o.ruleset.name !== DEFAULT_RULESET.name) parts.push('--ruleset', `<the file of ruleset '${o.ruleset.name}'>`);
  return parts.join(' ');
}

/** A wall-clock curve's point: a policy kept at `seconds` of training, and its duplicate tournament. */
export interface CurvePointRecord {
  seconds: number;
  steps: number;
  model: string;
  evaluation: SeatEvaluation;
}

export interface RecipeRecord {
  format: typeof RECIPE_FORMAT;
  players: number;
  par: number;
  ruleset: string;
  minutes: number;
  /** The trainer's options of the run (the ruleset by name above). */
  options: Omit<TrainOptions, 'ruleset'>;
  /** The recipe's choices given another value on the command line: an ablation when any. */
  departures: { option: string; recipe: unknown; given: unknown }[];
  /** `czech-pub train` with the same options. */
  trainCommand: string;
  run: string;
  model: string;
  training: TrainingSummary;
  /** The duplicate tournament: the model in one seat, P − 1 × heuristic, seats rotated, on unseen deals. */
  evaluation: SeatEvaluation;
  /**
   * The wall-clock curve: the policies kept every `curveEvery` minutes of training, each played
   * afterwards (outside the budget) as the final one is, on the first `curveGames` of its deals;
   * the last point is the final evaluation.
   */
  curve: CurvePointRecord[];
  curveEvery: number;
  /** The trainer's own evaluations as the run went (its fixed deals, few games: noisy). */
  trainerCurve: EvalPoint[];
  seeds: SeedPatterns;
  backend: string;
  command: string[];
  createdAt: string;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const times = (x: number) => `${x.toFixed(2)}×`;

export function recipeMarkdown(r: RecipeRecord): string {
  const v = r.evaluation;
  const t = r.training;
  const lines = [
    `# From scratch at ${r.players} players: ${pct(v.winRate)} against ${r.players - 1} × ${RECIPE_OPPONENT}`,
    '',
    `A fresh net trained for ${r.minutes} minutes of wall clock (backend ${r.backend.split(' (')[0]}, ruleset ${r.ruleset}), then played in one seat ` +
      `against ${r.players - 1} × ${RECIPE_OPPONENT} in a duplicate tournament of ${v.games} games (${v.deals} deals, seats rotated) on deals ` +
      `training never saw (seeds ${r.seeds.evaluation}). Par is 1/${r.players} = ${pct(r.par)}; intervals are 95%, over deals.`,
    '',
    '| win rate | 95% interval | × par | 95% interval | trained: steps, games, minutes |',
    '|---:|---:|---:|---:|---:|',
    `| ${pct(v.winRate)} | ${pct(v.winRateCI[0])}–${pct(v.winRateCI[1])} | ${times(v.overPar)} | ${times(v.overParCI[0])}–${times(v.overParCI[1])} | ${t.steps}, ${t.games}, ${(t.seconds / 60).toFixed(1)} |`,
    '',
    r.departures.length === 0
      ? 'The recipe as it stands, no option changed.'
      : `An ablation: ${r.departures.map((d) => `\`--${d.option}\` ${JSON.stringify(d.given)} (the recipe's: ${JSON.stringify(d.recipe)})`).join(', ')}.`,
    '',
    'The same run with `czech-pub train`:',
    '',
    '```sh',
    r.trainCommand,
    '```',
    '',
    `## Wall-clock curve`,
    '',
    `The policy as it was every ${r.curveEvery} minutes of training, each played after the run (outside its budget) against ` +
      `${r.players - 1} × ${RECIPE_OPPONENT} on the first deals of the final evaluation; the last row is the final evaluation. Run: \`${r.run}\`.`,
    '',
    '| minutes | steps | games | win rate | 95% interval | × par |',
    '|---:|---:|---:|---:|---:|---:|',
    ...r.curve.map((p) => {
      const v = p.evaluation;
      return `| ${(p.seconds / 60).toFixed(1)} | ${p.steps} | ${v.games} | ${pct(v.winRate)} | ${pct(v.winRateCI[0])}–${pct(v.winRateCI[1])} | ${times(v.overPar)} |`;
    }),
    '',
    `The trainer's own evaluations as it went (its fixed deals, seeded ${r.seeds.trainingEvaluations}; few games each, so noisy): ` +
      (r.trainerCurve.map((p) => `${(p.seconds / 60).toFixed(1)} min ${pct(p.winRate)}`).join(', ') || 'none') + '.',
    '',
    'Chart: [recipe.svg](recipe.svg). The tournament’s games, results and report are in `evaluation.folder` (recipe.json).',
    '',
  ];
  return lines.join('\n');
}

/** The wall-clock curve, par dashed. */
export function recipeSvg(r: RecipeRecord): string {
  const points = r.curve.map((p) => ({ steps: p.seconds / 60, value: p.evaluation.winRate, lo: p.evaluation.winRateCI[0], hi: p.evaluation.winRateCI[1] }));
  const trainer = r.trainerCurve.map((p) => ({ steps: p.seconds / 60, value: p.winRate }));
  return curveSvg(
    `From scratch, ${r.players} players (seed ${r.seeds.seed})`,
    [{ name: `vs ${RECIPE_OPPONENT}`, points }, { name: "trainer's evaluations", points: trainer }], r.par,
    { label: 'minutes of training (wall clock)', format: (m) => m.toFixed(m < 10 ? 1 : 0) },
  );
}
