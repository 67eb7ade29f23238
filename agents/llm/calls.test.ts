import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CzechPubEnv } from '../../env/env.ts';
import { EnvObservation } from '../observation.ts';
import type { CallCharge, CallGate } from '../outside-calls.ts';
import { parseLlmSpec } from './index.ts';
import { LlmAgent } from './llm-agent.ts';

/** What the fake server answers the n-th request (0-based): a completion's content and usage, or an error status. */
type Reply = { content: string; usage?: Record<string, unknown>; reasoning?: string } | { status: number };
let reply: (n: number, legal: number[]) => Reply = () => ({ content: '{"action": 0}' });
let served = 0;
let server: http.Server;
let base = '';

const legalOf = (messages: { content: string }[]) => [...(messages.at(-1)?.content.split('Your legal actions:')[1] ?? '').matchAll(/^\s+(\d+): /gm)].map((m) => Number(m[1]));

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const body = JSON.parse(text) as { messages: { role: string; content: string }[] };
      startedAt.push(clock.now);
      // The legal actions are in the decision's user message (a correction follows it).
      const r = reply(served++, legalOf(body.messages.filter((m) => m.content.includes('Your legal actions:'))));
      res.setHeader('content-type', 'application/json');
      if ('status' in r) {
        res.statusCode = r.status;
        res.end(JSON.stringify({ error: { message: `scripted ${r.status}` } }));
        return;
      }
      res.end(JSON.stringify({
        id: 'x', object: 'chat.completion', created: 0, model: 'm',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: r.content, ...(r.reasoning ? { reasoning_content: r.reasoning } : {}) } }],
        usage: r.usage ?? { prompt_tokens: 100, completion_tokens: 5 },
      }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** A 3-player game at its first decision with more than one legal action. */
function decision(seed = 'calls') {
  const env = new CzechPubEnv({ seed, players: 3 });
  while (env.legalActions().length < 2) env.step(env.legalActions()[0]);
  return { env, obs: () => new EnvObservation(env, env.actor) };
}

/** The fake clock agents read; their sleeps advance it instead of waiting. */
const clock = { now: 1_000_000 };
/** The fake clock's time as each request reached the server. */
const startedAt: number[] = [];

/** An agent on the fake server, on the fake clock. */
function agent(options: string) {
  const a = new LlmAgent(`llm:${options}`, parseLlmSpec(`llm:${options}`, `${options}:baseUrl=${base}`), async (ms) => void (clock.now += ms), () => clock.now);
  return { a };
}

describe('what each request cost', () => {
  it("tells the gate what every request it let through was charged: the answer's tokens, or null when it failed", async () => {
    const settled: CallCharge[] = [];
    let taken = 0;
    const gate: CallGate = { take: () => (taken++, null), newGame: () => {}, settle: (s) => void settled.push(s) };
    reply = (n, legal) => (n === 0 ? { status: 500 } : {
      content: JSON.stringify({ action: legal[0] }),
      usage: { prompt_tokens: 1200, completion_tokens: 30, prompt_tokens_details: { cached_tokens: 1024 }, completion_tokens_details: { reasoning_tokens: 20 }, cost: 0.00042 },
    });
    served = 0;
    const { a } = agent('spend-model:backoffMs=1');
    a.useGate(gate);
    const { obs } = decision();
    a.reset({ seat: 0, players: 3, seed: 'g' });
    await a.act(obs());
    expect(taken).toBe(2);
    expect(settled).toEqual([null, { promptTokens: 1200, cachedTokens: 1024, completionTokens: 30, reasoningTokens: 20, cost: 0.00042 }]);
    const u = a.takeUsage();
    expect([u.cachedTokens, u.providerCost, u.costReports]).toEqual([1024, 0.00042, 1]);
  });
});

describe('requests a minute (rpm)', () => {
  it('spaces the starts of every agent of one server and model so that no more than rpm start in any minute, without counting it as waiting', async () => {
    reply = (_n, legal) => ({ content: JSON.stringify({ action: legal[0] }) });
    const { obs } = decision();
    // maxWaitMs=1: pacing is ours, not a back-off, so it never makes a decision give up.
    const [a, b] = [agent('paced-model:rpm=2:maxWaitMs=1').a, agent('paced-model:rpm=2:maxWaitMs=1').a];
    const other = agent('other-model:rpm=2').a;
    for (const x of [a, b, other]) x.reset({ seat: 0, players: 3, seed: 'g' });
    startedAt.length = 0;
    const t = clock.now;
    for (const x of [a, b, a, b, a]) await x.act(obs());
    expect(startedAt.map((s) => s - t)).toEqual([0, 0, 60_000, 60_000, 120_000]);
    // Another model on the same server keeps its own pace.
    startedAt.length = 0;
    const t2 = clock.now;
    await other.act(obs());
    expect(startedAt.map((s) => s - t2)).toEqual([0]);
    const u = a.takeUsage();
    expect([u.fallbacks, u.faultRetries]).toEqual([0, 0]);
  });
});

