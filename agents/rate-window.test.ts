import { describe, expect, it } from 'vitest';
import { fairShare, giveBack, lastCall, rateWindow, takeWindow, windowCalls } from './rate-window.ts';

/** A small seeded generator (mulberry32): the same attempts on every run. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('a sliding window of calls', () => {
  it('lets no window of its length hold more than its limit, and refuses only when one would', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const next = generator(seed);
      const limit = 1 + Math.floor(next() * 20);
      const w = rateWindow(limit, { windowMs: 1000 });
      const taken: number[] = [];
      let t = 0;
      for (let i = 0; i < 2000; i++) {
        // Bursts and lulls: most attempts close together, some far apart.
        t += next() < 0.9 ? Math.floor(next() * 20) : Math.floor(next() * 3000);
        const before = taken.filter((x) => x > t - 1000).length;
        if (takeWindow(w, t)) taken.push(t);
        else expect(before, `seed ${seed}: refused at ${t} with room`).toBe(limit);
      }
      for (const start of taken) expect(taken.filter((x) => x >= start && x < start + 1000).length, `seed ${seed}`).toBeLessThanOrEqual(limit);
      expect(taken.length).toBeGreaterThan(limit);
    }
  });

  it('lets no burst through across a minute boundary: 300 at 0:59.9 leave none for 1:00.1', () => {
    const w = rateWindow(300);
    const minute = 60_000 * 1000;
    for (let i = 0; i < 300; i++) expect(takeWindow(w, minute - 100)).not.toBeNull();
    expect(Array.from({ length: 300 }, () => takeWindow(w, minute + 100)).filter((c) => c !== null)).toHaveLength(0);
    expect(windowCalls(w, minute + 100).calls).toBe(300);
    // A minute after the burst, the whole limit again.
    expect(Array.from({ length: 301 }, () => takeWindow(w, minute + 59_900)).filter((c) => c !== null)).toHaveLength(300);
  });

  it('holds each client of a shared window to its share: half alone, and room left for one more', () => {
    expect([1, 2, 3, 9].map((n) => fairShare(12, n))).toEqual([6, 4, 3, 1]);
    const w = rateWindow(12, { fair: true, windowMs: 1000 });
    const take = (owner: number, n: number, t: number) => Array.from({ length: n }, () => takeWindow(w, t, owner)).filter((c) => c !== null).length;
    expect(take(1, 10, 0)).toBe(6); // alone: half
    expect(take(2, 10, 10)).toBe(4); // two calling: a third each
    expect(take(1, 1, 11)).toBe(0); // past its share: refused though two places are free
    expect(take(3, 10, 20)).toBe(2); // three: a quarter (3) each, of which 2 are left
    expect(windowCalls(w, 30)).toEqual({ calls: 12, mine: 0, clients: 3 });
    // Client 1's calls age out first, and it comes back as one of three: a quarter each.
    expect(take(1, 5, 1001)).toBe(3);
    expect(take(3, 5, 1001)).toBe(1);
    expect(windowCalls(w, 1001, 3)).toEqual({ calls: 10, mine: 3, clients: 3 });
  });

  it('gives a call back into the slot it took, and knows when it last took one', () => {
    const w = rateWindow(2, { windowMs: 1000 });
    expect(lastCall(w)).toBe(-Infinity);
    const a = takeWindow(w, 5000)!;
    const b = takeWindow(w, 5500)!;
    expect(takeWindow(w, 5600)).toBeNull();
    giveBack(b);
    expect(lastCall(w)).toBe(5000);
    expect(takeWindow(w, 5600)).not.toBeNull();
    giveBack(a);
    expect(windowCalls(w, 5600).calls).toBe(1);
    // A window of limit 0 takes nothing.
    expect(takeWindow(rateWindow(0), 0)).toBeNull();
  });
});
