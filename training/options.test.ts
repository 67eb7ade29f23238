import { describe, expect, it } from 'vitest';
import { DEFAULT_RULESET } from '../env/ruleset.ts';
import { bufferIo } from '../cli/io.ts';
import { main } from '../cli/main.ts';
import { camel, helpText } from '../cli/options.ts';
import { TRAIN } from '../cli/train.ts';
import { checkTrainOptions, fromOptionsJson, TRAIN_DEFAULTS, TRAIN_OPTIONS, UNBOUNDED_STEPS } from './options.ts';
import { train } from './ppo.ts';

const names = Object.keys(TRAIN_OPTIONS);

describe('training options, declared once', () => {
  it('every declared option is a flag in --help and an option of the trainer, under the same name', () => {
    const help = helpText(TRAIN);
    for (const name of names) expect(help, name).toMatch(new RegExp(`^  --${name}\\b`, 'm'));
    expect(Object.keys(TRAIN_DEFAULTS).sort()).toEqual(names.map(camel).sort());
    expect(() => checkTrainOptions(TRAIN_DEFAULTS)).not.toThrow();
  });

  it('a number out of range is refused with one message naming the option and range, by the trainer as by the command line', async () => {
    for (const [name, o] of Object.entries(TRAIN_OPTIONS)) {
      if (o.type !== 'int' && o.type !== 'number') continue;
      const max = typeof o.max === 'function' ? o.max({ ruleset: DEFAULT_RULESET }) : o.max;
      const min = typeof o.min === 'function' ? o.min({ ruleset: DEFAULT_RULESET }) : o.min;
      const message = `--${name} must be ${o.type === 'int' ? `a whole number from ${min} to ${max}` : 'above' in o ? `a number greater than ${min} and at most ${max}` : `a number from ${min} to ${max}`}, got '${max + 1}'`;
      await expect(train({ ...TRAIN_DEFAULTS, [camel(name)]: max + 1 }), name).rejects.toThrow(message);
      const io = bufferIo();
      expect(await main(['train', `--${name}`, String(max + 1)], io), name).toBe(2);
      expect(io.stderr.join('\n'), name).toContain(message);
    }
    expect(() => checkTrainOptions({ ...TRAIN_DEFAULTS, hidden: [256, 0] })).toThrow("--hidden must be comma-separated whole numbers from 1 to 4096, got '256,0'");
    expect(() => checkTrainOptions({ ...TRAIN_DEFAULTS, evalOpponents: ['random', ''] })).toThrow("--eval-opponents has an empty entry: 'random,'");
    expect(() => checkTrainOptions({ ...TRAIN_DEFAULTS, reward: 'money' as 'rank' })).toThrow("--reward must be one of win, rank, score, got 'money'");
    // The range of players is the ruleset's.
    const fewer = { ...DEFAULT_RULESET, players: { ...DEFAULT_RULESET.players, max: 3 } };
    expect(() => checkTrainOptions({ ...TRAIN_DEFAULTS, ruleset: fewer })).toThrow("--players must be a whole number from 2 to 3, got '4'");
  });

  it("reads an older run's options.json: old names mapped, options it lacked defaulted", () => {
    // What runs wrote before the options were declared once (no ruleset: before rulesets were an option).
    const old = {
      seed: 3, players: 3, totalSteps: Number.MAX_SAFE_INTEGER, minutes: 30, numEnvs: 16, rolloutSteps: 4096, hidden: [64], advice: '',
      lr: 1e-4, annealLr: false, gamma: 0.99, lambda: 0.9, epochs: 2, minibatch: 512, clip: 0.1, entCoef: 0.003, vfCoef: 0.5, maxGradNorm: 0.5,
      targetKl: 0.02, reward: 'win', pool: '2*self,heuristic', snapshotEvery: 5, maxSnapshots: 4, imitate: 'heuristic', imitateSteps: 1000,
      plainDense: false, backend: 'wasm', out: 'runs/old', evalEvery: 3, evalDeals: 20, evalOpponents: 'random, heuristic', checkpointEvery: 2,
      someOptionSinceDropped: 1,
    };
    const o = fromOptionsJson(old);
    expect(o).toMatchObject({
      seed: 3, players: 3, totalSteps: UNBOUNDED_STEPS, minutes: 30, numEnvs: 16, rolloutSteps: 4096, hidden: [64], advice: 'none', constantLr: true,
      opponents: '2*self,heuristic', evalOpponents: ['random', 'heuristic'], staleness: 0, init: '', ruleset: DEFAULT_RULESET,
    });
    expect(Object.keys(o).sort()).toEqual(Object.keys(TRAIN_DEFAULTS).sort());
    expect(fromOptionsJson({ annealLr: true }).constantLr).toBe(false);
    expect(() => fromOptionsJson({ numEnvs: 0 })).toThrow("--num-envs must be a whole number from 1 to 4096, got '0'");
  });
});
