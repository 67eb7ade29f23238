import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RECIPE_CHOICES, trainCommandLine, TRAIN_DEFAULTS, type RecipeRecord } from '../training/index.ts';
import { bufferIo, countingClock } from './io.ts';
import { main } from './main.ts';

async function run(...argv: string[]) {
  // Minutes of training counted in clock reads (each 40 ms), not taken from the machine: the same
  // iterations, kept policies and curve points however busy the machine is.
  const io = bufferIo([], countingClock(40));
  const code = await main(argv, io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

// A few seconds of training on a tiny net, a handful of evaluation games, all in this thread.
const TINY = ['--minutes', '0.05', '--eval-games', '8', '--curve-every', '0.015', '--curve-games', '4', '--num-envs', '4', '--rollout-steps', '256', '--hidden', '8', '--eval-deals', '2', '--eval-every', '4', '--workers', '0'];
/** A test that trains: the same work on any machine (the clock counts its reads), which a busy one stretches several times over. */
const TRAINING_MS = 300_000;

describe('czech-pub recipe', () => {
  it("trains a fresh net with the recipe's options, evaluates it on unseen deals and writes the summary", async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-recipe-'));
    const r = await run('recipe', '--players', '2', '--seed', '5', '--out', out, ...TINY);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/recipe at 2 players: [\d.]+% \(95% [\d.]+–[\d.]+%\) against 1 × heuristic, [\d.]+× par \(50\.0%\), 8 games; trained \d+ learner decisions/);
    const j = JSON.parse(fs.readFileSync(path.join(out, 'recipe.json'), 'utf8')) as RecipeRecord;
    expect(j).toMatchObject({ format: 'czech-pub-recipe/1', players: 2, par: 0.5, minutes: 0.05, ruleset: 'czech-pub-standard' });
    // The recipe's choices are the run's options; the budget and the evaluations given here change no method: no ablation.
    expect(j.options).toMatchObject({ advice: 'heuristic', opponents: '3*heuristic,self,past', reward: 'win', lr: 1e-3, evalOpponents: ['heuristic'], init: '', imitate: '' });
    expect(j.departures.map((d) => d.option).sort()).toEqual(['hidden', 'num-envs', 'rollout-steps']);
    const options = JSON.parse(fs.readFileSync(path.join(j.run, 'options.json'), 'utf8')).options;
    expect(options).toMatchObject({ ...j.options, seed: 5 });
    for (const part of ['--advice heuristic', "--opponents '3*heuristic,self,past'", '--reward win', '--lr 0.001', '--players 2']) expect(j.trainCommand).toContain(part);
    expect(j.training.steps).toBeGreaterThan(0);
    expect(fs.existsSync(j.model)).toBe(true);
    // The curve: the policies kept every 0.9 s, each played after the run on the first deals of the final evaluation, then the final one.
    expect(j.curveEvery).toBe(0.015);
    expect(j.curve.length).toBeGreaterThanOrEqual(2);
    expect(j.curve.every((p, i) => i === 0 || p.seconds > j.curve[i - 1].seconds)).toBe(true);
    const last = j.curve[j.curve.length - 1];
    expect(last).toMatchObject({ model: j.model, evaluation: j.evaluation, steps: j.training.steps });
    for (const p of j.curve.slice(0, -1)) {
      expect(p.evaluation.games).toBe(4);
      expect(p.seconds).toBeGreaterThanOrEqual(0.9);
      expect(fs.existsSync(p.model)).toBe(true);
      const deals = fs.readFileSync(path.join(p.evaluation.folder, 'games.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).seed);
      expect(deals.every((d: string) => /^recipe\/5\/[01]$/.test(d))).toBe(true);
    }
    expect(j.trainerCurve.length).toBeGreaterThan(0);
    const v = j.evaluation;
    expect(v.games).toBe(8);
    expect(v.overPar).toBeCloseTo(2 * v.winRate);
    // The evaluation's deals are its own: training's are seeded 5/…, its 'recipe/5/<deal>'.
    const games = fs.readFileSync(path.join(v.folder, 'games.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(games).toHaveLength(8);
    for (const g of games) expect(g.seed).toMatch(/^recipe\/5\/\d+$/);
    const md = fs.readFileSync(path.join(out, 'recipe.md'), 'utf8');
    expect(md).toContain('# From scratch at 2 players');
    expect(md).toContain('## Wall-clock curve');
    expect(md).toContain('An ablation: `--num-envs` 4 (the recipe\'s: 32)');
    expect(fs.readFileSync(path.join(out, 'recipe.svg'), 'utf8')).toContain('minutes of training (wall clock)');
  }, TRAINING_MS);

  it('names an ablation: a recipe choice given another value', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-recipe-ablation-'));
    const r = await run('recipe', '--players', '2', '--advice', 'none', '--reward', 'win', '--out', out, ...TINY);
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(fs.readFileSync(path.join(out, 'recipe.json'), 'utf8')) as RecipeRecord;
    // --reward win is the recipe's own value: not a departure.
    expect(j.departures).toContainEqual({ option: 'advice', recipe: 'heuristic', given: 'none' });
    expect(j.departures).toContainEqual({ option: 'hidden', recipe: [256, 128], given: [8] });
    expect(j.departures.map((d) => d.option)).not.toContain('reward');
    expect(j.options.advice).toBe('none');
  }, TRAINING_MS);

  it('refuses what it cannot run before writing anything', async () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cli-recipe-bad-')), 'out');
    for (const [args, message] of [
      [['--out', out], /--players/],
      [['--players', '4', '--minutes', '0', '--out', out], /--minutes: a recipe run needs a budget/],
      [['--players', '4', '--eval-opponents', 'random', '--out', out], /--eval-opponents: the wall-clock curve is against heuristic/],
      [['--players', '4', '--init', 'models/ppo-4p.json', '--out', out], /--init/],
      [['--players', '4', '--opponents', 'nobody', '--out', out], /--opponents/],
    ] as [string[], RegExp][]) {
      const r = await run('recipe', ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toMatch(message);
      expect(fs.existsSync(out)).toBe(false);
    }
  });
});

describe("the recipe's train command line", () => {
  it("gives only what departs from the trainer's defaults, quoted where a shell needs it", () => {
    expect(trainCommandLine({ ...TRAIN_DEFAULTS, seed: 3 })).toBe('czech-pub train --seed 3');
    const line = trainCommandLine({ ...TRAIN_DEFAULTS, opponents: "3*heuristic,self,past", constantLr: true, evalOpponents: ['heuristic', 'random'] });
    expect(line.split(' --').sort()).toEqual(['constant-lr', 'czech-pub train', "opponents '3*heuristic,self,past'", 'eval-opponents heuristic,random'].sort());
  });

  it('every recipe choice is a trainer option', () => {
    for (const name of Object.keys(RECIPE_CHOICES)) {
      const camelName = name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
      expect(Object.keys(TRAIN_DEFAULTS), name).toContain(camelName);
    }
  });
});
