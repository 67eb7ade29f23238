import Fastify, { type FastifyInstance } from 'fastify';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { playGame } from '../../eval/game.ts';
import { leaderboardMarkdown, reportHtml } from '../../eval/report.ts';
import { runTournament } from '../../eval/tournament.ts';
import { bufferIo } from '../../cli/io.ts';
import { main } from '../../cli/main.ts';
import { DEFAULT_RULESET } from '../../env/ruleset.ts';
import { CzechPubEnv } from '../../env/env.ts';
import { EnvObservation } from '../observation.ts';
import { createAgent } from '../default-registry.ts';
import { parseLlmSpec } from './index.ts';
import { LlmAgent } from './llm-agent.ts';
import { retryAfterMs } from './reply.ts';

/** What the fake server does with the n-th request (0-based): a reply, or a status and headers. */
type Body = { messages: { role: string; content: string }[] } & Record<string, unknown>;
type Script = (n: number, legal: number[], body: Body) =>
  | { content: string; reasoning_content?: string; reasoningTokens?: number; finish?: string }
  | { status: number; headers?: Record<string, string>; message?: string }
  | { delayMs: number; content: string }
  /** Answered once the promise `release` gives (told the requests in flight, this one among them) settles. */
  | { release: (inFlight: number) => Promise<unknown>; content: string }
  /**
   * Exactly this body (an object as JSON, a string as it is), its headers sent at once and the
   * body after bodyDelayMs, or never (`held`: the client gives up on it).
   */
  | { raw: unknown; status?: number; contentType?: string; bodyDelayMs?: number | 'held' };

let app: FastifyInstance;
let origin = '';
/**
 * Each test's base URL, a path of its own: a request a test gave up on (a timeout) can reach
 * the server after the next test began, and is then refused uncounted instead of taking the
 * next test's scripted answer.
 */
let base = '';
let run = 0;
let script: Script = () => ({ content: '{"action": 0}' });
let served = 0;
/** Each request's model and Authorization header. */
const auths: string[] = [];
let inFlight = 0;
let inFlightMax = 0;

function legalIds(body: { messages: { content: string }[] }): number[] {
  const user = body.messages.filter((m) => m.content.includes('Your legal actions:')).pop()?.content;
  // The preflight request (no game yet) lists no actions.
  return user === undefined ? [] : [...user.split('Your legal actions:')[1].matchAll(/^\s+(\d+): /gm)].map((m) => Number(m[1]));
}

beforeAll(async () => {
  app = Fastify();
  app.post('/r:run/v1/chat/completions', async (req, reply) => {
    if ((req.params as { run: string }).run !== String(run)) return reply.code(410).send({ error: { message: 'an earlier test\'s request' } });
    const body = req.body as Body;
    auths.push(`${String(body.model)} ${req.headers.authorization ?? ''}`);
    const r = script(served++, legalIds(body), body);
    if ('raw' in r) {
      reply.hijack();
      const text = typeof r.raw === 'string' ? r.raw : JSON.stringify(r.raw);
      reply.raw.writeHead(r.status ?? 200, { 'content-type': r.contentType ?? 'application/json' });
      reply.raw.flushHeaders();
      const delay = r.bodyDelayMs;
      if (delay === 'held') return; // until the client gives up and closes the connection
      if (delay) await new Promise((res) => setTimeout(res, delay));
      reply.raw.end(text);
      return;
    }
    if ('status' in r) return reply.code(r.status).headers(r.headers ?? {}).send({ error: { message: r.message ?? `scripted ${r.status}` } });
    if ('delayMs' in r || 'release' in r) {
      inFlightMax = Math.max(inFlightMax, ++inFlight);
      await ('release' in r ? r.release(inFlight) : new Promise((res) => setTimeout(res, r.delayMs)));
      inFlight--;
    }
    return {
      id: 'x', object: 'chat.completion', created: 0, model: 'fake',
      choices: [{ index: 0, finish_reason: ('finish' in r && r.finish) || 'stop', message: { role: 'assistant', content: r.content, ...('reasoning_content' in r ? { reasoning_content: r.reasoning_content } : {}) } }],
      usage: { prompt_tokens: 100, completion_tokens: 5, total_tokens: 105, ...('reasoningTokens' in r ? { completion_tokens_details: { reasoning_tokens: r.reasoningTokens } } : {}) },
    };
  });
  origin = await app.listen({ host: '127.0.0.1', port: 0 });
});

beforeEach(() => {
  base = `${origin}/r${++run}/v1`;
  served = 0;
});

afterAll(async () => {
  await app.close();
});

async function play(spec: string, s: Script) {
  script = s;
  served = 0;
  const agent = createAgent(spec) as LlmAgent;
  // No waiting in tests: backoff delays are recorded instead of slept.
  const waits: number[] = [];
  (agent as unknown as { sleep: (ms: number) => Promise<void> }).sleep = async (ms) => void waits.push(ms);
  const g = await playGame([agent, createAgent('random'), createAgent('random')], { seed: `llm/${spec.length}` });
  return { g, stats: g.usage![0]!, served, waits };
}

const spec = (extra = '') => `llm:fake-model:baseUrl=${base}${extra}`;

