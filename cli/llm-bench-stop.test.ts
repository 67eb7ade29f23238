/**
 * llm-bench stopped and gone on with: Ctrl-C mid-run writes every output from the finished
 * games, marked incomplete; --resume plays the rest of the schedule and gives the results of a
 * run that was never stopped (but for times); `czech-pub report DIR` makes them again with
 * nothing played. The model is a fake OpenAI-compatible server in this process that always
 * answers the first legal action, a little slowly so that the run can be stopped mid-way.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bufferIo } from './io.ts';
import { main } from './main.ts';
import { firstLegalCompletion, legalIds, sameGamesPart } from '../test/support/first-legal.ts';
import { cliEntry } from '../test/helpers/cli.ts';

/** The CLI, bundled for child processes (test/helpers/cli.ts). */
const BIN = await cliEntry();
let server: Server;
let base = '';
/** Completions the fake server has answered. */
let answered = 0;
let tmp = '';

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'czech-pub-llm-stop-'));
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const legal = legalIds(body);
      setTimeout(() => {
        answered++;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(firstLegalCompletion(legal));
      }, 15);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmSync(tmp, { recursive: true, force: true });
});

/** A test of whole llm-bench runs (games, prompts, requests): work a busy machine stretches several times over. */
const RUNS_MS = 300_000;

const ARGS = () => ['llm-bench', '--model', 'fake-model', '--base-url', base, '--games', '8', '--players', '4', '--opponents', 'random', '--concurrency', '1', '--seed', 'stop'];
const gameLines = (dir: string) => (existsSync(join(dir, 'games.jsonl')) ? readFileSync(join(dir, 'games.jsonl'), 'utf8').split('\n').filter(Boolean).length : 0);

/** results.json without what differs between two runs of the same games. */
const withoutTimes = (dir: string) => sameGamesPart(readFileSync(join(dir, 'results.json'), 'utf8'));

/** The run's model requests as its results count them. */
const requestsOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')).usage[0].requests as number;

