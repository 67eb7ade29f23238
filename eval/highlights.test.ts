import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkViewerUrl, DEFAULT_VIEWER, HighlightPicker } from './highlights.ts';
import { decodeReplay, replayGame } from './replay-record.ts';
import type { GameResult, Summary } from './summary.ts';
import { runTournament } from './tournament.ts';

/** A game with the given scores and length; entry i sits at seat i. */
function game(index: number, scores: number[], turns: number, truncated = false): GameResult {
  const best = Math.max(...scores);
  return {
    index, deal: index, seed: `s/${index}`, seating: scores.map((_, i) => i), scores, points: scores, turns, decisions: turns * 3, truncated,
    winners: scores.flatMap((s, i) => (s === best ? [i] : [])), out: scores.map(() => null),
    agentDecisions: [], agentMillis: [], actions: [index],
  };
}
const summary = (ratings: Record<string, number>) => ({ agents: Object.entries(ratings).map(([spec, rating]) => ({ spec, rating })) }) as unknown as Summary;

describe('games worth watching', () => {
  it('picks the biggest upsets, the longest game and the closest finish, ties to the lowest index', () => {
    const p = new HighlightPicker(['strong', 'middle', 'weak'], false, 'ab');
    const games = [
      game(0, [10, 5, 1], 20),
      game(1, [2, 3, 9], 30), // weak wins by 6
      game(2, [1, 2, 5], 30), // weak wins by 3: same length as game 1, later index
      game(3, [4, 7, 6], 12), // middle wins by 1: the closest sole win
      game(4, [8, 8, 1], 25), // a shared win: closer still
      game(5, [0, 0, 30], 99, true), // cut off: never picked
    ];
    for (const g of [...games].reverse()) p.offer(g);
    const picks = p.pick(summary({ strong: 30, middle: 25, weak: 10 }));
    expect(picks.map((h) => [h.kind, h.index])).toEqual([['upset', 1], ['upset', 3], ['longest', 1], ['closest', 4]]);
    expect(picks[0].why).toBe('An upset: weak, rated 20.0 below strong, wins by 6 points (weak 9, middle 3, strong 2).');
    expect(picks[3].why).toContain('a shared win');
    // The link names the seats by the agents sitting there (an r2 link).
    expect(decodeReplay(picks[0].link)).toEqual({ players: 3, seed: 's/1', askForced: false, ruleset: 'ab', actions: [1], seats: ['strong', 'middle', 'weak'] });
    const rotated = new HighlightPicker(['strong', 'middle', 'weak'], false, 'ab');
    rotated.offer({ ...game(7, [1, 2, 9], 10), seating: [2, 0, 1] });
    expect(decodeReplay(rotated.pick(summary({ strong: 30, middle: 25, weak: 10 }))[0].link).seats).toEqual(['weak', 'strong', 'middle']);
  });

  it('a win by the best-rated agent is no upset', () => {
    const p = new HighlightPicker(['a', 'b'], false, 'ab');
    p.offer(game(0, [5, 1], 10));
    expect(p.pick(summary({ a: 30, b: 20 })).map((h) => h.kind)).toEqual(['longest', 'closest']);
  });

  it('checks the viewer address', () => {
    expect(checkViewerUrl('https://pub.example/watch')).toBe('https://pub.example/watch');
    expect(checkViewerUrl('http://127.0.0.1:8787')).toBe(DEFAULT_VIEWER);
    expect(() => checkViewerUrl('pub.example')).toThrow(/not a URL/);
    expect(() => checkViewerUrl('javascript:alert(1)')).toThrow(/http:\/\/ or https:\/\//);
    expect(() => checkViewerUrl('ftp://pub.example/')).toThrow(/http:\/\/ or https:\/\//);
    expect(() => checkViewerUrl('http://me:secret@pub.example/')).toThrow(/credentials/);
    expect(() => checkViewerUrl('http://pub.example/#x')).toThrow(/fragment/);
  });

  it('the report links them to the viewer, the same for any number of workers, and each link replays', async () => {
    const runs = [];
    for (const workers of [0, 2]) {
      const dir = mkdtempSync(join(tmpdir(), 'czech-pub-hl-'));
      const r = await runTournament({ agents: ['heuristic', 'cautious', 'greedy', 'random'], games: 40, seed: 'hl', workers, out: dir, viewer: 'https://pub.example/view' });
      runs.push({ r, html: readFileSync(join(dir, 'report.html'), 'utf8') });
    }
    const [{ r, html }] = runs;
    expect(runs[1].r.highlights).toEqual(r.highlights);
    expect(r.highlights.map((h) => h.kind)).toContain('longest');
    expect(html).toContain('<h2>Games worth watching</h2>');
    for (const h of r.highlights) {
      expect(html).toContain(`<a href="https://pub.example/view#replay=${h.link}" data-replay="${h.link}">Game ${h.index}</a>`);
      const env = replayGame(decodeReplay(h.link));
      expect(env.done).toBe(true);
    }
    const longest = r.highlights.find((h) => h.kind === 'longest')!;
    expect(replayGame(decodeReplay(longest.link)).state.turn).toBeGreaterThanOrEqual(r.summary.meanTurns);
    await expect(runTournament({ agents: ['random', 'random'], games: 2, seed: 'v', workers: 0, viewer: 'ftp://x/' })).rejects.toThrow(/viewer: .*http/);
  }, 120_000);
});
