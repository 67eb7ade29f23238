/**
 * What only the operator may configure works when the operator configures it: an llm entry
 * with its own base URL and key variable, and an http entry, both reached as configured.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from './app.ts';

let fake: FastifyInstance;
let fakeBase = '';
const seen: { path: string; auth?: string; temperature?: number }[] = [];

beforeAll(async () => {
  fake = Fastify();
  // An OpenAI-compatible server that plays the first legal action it is offered.
  fake.post('/v1/chat/completions', async (req) => {
    const body = req.body as { temperature?: number; messages: { content: string }[] };
    seen.push({ path: req.url, auth: req.headers.authorization, temperature: body.temperature });
    const user = body.messages.at(-1)!.content;
    const first = /Your legal actions:\s+(\d+):/.exec(user)?.[1] ?? '0';
    return {
      id: 'x', object: 'chat.completion', created: 0, model: 'fake',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: `{"action": ${first}}` } }],
      usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
    };
  });
  fake.post('/act', async (req) => {
    seen.push({ path: req.url });
    return { action: (req.body as { legalActions: number[] }).legalActions[0] };
  });
  fakeBase = await fake.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await fake.close();
});

describe('entries the operator defines', () => {
  it('an llm entry plays through its configured server and key; a client varies only what the entry allows', async () => {
    process.env.OPERATOR_TEST_KEY = 'sk-operator-test';
    const app = await buildServer({
      rateLimit: 0,
      config: {
        bots: {
          house: { agent: `llm:fake:baseUrl=${fakeBase}/v1:apiKeyEnv=OPERATOR_TEST_KEY:maxRetries=0:timeoutMs=60000`, vary: { temperature: { min: 0, max: 1 } } },
          // Timeouts of a minute: they bound a hang of the fake servers, never a busy machine's answer.
          relay: { agent: `http:${fakeBase}/act:timeoutMs=60000` },
        },
      },
    });
    const list = await app.inject({ method: 'GET', url: '/v1/bots' });
    expect(list.body).not.toContain(fakeBase);
    expect(list.body).not.toContain('OPERATOR_TEST_KEY');
    const created = await app.inject({ method: 'POST', url: '/v1/games', payload: { seats: ['house:temperature=0.5', 'relay', 'random'], seed: 'operator' } });
    expect(created.statusCode).toBe(201);
    const { id, watchToken } = created.json();
    const replay = await app.inject({ method: 'GET', url: `/v1/games/${id}/replay`, headers: { authorization: `Bearer ${watchToken}` } });
    expect(replay.json()).toMatchObject({ seats: ['house:temperature=0.5', 'relay', 'random'], faults: [] });
    const llm = seen.filter((s) => s.path === '/v1/chat/completions');
    expect(llm.length).toBeGreaterThan(5);
    expect(llm.every((s) => s.auth === 'Bearer sk-operator-test' && s.temperature === 0.5)).toBe(true);
    expect(seen.filter((s) => s.path === '/act').length).toBeGreaterThan(5);
    const bad = await app.inject({ method: 'POST', url: '/v1/games', payload: { seats: ['house:baseUrl=http://127.0.0.1:9/v1', 'random'] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/"baseUrl" is not an option clients may set; options: temperature=0..1/);
    const act = await app.inject({ method: 'POST', url: '/v1/bots/house/act', payload: { view: {}, legalActions: [0] } });
    expect(act.json().error).toMatch(/cannot answer a posted view \(it reads the game's history\)/);
    await app.close();
   }, 300_000);
});
