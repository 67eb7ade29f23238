/**
 * llm-bench killed at generated points and resumed (issue 41). A seeded generator draws kill
 * cases: a signal (SIGINT, SIGTERM or SIGKILL) and a point (after k finished games, or after
 * r requests the model server answered), sometimes a second kill of the resumed run; each
 * case runs the bench in a child process, kills it at its point, and resumes it until it is
 * done. Then the run must hold what an uninterrupted one holds:
 *
 * 1. the same games (results.json but for times and counts of calls; games.jsonl each once);
 * 2. usage as the server saw it: a request per `sent` line of the ledger, the server's answers
 *    no more than those and no fewer than those with an outcome, the tokens of the outcomes;
 * 3. the spend printed equal to the ledger's, at least what the server billed, within
 *    --max-cost, across the kills too (a budget too small to finish holds over a kill);
 * 4. no run.lock left behind; a SIGKILLed run's lock taken over on resume, saying so.
 *
 * The model is a fake OpenAI-compatible server in this process that answers the first legal
 * action a little slowly, so a run can be killed mid-way; it keeps every reply it wrote whole.
 * A failing case names its seed and draws; KILLS_SEED=<seed> draws other cases, and a failing
 * one goes into NAMED as it is printed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLedger } from '../agents/index.ts';
import { randInt, seedRng } from '../env/index.ts';
import { bufferIo } from './io.ts';
import { main } from './main.ts';
import { firstLegalCompletion, legalIds, sameGamesPart } from '../test/support/first-legal.ts';
import { cliEntry } from '../test/helpers/cli.ts';

/** The CLI, bundled for child processes (test/helpers/cli.ts). */
const BIN = await cliEntry();
const SEED = process.env.KILLS_SEED ?? 'kills-1';
const GAMES = 8;
/** $1 per million tokens: an answer (100 prompt and 5 completion tokens) costs $0.000105, a call's worst case some $0.007. */
const PRICE = { promptPerMillion: 1, completionPerMillion: 1 };
const ANSWER_COST = 105e-6;
/** Enough for the whole run and its repeats (about $0.03 each). */
const GENEROUS = 1;
/** Enough for some 3 games with the calls in flight reserved at their worst case. */
const SMALL = 0.02;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGKILL'] as const;
type Signal = (typeof SIGNALS)[number];

/** Where a run is killed: once `games` more games are finished, or as the server answers its `requests`-th request since the run began. */
type Point = { games: number } | { requests: number };
interface Cycle {
  signal: Signal;
  at: Point;
}
/** The runs killed one after another (the first anew, the others resuming); a last resume in this process completes the run. */
type KillCase = Cycle[];

// --- the fake model server ------------------------------------------------------------------

/** A reply written whole, with what it billed. */
interface Answered {
  id: string;
  prompt: number;
  completion: number;
}
let server: Server;
let base = '';
let tmp = '';
let prices = '';
/** Every reply the server wrote whole, in order. */
const answered: Answered[] = [];
/** Requests received whose response has not closed. */
const open = new Set<ServerResponse>();
/** Told of each reply written whole (a kill at a request count). */
let onAnswered: (() => void) | null = null;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'czech-pub-llm-kills-'));
  prices = join(tmp, 'prices.json');
  writeFileSync(prices, JSON.stringify({ 'fake-model': PRICE }));
  let received = 0;
  server = createServer((req, res) => {
    const id = `fake-${received++}`;
    open.add(res);
    res.on('close', () => open.delete(res));
    res.on('error', () => undefined);
    res.on('finish', () => {
      answered.push({ id, prompt: 100, completion: 5 });
      onAnswered?.();
    });
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const legal = legalIds(body);
      setTimeout(() => {
        if (res.destroyed) return; // its client was killed
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(firstLegalCompletion(legal, id));
      }, 10 + (received % 6));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
});

afterAll(async () => {
  onAnswered = null;
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmSync(tmp, { recursive: true, force: true });
});

// --- the generator --------------------------------------------------------------------------

