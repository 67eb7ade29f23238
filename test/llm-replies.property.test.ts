/**
 * Issue 41's generated-server property test: `czech-pub llm-bench`, through the real `openai`
 * client, against a fake server whose every reply is drawn from a seed out of a grammar of the
 * shapes servers send (test/support/reply-grammar.ts), each with the fake's own record of what
 * the model named and what it billed. Over 50 seeds and some thousands of replies:
 *
 * - every move played is one the model named (the record's `named`), from a complete answer;
 * - every reply is classified as the record says, and none that is not a complete answer is played;
 * - the usage equals the fake's own count of what it reported, and "not reported" counts the rest;
 * - the servers' bill never passes --max-cost, and the run's ledger never counts less than it;
 * - the exit status and the validity flag are what the results say, a fatal fault stops the run;
 * - the API key appears in no output.
 *
 * A seed that fails is named in the test's title; keep it in REGRESSIONS.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLedger } from '../agents/index.ts';
import { bufferIo } from '../cli/io.ts';
import { main } from '../cli/main.ts';
import { DEFAULT_PRICES, type ShapeWeights } from './support/reply-grammar.ts';
import { startFakeModelServer, type ReplyRecord } from './support/fake-model-server.ts';

const KEY = 'sk-prop-0123456789abcdefSECRET';
const KEY_ENV = 'CZECH_PUB_PROPERTY_KEY';
/**
 * Seeds that once failed, kept as named cases beyond the sweep. prop-29 (a preflight whose
 * choice failed with finish_reason "error" and no usage was charged nothing, though billed) is
 * in the sweep, and named in agents/llm/reply.test.ts.
 */
const REGRESSIONS: string[] = [
  // A sweep of 300 more seeds: OpenAI's "string too long" 400 was classified a request too large,
  // as it is; the grammar had called it a bad request. Kept for the shape it draws.
  'prop-99',
];
/** The sweep: 50 seeds from prop-0, or more to look further (LLM_PROPERTY_SEEDS=500 LLM_PROPERTY_FROM=50). */
const SWEEP = Number(process.env.LLM_PROPERTY_SEEDS ?? 50);
const FROM = Number(process.env.LLM_PROPERTY_FROM ?? 0);
const SEEDS = [...REGRESSIONS, ...Array.from({ length: SWEEP }, (_, i) => `prop-${FROM + i}`)];

/** Per seed: the shapes' weights (every tenth seed lets fatal faults in) and the budget. */
function caseOf(seed: string) {
  const k = Number(seed.split('-').pop()) || 0;
  const weights: ShapeWeights = {
    named: 30, notNamed: 10, reasoning: 8, truncated: 6, filtered: 4, retryable: 10, formatRefused: 2, unknown: 6, stream: 8, gzip: 6,
    fatal: k % 10 === 9 ? 3 : 0,
  };
  const maxCost = k % 5 === 1 ? 0.01 : 5;
  return { weights, maxCost };
}

let tmp = '';
const totals = { replies: 0, played: 0, seeds: 0 };

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-prop-'));
  process.env[KEY_ENV] = KEY;
});

afterAll(() => {
  delete process.env[KEY_ENV];
  fs.rmSync(tmp, { recursive: true, force: true });
  // The sample's size, as the issue asks it: at least 2,000 replies over 50 seeds.
  console.info(`llm-replies property: ${totals.seeds} seeds, ${totals.replies} replies, ${totals.played} moves played`);
  expect(totals.seeds).toBe(SEEDS.length);
  expect(totals.replies).toBeGreaterThanOrEqual(40 * SEEDS.length);
});

const FATAL = new Set(['quota', 'authentication', 'not-found', 'too-large', 'bad-request']);
const cost = (t: { prompt: number; completion: number }) => (t.prompt * DEFAULT_PRICES.promptPerMillion + t.completion * DEFAULT_PRICES.completionPerMillion) / 1e6;

