import { describe, expect, it } from 'vitest';
import { outcomeRewards } from './evaluate.ts';
import { backup, bestValued, confidentChoice, markAvailable, mostVisited, Node, selectUcb, settled } from './tree.ts';

/** A root child of seat 0 whose visits returned `rewards` (seat 0's), in order. */
function child(root: Node, action: number, rewards: number[]): Node {
  const c = root.addChild(0, action);
  c.samples = [];
  for (const r of rewards) {
    backup([root, c], [r, 1 - r]);
    c.samples.push(r);
  }
  return c;
}

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

  it('picks the best-valued well-explored action, and stops when the leader is safe', () => {
    const root = new Node(2, -1, -1);
    child(root, 1, [0.5, 0.5, 0.5, 0.5]);
    child(root, 2, [0.6, 0.6]);
    child(root, 3, [0.9]); // too few visits to count
    expect(bestValued(root, 0, [1, 2, 3])).toBe(2);
    expect(settled(root, 0, 1)).toBe(true);
    expect(settled(root, 0, 2)).toBe(false);
  });

  it('keeps the policy’s choice unless the search’s is better by the paired test', () => {
    const root = new Node(2, -1, -1);
    child(root, 1, [0.5, 0.6, 0.4, 0.5]); // the policy's
    child(root, 2, [0.55, 0.65, 0.45, 0.55]); // better on every common world
    child(root, 3, [0.9, 0.2, 0.9, 0.2]); // better on average, by noise
    expect(confidentChoice(root, 0, 2, 1, 1)).toBe(2);
    expect(confidentChoice(root, 0, 3, 1, 1)).toBe(1);
    expect(confidentChoice(root, 0, 3, 1, 0)).toBe(3);
    expect(confidentChoice(root, 0, 3, -1, 1)).toBe(3);
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
