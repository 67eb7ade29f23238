/**
 * `czech-pub leaderboard --html` on a run of scripted bots, `greedy` standing in for a model: its
 * results.json given a usage entry and its folder a hand-written transcript.jsonl in the format
 * llm-bench writes (eval/transcript.ts), with a hostile answer, a long reasoning, a fallback, a
 * game dropped and played again, a game whose transcript does not match, and a game not played.
 * Then runs that are not one test: another prompt, another harness, no results.json, a
 * results.json the schema refuses; refused, or with --split a table each.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** A usage entry as results.json holds one (eval/results-schema.ts): `more` over plain figures. */
function usageEntry(spec: string, more: object = {}) {
  return {
    spec, decisions: 10, requests: 10, unfinishedRequests: 0, invalidAnswers: 0, invalidRate: 0, plainTextAnswers: 0, faultRetries: 0, fallbacks: 0, fallbackRate: 0,
    faultFallbacks: 0, adaptations: [], provenance: null, byKind: {}, faults: {}, costPerGame: null, costPerDecision: null, costPerWin: null, costSource: null,
    cachedTokens: 0, providerCost: null, truncations: 0, latencyMedianMs: 100, latencyP95Ms: 200, promptTokens: 1000, completionTokens: 50, reasoningTokens: 0,
    requestsPerGame: 1, estimatedCost: null, invalid: false, ...more,
  };
}

/** Where and how a model was asked, its decision prompt hashed to `promptHash`. */
const provenance = (promptHash: string) => ({ host: '127.0.0.1:1', servedModels: ['m'], settings: {}, rulesHash: 'feedfacefeedface', promptHash, sdk: 'openai 0' });

/** Rewrites a run folder's results.json. */
function editResults(dir: string, edit: (r: Record<string, any>) => void): void {
  const file = join(dir, 'results.json');
  const r = JSON.parse(readFileSync(file, 'utf8'));
  edit(r);
  writeFileSync(file, JSON.stringify(r));
}

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
  editResults(dir, (r) => (r.usage = [usageEntry(MODEL, {
    decisions: 100, requests: 110, fallbacks: 7, fallbackRate: 0.07, truncations: 2, invalid: true, promptTokens: 5000, completionTokens: 300, reasoningTokens: 40,
    estimatedCost: 0.09, costPerGame: 0.01, costPerWin: 0.03, byKind: { discard: { decisions: 40, firstTry: 30, corrected: 8, fallbacks: 2, truncations: 1, firstTryRate: 0.75 } },
  })]));
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