describe('llm agent against an OpenAI-compatible server', () => {
  it('plays a full game on valid structured answers, counting requests and tokens', async () => {
    const { g, stats, served: n } = await play(spec(), (_, legal) => ({ content: JSON.stringify({ action: legal[legal.length - 1], reason: 'last' }) }));
    expect(g.agentDecisions[0]).toBeGreaterThan(0);
    expect(stats.decisions).toBeGreaterThan(0);
    expect(stats.requests).toBe(n);
    expect(n).toBe(stats.decisions);
    expect(stats.invalidAnswers + stats.fallbacks + stats.faultRetries).toBe(0);
    expect(stats.promptTokens).toBe(100 * n);
    expect(stats.latenciesMs.length).toBe(n);
    // The game record carries the agent's usage in that game, on its seat.
    expect(g.usage?.[0]?.requests).toBe(n);
    expect(g.usage?.[1]).toBeNull();
    // Where and how it was asked: the host only, the model the server named, the settings as sent.
    expect(stats.provenance).toEqual({
      host: new URL(base).host,
      servedModels: ['fake'],
      settings: { model: 'fake-model', temperature: 0, max_completion_tokens: 4000, response_format: 'json_schema' },
      rulesHash: expect.stringMatching(/^[0-9a-f]{16}$/),
      promptHash: expect.stringMatching(/^[0-9a-f]{16}$/),
      sdk: expect.stringMatching(/^openai \d+\.\d+\.\d+$/),
    });
  });

  it('corrects an illegal id and then takes the valid answer', async () => {
    const { stats, served: n } = await play(spec(), (k, legal) => ({ content: JSON.stringify({ action: k % 2 === 0 ? 9999 : legal[0] }) }));
    expect(stats.invalidAnswers).toBe(stats.decisions);
    expect(stats.fallbacks).toBe(0);
    expect(n).toBe(2 * stats.decisions);
    // By kind: every decision was legal after one correction, none at the first try.
    const kinds = Object.values(stats.byKind!);
    expect(kinds.reduce((x, k) => x + k.decisions, 0)).toBe(stats.decisions);
    expect(kinds.every((k) => k.corrected === k.decisions && k.firstTry === 0)).toBe(true);
    expect(Object.keys(stats.byKind!)).toContain('play');
  });

  it('falls back after maxInvalid corrections of garbage, and the game still ends', async () => {
    const { g, stats, served: n } = await play(spec(':maxInvalid=1'), () => ({ content: 'I like turtles' }));
    expect(g.scores.length).toBe(3);
    expect(stats.fallbacks).toBe(stats.decisions);
    expect(stats.invalidAnswers).toBe(2 * stats.decisions);
    expect(n).toBe(2 * stats.decisions);
  });

  it('accepts plain-text answers naming a legal id', async () => {
    const { stats } = await play(spec(':structured=false'), (_, legal) => ({ content: ` ${legal[0]}\n` }));
    expect(stats.plainTextAnswers).toBe(stats.decisions);
    expect(stats.invalidAnswers).toBe(0);
  });

  it('retries 429 honouring Retry-After, and 500s with backoff', async () => {
    const r = await play(spec(':backoffMs=10'), (k, legal) =>
      k % 3 === 0 ? { status: 429, headers: { 'retry-after': '2' } } : k % 3 === 1 ? { status: 500 } : { content: JSON.stringify({ action: legal[0] }) });
    expect(r.stats.fallbacks).toBe(0);
    expect(r.stats.faultRetries).toBe(2 * r.stats.decisions);
    expect(r.waits.filter((w) => w === 2000).length).toBe(r.stats.decisions);
    expect(r.waits.filter((w) => w === 20).length).toBe(r.stats.decisions); // second retry: 10 · 2¹
    // Faults by kind, the server's: one 429 and one 500 a decision.
    expect(r.stats.faults).toEqual({ 'rate-limited': r.stats.decisions, 'server-error': r.stats.decisions });
  });

  it('times out slow answers, retries, and falls back when faults persist', async () => {
    // maxFaultStreak=0: play on however often the server fails (by default the agent stops the game, below).
    const r = await play(spec(':timeoutMs=50:maxRetries=1:maxFaultStreak=0'), (_k, legal) => ({ delayMs: 200, content: JSON.stringify({ action: legal[0] }) }));
    expect(r.stats.fallbacks).toBe(r.stats.decisions);
    expect(r.stats.faultFallbacks).toBe(r.stats.decisions); // the server's, named apart from the model's
    expect(r.stats.faultRetries).toBe(r.stats.decisions);
    expect(r.stats.faults).toEqual({ timeout: 2 * r.stats.decisions });
    await expect(play(spec(':timeoutMs=50:maxRetries=0:maxFaultStreak=3'), (_k, legal) => ({ delayMs: 200, content: JSON.stringify({ action: legal[0] }) })))
      .rejects.toThrow(/3 decisions in a row failed \(last: timeout: no whole answer within 0.05 s\); stopping/);
  }, 120_000); // a game of decisions that each wait out two 50 ms timeouts, each later on a busy machine

  it('waits out 429s without Retry-After past maxRetries, learning the window from one decision to the next', async () => {
    const r = await play(`llm:limited-model:baseUrl=${base}:backoffMs=10:maxRetries=0`, (k, legal) => (k % 3 < 2 ? { status: 429 } : { content: JSON.stringify({ action: legal[0] }) }));
    // Decision 1 backs off 10 then 20 ms; decision 2 starts at the window decision 1 learned.
    expect(r.waits.slice(0, 4)).toEqual([10, 20, 20, 40]);
    expect(r.stats.faultRetries).toBe(2 * r.stats.decisions);
    expect(r.stats.fallbacks + r.stats.faultFallbacks).toBe(0);
  });

  it("does not sleep through a daily cap's Retry-After: past maxWaitMs the decision gives up at once, saying why", async () => {
    const r = await play(spec(':maxFaultStreak=0'), () => ({ status: 429, headers: { 'retry-after': '3600' } }));
    expect(r.waits).toEqual([]);
    expect(r.stats.faultRetries).toBe(0);
    expect(r.stats.faultFallbacks).toBe(r.stats.decisions);
    await expect(play(spec(':maxFaultStreak=2'), () => ({ status: 429, headers: { 'retry-after': '3600' } })))
      .rejects.toThrow(/2 decisions in a row failed \(last: rate limit: HTTP 429: scripted 429; waiting more would pass maxWaitMs \(600 s a decision\)\); stopping/);
    // Within the bound, it waits as asked.
    const ok = await play(spec(':maxWaitMs=5000'), (k, legal) => (k % 2 === 0 ? { status: 429, headers: { 'retry-after': '2' } } : { content: JSON.stringify({ action: legal[0] }) }));
    expect(ok.waits.every((w) => w === 2000)).toBe(true);
    expect(ok.stats.faultFallbacks + ok.stats.fallbacks).toBe(0);
  });

  it('records what it changed to be answered: a refused temperature is in the usage and the leaderboard', async () => {
    const refuse = (_k: number, legal: number[], body: Body) => ('temperature' in body
      ? { status: 400, message: "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported." }
      : { content: JSON.stringify({ action: legal[0] }) });
    const { stats, g } = await play(`llm:no-temperature-model:baseUrl=${base}`, refuse);
    expect(g.scores.length).toBe(3);
    expect(stats.fallbacks).toBe(0);
    expect(stats.adaptations).toEqual(["temperature left at the model's default: the server refused 0"]);
    script = refuse;
    const r = await runTournament({ agents: [`llm:no-temperature-model:baseUrl=${base}`, 'random', 'random'], games: 3, seed: 'adapt', workers: 0 });
    expect(r.usage[0].adaptations).toEqual(["temperature left at the model's default: the server refused 0"]);
    expect(leaderboardMarkdown(r)).toContain("was asked as its server takes it: temperature left at the model's default: the server refused 0.");
  });

  it('sends max_completion_tokens, and max_tokens instead once a server refuses it', async () => {
    const seen: string[] = [];
    // A model name of its own: what a server refuses is learned per base URL and model, for the whole process.
    const { stats, g } = await play(`llm:tokens-model:baseUrl=${base}:maxRetries=0`, (_k, legal, body) => {
      seen.push('max_completion_tokens' in body ? 'completion' : 'max_tokens' in body ? 'max' : 'none');
      if ('max_completion_tokens' in body) return { status: 400, message: "Unrecognized request argument supplied: max_completion_tokens" };
      return { content: JSON.stringify({ action: legal[0] }) };
    });
    expect(g.scores.length).toBe(3);
    expect(stats.fallbacks).toBe(0);
    expect(seen[0]).toBe('completion');
    expect(seen.slice(1).every((x) => x === 'max')).toBe(true);
  });

  it('never sends max_tokens to a server that refuses it (reasoning models), and the games finish', async () => {
    const { stats, g } = await play(`llm:reasoner-model:baseUrl=${base}:maxRetries=0`, (_k, legal, body) =>
      'max_tokens' in body ? { status: 400, message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead." } : { content: JSON.stringify({ action: legal[0] }) });
    expect(g.scores.length).toBe(3);
    expect(stats.fallbacks).toBe(0);
    expect(stats.requests).toBe(stats.decisions);
  });

  it('switches to plain-text answers by itself when a server refuses response_format, and the games finish', async () => {
    const { stats, g } = await play(`llm:format-model:baseUrl=${base}:maxRetries=0`, (_k, legal, body) =>
      'response_format' in body ? { status: 400, message: "response_format 'json_schema' is not supported by this server" } : { content: String(legal[0]) });
    expect(g.scores.length).toBe(3);
    expect(stats.fallbacks).toBe(0);
    expect(stats.plainTextAnswers).toBe(stats.decisions);
  });

  it("reads a reasoning model's final answer only, keeps its reasoning in the transcript, and counts reasoning tokens", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'llm-')), 't.jsonl');
    const { stats } = await play(spec(`:transcript=${file}`), (_k, legal) => ({
      reasoning_content: `Maybe {"action": 9999}? No: ${legal[legal.length - 1]} is better than 9999.`,
      content: JSON.stringify({ action: legal[0] }),
      reasoningTokens: 3,
    }));
    expect(stats.invalidAnswers + stats.fallbacks).toBe(0);
    expect(stats.reasoningTokens).toBe(3 * stats.requests);
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.filter((l) => typeof l.reasoning === 'string').length).toBe(stats.requests);
  });

  it('holds one conversation per game with conversation=true: the rules once, then each decision and answer so far', async () => {
    const shapes: { n: number; systems: number; lastAssistant?: string }[] = [];
    const { stats } = await play(spec(':conversation=true'), (_k, legal, body) => {
      const m = body.messages;
      shapes.push({ n: m.length, systems: m.filter((x) => x.role === 'system').length, lastAssistant: m.filter((x) => x.role === 'assistant').pop()?.content });
      return { content: JSON.stringify({ action: legal[0] }) };
    });
    expect(stats.invalidAnswers + stats.fallbacks).toBe(0);
    expect(shapes.map((x) => x.n)).toEqual(shapes.map((_, k) => 2 + 2 * k));
    expect(shapes.every((x) => x.systems === 1)).toBe(true);
    expect(shapes[1].lastAssistant).toMatch(/^\{"action":\d+\}$/);
  });

  it('writes a JSONL transcript of requests and answers', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'llm-')), 't.jsonl');
    const { stats } = await play(spec(`:transcript=${file}`), (_, legal) => ({ content: JSON.stringify({ action: legal[0] }) }));
    const all = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    // Each request has its ledger line, written before it was sent, and its outcome's.
    const lines = all.filter((l) => !('sent' in l));
    expect(all.length).toBe(2 * stats.decisions);
    expect(lines.length).toBe(stats.decisions);
    expect(new Set(all.map((l) => l.call)).size).toBe(stats.decisions);
    expect(lines[0].messages[0].role).toBe('system');
    expect(lines[0].parsed.ok).toBe(true);
  });
});

