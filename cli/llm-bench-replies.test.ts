/**
 * The server behaviours of issue 41's table, each as a named test of `czech-pub llm-bench`
 * against a scripted fake OpenAI-compatible server on 127.0.0.1: what each reply shape must
 * come to in the run's exit status, its validity, its usage, its ledger and its words.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readLedger } from '../agents/index.ts';
import { normalise } from '../agents/llm/answer.ts';
import { bufferIo } from './io.ts';
import { main } from './main.ts';

interface Listed { id: number; words: string }
interface Req { body: Record<string, unknown>; legal: Listed[]; maxTokens: number; structured: boolean; promptChars: number; messages: number }
/** A scripted reply: a JSON body (status 200 unless given), raw bytes, a reset, or an event stream. */
type Scripted =
  | { json: unknown; status?: number; headers?: Record<string, string>; gzip?: boolean }
  | { raw: string; status: number; headers?: Record<string, string> }
  | { reset: 'before' | 'mid'; body?: string }
  | { stream: unknown[] };

let server: http.Server;
let base = '';
let script: (n: number, req: Req) => Scripted = () => ({ json: {} });
/** Requests served, and what the server billed in all (tokens), as its own record. */
let served = 0;
let billed = { prompt: 0, completion: 0 };
let tmp = '';

function parseReq(body: Record<string, unknown>): Req {
  const messages = (body.messages as { content: string }[]) ?? [];
  const user = messages.filter((m) => m.content.includes('Your legal actions:')).pop()?.content;
  const legal = user === undefined ? [] : [...user.split('Your legal actions:')[1].matchAll(/^\s+(\d+): (.*)$/gm)].map((m) => ({ id: Number(m[1]), words: m[2] }));
  return {
    body, legal, structured: body.response_format !== undefined,
    maxTokens: Number(body.max_completion_tokens ?? body.max_tokens ?? 4000),
    promptChars: messages.reduce((n, m) => n + m.content.length, 0), messages: messages.length,
  };
}

/** What the server bills a request it works on: its prompt (chars / 4 and 4 a message) and `completion`. */
function bill(req: Req, completion: number) {
  const prompt = Math.ceil(req.promptChars / 4) + 4 * req.messages;
  billed.prompt += prompt;
  billed.completion += completion;
  return { prompt_tokens: prompt, completion_tokens: completion };
}