/**
 * Six cases, each signal with each kind of point once, their numbers drawn: k in 1..6 games,
 * r in 2..220 requests (a whole run makes about 250); half of them kill the resumed run too,
 * after 1..2 more games or 2..60 more requests. r starts at 2: the first request is the
 * preflight, whose kills are NAMED's cases.
 */
function drawCases(seed: string): KillCase[] {
  const rng = seedRng(seed);
  const point = (games: boolean, maxGames: number, maxRequests: number): Point =>
    games ? { games: 1 + randInt(rng, maxGames) } : { requests: 2 + randInt(rng, maxRequests - 1) };
  return Array.from({ length: 6 }, (_, i) => {
    const first: Cycle = { signal: SIGNALS[i % 3], at: point(i < 3, 6, 220) };
    if (randInt(rng, 2) === 0) return [first];
    return [first, { signal: SIGNALS[randInt(rng, 3)], at: point(randInt(rng, 2) === 0, 2, 60) }];
  });
}

/**
 * Cases kept by name: failing draws, as the test names print them. With `fault`, the product
 * fault the case shows: it runs as it.fails until the fault is mended (then it.fails fails,
 * and `fault` goes).
 */
const NAMED: { name: string; case: KillCase; fault?: string }[] = [
  {
    name: 'a stop signal during the preflight',
    case: [{ signal: 'SIGTERM', at: { requests: 1 } }],
  },
  {
    name: "SIGKILL during a resume's preflight",
    case: [{ signal: 'SIGKILL', at: { requests: 2 } }, { signal: 'SIGKILL', at: { requests: 1 } }],
  },
  {
    name: 'SIGKILL during the first preflight',
    case: [{ signal: 'SIGKILL', at: { requests: 1 } }],
  },
];

const describeCase = (c: KillCase) => c.map(({ signal, at }) => `${signal} after ${'games' in at ? `${at.games} games` : `${at.requests} requests`}`).join(', then ');

// --- running the bench ----------------------------------------------------------------------

const ARGS = (dir: string, maxCost: number) => [
  'llm-bench', '--model', 'fake-model', '--base-url', base, '--games', String(GAMES), '--players', '2', '--opponents', 'random',
  '--concurrency', '2', '--seed', 'kills', '--max-tokens', '10', '--prices', prices, '--max-cost', String(maxCost), '--out', dir,
];
const gameLines = (dir: string) => (existsSync(join(dir, 'games.jsonl')) ? readFileSync(join(dir, 'games.jsonl'), 'utf8').split('\n').filter(Boolean).length : 0);
const transcriptOf = (dir: string) => (existsSync(join(dir, 'transcript.jsonl')) ? readFileSync(join(dir, 'transcript.jsonl'), 'utf8') : '');
const takeover = (pid: number) => `llm-bench: took over the lock of pid ${pid}, which is no longer running`;

/**
 * How long a run may take before a test gives up on it as hung: a run's start-up and games
 * take seconds, a busy machine several times more; not a speed check.
 */
const HUNG_MS = 120_000;
/** A case: a run killed and resumed once or twice, its checks. */
const CASE_MS = 300_000;

/** Waits for `ok`, failing after `ms`. */
async function until(ok: () => boolean, what: string, ms = HUNG_MS): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Every request's response closed: nothing of a killed run is still on its way. */
const settled = () => until(() => open.size === 0, 'the fake server to close every response');

interface Ended {
  pid: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** False when the run ended before its point came. */
  killed: boolean;
}