/** A chat completion as servers send it. */
const completion = (content: string, finish = 'stop', extra: Record<string, unknown> = {}) => ({
  id: 'x', object: 'chat.completion', created: 0, model: 'fake-served-name', ...extra,
  choices: [{ index: 0, finish_reason: finish, message: { role: 'assistant', content } }],
  usage: { prompt_tokens: 100, completion_tokens: 5, total_tokens: 105 },
});

describe("answers read right from every server's shape", () => {
  const answer = (legal: number[]) => JSON.stringify({ action: legal[0], reason: 'first' });

  it('reads the answer after inline <think> reasoning, braces and numbers in the thinking ignored', async () => {
    const { stats } = await play(spec(), (_k, legal) => ({
      content: `<think>Options: {"action": 9999} or maybe {bad json; ${legal.at(-1)} looks good, {"action": ${legal.at(-1)}}</think>\n${answer(legal)}`,
    }));
    expect(stats.invalidAnswers + stats.fallbacks + stats.truncations).toBe(0);
    expect(stats.requests).toBe(stats.decisions);
  });

  it('reads the answer after a </think> whose <think> the chat template opened', async () => {
    const { stats } = await play(spec(), (_k, legal) => ({ content: `thinking about ${legal.at(-1)} {x}\n</think>\n\n${answer(legal)}` }));
    expect(stats.invalidAnswers + stats.fallbacks + stats.truncations).toBe(0);
  });

  it('never reads an answer cut off inside <think> (finish_reason length) as a move: a truncation, and the correction is taken', async () => {
    const { stats } = await play(spec(), (_k, legal, body) => (body.messages.at(-1)!.content.includes('cut off')
      ? { content: answer(legal) }
      : { content: `<think>I could play ${legal[0]} or {"action": ${legal.at(-1)}} and`, finish: 'length' }));
    expect(stats.truncations).toBe(stats.decisions);
    expect(stats.invalidAnswers + stats.fallbacks).toBe(0);
    expect(stats.requests).toBe(2 * stats.decisions);
  });

  it('never reads numbers in a JSON answer cut off by the token limit, with or without finish_reason length', async () => {
    for (const finish of ['length', 'stop']) {
      const { stats } = await play(spec(':maxInvalid=0'), (_k, legal) => ({ content: `{"reason": "I will play ${legal[0]} because it`, finish }));
      expect(stats.truncations).toBe(stats.decisions);
      expect(stats.fallbacks).toBe(stats.decisions);
      expect(stats.invalidAnswers + stats.plainTextAnswers).toBe(0);
    }
  });

  it('retries an HTTP 200 whose body is only an error, and a choice with finish_reason "error": server faults, not invalid answers', async () => {
    const { stats } = await play(spec(':backoffMs=1'), (k, legal) => {
      if (k % 3 === 0) return { raw: { error: { message: 'Provider returned error', code: 502 } } };
      if (k % 3 === 1) return { raw: { ...completion('', 'error'), choices: [{ index: 0, finish_reason: 'error', message: { role: 'assistant', content: '' }, error: { message: 'upstream died' } }] } };
      return { raw: completion(answer(legal)) };
    });
    expect(stats.faultRetries).toBe(2 * stats.decisions);
    expect(stats.invalidAnswers + stats.fallbacks + stats.truncations).toBe(0);
  });

  it('plays on a server that always answers with an event stream', async () => {
    const { stats } = await play(spec(), (_k, legal) => {
      const [a, b] = [answer(legal).slice(0, 5), answer(legal).slice(5)];
      const chunk = (content: string | null, finish: string | null) => `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', model: 'fake', choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish }] })}\n\n`;
      return { raw: `${chunk(a, null)}${chunk(b, null)}${chunk(null, 'stop')}data: [DONE]\n\n`, contentType: 'text/event-stream' };
    });
    expect(stats.invalidAnswers + stats.fallbacks + stats.truncations + stats.faultRetries).toBe(0);
  });

  it('times out a body that comes after the headers, as a fault of the server', async () => {
    // The first three decisions' first answers send their headers and never their body; every
    // other answer comes whole at once, far within the timeout on any machine.
    const { stats } = await play(spec(':timeoutMs=3000:backoffMs=1'), (k, legal) => ({ raw: completion(answer(legal)), bodyDelayMs: k < 6 && k % 2 === 0 ? 'held' : 0 }));
    expect(stats.faultRetries).toBe(3);
    expect(stats.invalidAnswers + stats.fallbacks).toBe(0);
  }, 60_000);

  it("takes the API key out of the server's words before they are printed or written", async () => {
    const key = 'sk-test-0123456789abcdef';
    process.env.CZECH_PUB_TEST_KEY = key;
    try {
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'llm-')), 't.jsonl');
      const agent = createAgent(`llm:echo-model:baseUrl=${base}:apiKeyEnv=CZECH_PUB_TEST_KEY:transcript=${file}`) as LlmAgent;
      script = (_k, _legal, body) => (body.messages.length === 1
        ? { status: 401, message: `Incorrect API key provided: ${key}` }
        : { content: `your key is ${key}` });
      served = 0;
      const refused = await agent.preflight().catch((e: Error) => e);
      expect((refused as Error).message).toContain('[key redacted]');
      expect((refused as Error).message).not.toContain(key);
      const g = await playGame([createAgent(`llm:echo-model:baseUrl=${base}:apiKeyEnv=CZECH_PUB_TEST_KEY:transcript=${file}:maxInvalid=0`), createAgent('random'), createAgent('random')], { seed: 'llm/key' });
      expect(g.usage![0]!.fallbacks).toBeGreaterThan(0);
      const written = fs.readFileSync(file, 'utf8');
      expect(written).toContain('[key redacted]');
      expect(written).not.toContain(key);
    } finally {
      delete process.env.CZECH_PUB_TEST_KEY;
    }
  });

  it("does not take a context-length refusal that names max_completion_tokens for a refusal of the parameter", async () => {
    const seen: string[] = [];
    const overflow = "'max_completion_tokens' is too large: 4000. This model's maximum context length is 4096 tokens and your request has 812 input tokens (4000 > 4096 - 812).";
    const agent = createAgent(`llm:context-model:baseUrl=${base}`) as LlmAgent;
    script = (_k, _legal, body) => {
      seen.push('max_completion_tokens' in body ? 'completion' : 'max');
      return { status: 400, message: overflow };
    };
    served = 0;
    const refused = await agent.preflight().catch((e: Error) => e);
    expect(seen).toEqual(['completion']);
    expect((refused as Error).message).toContain('maximum context length is 4096 tokens');
  });

  it('gives the preflight the run\'s timeout, and says a late answer may be a model still loading', async () => {
    script = (_k) => ({ raw: completion('{"action": 0}'), bodyDelayMs: 800 });
    served = 0;
    await expect((createAgent(`llm:loading-model:baseUrl=${base}:timeoutMs=5000`) as LlmAgent).preflight()).resolves.toBeUndefined();
    const late = await (createAgent(`llm:loading-model:baseUrl=${base}:timeoutMs=200`) as LlmAgent).preflight().catch((e: Error) => e);
    expect((late as Error).message).toMatch(/timeout: no whole answer within 0.2 s: the server took longer than timeoutMs; a model that is still loading answers late/);
  }, 30_000);
});

