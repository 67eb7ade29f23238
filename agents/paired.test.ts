import { describe, expect, it } from 'vitest';
import { beatsPaired } from './paired.ts';

describe('beatsPaired', () => {
  it('needs two pairs to judge', () => {
    expect(beatsPaired([1], [0], 1)).toBeNull();
    expect(beatsPaired([1, 1, 1], [0], 1)).toBeNull();
  });

  it('passes a steady lead and fails one the noise can explain', () => {
    expect(beatsPaired([0.6, 0.7, 0.65, 0.62], [0.5, 0.6, 0.55, 0.5], 1)).toBe(true);
    // Mean difference 0.05, differences swinging ±0.5: far inside one standard error.
    expect(beatsPaired([1, 0, 1, 0.2], [0.5, 0.5, 0.5, 0.5], 1)).toBe(false);
    // Pairing matters: the same values unpaired would look like a tie.
    expect(beatsPaired([0.1, 0.9, 0.3, 0.7], [0, 0.8, 0.2, 0.6], 2)).toBe(true);
  });

  it('never passes a loss or a tie', () => {
    expect(beatsPaired([0, 0, 0], [1, 1, 1], 0)).toBe(false);
    expect(beatsPaired([0.5, 0.5], [0.5, 0.5], 0)).toBe(false);
  });
});
