import { describe, expect, it } from 'vitest';
import { createAgent } from '../default-registry.ts';
import { ISMCTS_DEFAULTS, parseIsmctsOptions } from './options.ts';

describe('ismcts options', () => {
  it('parses options over the defaults', () => {
    expect(parseIsmctsOptions('ismcts', '', createAgent)).toEqual(ISMCTS_DEFAULTS);
    const o = parseIsmctsOptions('s', 'iterations=50:c=1.2:rollout=random:depth=4:timeMs=100:scoreWeight=0:scoreScale=5', createAgent);
    expect(o).toEqual({ ...ISMCTS_DEFAULTS, iterations: 50, c: 1.2, rollout: 'random', depth: 4, timeMs: 100, scoreWeight: 0, scoreScale: 5 });
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
});