describe('llm agents in a tournament', () => {
  it('report their usage, matching what the server served', async () => {
    script = (k, legal) => (k % 4 === 3 ? { content: 'no idea' } : { content: JSON.stringify({ action: legal[0] }) });
    served = 0;
    const r = await runTournament({ agents: [spec(), 'random', 'random'], games: 6, seed: 'llm-t', workers: 0, prices: { 'fake-model': { promptPerMillion: 1, completionPerMillion: 2 } } });
    expect(r.usage).toHaveLength(1);
    const u = r.usage[0];
    expect(u.requests).toBe(served);
    expect(u.invalidAnswers).toBe(Math.floor(served / 4));
    expect(u.promptTokens).toBe(100 * served);
    expect(u.estimatedCost).toBeCloseTo((100 * served * 1 + 5 * served * 2) / 1e6, 12);
    expect(u.costPerGame).toBeCloseTo(u.estimatedCost! / 6, 12);
    expect(u.costPerDecision).toBeCloseTo(u.estimatedCost! / u.decisions, 12);
    const wins = r.summary.agents.find((a) => a.spec === u.spec)!.wins;
    expect(u.costPerWin).toBe(wins > 0 ? u.estimatedCost! / wins : null);
    const kinds = Object.values(u.byKind);
    expect(kinds.reduce((x, k) => x + k.decisions, 0)).toBe(u.decisions);
    expect(kinds.reduce((x, k) => x + k.firstTry + k.corrected + k.fallbacks, 0)).toBe(u.decisions);
    expect(leaderboardMarkdown(r)).toContain('By kind of decision:');
    expect(leaderboardMarkdown(r)).toMatch(/cost \$0\.\d{4} a game, \$0\.\d{4} a decision/);
    expect(leaderboardMarkdown(r)).toContain('Model usage:');
    expect(reportHtml(r)).toContain('<h2>Model usage</h2>');
  });

  it('play games concurrently in one thread with parallel lanes, with the same results', async () => {
    const content = (legal: number[]) => JSON.stringify({ action: legal[legal.length - 1] });
    const opts = { agents: [spec(':concurrency=8'), 'heuristic', 'random'], games: 6, seed: 'llm-p', workers: 0 };
    script = (_, legal) => ({ delayMs: 20, content: content(legal) });
    const one = await runTournament({ ...opts, parallel: 1 });
    inFlightMax = 0;
    // The first answer waits for a second request, which another lane sends while it plays on
    // (a lane waits for nothing but its own answers); were the lanes played one at a time, none
    // would come and the test would fail at its timeout. Then answers come after 20 ms.
    let second!: () => void;
    const overlap = new Promise<void>((r) => (second = r));
    script = (_, legal) => ({
      release: (inFlight) => {
        if (inFlight > 1) second();
        return inFlightMax > 1 ? new Promise((r) => setTimeout(r, 20)) : overlap;
      },
      content: content(legal),
    });
    const three = await runTournament({ ...opts, parallel: 3 });
    expect(inFlightMax).toBeGreaterThan(1);
    expect(three.summary.agents).toEqual(one.summary.agents.map((a) => ({ ...a, msPerDecision: three.summary.agents.find((b) => b.spec === a.spec)!.msPerDecision })));
    expect(three.usage[0].requests).toBe(one.usage[0].requests);
  }, 30_000);
});