const answer = (req: Req, content: string | null, finish: unknown = 'stop', extra: Record<string, unknown> = {}, completion = 5) => ({
  json: { id: `r${served}`, object: 'chat.completion', model: 'fake', choices: [{ index: 0, finish_reason: finish, message: { role: 'assistant', content } }], usage: bill(req, completion), ...extra },
});
const first = (req: Req) => JSON.stringify({ action: req.legal[0]?.id ?? 0 });

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-replies-'));
  server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      const r = script(served++, parseReq(JSON.parse(text) as Record<string, unknown>));
      if ('reset' in r) {
        if (r.reset === 'before') return void res.socket?.destroy();
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(r.body!.length) });
        res.write(r.body!.slice(0, Math.floor(r.body!.length / 2)));
        setTimeout(() => res.socket?.destroy(), 5);
        return;
      }
      if ('stream' in r) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`${r.stream.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`);
        return;
      }
      if ('raw' in r) {
        res.writeHead(r.status, { 'content-type': 'text/plain', ...r.headers });
        res.end(r.raw);
        return;
      }
      const body = JSON.stringify(r.json);
      res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...(r.gzip ? { 'content-encoding': 'gzip' } : {}), ...r.headers });
      res.end(r.gzip ? gzipSync(body) : body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

beforeEach(() => {
  served = 0;
  billed = { prompt: 0, completion: 0 };
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Runs llm-bench into a fresh folder: its exit code, output and results. */
async function bench(name: string, extra: string[] = []) {
  const out = path.join(tmp, name);
  const io = bufferIo();
  const code = await main(['llm-bench', '--model', 'fake-model', '--base-url', base, '--players', '3', '--games', '6', '--opponents', 'random', '--concurrency', '1', '--seed', name, '--out', out, ...extra], io);
  const results = fs.existsSync(path.join(out, 'results.json')) ? JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8')) : null;
  const lines = fs.existsSync(path.join(out, 'transcript.jsonl'))
    ? fs.readFileSync(path.join(out, 'transcript.jsonl'), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>)
    : [];
  return { code, out, err: io.stderr.join('\n'), results, usage: results?.usage?.[0], lines, outcomes: lines.filter((l) => !('sent' in l)) };
}

describe('issue 41: every reply shape, what the bench makes of it', () => {
  it('a move named in words with numbers in them is never played as the number: only an exact name is a move', async () => {
    // Even requests: the words with a lead-in ("I'll play …", numbers inside); odd ones: exactly the words.
    script = (n, req) => (req.legal.length === 0 ? answer(req, '{"action": 0}') : answer(req, n % 2 === 0 ? `I'll play ${req.legal.at(-1)!.words}` : req.legal.at(-1)!.words));
    const r = await bench('words');
    const played = r.outcomes.filter((l) => l.parsed?.ok);
    expect(played.length).toBeGreaterThan(5);
    // Every answer played is exactly the words of the move it played.
    for (const l of played) expect(normalise(l.answer)).toBe(normalise(l.words));
    const wordy = r.outcomes.filter((l) => typeof l.answer === 'string' && l.answer.startsWith("I'll play"));
    expect(wordy.length).toBeGreaterThan(5);
    expect(wordy.every((l) => l.parsed.ok === false && l.action === undefined)).toBe(true);
    expect(r.usage.invalidAnswers).toBe(wordy.length);
    expect(r.usage.fallbacks).toBe(0);
  }, 60_000);

  it('content_filter, SAFETY, MAX_TOKENS and a refusal are never the model\'s play; the text is kept and the billed tokens counted', async () => {
    const shapes = [
      (req: Req) => answer(req, '{"action": 0', 'content_filter', {}, 7),
      (req: Req) => answer(req, `{"action": ${req.legal[0].id}}`, 'SAFETY', {}, 9),
      (req: Req) => {
        // Gemini-style usage: the thoughts billed beside the candidates, to the token limit.
        const { usage, ...json } = answer(req, `{"action": ${req.legal[0].id}}`, 'MAX_TOKENS', {}, req.maxTokens).json;
        return { json: { ...json, usageMetadata: { promptTokenCount: usage.prompt_tokens, candidatesTokenCount: 30, thoughtsTokenCount: usage.completion_tokens - 30 } } };
      },
      (req: Req) => answer(req, null, 'stop', {}, 4),
    ];
    let k = 0;
    script = (_n, req) => {
      if (req.legal.length === 0) return answer(req, '{"action": 0}');
      // A correction (two more messages) gets a good answer; a fresh decision one of the shapes.
      if (req.messages > 2) return answer(req, first(req));
      const s = shapes[k++ % shapes.length](req);
      if (k % shapes.length === 0) (s.json as { choices: { message: Record<string, unknown> }[] }).choices[0].message.refusal = "I can't help with a card game that involves alcohol.";
      return s;
    };
    const r = await bench('filtered');
    expect(r.code).toBe(0);
    const byReply = (c: string) => r.outcomes.filter((l) => l.reply === c);
    expect(byReply('filtered').length).toBeGreaterThan(2);
    expect(byReply('truncated').length).toBeGreaterThan(0);
    expect([...byReply('filtered'), ...byReply('truncated')].every((l) => !l.parsed.ok && l.action === undefined)).toBe(true);
    expect(byReply('filtered').some((l) => l.answer === "I can't help with a card game that involves alcohol.")).toBe(true);
    expect(r.usage.refusals).toBe(byReply('filtered').length);
    expect(r.usage.truncations).toBe(byReply('truncated').length);
    // Every token the server billed, the Gemini-style thoughts included.
    expect([r.usage.promptTokens, r.usage.completionTokens]).toEqual([billed.prompt, billed.completion]);
  }, 60_000);

  it('a connection reset in the middle of the body is retried, never a fallback, and charged its worst case', async () => {
    script = (n, req) => {
      const a = answer(req, first(req));
      return n % 15 === 7 ? { reset: 'mid', body: JSON.stringify(a.json) } : a;
    };
    const r = await bench('reset');
    expect(r.code).toBe(0);
    expect(r.usage.fallbacks).toBe(0);
    expect(r.usage.replies['fault:connection-lost']).toBeGreaterThan(0);
    expect(r.usage.faultRetries).toBe(r.usage.replies['fault:connection-lost']);
    expect(r.outcomes.filter((l) => l.reply === 'fault:connection-lost').every((l) => l.charge === 'bound')).toBe(true);
  }, 60_000);

  it('429 insufficient_quota stops the run at once with the provider\'s words, every report written', async () => {
    script = (n, req) => (n < 12 ? answer(req, first(req)) : {
      json: { error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', code: 'insufficient_quota' } }, status: 429,
    });
    const r = await bench('quota');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/quota or billing: HTTP 429: You exceeded your current quota.*add credit or use another key/s);
    expect(served).toBe(13); // nothing sent after the quota's answer
    expect(r.results.complete).toBe(false);
    for (const f of ['leaderboard.md', 'report.html', 'games.jsonl']) expect(fs.existsSync(path.join(r.out, f))).toBe(true);
  }, 60_000);

  it("a server that refuses response_format in DeepSeek's words is asked for plain text, once, printed and recorded", async () => {
    script = (_n, req) => (req.structured
      ? { json: { error: { message: 'This response_format type is unavailable now', type: 'invalid_request_error' } }, status: 400 }
      : answer(req, String(req.legal[0]?.id ?? 0)));
    const r = await bench('format');
    expect(r.code).toBe(0);
    expect(r.err.match(/model fault \(.*asking for plain-text answers instead/g)).toHaveLength(1);
    expect(r.usage.adaptations).toEqual(['plain-text answers: the server refused response_format']);
    expect(r.usage.plainTextAnswers).toBe(r.usage.decisions);
  }, 60_000);

  it('413 "request too large", at the preflight and mid-run, names --max-tokens and the prompt\'s size', async () => {
    const tooLarge = { json: { error: { message: 'Request too large for model `fake` on tokens per minute (TPM): Limit 6000, Requested 8000', type: 'tokens', code: 'rate_limit_exceeded' } }, status: 413 };
    script = () => tooLarge;
    const pre = await bench('large-pre');
    expect(pre.code).toBe(1);
    expect(pre.err).toMatch(/request too large: HTTP 413.*\nNothing was played\. The request is larger than the server takes: lower --max-tokens \(now 4000; the prompt is at most about \d+ tokens\)/);
    expect(pre.err).not.toMatch(/check the key/i);
    script = (n, req) => (n < 10 ? answer(req, first(req)) : tooLarge);
    const mid = await bench('large-mid');
    expect(mid.code).toBe(1);
    expect(mid.results.stoppedBy).toMatch(/lower --max-tokens/);
    expect(mid.results.complete).toBe(false);
  }, 60_000);

  it('one 529 "Overloaded" at the preflight is waited out, and the run goes on', async () => {
    script = (n, req) => (n === 0 ? { json: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, status: 529 } : answer(req, first(req)));
    const r = await bench('overloaded');
    expect(r.code).toBe(0);
    expect(r.results.complete).toBe(true);
  }, 60_000);

  it('the tokens of finish_reason "error" answers count; a server that always streams without usage says "not reported", never 0', async () => {
    script = (n, req) => (n % 20 === 3 ? answer(req, '', 'error', {}, 3) : answer(req, first(req), 'stop', {}, 5));
    const r = await bench('error-usage');
    expect(r.code).toBe(0);
    expect(r.usage.replies['fault:server-error']).toBeGreaterThan(0);
    expect([r.usage.promptTokens, r.usage.completionTokens]).toEqual([billed.prompt, billed.completion]);

    script = (_n, req) => ({ stream: [{ id: 's', choices: [{ delta: { content: first(req) } }] }, { choices: [{ delta: {}, finish_reason: 'stop' }] }] });
    const s = await bench('stream-no-usage');
    expect(s.code).toBe(0);
    expect(s.usage.promptTokens).toBe(0);
    expect(s.usage.usageMissing).toBeGreaterThan(0);
    expect(s.usage.usageMissing).toBe(s.usage.replies.answer);
    expect(fs.readFileSync(path.join(s.out, 'leaderboard.md'), 'utf8')).toMatch(/not reported/);
  }, 60_000);

  it('--max-cost with a reasoning model: no call is sent whose worst case would pass the budget, the preflight included', async () => {
    const prices = path.join(tmp, 'prices.json');
    fs.writeFileSync(prices, JSON.stringify({ 'fake-model': { promptPerMillion: 1, completionPerMillion: 4 } }));
    // Every answer thinks to the token limit, as a reasoning model may.
    script = (_n, req) => answer(req, first(req), 'stop', {}, req.maxTokens);
    const r = await bench('budget', ['--max-cost', '0.5', '--prices', prices, '--max-tokens', '2000', '--games', '30']);
    expect(r.code).toBe(1);
    const serverBill = (billed.prompt * 1 + billed.completion * 4) / 1e6;
    expect(serverBill).toBeLessThanOrEqual(0.5);
    expect(r.results.gamesPlayed).toBeGreaterThan(0);
    expect(r.results.stop.budget).toMatchObject({ scope: 'cost', limit: 0.5 });
    const ledger = readLedger(fs.readFileSync(path.join(r.out, 'transcript.jsonl'), 'utf8'));
    const spend = [...ledger.values()].reduce((s, t) => s + t.spend({ promptPerMillion: 1, completionPerMillion: 4 }), 0);
    expect(spend).toBeCloseTo(serverBill, 9);
    expect(r.err).toMatch(new RegExp(`spent \\$${spend.toFixed(4)} of --max-cost \\$0.5`));
    // The last call not sent: its worst case did not fit in what was left.
    expect(0.5 - spend).toBeLessThan((2000 * 4 + 8000 * 1) / 1e6);
    expect(ledger.get(r.results.config.agents[0])!.requests).toBe(served);
  }, 60_000);
});
