import { describe, expect, it } from 'vitest';
import { DEFAULT_RULESET, MICRO_RULESET, parseRuleset } from '../../env/index.ts';
import { playGame } from '../../eval/game.ts';
import { createAgent } from '../default-registry.ts';
import { cutOffDepth, ISMCTS_DEFAULTS, parseIsmctsOptions } from './options.ts';

describe('ismcts options', () => {
  it('parses options over the defaults', () => {
    expect(parseIsmctsOptions('ismcts', '', createAgent)).toEqual(ISMCTS_DEFAULTS);
    const o = parseIsmctsOptions('s', 'iterations=50:c=1.2:rollout=random:depth=4:timeMs=100:scoreWeight=0:scoreScale=5', createAgent);
    expect(o).toEqual({ ...ISMCTS_DEFAULTS, iterations: 50, c: 1.2, rollout: 'random', depth: 4, depthGiven: true, timeMs: 100, scoreWeight: 0, scoreScale: 5 });
    expect(createAgent('ismcts:iterations=50').spec).toBe('ismcts:iterations=50');
  });

  it('fails on a bad option, naming it', () => {
    const bad: [string, RegExp][] = [
      ['iterations=0', /option 'iterations' must be an integer ≥ 1, got '0'/],
      ['iterations=2.5', /option 'iterations'/],
      ['iterations=many', /option 'iterations' must be a number, got 'many'/],
      ['timeMs=-1', /option 'timeMs'/],
      ['c=-0.1', /option 'c'/],
      ['depth=1.5', /option 'depth'/],
      ['scoreWeight=2', /option 'scoreWeight' must be between 0 and 1/],
      ['scoreScale=0', /option 'scoreScale'/],
      ['rollout=ismcts', /option 'rollout'/],
      ['rollout=nosuch', /option 'rollout'.*unknown agent 'nosuch'/],
      ['speed=9', /unknown option 'speed'; options: iterations, timeMs/],
      ['beliefs=exact', /option 'beliefs' must be uniform or policy, got 'exact'/],
    ];
    for (const [opts, msg] of bad) expect(() => createAgent(`ismcts:${opts}`)).toThrow(msg);
  });

  it('cuts off with the learned evaluation only under the rules it was fitted to', () => {
    // Any ruleset but the standard one: micro, and the standard numbers with one card's count changed.
    const tweaked = parseRuleset({ ...DEFAULT_RULESET, name: 'tweaked', cards: { ...DEFAULT_RULESET.cards, beer: { ...DEFAULT_RULESET.cards.beer, count: DEFAULT_RULESET.cards.beer.count + 1 } } });
    const depth = (options: string, ruleset = DEFAULT_RULESET) => cutOffDepth('s', parseIsmctsOptions('s', options, createAgent), ruleset);
    expect(depth('')).toBe(1);
    expect(depth('depth=3')).toBe(3);
    for (const other of [MICRO_RULESET, tweaked]) {
      expect(depth('', other)).toBe(0); // left to its default: played to the end
      expect(depth('depth=0', other)).toBe(0);
      expect(depth('depth=2:eval=chart', other)).toBe(2); // the chart reads the game's own rules
      expect(() => depth('depth=2', other)).toThrow(/learned evaluation \(eval=learned\) was fitted to the standard rules.*give depth=0.*or eval=chart/);
      expect(() => depth('depth=1:eval=learned', other)).toThrow(/fitted to the standard rules/);
    }
  });

  it('plays a micro game as with depth=0 when depth is left to its default, and refuses a cut-off asked for', async () => {
    const play = (spec: string) => playGame([createAgent(spec), createAgent('heuristic')], { seed: 'micro-cutoff', ruleset: MICRO_RULESET });
    const byDefault = await play('ismcts:iterations=30');
    expect(byDefault.actions).toEqual((await play('ismcts:iterations=30:depth=0')).actions);
    await expect(play('ismcts:iterations=30:depth=1')).rejects.toThrow(/fitted to the standard rules, not to this game's \(czech-pub-micro\)/);
  });
});