describe('leaderboard over runs that are not one test', () => {
  // A and B: a model each (greedy, heuristic standing in) sent other prompts; C: bots only.
  const runs = { a: '', b: '', c: '' };
  beforeAll(async () => {
    runs.a = join(tmp, 'prompt-a');
    runs.b = join(tmp, 'prompt-b');
    runs.c = join(tmp, 'bots');
    await runTournament({ agents: ['random', 'greedy', 'cautious'], games: 6, seed: 'a', workers: 0, out: runs.a });
    await runTournament({ agents: ['random', 'heuristic', 'cautious'], games: 6, seed: 'b', workers: 0, out: runs.b });
    await runTournament({ agents: ['random', 'greedy', 'cautious'], games: 6, seed: 'c', workers: 0, out: runs.c });
    editResults(runs.a, (r) => (r.usage = [usageEntry('greedy', { provenance: provenance('3f2a3f2a3f2a3f2a') })]));
    editResults(runs.b, (r) => (r.usage = [usageEntry('heuristic', { provenance: provenance('0000000000000000') })]));
  }, 120_000);

  it('refuses runs whose models were sent other prompts, naming both folders and the hashes', async () => {
    const io = bufferIo();
    const page = join(tmp, 'refused.html');
    expect(await main(['leaderboard', runs.a, runs.b, '--html', page], io)).toBe(1);
    expect(io.stderr.join('\n')).toMatch(/prompt-b: heuristic was sent another prompt \(promptHash 0000000000000000, not 3f2a3f2a3f2a3f2a\) than in .*prompt-a; runs under other prompts do not compare \(--split makes a table of each\)/);
    expect(existsSync(page)).toBe(false);
    // A run with no model compares with any prompt.
    expect(await main(['leaderboard', runs.a, runs.c, '--samples', '20'], bufferIo())).toBe(0);
  });

  it('with --split makes a table per fingerprint, each naming its folders; the run with no model is in both', async () => {
    const io = bufferIo();
    expect(await main(['leaderboard', runs.a, runs.b, runs.c, '--split', '--samples', '20', '--json'], io)).toBe(0);
    const { tables } = JSON.parse(io.stdout[0]);
    expect(tables.map((t: { folders: string[] }) => t.folders)).toEqual([[runs.a, runs.c], [runs.b, runs.c]]);
    expect(tables.map((t: { fingerprint: { prompt: { promptHash: string } } }) => t.fingerprint.prompt.promptHash)).toEqual(['3f2a3f2a3f2a3f2a', '0000000000000000']);
    expect(tables.map((t: { games: number }) => t.games)).toEqual([12, 12]);
    expect(tables[1].ratings.map((r: { player: string }) => r.player).sort()).toEqual(['cautious', 'greedy', 'heuristic', 'random']);

    const text = bufferIo();
    expect(await main(['leaderboard', runs.a, runs.b, runs.c, '--split', '--samples', '20', '--anchor', 'random=0'], text)).toBe(0);
    const out = text.stdout.join('\n');
    expect(out.match(/^# Leaderboard \(table \d of 2\): 2 runs, 12 games/gm)).toHaveLength(2);
    expect(out).toContain(`Runs: \`${runs.a}\`, \`${runs.c}\`. Fingerprint: ruleset `);
    expect(out).toMatch(/models sent rulesHash feedfacefeedface, promptHash 0000000000000000\./);
    expect(out.match(/^\| \d \| `random` \(anchor\) \| 0 /gm)).toHaveLength(2);

    const page = join(tmp, 'split.html');
    expect(await main(['leaderboard', runs.a, runs.b, runs.c, '--split', '--samples', '20', '--html', page], bufferIo())).toBe(0);
    const html = readFileSync(page, 'utf8');
    expect(html.match(/<h2>Table \d of 2<\/h2>/g)).toHaveLength(2);
    expect(html.match(/<h3>Ratings<\/h3>/g)).toHaveLength(2);
  });

  it('refuses runs played by another harness', async () => {
    const other = join(tmp, 'other-harness');
    cpSync(runs.c, other, { recursive: true });
    editResults(other, (r) => (r.harness.package = 'czech-pub-gym 0.0.1'));
    const io = bufferIo();
    expect(await main(['leaderboard', runs.c, other], io)).toBe(1);
    expect(io.stderr.join('\n')).toMatch(/other-harness was played by another harness than .*bots \(harness czech-pub-gym 0\.0\.1 in .*other-harness, czech-pub-gym \S+ in .*bots\)/);
  });

  it("refuses a run with no results.json, saying to run 'czech-pub report' first", async () => {
    const killed = join(tmp, 'killed');
    cpSync(runs.c, killed, { recursive: true });
    rmSync(join(killed, 'results.json'));
    const io = bufferIo();
    const page = join(tmp, 'killed.html');
    expect(await main(['leaderboard', runs.c, killed, '--html', page], io)).toBe(1);
    expect(io.stderr.join('\n')).toBe(`leaderboard: ${killed} holds no results.json: the run was stopped before its reports were written; run 'czech-pub report ${killed}' first (it makes them from run.json and games.jsonl)`);
    expect(existsSync(page)).toBe(false);
    expect(await main(['report', killed], bufferIo())).toBe(0);
    expect(await main(['leaderboard', runs.c, killed, '--samples', '20'], bufferIo())).toBe(0);
  });

  it('refuses a results.json the schema does not describe, saying where, before reading any of it', async () => {
    const hostile = join(tmp, 'hostile');
    cpSync(runs.a, hostile, { recursive: true });
    editResults(hostile, (r) => (r.usage[0].promptTokens = '<img src=x onerror=alert(1)>'));
    const io = bufferIo();
    const page = join(tmp, 'hostile.html');
    expect(await main(['leaderboard', hostile, '--html', page], io)).toBe(1);
    expect(io.stderr.join('\n')).toMatch(/hostile\/results\.json does not match the results\.json schema \(docs\/results\.schema\.json\) at usage\.0\.promptTokens: .*number/);
    expect(existsSync(page)).toBe(false);

    // Games played after the reports were written (a resumed run killed): its usage would not be of them.
    const stale = join(tmp, 'stale');
    cpSync(runs.c, stale, { recursive: true });
    editResults(stale, (r) => (r.gamesPlayed = 5));
    const staleIo = bufferIo();
    expect(await main(['leaderboard', stale], staleIo)).toBe(1);
    expect(staleIo.stderr.join('\n')).toMatch(/its results\.json counts 5 games, its games\.jsonl holds 6: .*'czech-pub report /);
  });
});
