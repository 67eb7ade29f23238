import { describe, expect, it } from 'vitest';
import { leaderboardMarkdown } from './report.ts';
import { ResultsSchema } from './results-schema.ts';
import { runTournament } from './tournament.ts';

describe('leaderboard of a small or empty sample', () => {
  it('ranks no agent of a run stopped before any game finished, and its results.json still validates', async () => {
    const r = await runTournament({ agents: ['random', 'greedy', 'random'], games: 3, seed: 'none', workers: 0, runner: async () => ({ results: [], interrupted: true }) });
    expect(r.complete).toBe(false);
    const board = leaderboardMarkdown(r);
    expect(board).not.toMatch(/^\| 1 \|/m);
    expect(board).toMatch(/^\| – \| `random` ×2 \|/m);
    expect(board).toContain('Not ranked (–): no finished game.');
    expect(board).toContain('Small sample: 0 deals.');
    expect(ResultsSchema.safeParse(JSON.parse(JSON.stringify(r))).success).toBe(true);
  });

  it('gives no mean-score interval from one deal, and says the sample is small', async () => {
    const r = await runTournament({ agents: ['random', 'greedy', 'random'], games: 3, seed: 'one-deal', workers: 0 });
    expect(r.summary.deals).toBe(1);
    for (const a of r.summary.agents) expect(a.scoreCI.every(Number.isNaN)).toBe(true);
    const board = leaderboardMarkdown(r);
    expect(board).toContain('Small sample: 1 deal.');
    expect(board).toMatch(/^\| 1 \| /m);
  });
});
