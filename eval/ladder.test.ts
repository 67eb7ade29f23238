import { describe, expect, it } from 'vitest';
import { ladderMarkdown, ladderSchedule, runLadder } from './ladder.ts';

describe('ladder', () => {
  it('seats different agents at every table, rotates each deal through every seat, and fields everyone at every size', () => {
    const games = ladderSchedule(5, [2, 4], 40, 's');
    expect(games.map((g) => g.index)).toEqual(games.map((_, i) => i));
    for (const p of [2, 4]) {
      const mine = games.filter((g) => g.seating.length === p);
      expect(mine.length).toBe(Math.ceil(40 / p) * p);
      const seen = new Set<number>();
      for (let t = 0; t < mine.length; t += p) {
        const table = mine.slice(t, t + p);
        // One deal per table, played once per rotation: every agent of it in every seat.
        expect(new Set(table.map((g) => g.seed)).size).toBe(1);
        expect(new Set(table.map((g) => g.deal)).size).toBe(1);
        for (const g of table) expect(new Set(g.seating).size).toBe(p);
        for (let seat = 0; seat < p; seat++) expect(new Set(table.map((g) => g.seating[seat])).size).toBe(p);
        table[0].seating.forEach((e) => seen.add(e));
      }
      expect(seen.size).toBe(5);
    }
  });

  it('rates everyone over all sizes and reports each size against par; the same seed gives the same ladder', async () => {
    const o = { agents: ['random', 'greedy', 'cautious', 'heuristic'], sizes: [3, 2], games: 36, seed: 'l', workers: 0 };
    const r = await runLadder(o);
    expect(r.complete).toBe(true);
    expect(r.sizes).toEqual([2, 3]);
    expect(r.gamesPlayed).toBe(36 + 36);
    expect(r.rows.map((x) => x.agent).sort()).toEqual([...o.agents].sort());
    // Best first by ordinal; win shares at a size add up to that size's games.
    for (let i = 1; i < r.rows.length; i++) expect(r.rows[i - 1].ratingOrdinal).toBeGreaterThanOrEqual(r.rows[i].ratingOrdinal);
    for (const p of [2, 3]) {
      const wins = r.rows.reduce((n, x) => n + (x.bySize[`${p}`]?.winRate ?? 0) * (x.bySize[`${p}`]?.games ?? 0), 0);
      expect(wins).toBeCloseTo(36, 6);
      for (const x of r.rows) expect(x.bySize[`${p}`].toPar).toBeCloseTo(x.bySize[`${p}`].winRate * p, 12);
    }
    expect(r.rows[0].agent).toBe('heuristic');
    expect(ladderMarkdown(r)).toContain('| 1 | `heuristic` |');
    // The same seed, the same ladder but for the time decisions took.
    const untimed = (x: typeof r) => ({ ...x, overall: { ...x.overall, agents: x.overall.agents.map(({ msPerDecision, ...a }) => a) } });
    expect(untimed(await runLadder(o))).toEqual(untimed(r));
  });
});
