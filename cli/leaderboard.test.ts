/**
 * `czech-pub leaderboard --html` on a run of scripted bots, `greedy` standing in for a model: its
 * results.json given a usage entry and its folder a hand-written transcript.jsonl in the format
 * llm-bench writes (eval/transcript.ts), with a hostile answer, a long reasoning, a fallback, a
 * game dropped and played again, a game whose transcript does not match, and a game not played.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSeed } from '../agents/index.ts';
import { CzechPubEnv, describeAction } from '../env/index.ts';
import { decodeReplay, escapeHtml, MAX_TEXT_CHARS, parseGameLine, type GameLine } from '../eval/index.ts';
import { runTournament } from '../eval/tournament.ts';
import { bufferIo } from './io.ts';
import { main } from './main.ts';

let tmp = '';
let dir = '';
let lines: GameLine[] = [];
const MODEL = 'greedy';

/** The model seat's decisions (more than one legal action) of a game: step, action, words. */
function decisionsOf(g: GameLine, seat: number) {
  const env = new CzechPubEnv({ seed: g.seed, players: g.seating.length });
  const out: { step: number; action: number; words: string }[] = [];
  g.actions.forEach((a, step) => {
    if (env.actor === seat && env.legalActions().length > 1) out.push({ step, action: a, words: describeAction(a, seat, g.seating.length) });
    env.step(a);
  });
  return out;
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'czech-pub-board-'));
  dir = join(tmp, 'run');
  await runTournament({ agents: ['random', MODEL, 'cautious'], games: 9, seed: 'board', workers: 0, out: dir });
  lines = readFileSync(join(dir, 'games.jsonl'), 'utf8').split('\n').filter(Boolean).map(parseGameLine).sort((a, b) => a.index - b.index);
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
  results.usage = [{
    spec: MODEL, decisions: 100, requests: 110, fallbacks: 7, fallbackRate: 0.07, truncations: 2, invalid: true, promptTokens: 5000, completionTokens: 300, reasoningTokens: 40,
    estimatedCost: 0.09, costPerGame: 0.01, costPerWin: 0.03, byKind: { discard: { decisions: 40, firstTry: 30, corrected: 8, fallbacks: 2, truncations: 1, firstTryRate: 0.75 } },
  }];
  writeFileSync(join(dir, 'results.json'), JSON.stringify(results));
  const out: object[] = [];
  const line = (g: GameLine, seat: number, decision: number, more: object) => ({ agent: MODEL, game: agentSeed(g.seed, seat), seat, decision, ...more });
  for (const g of lines) {
    const seat = g.seating.indexOf(1);
    const moves = decisionsOf(g, seat);
    if (g.index === 2) {
      // Dropped at a stop and played again: the first attempt's lines are of moves never made.
      out.push(line(g, seat, 0, { attempt: 0, answer: 'dropped', action: (moves[0].action + 1) % 10, words: 'x' }));
    }
    moves.forEach((m, d) => {
      const played = { action: g.index === 1 && d === 1 ? (m.action === 0 ? 1 : 0) : m.action, words: m.words };
      if (g.index === 0 && d === 0) {
        out.push(line(g, seat, d, { attempt: 0, answer: '<script>alert("x")</script>', finish: 'stop', latencyMs: 5, tokens: 12 }));
        out.push(line(g, seat, d, { attempt: 1, answer: `answer for decision ${d} of game ${g.index}`, reasoning: 'r'.repeat(MAX_TEXT_CHARS + 500), ...played }));
      } else if (g.index === 3 && d === 0) {
        out.push(line(g, seat, d, { fallback: true, cause: 'server failed', ...played }));
      } else {
        out.push(line(g, seat, d, { attempt: 0, answer: `answer for decision ${d} of game ${g.index}`, ...played }));
      }
    });
  }
  out.push({ agent: MODEL, game: 'not-a-game-of-this-run', seat: 0, decision: 0, attempt: 0, answer: 'NEVER SHOWN', action: 1 });
  writeFileSync(join(dir, 'transcript.jsonl'), `${out.map((l) => JSON.stringify(l)).join('\n')}\nnot json\n`);
}, 120_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('leaderboard --html', () => {
  it('writes one self-contained page: ratings, model usage, pairs, every game linked, answers paired with moves', async () => {
    const file = join(tmp, 'board.html');
    const io = bufferIo();
    expect(await main(['leaderboard', dir, '--samples', '20', '--html', file, '--viewer', 'https://example.org/czech/'], io)).toBe(0);
    const page = readFileSync(file, 'utf8');
    // Self-contained and escaped.
    expect(page).not.toMatch(/src=|<link|<script/i);
    expect(page).toContain(escapeHtml('<script>alert("x")</script>'));
    // The ratings, the model's usage over the runs (its cost per game over the 9 games, not the file's), its decisions by kind, the pairs.
    for (const p of ['random', MODEL, 'cautious']) expect(page).toMatch(new RegExp(`<tr><td>\\d</td><td>${p}</td>`));
    expect(page).toMatch(/<td>greedy<\/td>.*<strong>INVALID<\/strong> in 1 of 1 run<\/td><td>7 \(7\.0%\)<\/td><td>2<\/td><td>\$0\.0100<\/td><td>\$\d\.\d{4}<\/td><td>5000 \/ 300 \(40\)<\/td>/);
    expect(page).toMatch(/<td>greedy<\/td><td>discard<\/td><td>40<\/td><td>30 \(75\.0%\)<\/td>/);
    expect(page).toContain('<h2>Paired over common deals</h2>');
    // A replay link per game that decodes back to its actions, in the viewer given.
    const links = [...page.matchAll(/href="https:\/\/example\.org\/czech\/#replay=([^"]+)"/g)].map((m) => decodeReplay(m[1]).actions);
    expect(links).toEqual(lines.map((g) => g.actions));
    // Answers beside the moves they played; a rejected answer and the reasoning cut, saying so.
    const g0 = lines[0];
    const first = decisionsOf(g0, g0.seating.indexOf(1))[0];
    expect(page).toMatch(new RegExp(`<tr><td>0</td><td>${first.step}</td><td>${escapeHtml(first.words)}</td><td>[^\\n]*${escapeHtml('<script>')}[^\\n]*answer for decision 0 of game 0`));
    expect(page).toContain('500 more characters not shown');
    for (const g of lines.filter((x) => x.index >= 2)) {
      decisionsOf(g, g.seating.indexOf(1)).forEach((m, d) => {
        const answer = g.index === 3 && d === 0 ? '<strong>fell back</strong>: server failed' : `answer for decision ${d} of game ${g.index}`;
        expect(page).toMatch(new RegExp(`<tr><td>${d}</td><td>${m.step}</td><td>${escapeHtml(m.words).replace(/[()?]/g, '\\$&')}</td><td>[^\\n]*${answer}`));
      });
    }
    // The game whose transcript played another move: shown unpaired, saying why.
    expect(page).toMatch(/could not be paired with this game's moves \(the transcript&#39;s decision 1 played action \d+, the game&#39;s move there is \d+\)/);
    expect(page).not.toContain('NEVER SHOWN');
    expect(page).not.toContain('>dropped<');
    expect(page).toContain('1 line of transcript.jsonl could not be read');
    expect(io.stderr.join('\n')).toContain(`Wrote ${file}.`);
  }, 60_000);

  it('compares every pair of players by default, --pair the ones named, and refuses a name not there', async () => {
    const io = bufferIo();
    expect(await main(['leaderboard', dir, '--samples', '20', '--json'], io)).toBe(0);
    const board = JSON.parse(io.stdout[0]);
    expect(board.pairs.map((p: { a: string; b: string }) => [p.a, p.b].sort().join('+')).sort()).toEqual(['cautious+greedy', 'cautious+random', 'greedy+random']);
    expect(board.pairs[0]).toMatchObject({ deals: 3 });
    expect(board.pairs[0].interval).toHaveLength(2);
    const anchored = bufferIo();
    expect(await main(['leaderboard', dir, '--samples', '20', '--anchor', 'random=0', '--pair', `${MODEL},cautious`], anchored)).toBe(0);
    const text = anchored.stdout.join('\n');
    expect(text).toMatch(/\| `greedy` \| `cautious` \| 3 \| [+-]?\d+\.\d \([+-]?\d+\.\d – [+-]?\d+\.\d\) \| \d \/ \d \/ \d \|/);
    expect(text.match(/^\| `/gm)).toHaveLength(1);
    const bad = bufferIo();
    expect(await main(['leaderboard', dir, '--pair', 'greedy,nobody'], bad)).toBe(2);
    expect(bad.stderr.join('\n')).toMatch(/--pair: no player 'nobody' in these runs; the players are .*greedy/);
    const badViewer = bufferIo();
    expect(await main(['leaderboard', dir, '--html', join(tmp, 'x.html'), '--viewer', 'ftp://x/'], badViewer)).toBe(2);
  }, 60_000);
});