describe('concurrency limits', () => {
  it('are per base URL and configured limit: an agent asking for 3 is not held to an earlier agent\'s 1', async () => {
    // Held 50 ms: another request let through by a limit of 1 would come meanwhile.
    script = (_, legal) => ({ delayMs: 50, content: JSON.stringify({ action: legal[0] }) });
    const env = new CzechPubEnv({ seed: 'limits', players: 3 });
    while (env.legalActions().length < 2) env.step(env.legalActions()[0]);
    const obs = () => new EnvObservation(env, env.actor);
    const ask = async (specText: string, n: number) => {
      inFlightMax = 0;
      const agents = Array.from({ length: n }, () => createAgent(specText));
      agents.forEach((a, i) => a.reset?.({ seat: env.actor, players: 3, seed: `c${i}` }));
      await Promise.all(agents.map((a) => a.act(obs())));
      return inFlightMax;
    };
    expect(await ask(spec(':concurrency=1'), 3)).toBe(1);
    // Each answer waits until three requests are in flight: a limit below 3 would keep them waiting (and the test would fail at its timeout).
    let all!: () => void;
    const three = new Promise<void>((r) => (all = r));
    script = (_, legal) => ({
      release: (inFlight) => {
        if (inFlight === 3) all();
        return three;
      },
      content: JSON.stringify({ action: legal[0] }),
    });
    expect(await ask(spec(':concurrency=3'), 3)).toBe(3);
  });
});

describe('the rules an llm agent describes', () => {
  it("are the game's ruleset, not the default one", async () => {
    const systems = new Set<string>();
    script = (_k, legal, body) => {
      systems.add(body.messages[0].content);
      return { content: JSON.stringify({ action: legal[0] }) };
    };
    const ruleset = { ...DEFAULT_RULESET, players: { min: 2, max: 5 } };
    await runTournament({ agents: [spec(), 'random', 'random'], games: 3, seed: 'llm-rules', workers: 0, ruleset });
    expect([...systems]).toHaveLength(1);
    expect([...systems][0]).toContain('2–5 players');
    expect([...systems][0]).not.toContain('2–6 players');
  });
});