/** One cycle: the bench in a child process, killed at its point (if the run lasts that long), and its end. */
async function killAt(args: string[], dir: string, { signal, at }: Cycle): Promise<Ended> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stderr = '';
  child.stdout!.resume();
  child.stderr!.on('data', (d) => (stderr += d));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, sig) => resolve({ code, signal: sig })));
  let ended = false;
  void exit.then(() => (ended = true));
  let killed = false;
  const kill = () => {
    if (killed || ended) return;
    killed = child.kill(signal);
  };
  if ('requests' in at) {
    // At once as the reply is written: the child may not have read it yet.
    const from = answered.length;
    onAnswered = () => void (answered.length - from >= at.requests && kill());
  }
  try {
    // A point at the last game is never reached: the run would be ending, past its stop handler, when the signal came.
    if ('games' in at && gameLines(dir) + at.games < GAMES) {
      const from = gameLines(dir);
      await until(() => ended || gameLines(dir) - from >= at.games, `${at.games} more games in ${dir}`);
      kill();
    }
    const end = await Promise.race([exit, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`the bench (pid ${child.pid}) did not exit`)), HUNG_MS))]);
    return { pid: child.pid!, ...end, stderr, killed };
  } finally {
    onAnswered = null;
    children.delete(child);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** What a run (all its cycles) left, and what the server did for it. */
interface Played {
  dir: string;
  cycles: Ended[];
  /** The last resume's output and exit code. */
  io: ReturnType<typeof bufferIo>;
  code: number;
  /** The replies the server wrote whole for this folder, every cycle's preflight included. */
  answered: Answered[];
}

/** Plays `c` in `dir`: each cycle in a child process killed at its point, then a last --resume in this process. */
async function play(dir: string, c: KillCase, maxCost: number, where: string): Promise<Played> {
  const from = answered.length;
  const cycles: Ended[] = [];
  for (const [i, cycle] of c.entries()) {
    const args = i === 0 ? ARGS(dir, maxCost) : [...ARGS(dir, maxCost), '--resume'];
    const end = await killAt(args, dir, cycle);
    await settled();
    checkCycle(end, cycles.at(-1), cycle.signal, dir, `${where}, cycle ${i + 1}`);
    cycles.push(end);
  }
  const io = bufferIo();
  const code = await main([...ARGS(dir, maxCost), '--resume'], io);
  await settled();
  const last = cycles.at(-1)!;
  if (last.killed && last.signal === 'SIGKILL') expect(io.stderr, `${where}: the last resume takes over the lock`).toContain(takeover(last.pid));
  expect(existsSync(join(dir, 'run.lock')), `${where}: run.lock left behind`).toBe(false);
  return { dir, cycles, io, code, answered: answered.slice(from) };
}

/** A cycle's end as its signal says: a stop's reports and no lock, or a kill's lock (taken over by the next run). */
function checkCycle(end: Ended, before: Ended | undefined, signal: Signal, dir: string, where: string): void {
  const said = `${where} (pid ${end.pid}, exit ${end.code ?? end.signal}; stderr:\n${end.stderr})`;
  if (before?.killed && before.signal === 'SIGKILL') expect(end.stderr, `${said}: takes over the lock of the run killed before`).toContain(takeover(before.pid));
  if (end.killed && signal === 'SIGKILL') {
    expect({ code: end.code, signal: end.signal }, said).toEqual({ code: null, signal: 'SIGKILL' });
    expect(JSON.parse(readFileSync(join(dir, 'run.lock'), 'utf8')).pid, `${said}: the lock of the killed run`).toBe(end.pid);
    return;
  }
  expect(existsSync(join(dir, 'run.lock')), `${said}: run.lock left behind`).toBe(false);
  if (end.killed) {
    expect(end.stderr, said).toContain(`${signal === 'SIGINT' ? 'Interrupted' : `Interrupted (${signal})`}: finishing with the games played so far`);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    expect(results.gamesPlayed, said).toBe(gameLines(dir));
    // A stop while the last games are in play skips none: they finish, and the run is whole.
    const whole = results.gamesPlayed === GAMES;
    expect(results.complete, said).toBe(whole);
    expect({ code: end.code, signal: end.signal }, said).toEqual({ code: whole ? 0 : 1, signal: null });
  }
}

// --- what a run must hold -------------------------------------------------------------------

/** results.json without what differs between two runs of the same games. */
const withoutTimes = (dir: string) => sameGamesPart(readFileSync(join(dir, 'results.json'), 'utf8'));

/** The ledger's lines: each request's `sent` line and, unless it was cut off by a kill, its outcome. */
function ledgerLines(dir: string) {
  const lines = transcriptOf(dir).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  const sent = lines.filter((l) => l.sent !== undefined);
  const outcomes = new Map(lines.filter((l) => l.sent === undefined && typeof l.charge === 'string').map((l) => [l.call as string, l]));
  return { sent, outcomes, open: sent.filter((l) => !outcomes.has(l.call as string)).length };
}

/**
 * Each request, in the ledger's order, was sent only if its worst case fit in the budget with
 * what had been charged before it: at least the charges of the requests sent before it
 * (a request cut off by a kill at its bound, as the resumed run reads it), whatever was
 * reserved for those still in flight.
 */
function worstCasesFit(dir: string, maxCost: number, at: string): void {
  const { sent, outcomes } = ledgerLines(dir);
  const dollars = (t: { prompt?: number; completion?: number } | null | undefined) => ((t?.prompt ?? 0) * PRICE.promptPerMillion + (t?.completion ?? 0) * PRICE.completionPerMillion) / 1e6;
  let before = 0;
  for (const [i, line] of sent.entries()) {
    const bound = dollars(line.sent as { prompt: number; completion: number });
    expect(before + bound, `${at}: request ${i} (${line.call}) was sent though its worst case ($${bound}) on top of $${before} passes --max-cost`).toBeLessThanOrEqual(maxCost + 1e-9);
    const o = outcomes.get(line.call as string);
    before += o === undefined || o.charge === 'bound' ? bound : o.charge === 'none' ? 0 : dollars(o.tokens as { prompt: number; completion: number });
  }
}

/** The dollars a spend line printed: `spent $X of --max-cost $C`. */
function printedSpend(io: ReturnType<typeof bufferIo>, maxCost: number): number {
  const m = io.stderr.join('\n').match(new RegExp(`spent \\$(\\d+\\.\\d+) of --max-cost \\$${String(maxCost).replace('.', '\\.')}`));
  expect(m, `a spend line in:\n${io.stderr.join('\n')}`).not.toBeNull();
  return Number(m![1]);
}

/** 2 and 3: the usage is the server's count, the spend the ledger's, within the budget. */
function checkUsage(p: Played, maxCost: number, where: string): void {
  const results = JSON.parse(readFileSync(join(p.dir, 'results.json'), 'utf8'));
  const usage = results.usage[0];
  const { sent, outcomes, open: cut } = ledgerLines(p.dir);
  const at = `${where}: ${p.answered.length} answered, ${sent.length} sent, ${cut} cut off`;
  expect(usage.requests, `${at}: results.json requests are the ledger's sent lines`).toBe(sent.length);
  expect(p.answered.length, `${at}: no answer the ledger does not have`).toBeLessThanOrEqual(sent.length);
  expect(p.answered.length, `${at}: every request with an outcome was answered`).toBeGreaterThanOrEqual(sent.length - cut);
  // Each outcome is of a reply the server wrote for this folder; the tokens are theirs.
  const byId = new Map(p.answered.map((a) => [a.id, a]));
  const recorded = [...outcomes.values()].map((o) => byId.get(o.replyId as string));
  expect(recorded.filter((a) => a === undefined).length, `${at}: outcomes whose reply the server did not write for this folder`).toBe(0);
  expect(usage.promptTokens, at).toBe(recorded.reduce((n, a) => n + a!.prompt, 0));
  expect(usage.completionTokens, at).toBe(recorded.reduce((n, a) => n + a!.completion, 0));
  // The spend: printed as the ledger reads it, no less than the server billed, within the budget.
  const ledger = readLedger(transcriptOf(p.dir));
  expect(ledger.size, at).toBe(1);
  const spend = [...ledger.values()][0].spend(PRICE);
  const billed = p.answered.reduce((n, a) => n + (a.prompt * PRICE.promptPerMillion + a.completion * PRICE.completionPerMillion) / 1e6, 0);
  expect(printedSpend(p.io, maxCost).toFixed(4), `${at}: the printed spend is the ledger's ($${spend})`).toBe(spend.toFixed(4));
  expect(spend, `${at}: the ledger's spend covers what the server billed ($${billed})`).toBeGreaterThanOrEqual(billed - 1e-12);
  expect(spend, `${at}: within --max-cost`).toBeLessThanOrEqual(maxCost);
  worstCasesFit(p.dir, maxCost, at);
}

/** 1: the games the uninterrupted run played, each once. */
function checkGames(dir: string, reference: string, where: string): void {
  const indexes = readFileSync(join(dir, 'games.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { index: number }).index);
  expect(indexes.sort((a, b) => a - b), `${where}: every scheduled game once`).toEqual(Array.from({ length: GAMES }, (_, i) => i));
  expect(withoutTimes(dir), `${where}: the uninterrupted run's results`).toEqual(withoutTimes(reference));
}

describe(`llm-bench killed at generated points (seed ${SEED})`, () => {
  const reference = () => join(tmp, 'reference');

  beforeAll(async () => {
    const from = answered.length;
    const io = bufferIo();
    expect(await main(ARGS(reference(), GENEROUS), io), io.stderr.join('\n')).toBe(0);
    await settled();
    // Uninterrupted, every count is exact: every request answered and recorded.
    const sent = answered.length - from;
    expect(JSON.parse(readFileSync(join(reference(), 'results.json'), 'utf8')).usage[0].requests).toBe(sent);
    expect(printedSpend(io, GENEROUS).toFixed(4)).toBe((sent * ANSWER_COST).toFixed(4));
  }, CASE_MS);

  const cases: { name: string; case: KillCase; dir: string; fault?: string }[] = [
    ...drawCases(SEED).map((c, i) => ({ name: `seed ${SEED} case ${i}: ${describeCase(c)}`, case: c, dir: `case-${i}` })),
    ...NAMED.map((n, i) => ({ name: `named: ${n.name}: ${describeCase(n.case)}`, case: n.case, dir: `named-${i}`, fault: n.fault })),
  ];
  for (const c of cases) {
    const test = c.fault === undefined ? it : it.fails;
    test(`${c.name} ${JSON.stringify(c.case)}${c.fault === undefined ? '' : ` (fails: ${c.fault})`}`, async () => {
      const where = `${c.name} ${JSON.stringify(c.case)}`;
      const p = await play(join(tmp, c.dir), c.case, GENEROUS, where);
      expect(p.code, `${where}: the last resume completes the run; stderr:\n${p.io.stderr.join('\n')}`).toBe(0);
      checkGames(p.dir, reference(), where);
      checkUsage(p, GENEROUS, where);
    }, CASE_MS);
  }

  it(`a budget too small to finish holds across a kill (seed ${SEED})`, async () => {
    const rng = seedRng(`${SEED}/budget`);
    const c: KillCase = [{ signal: SIGNALS[randInt(rng, 3)], at: { requests: 2 + randInt(rng, 40) } }];
    const where = `budget $${SMALL}, seed ${SEED}: ${describeCase(c)} ${JSON.stringify(c)}`;
    const p = await play(join(tmp, 'budget'), c, SMALL, where);
    const err = p.io.stderr.join('\n');
    expect(p.code, `${where}: stopped by the budget; stderr:\n${err}`).toBe(1);
    expect(err, where).toMatch(new RegExp(`stopped after \\d+ of ${GAMES} games: bot 'llm:fake-model' would pass the run's cost budget of \\$${SMALL}`));
    expect(err, where).toContain('(the earlier part of the run included); raise --max-cost and --resume to play the rest.');
    const results = JSON.parse(readFileSync(join(p.dir, 'results.json'), 'utf8'));
    expect(results, where).toMatchObject({ complete: false, stop: { kind: 'budget', budget: { scope: 'cost', limit: SMALL } } });
    expect(results.gamesPlayed, where).toBeLessThan(GAMES);
    expect(p.answered.length * ANSWER_COST, `${where}: the server billed within --max-cost`).toBeLessThanOrEqual(SMALL);
    checkUsage(p, SMALL, where);
  }, CASE_MS);
});