describe('the transcript: a line per request, and one per fallback', () => {
  const transcriptFile = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'llm-calls-')), 't.jsonl');
  const all = (file: string) => fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
  /** The lines of outcomes: each request's `sent` line (the ledger's, before it went out) left aside. */
  const read = (file: string) => all(file).filter((l) => !('sent' in l));

  it('writes what a decision with one correction sent, got and played, with its tokens, latency and reported cost', async () => {
    const file = transcriptFile();
    reply = (n, legal) => (n % 2 === 0
      ? { content: 'I like turtles', reasoning: 'hmm' }
      : { content: JSON.stringify({ action: legal.at(-1) }), usage: { prompt_tokens: 1500, completion_tokens: 9, prompt_tokens_details: { cached_tokens: 1024 }, cost: 0.0001 } });
    served = 0;
    const { a } = agent(`lines-model:transcript=${file}`);
    const { obs } = decision('lines');
    a.reset({ seat: obs().seat, players: 3, seed: 'game-seed' });
    const played = await a.act(obs());
    await a.act(obs());
    const lines = read(file);
    expect(lines).toHaveLength(4);
    // Every request's sent line comes before its outcome's, with the most it could be charged.
    const ledger = all(file);
    expect(ledger).toHaveLength(8);
    ledger.forEach((l, i) => {
      if (i % 2 === 0) expect(l).toMatchObject({ call: ledger[i + 1].call, sent: { prompt: expect.any(Number), completion: 4000 } });
    });
    expect(ledger[0].sent.prompt).toBeGreaterThanOrEqual(1500);
    expect(lines.map((l) => l.charge)).toEqual(['usage', 'usage', 'usage', 'usage']);
    const [first, second] = lines;
    const key = { agent: a.spec, game: 'game-seed', seat: obs().seat, decision: 0 };
    expect(first).toMatchObject({ ...key, attempt: 0, answer: 'I like turtles', reasoning: 'hmm', finish: 'stop', parsed: { ok: false }, tokens: { prompt: 100, cached: 0, completion: 5, reasoning: 0 } });
    expect(first.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
    expect(first).not.toHaveProperty('action');
    expect(first).not.toHaveProperty('cost');
    expect(typeof first.latencyMs).toBe('number');
    expect(Date.parse(first.time)).not.toBeNaN();
    // The correction's line: what it added, the answer played, and its words as the prompt listed them.
    expect(second).toMatchObject({ ...key, attempt: 1, action: played, parsed: { ok: true }, tokens: { prompt: 1500, cached: 1024, completion: 9, reasoning: 0 }, cost: 0.0001 });
    expect(second.messages.map((m: { role: string }) => m.role)).toEqual(['assistant', 'user']);
    expect(first.messages[1].content).toContain(`  ${played}: ${second.words}\n`);
    expect(second).not.toHaveProperty('reasoning');
    expect(lines.slice(2).map((l) => [l.decision, l.attempt])).toEqual([[1, 0], [1, 1]]);
  });

  it("writes a fallback's line, saying whose failure it was, after the lines of its requests", async () => {
    const file = transcriptFile();
    reply = (n) => (n === 0 ? { content: 'purple' } : { status: 500 });
    served = 0;
    const { a } = agent(`fallback-model:transcript=${file}:maxInvalid=0:maxRetries=1:backoffMs=1`);
    const { obs } = decision('fallback');
    a.reset({ seat: obs().seat, players: 3, seed: 'g2' });
    const model = await a.act(obs());
    const server = await a.act(obs());
    const [answered, modelFallback, fault, retried, serverFallback] = read(file);
    const legal = obs().legalActions;
    expect(answered).toMatchObject({ decision: 0, attempt: 0, answer: 'purple' });
    expect(modelFallback).toEqual({ time: expect.any(String), agent: a.spec, game: 'g2', seat: obs().seat, decision: 0, fallback: true, action: model, words: expect.any(String), cause: 'model' });
    expect(model).toBe(legal[0]);
    // Each failed request: its line, the error and no answer; the retry says which it was.
    expect(fault).toMatchObject({ decision: 1, attempt: 0, error: 'server error: HTTP 500: scripted 500', reply: 'fault:server-error', charge: 'none' });
    expect(fault).not.toHaveProperty('answer');
    expect(fault).not.toHaveProperty('retry');
    expect(retried).toMatchObject({ decision: 1, attempt: 0, retry: 1, error: 'server error: HTTP 500: scripted 500' });
    expect(serverFallback).toMatchObject({ decision: 1, fallback: true, action: server, cause: 'server' });
  });
});
