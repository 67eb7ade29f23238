import { describe, expect, it } from 'vitest';
import { outcomeRewards } from './evaluate.ts';
import { backup, markAvailable, mostVisited, Node, selectUcb } from './tree.ts';

describe('ismcts tree', () => {
  it('keys children by actor and action, and counts availability', () => {
    const root = new Node(3, -1, -1);
    const a = root.addChild(1, 64);
    root.addChild(2, 64);
    const out: Node[] = [];
    const untried: number[] = [];
    markAvailable(root, 1, [64, 65], out, untried);
    expect(out).toEqual([a]);
    expect(untried).toEqual([65]);
    expect(a.avail).toBe(1);
    expect(root.child(2, 64)!.avail).toBe(0);
  });

  it('selects by the acting seat’s own mean reward plus exploration', () => {
    const root = new Node(2, -1, -1);
    const x = root.addChild(0, 1);
    const y = root.addChild(0, 2);
    backup([x], [1, 0]);
    backup([y], [0, 1]);
    x.avail = y.avail = 2;
    expect(selectUcb([x, y], 0, 0.7)).toBe(x);
    expect(selectUcb([x, y], 1, 0.7)).toBe(y);
    backup([y], [0, 1]);
    expect(mostVisited(root, 0, [1, 2])).toBe(2);
    expect(mostVisited(root, 0, [3])).toBe(-1);
  });

  it('rewards: win shares plus a squashed margin, in [0, 1]', () => {
    const out = new Float64Array(3);
    expect([...outcomeRewards([10, 5, 10], { scoreWeight: 0, scoreScale: 10 }, out)]).toEqual([0.5, 0, 0.5]);
    const r = outcomeRewards([30, 10, 0], { scoreWeight: 0.5, scoreScale: 10 }, out);
    expect(r[0]).toBeCloseTo(0.5 + 0.25 * (1 + Math.tanh(2)));
    expect(r[1]).toBeCloseTo(0.25 * (1 + Math.tanh(-2)));
    for (const v of r) expect(v >= 0 && v <= 1).toBe(true);
  });
});