describe('llm-bench against a server drawn from a grammar of reply shapes', () => {
  it.each(SEEDS)('seed %s', async (seed) => {
    const { weights, maxCost } = caseOf(seed);
    const server = await startFakeModelServer({ seed, weights, apiKey: KEY, prices: DEFAULT_PRICES });
    const out = path.join(tmp, seed);
    const prices = path.join(tmp, `${seed}-prices.json`);
    fs.writeFileSync(prices, JSON.stringify({ 'fake-model': DEFAULT_PRICES }));
    const io = bufferIo();
    let code: number;
    try {
      code = await main([
        'llm-bench', '--model', 'fake-model', '--base-url', server.baseUrl, '--api-key-env', KEY_ENV, '--players', '3', '--games', '3',
        '--opponents', 'random', '--concurrency', '1', '--seed', seed, '--backoff-ms', '1', '--max-tokens', '300',
        '--prices', prices, '--max-cost', String(maxCost), '--out', out,
      ], io);
    } finally {
      await server.close();
    }
    const records = new Map<string, ReplyRecord>(server.records.map((r) => [r.id, r]));
    const lines = fs.existsSync(path.join(out, 'transcript.jsonl'))
      ? fs.readFileSync(path.join(out, 'transcript.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>)
      : [];
    const outcomes = lines.filter((l) => !('sent' in l) && !('fallback' in l));
    const results = fs.existsSync(path.join(out, 'results.json')) ? JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8')) : null;
    const why = (what: string) => `${seed}: ${what}`;

    // Every request the server saw has its outcome in the ledger, and the other way round; a
    // preflight that failed leaves no ledger only when nothing it sent can have cost anything.
    if (lines.length === 0) expect(server.records.every((r) => cost(r.billed) === 0) && code === 1, why('no ledger, nothing billed')).toBe(true);
    else expect(outcomes.length, why('one outcome line per request')).toBe(server.records.length);
    for (const l of outcomes) {
      // A reply lost before its headers has no id to pair it by: it is the record of that n.
      const r = l.replyId ? records.get(l.replyId) : undefined;
      if (!r) {
        expect(l.reply, why(`an outcome without the server's id: ${JSON.stringify(l)}`)).toBe('fault:connection-lost');
        continue;
      }
      const expected = r.outcome === 'fault' ? `fault:${r.fault}` : r.outcome;
      const got = !r.delivered ? 'fault:connection-lost' : expected;
      expect(l.reply, why(`reply ${r.id} (${r.shape}) classified`)).toBe(got);
      if (l.parsed?.ok) {
        // Every move played is one the model named, from a complete answer.
        expect(r.outcome, why(`${r.shape} played`)).toBe('answer');
        expect(l.action, why(`${r.shape} played as named`)).toBe(r.named);
        totals.played++;
      } else if (r.outcome === 'answer' && r.named !== null && r.delivered && l.game !== 'preflight') {
        throw new Error(why(`${r.id} (${r.shape}) named ${r.named} but was not played: ${JSON.stringify(l.parsed)}`));
      }
    }
    totals.replies += server.records.length;
    totals.seeds++;

    // The servers' bill never passes the budget; the ledger never counts less than it.
    const bill = server.records.reduce((s, r) => s + cost(r.billed), 0);
    expect(bill, why('bill within --max-cost')).toBeLessThanOrEqual(maxCost + 1e-12);
    const ledger = readLedger(lines.map((l) => JSON.stringify(l)).join('\n'));
    const spend = [...ledger.values()].reduce((s, t) => s + t.spend(DEFAULT_PRICES), 0);
    expect(spend, why('ledger ≥ bill')).toBeGreaterThanOrEqual(bill - 1e-12);
    expect(spend, why('ledger within --max-cost')).toBeLessThanOrEqual(maxCost + 1e-12);

    const fatal = server.records.find((r) => r.outcome === 'fault' && FATAL.has(r.fault!) && r.delivered);
    if (results === null) {
      // Only a preflight that failed leaves no results: a fatal fault, or a budget that cannot pay one call.
      expect(code, why('a run without results fails')).toBe(1);
      expect(server.records.length, why('nothing played')).toBeLessThanOrEqual(10);
    } else {
      const u = results.usage[0];
      // Usage is the server's own count of what it reported, and "not reported" the rest.
      const reported = server.records.filter((r) => r.delivered && r.usageReported);
      expect(u.promptTokens, why('prompt tokens')).toBe(reported.reduce((s, r) => s + r.billed.prompt, 0));
      expect(u.completionTokens, why('completion tokens')).toBe(reported.reduce((s, r) => s + r.billed.completion, 0));
      const unreported = server.records.filter((r) => r.delivered && !r.usageReported && ['answer', 'truncated', 'filtered'].includes(r.outcome));
      expect(u.usageMissing, why('answers without usage')).toBe(unreported.length);
      expect(u.requests, why('requests')).toBe(server.records.length);
      // The exit status and the validity flag are what the results say; a fatal fault stopped the run.
      expect(u.invalid, why('validity')).toBe(u.fallbackRate > results.maxFallbackRate);
      expect(code, why('exit status')).toBe(results.complete && !u.invalid ? 0 : 1);
      if (fatal) {
        expect(results.complete, why(`stopped by ${fatal.shape}`)).toBe(false);
        expect(server.records.at(-1)!.id, why('nothing sent after a fatal fault')).toBe(fatal.id);
      }
      if (!results.complete) for (const f of ['leaderboard.md', 'report.html', 'games.jsonl']) expect(fs.existsSync(path.join(out, f)), why(f)).toBe(true);
    }

    // The key is in no output: not printed, not written.
    const written = fs.existsSync(out) ? fs.readdirSync(out).map((f) => fs.readFileSync(path.join(out, f), 'utf8')).join('\n') : '';
    for (const text of [io.stdout.join('\n'), io.stderr.join('\n'), written]) expect(text.includes(KEY), why('the key appears')).toBe(false);
  }, 60_000);
});