// Each test runs llm-bench in this thread against the fake server: games, prompts and requests,
// work a busy machine stretches several times over, so not held to the 60 s default.
describe('czech-pub llm-bench', { timeout: 300_000 }, () => {
  it('benchmarks a model against bots and prints the usage report with a cost', async () => {
    script = (_, legal) => ({ content: JSON.stringify({ action: legal[0] }) });
    const prices = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'prices-')), 'p.json');
    fs.writeFileSync(prices, JSON.stringify({ 'fake-model': { promptPerMillion: 1, completionPerMillion: 2 } }));
    const io = bufferIo();
    const code = await main(['llm-bench', '--model', 'fake-model', '--base-url', base, '--players', '3', '--games', '3', '--opponents', 'random', '--prices', prices], io);
    expect(code).toBe(0);
    const out = io.stdout.join('\n');
    expect(out).toContain('Model usage:');
    // Named by the model, not by its server's address.
    expect(out).toMatch(/\| `llm:fake-model` \| \d+ \|/);
    expect(out).not.toContain(base);
    expect(out).toMatch(/\$0\.\d{4}/);
  });

  it('stops at once, before any game and writing nothing, when nothing listens at the base URL', async () => {
    const dead = net.createServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    const port = (dead.address() as net.AddressInfo).port;
    await new Promise<void>((r) => dead.close(() => r()));
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'llm-dead-')), 'run');
    const io = bufferIo();
    const code = await main(['llm-bench', '--model', 'm', '--base-url', `http://127.0.0.1:${port}/v1`, '--games', '40', '--out', out], io);
    expect(code).toBe(1);
    // The preflight's refused connection, said at once (not a timeout), and then nothing: no game began.
    expect(io.stderr).toEqual([`llm-bench: model 'm' at http://127.0.0.1:${port}/v1: unreachable: connection failed (ECONNREFUSED)`, 'Nothing was played. Nothing answered at --base-url: check the address, and that the server is up.']);
    expect(io.stdout).toEqual([]);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('names truncations and the setting to raise, and marks a model whose answers are all cut off INVALID', async () => {
    script = (_k, legal, body) => (body.messages.length === 1 ? { content: '{"action": 0}' } : { content: `<think>${legal[0]} or`, finish: 'length' });
    served = 0;
    const io = bufferIo();
    expect(await main(['llm-bench', '--model', 'cut-model', '--base-url', base, '--games', '4', '--players', '4', '--max-tokens', '64'], io)).toBe(1);
    const err = io.stderr.join('\n');
    expect(err).toMatch(/llm:cut-model.*: \d+ answers were cut off before they were whole .* raise maxTokens/);
    expect(err).toMatch(/llm:cut-model is INVALID/);
    expect(io.stdout.join('\n')).toMatch(/\| cut off \|/);
  });

  it('tells a preflight that timed out to give the model more time, not to check the key', async () => {
    script = () => ({ raw: completion('{"action": 0}'), bodyDelayMs: 1000 });
    const io = bufferIo();
    expect(await main(['llm-bench', '--model', 'slow-model', '--base-url', base, '--games', '4', '--players', '4', '--timeout-ms', '200'], io)).toBe(1);
    expect(io.stderr).toEqual([
      `llm-bench: model 'slow-model' at ${base}: timeout: no whole answer within 0.2 s: the server took longer than timeoutMs; a model that is still loading answers late, so give it more (timeoutMs=...)`,
      'Nothing was played. The server took longer than the timeout to answer; a model that is still loading answers late: give it more with --timeout-ms.',
    ]);
  }, 30_000);

  it("stops at once with the server's own message when it does not know the model", async () => {
    script = () => ({ status: 404 });
    const io = bufferIo();
    expect(await main(['llm-bench', '--model', 'no-such-model', '--base-url', base, '--games', '3', '--players', '3'], io)).toBe(1);
    expect(io.stderr.join('\n')).toMatch(/model 'no-such-model' at .*: not found: HTTP 404: scripted 404\nNothing was played. The server does not know the model or the address: check --model and --base-url./);
    expect(io.stdout).toEqual([]);
  });

  it('stops a run whose server fails every decision, keeping and reporting the finished games', async () => {
    // Good answers for the first 120 requests (the preflight and a few games), then refusals.
    script = (k, legal) => (k < 120 ? { content: JSON.stringify({ action: legal[0] }) } : { status: 500 });
    served = 0;
    const io = bufferIo();
    const code = await main(['llm-bench', '--model', 'fake-model', '--base-url', base, '--players', '3', '--games', '30', '--opponents', 'random', '--concurrency', '1', '--max-retries', '0', '--json'], io);
    expect(code).toBe(1);
    const r = JSON.parse(io.stdout[0]);
    expect(r.complete).toBe(false);
    expect(r.games).toBeGreaterThan(0);
    expect(r.games).toBeLessThan(30);
    expect(r.stoppedBy).toMatch(/5 decisions in a row failed \(last: server error: HTTP 500: scripted 500\)/);
    const err = io.stderr.join('\n');
    expect(err.match(/model fault \(llm:fake-model: server error: HTTP 500: scripted 500\)/g)).toHaveLength(1);
    expect(err).toMatch(/model faults: 5 × llm:fake-model: server error: HTTP 500: scripted 500/);
    expect(err).toMatch(/stopped after \d+ of 30 games/);
    // Nothing was sent after the stop: five failed decisions, one request each.
    expect(served).toBe(125);
    // Every request the server answered is in the usage, those of the game dropped at the stop too (all but the preflight).
    expect(r.usage[0].requests).toBe(124);
    expect(r.usage[0].unfinishedRequests).toBeGreaterThan(5);
  });

  it('counts the requests of games that finish after another lane stopped the run', async () => {
    // Two lanes: once the server fails, one lane's game stops the run while the other's may finish; neither's requests are lost.
    script = (k, legal) => (k < 150 ? { content: JSON.stringify({ action: legal[0] }) } : { status: 400 });
    served = 0;
    const r = await runTournament({ agents: [spec(':maxRetries=0:maxFaultStreak=3'), 'random', 'random'], games: 30, seed: 'lanes', workers: 0, parallel: 2 });
    expect(r.complete).toBe(false);
    expect(r.usage[0].requests).toBe(served);
  });

  it('marks a model whose decisions fell back too often INVALID in every table, and exits 1 unless --allow-fallbacks', async () => {
    // About 3 decisions in 10 (chosen by their legal actions) get nothing but garbage: they fall back.
    script = (_k, legal) => (legal.reduce((a, b) => a + b, 0) % 10 < 3 ? { content: 'purple' } : { content: JSON.stringify({ action: legal[0] }) });
    const run = async (...extra: string[]) => {
      const out = fs.mkdtempSync(path.join(os.tmpdir(), 'llm-invalid-'));
      const io = bufferIo();
      const code = await main(['llm-bench', '--model', 'fake-model', '--base-url', base, '--players', '3', '--games', '6', '--opponents', 'random', '--out', out, ...extra], io);
      return { code, io, out };
    };
    const strict = await run();
    expect(strict.code).toBe(1);
    const results = JSON.parse(fs.readFileSync(path.join(strict.out, 'results.json'), 'utf8'));
    expect(results.usage[0].fallbackRate).toBeGreaterThan(0.1);
    expect(results.usage[0].invalid).toBe(true);
    const board = strict.io.stdout.join('\n');
    expect(board).toMatch(/\| [123] \| `llm:fake-model` INVALID \|/);
    expect(board).toMatch(/fallbacks \| invalid answers \|/);
    expect(fs.readFileSync(path.join(strict.out, 'leaderboard.md'), 'utf8')).toContain('INVALID');
    expect(fs.readFileSync(path.join(strict.out, 'report.html'), 'utf8')).toContain('<strong>INVALID</strong>');
    expect(strict.io.stderr.join('\n')).toMatch(/is INVALID: \d+\.\d% of its decisions fell back \(more than 5%\); --allow-fallbacks to exit 0 anyway/);
    const allowed = await run('--allow-fallbacks');
    expect(allowed.code).toBe(0);
    expect(allowed.io.stdout.join('\n')).toContain('INVALID');
  });

  it('plays several models in one schedule on the same deals and ranks them', async () => {
    script = (_k, legal, body) => ({ content: JSON.stringify({ action: body.model === 'model-b' ? legal[legal.length - 1] : legal[0] }) });
    const io = bufferIo();
    const code = await main(['llm-bench', '--model', 'model-a,model-b', '--base-url', base, '--players', '3', '--games', '6', '--opponents', 'random', '--json'], io);
    expect(code).toBe(0);
    const r = JSON.parse(io.stdout[0]);
    expect(r.agents.map((a: { spec: string }) => a.spec).sort()).toEqual(['llm:model-a', 'llm:model-b', 'random']);
    expect(r.agents.every((a: { games: number }) => a.games === 6)).toBe(true);
    expect(r.usage.map((u: { spec: string }) => u.spec).sort()).toEqual(['llm:model-a', 'llm:model-b']);
    const twice = bufferIo();
    expect(await main(['llm-bench', '--model', 'a,b,c', '--players', '2'], twice)).toBe(2);
    expect(twice.stderr.join('\n')).toContain('3 models for 2 seats');
  });

  it('asks each model with its own key variable (and base URL) when given one per model', async () => {
    script = (_k, legal) => ({ content: JSON.stringify({ action: legal[0] ?? 0 }) });
    process.env.CZECH_PUB_KEY_A = 'key-of-model-a';
    process.env.CZECH_PUB_KEY_B = 'key-of-model-b';
    try {
      auths.length = 0;
      const io = bufferIo();
      expect(await main(['llm-bench', '--model', 'model-a,model-b', '--base-url', base, '--api-key-env', 'CZECH_PUB_KEY_A,CZECH_PUB_KEY_B', '--games', '4', '--players', '4'], io)).toBe(0);
      expect(new Set(auths)).toEqual(new Set(['model-a Bearer key-of-model-a', 'model-b Bearer key-of-model-b']));
      const bad = bufferIo();
      expect(await main(['llm-bench', '--model', 'model-a,model-b', '--base-url', `${base},${base},${base}`, '--games', '4'], bad)).toBe(2);
      expect(bad.stderr.join('\n')).toContain('--base-url: give one value for every model or one per model (2), got 3');
    } finally {
      delete process.env.CZECH_PUB_KEY_A;
      delete process.env.CZECH_PUB_KEY_B;
    }
  });

  it("passes --rpm into each model's spec (one for every model, or one per model), and keeps the transcript in --out", async () => {
    script = (_k, legal) => ({ content: JSON.stringify({ action: legal[0] ?? 0 }) });
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'llm-rpm-')), 'run');
    expect(await main(['llm-bench', '--model', 'model-a,model-b', '--base-url', base, '--rpm', '1000,2000', '--games', '4', '--players', '4', '--opponents', 'random', '--out', out], bufferIo())).toBe(0);
    const agents = JSON.parse(fs.readFileSync(path.join(out, 'run.json'), 'utf8')).config.agents as string[];
    expect(agents[0]).toMatch(/^llm:model-a:.*:rpm=1000(:|$)/);
    expect(agents[1]).toMatch(/^llm:model-b:.*:rpm=2000(:|$)/);
    // Without --transcript, --out keeps the run's transcript in its folder, named by the agents' specs.
    const transcript = path.join(out, 'transcript.jsonl');
    const lines = fs.readFileSync(transcript, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((l) => !('sent' in l) && l.game !== 'preflight');
    expect(new Set(lines.map((l) => l.agent))).toEqual(new Set(agents.slice(0, 2)));
    expect(lines.every((l) => typeof l.game === 'string' && Number.isInteger(l.seat) && Number.isInteger(l.decision) && Number.isInteger(l.action))).toBe(true);
    // --resume adds to it.
    const before = fs.readFileSync(transcript, 'utf8');
    expect(await main(['llm-bench', '--model', 'model-a,model-b', '--base-url', base, '--rpm', '1000,2000', '--games', '4', '--players', '4', '--opponents', 'random', '--out', out, '--resume'], bufferIo())).toBe(0);
    expect(fs.readFileSync(transcript, 'utf8').startsWith(before)).toBe(true);
    const bad = bufferIo();
    expect(await main(['llm-bench', '--model', 'model-a,model-b', '--rpm', '1,2,3'], bad)).toBe(2);
    expect(bad.stderr.join('\n')).toContain('--rpm: give one value for every model or one per model (2), got 3');
  });

  it('tells the cost before it is paid: tokens by the real tokenizer for OpenAI models (characters/4 otherwise), cost per game and per run', async () => {
    const prices = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'prices-')), 'p.json');
    const io = bufferIo();
    fs.writeFileSync(prices, JSON.stringify({ 'gpt-4o-mini': { promptPerMillion: 0.15, completionPerMillion: 0.6 }, llama3: { promptPerMillion: 0.1, completionPerMillion: 0.1 } }));
    // 6 games at 4 players: the run plays whole rotations, 8.
    expect(await main(['llm-bench', '--model', 'gpt-4o-mini,llama3', '--dry-run', '--games', '6', '--prices', prices, '--json'], io)).toBe(0);
    const r = JSON.parse(io.stdout[0]);
    expect(r.games).toBe(8);
    expect(r.tokensExact).toBe(true);
    expect(r.systemTokens).toBeGreaterThan(300);
    expect(r.systemTokens).toBeLessThan(r.systemChars / 2);
    const [gpt, llama] = r.costs;
    expect(gpt.costPerGame).toBeCloseTo((r.promptTokensPerGame * 0.15 + r.completionTokensPerGame * 0.6) / 1e6, 12);
    expect(gpt.costPerRun).toBeCloseTo(gpt.costPerGame * 8, 12);
    // Each model's prompts by its own tokenizer: llama3's by characters / 4, not gpt-4o-mini's.
    expect(llama.tokenizer).toMatch(/characters \/ 4/);
    expect(llama.promptTokensPerGame).not.toBe(gpt.promptTokensPerGame);
    expect(llama.costPerRun).toBeCloseTo(llama.costPerGame * 8, 12);
    const text = bufferIo();
    expect(await main(['llm-bench', '--model', 'llama3', '--dry-run', '--games', '4'], text)).toBe(0);
    expect(text.stdout.join('\n')).toMatch(/Tokens per game: about \d+ in \(characters \/ 4 \(an estimate\)\)/);
    expect(text.stdout.join('\n')).toMatch(/llm:llama3: no price in --prices/);
  });

  it('stops a run whose server goes away mid-run (connections refused), keeping the finished games', async () => {
    const own = Fastify();
    let calls = 0;
    own.post('/v1/chat/completions', async (req) => {
      calls++;
      const legal = legalIds(req.body as Body);
      return { id: 'x', object: 'chat.completion', created: 0, model: 'fake', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: JSON.stringify({ action: legal[0] ?? 0 }) } }] };
    });
    // The server stops after its 120th answer: every later connection is refused.
    own.addHook('onResponse', async () => {
      if (calls === 120) void own.close();
    });
    const url = `${await own.listen({ host: '127.0.0.1', port: 0 })}/v1`;
    const io = bufferIo();
    const code = await main(['llm-bench', '--model', 'fake-model', '--base-url', url, '--players', '3', '--games', '30', '--opponents', 'random', '--concurrency', '1', '--max-retries', '0', '--json'], io);
    expect(code).toBe(1);
    const r = JSON.parse(io.stdout[0]);
    expect(r.complete).toBe(false);
    expect(r.games).toBeGreaterThan(0);
    expect(r.stoppedBy).toMatch(/5 decisions in a row failed \(last: unreachable: connection failed \(ECONNREFUSED\)\)/);
    expect(io.stderr.join('\n')).toMatch(/model fault \(llm:fake-model: unreachable: connection failed \(ECONNREFUSED\)\)/);
  });

  it('measures calls per game and prompt sizes in a dry run, with no server', async () => {
    const io = bufferIo();
    expect(await main(['llm-bench', '--model', 'm', '--dry-run', '--games', '8', '--json'], io)).toBe(0);
    const r = JSON.parse(io.stdout[0]);
    expect(r.games).toBe(8);
    expect(r.callsPerGame).toBeGreaterThan(5);
    expect(r.decisionCharsMedian).toBeGreaterThan(200);
    // A conversation resends the game so far with each call: more tokens, not fewer, whatever it saves on the rules.
    expect(r.conversationPromptTokensPerGame).toBeGreaterThan(r.promptTokensPerGame);
    expect(r.systemChars).toBeGreaterThan(1000);
  });

  it.each([
    [['llm-bench'], '--model is required'],
    [['llm-bench', '--model', 'm', '--prices', '/nonexistent.json'], '--prices /nonexistent.json: no such file'],
    [['llm-bench', '--model', 'm', '--rpm', 'fast'], '--rpm'],
    [['llm-bench', '--model', 'm', '--opponents', 'nobody'], "unknown agent 'nobody'"],
    [['llm-bench', '--model', 'm', '--dry-run', '--prices', '/nonexistent.json'], '--prices /nonexistent.json: no such file'],
    [['llm-bench', '--model', 'm', '--dry-run', '--opponents', 'nobody'], "unknown agent 'nobody'"],
  ])('%j is a usage error', async (argv, message) => {
    const io = bufferIo();
    expect(await main(argv, io)).toBe(2);
    expect(io.stderr.join('\n')).toContain(message);
  });
});

describe('llm spec parsing', () => {
  it('keeps colons in model names and URLs, and checks options', () => {
    const o = parseLlmSpec('llm:llama3:8b:baseUrl=http://127.0.0.1:11434/v1:temperature=0.5', 'llama3:8b:baseUrl=http://127.0.0.1:11434/v1:temperature=0.5');
    expect(o.model).toBe('llama3:8b');
    expect(o.baseUrl).toBe('http://127.0.0.1:11434/v1');
    expect(o.temperature).toBe(0.5);
    expect(() => parseLlmSpec('llm:', '')).toThrow(/name a model/);
    expect(() => parseLlmSpec('llm:m:fallback=panic', 'm:fallback=panic')).toThrow(/'fallback' must be 'first' or 'random'/);
    expect(() => parseLlmSpec('llm:m:bogus=1', 'm:bogus=1')).toThrow(/unknown option 'bogus'/);
  });

  it('reads Retry-After as seconds, as a date, or retry-after-ms', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }))).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': new Date(10_000).toUTCString() }), 4_000)).toBe(6000);
    expect(retryAfterMs(new Headers({}))).toBeNull();
  });
});
