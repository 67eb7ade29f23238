import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTournament, type TournamentResult } from './tournament.ts';

/** The results without what depends on timing. */
function timeless(r: TournamentResult) {
  return {
    ...r.summary,
    agents: r.summary.agents.map(({ msPerDecision: _ms, ...a }) => a),
  };
}

const AGENTS = ['random', 'greedy', 'random', 'cautious'];

describe('tournament', () => {
  it('the same seed gives the same results with 0, 1 and 2 workers', async () => {
    const runs = [];
    for (const workers of [0, 1, 2]) runs.push(await runTournament({ agents: AGENTS, games: 48, seed: 'w', workers }));
    expect(runs[0].gamesPlayed).toBe(48);
    expect(timeless(runs[1])).toEqual(timeless(runs[0]));
    expect(timeless(runs[2])).toEqual(timeless(runs[0]));
    const other = await runTournament({ agents: AGENTS, games: 48, seed: 'other', workers: 0 });
    expect(timeless(other)).not.toEqual(timeless(runs[0]));
  }, 120_000);

  it('writes the report files, and they parse', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'czech-pub-t-'));
    const r = await runTournament({ agents: ['random', 'greedy', 'random'], games: 12, seed: 'files', workers: 0, out: dir });
    const json = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    expect(json.format).toBe('czech-pub-tournament/2');
    expect(json.gamesPlayed).toBe(12);
    expect(json.env.ruleset.fingerprint).toMatch(/^[0-9a-f]{8}$/);
    expect(json.config.ruleset.name).toBe('czech-pub-standard');
    const lines = readFileSync(join(dir, 'games.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.length).toBe(12);
    expect(lines[0].agents.length).toBe(3);
    const md = readFileSync(join(dir, 'leaderboard.md'), 'utf8');
    expect(md).toContain('| # | agent | games | wins | win rate (95% CI)');
    expect(md).toContain('`greedy`');
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    const svg = html.slice(html.indexOf('<svg'), html.indexOf('</svg>') + 6);
    expect(balanced(svg)).toBe(true);
    expect(balanced(html.slice(html.indexOf('<body>'), html.indexOf('</body>') + 7))).toBe(true);
    expect(svg.match(/<rect /g)?.length).toBe(r.summary.agents.length);
  });

  it('an interrupted run keeps the games finished so far', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'czech-pub-i-'));
    const controller = new AbortController();
    const r = await runTournament({
      agents: AGENTS, games: 400, seed: 'stop', workers: 0, out: dir, signal: controller.signal,
      onGame: (done) => done === 25 && controller.abort(),
    });
    expect(r.complete).toBe(false);
    expect(r.gamesPlayed).toBe(25);
    expect(r.gamesScheduled).toBe(400);
    expect(readFileSync(join(dir, 'games.jsonl'), 'utf8').trim().split('\n').length).toBe(25);
    expect(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')).complete).toBe(false);
    expect(readFileSync(join(dir, 'leaderboard.md'), 'utf8')).toContain('interrupted: 25 of 400');
  });

  it('refuses a bad configuration with a clear message', async () => {
    await expect(runTournament({ agents: ['random', 'nobody'], games: 4, seed: 'x' })).rejects.toThrow(/unknown agent 'nobody'; known agents: random/);
    await expect(runTournament({ agents: ['random', 'random'], players: 3, games: 4, seed: 'x' })).rejects.toThrow('2 agents for 3 players');
    await expect(runTournament({ agents: ['random', 'random'], games: 0, seed: 'x' })).rejects.toThrow('games must be a positive integer');
  });
});

/** True when every opened tag is closed in order (void and self-closing tags aside). */
function balanced(markup: string): boolean {
  const stack: string[] = [];
  const voids = new Set(['meta', 'br', 'img', 'hr', 'input', 'link']);
  for (const m of markup.matchAll(/<(\/?)([a-zA-Z][\w-]*)[^>]*?(\/?)>/g)) {
    const [, close, name, self] = m;
    if (self || voids.has(name.toLowerCase())) continue;
    if (!close) stack.push(name);
    else if (stack.pop() !== name) return false;
  }
  return stack.length === 0;
}
