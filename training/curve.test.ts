import { describe, expect, it } from 'vitest';
import { curveSvg } from './curve.ts';

describe('training curve', () => {
  it("labels the chance line with the players' share, and escapes names", () => {
    const svg = curveSvg('PPO <4p>', [{ name: 'eval vs heuristic & co', points: [{ steps: 100, value: 0.3, lo: 0.2, hi: 0.4 }] }], 1 / 4);
    expect(svg).toContain('chance: 1 in 4 (25%)');
    expect(svg).not.toContain('1 in players');
    expect(svg).toContain('PPO &#60;4p&#62;');
    expect(curveSvg('t', [], 1 / 6)).toContain('chance: 1 in 6 (17%)');
    expect(curveSvg('t', [])).not.toContain('chance');
  });
});