describe('llm-bench stopped with Ctrl-C', () => {
  it('writes every output marked incomplete; --resume completes it as an unstopped run; report makes it again', async () => {
    const whole = join(tmp, 'whole');
    const atStart = answered;
    expect(await main([...ARGS(), '--out', whole], bufferIo())).toBe(0);
    expect(requestsOf(whole)).toBe(answered - atStart);
    const beforeStopped = answered;

    const dir = join(tmp, 'stopped');
    const child = spawn(process.execPath, [BIN, ...ARGS(), '--out', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const deadline = Date.now() + 60_000;
    while (gameLines(dir) < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(1);
    expect(stderr).toContain('Interrupted: finishing with the games played so far (--resume goes on with the run).');
    const stopped = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    expect(stopped.complete).toBe(false);
    expect(stopped.gamesPlayed).toBe(gameLines(dir));
    expect(stopped.gamesPlayed).toBeLessThan(8);
    expect(readFileSync(join(dir, 'leaderboard.md'), 'utf8')).toContain('llm:fake-model');
    expect(existsSync(join(dir, 'report.html'))).toBe(true);

    // Another run's options are refused, saying what differs; nothing is changed.
    const other = bufferIo();
    expect(await main([...ARGS().map((a) => (a === 'stop' ? 'other' : a)), '--out', dir, '--resume'], other)).toBe(2);
    expect(other.stderr.join('\n')).toMatch(/is the folder of another run: seed is "stop" there, "other" here/);
    expect(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')).gamesPlayed).toBe(stopped.gamesPlayed);

    const resumed = bufferIo();
    expect(await main([...ARGS(), '--out', dir, '--resume'], resumed)).toBe(0);
    expect(gameLines(dir)).toBe(8);
    expect(withoutTimes(dir)).toEqual(withoutTimes(whole));
    // Every request the server answered for the stopped run and its resumption, no more, no fewer.
    expect(requestsOf(dir)).toBe(answered - beforeStopped);

    // A crash's cut-off last line and lost reports: report DIR makes them again, from the whole games.
    const games = readFileSync(join(dir, 'games.jsonl'), 'utf8');
    writeFileSync(join(dir, 'games.jsonl'), games.slice(0, games.length - 40));
    rmSync(join(dir, 'results.json'));
    const rebuilt = bufferIo();
    expect(await main(['report', dir], rebuilt)).toBe(0);
    expect(rebuilt.stderr.join('\n')).toMatch(/^report: 7 of 8 games \(incomplete\)/);
    expect(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')).gamesPlayed).toBe(7);
    expect(gameLines(dir)).toBe(7);

    const notRun = bufferIo();
    expect(await main(['report', tmp], notRun)).toBe(1);
    expect(notRun.stderr.join('\n')).toMatch(/holds no run.json/);
  }, RUNS_MS);

  it('leaderboard merges two runs of the same models on other seeds into one anchored table; a run under another prompt is refused', async () => {
    const runs = ['one', 'two'].map((seed) => join(tmp, `board-${seed}`));
    for (const [k, dir] of runs.entries()) {
      expect(await main([...ARGS().map((a) => (a === 'stop' ? `board-${k}` : a)), '--out', dir], bufferIo())).toBe(0);
    }
    const io = bufferIo();
    expect(await main(['leaderboard', ...runs, '--anchor', 'random=0', '--samples', '50', '--json'], io)).toBe(0);
    const board = JSON.parse(io.stdout[0]);
    expect(board.runs).toBe(2);
    expect(board.games).toBe(16);
    const random = board.ratings.find((r: { player: string }) => r.player === 'random');
    expect(random).toMatchObject({ rating: 0, anchor: true });
    const model = board.ratings.find((r: { player: string }) => r.player === 'llm:fake-model');
    expect(model.games).toBe(16);
    expect(model.interval[0]).toBeLessThanOrEqual(model.rating);
    expect(model.interval[1]).toBeGreaterThanOrEqual(model.rating);
    const text = bufferIo();
    expect(await main(['leaderboard', ...runs, '--anchor', 'random=0', '--samples', '50'], text)).toBe(0);
    expect(text.stdout.join('\n')).toMatch(/\| 1 \| `.*` .*\(-?\d+ – -?\d+\) \| 16 \|/);

    // The same run, its model sent another prompt: refused, naming the hashes.
    const other = join(tmp, 'board-other-prompt');
    cpSync(runs[1], other, { recursive: true });
    const results = JSON.parse(readFileSync(join(other, 'results.json'), 'utf8'));
    results.usage[0].provenance.promptHash = '0000000000000000';
    writeFileSync(join(other, 'results.json'), JSON.stringify(results));
    const refused = bufferIo();
    expect(await main(['leaderboard', runs[0], other], refused)).toBe(1);
    expect(refused.stderr.join('\n')).toMatch(/llm:fake-model was sent another prompt \(promptHash 0000000000000000, not [0-9a-f]{16}\) than in .*board-one; runs under other prompts do not compare/);
  }, RUNS_MS);

  it('--max-cost stops the run before its spend could pass the budget; the ledger carries it over a lost results.json to --resume', async () => {
    // $1 per million tokens: a call answered with 100 prompt and 5 completion tokens costs $0.000105;
    // its worst case (its prompt's bytes and --max-tokens 10), what is reserved before it is sent, some $0.002–0.006.
    const prices = join(tmp, 'prices.json');
    writeFileSync(prices, JSON.stringify({ 'fake-model': { promptPerMillion: 1, completionPerMillion: 1 } }));
    const dir = join(tmp, 'budget');
    const before = answered;
    const io = bufferIo();
    const args = [...ARGS().map((a) => (a === 'stop' ? 'budget' : a)), '--prices', prices, '--max-tokens', '10', '--out', dir];
    expect(await main([...args, '--max-cost', '0.01'], io)).toBe(1);
    const sent = answered - before;
    const err = io.stderr.join('\n');
    expect(err).toMatch(/stopped after \d+ of 8 games: bot 'llm:fake-model' would pass the run's cost budget of \$0.01/);
    // Every call answered is in the spend (the preflight's too), and no call was sent whose worst case did not fit.
    expect(err).toContain(`spent $${(sent * 105e-6).toFixed(4)} of --max-cost $0.01; raise --max-cost and --resume to play the rest`);
    expect(sent * 105e-6).toBeLessThanOrEqual(0.01);
    // What was left did not cover the next call's worst case, which is about the largest of those reserved.
    const ledger = readFileSync(join(dir, 'transcript.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const worst = Math.max(...ledger.filter((l) => l.sent).map((l) => (l.sent.prompt + l.sent.completion) * 1e-6));
    expect(0.01 - sent * 105e-6).toBeLessThan(1.5 * worst);
    const stopped = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    expect(stopped).toMatchObject({ complete: false, stop: { kind: 'budget', budget: { scope: 'cost', limit: 0.01, entry: 'llm:fake-model' } } });
    expect(stopped.gamesPlayed).toBeLessThan(8);

    // A run killed outright has no results.json: its ledger still knows what it spent.
    rmSync(join(dir, 'results.json'));
    const resumed = bufferIo();
    expect(await main([...args, '--max-cost', '1000', '--resume'], resumed)).toBe(0);
    expect(gameLines(dir)).toBe(8);
    expect(resumed.stderr.join('\n')).toContain(`spent $${((answered - before) * 105e-6).toFixed(4)} of --max-cost $1000 (the earlier part of the run included).`);
    // The usage counts every request the server answered, both parts' preflights included.
    expect(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')).usage[0].requests).toBe(answered - before);

    // The dry run says how many of the run's games a budget pays for.
    const dry = bufferIo();
    expect(await main([...ARGS(), '--prices', prices, '--max-cost', '0.01', '--max-tokens', '10', '--dry-run', '--stand-in', 'random', '--json'], dry)).toBe(0);
    const d = JSON.parse(dry.stdout[0]);
    expect(d.maxCost).toBe(0.01);
    expect(d.gamesWithinMaxCost).toBe(Math.min(8, Math.floor(0.01 / d.costs[0].costPerGame)));
    // Beside the expected cost, the bound: every prompt at its bound and every answer at --max-tokens.
    expect(d.costs[0].worstCostPerGame).toBeGreaterThan(d.costs[0].costPerGame);
    expect(d.maxTokens).toBe(10);
    expect(d.wallSeconds).toBeGreaterThan(0);
    // Without a price a budget cannot be kept: refused before anything is sent.
    const unpriced = bufferIo();
    const calls = answered;
    expect(await main([...ARGS(), '--max-cost', '3'], unpriced)).toBe(2);
    expect(unpriced.stderr.join('\n')).toMatch(/--max-cost needs a price in --prices for every model.*'fake-model'/);
    expect(answered).toBe(calls);
  }, RUNS_MS);

  it("the leaderboard page pairs every answer of a real run's transcript with the model's move", async () => {
    const dir = join(tmp, 'page');
    expect(await main([...ARGS().map((a) => (a === 'stop' ? 'page' : a)), '--out', dir], bufferIo())).toBe(0);
    const lines = readFileSync(join(dir, 'transcript.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const played = lines.filter((l) => l.action !== undefined);
    expect(played.length).toBeGreaterThan(20);
    const page = join(tmp, 'page.html');
    expect(await main(['leaderboard', dir, '--html', page], bufferIo())).toBe(0);
    const html = readFileSync(page, 'utf8');
    expect(html).not.toMatch(/unpaired|could not be paired|do not match/i);
    // Each played answer's words appear beside its move.
    for (const l of played.slice(0, 10)) expect(html).toContain(l.words.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'));
  }, RUNS_MS);
});

