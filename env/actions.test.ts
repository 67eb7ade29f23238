import { describe, expect, it } from 'vitest';
import { ACTION_GROUPS, NUM_ACTIONS } from './actions.ts';

describe('ACTION_GROUPS', () => {
  it('covers every action id exactly once, in order', () => {
    let next = 0;
    for (const g of ACTION_GROUPS) {
      expect(g.first).toBe(next);
      expect(g.last).toBeGreaterThanOrEqual(g.first);
      next = g.last + 1;
    }
    expect(next).toBe(NUM_ACTIONS);
  });
});
