/**
 * Bots that call a server elsewhere, as a server's clients meet them: an llm entry whose model
 * server refuses the operator's key (401, its body quoting the key), an llm entry whose model
 * answers garbage, and http entries at a fake bot that counts what it is sent, all on
 * 127.0.0.1. No answer names the model, the server's address, the key or the provider's words;
 * the operator's log does; every budget holds exactly, and one client's spending leaves
 * another's budget whole.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CzechPubEnv } from '../env/env.ts';
import { buildServer } from './app.ts';

const KEY_ENV = 'BUDGET_TEST_API_KEY';
const KEY = 'sk-budget-test-never-show-5c1d';
const MODEL = 'secret-model-7b-operator';
const PROVIDER = 'Incorrect API key provided';

let fake: FastifyInstance;
let fakeBase = '';
let app: FastifyInstance;
const calls = { garbage: 0, act: 0, tiny: 0 };
/** The refusing model server's requests by the path they came under: each bot entry has its own. */
const refusedAt: Record<string, number> = {};
const logged: string[] = [];
/** Every answer's body a client received, to search for what it must not see. */
const answers: string[] = [];
/** The server's clock: per-minute windows count calls by it, so a test decides when a minute has passed. */
const clock = { t: 1_000_000_000_000 };

beforeAll(async () => {
  fake = Fastify();
  fake.post<{ Params: { entry: string } }>('/refusing/:entry/v1/chat/completions', async (req, reply) => {
    refusedAt[req.params.entry] = (refusedAt[req.params.entry] ?? 0) + 1;
    return reply.code(401).send({ error: { message: `${PROVIDER}: ${KEY}. You can find your API key at ${fakeBase}.`, type: 'invalid_request_error', code: 'invalid_api_key' } });
  });
  fake.post('/garbage/v1/chat/completions', async () => {
    calls.garbage++;
    return { id: 'x', object: 'chat.completion', created: 0, model: MODEL, choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'I would rather have a beer' } }] };
  });
  const bot = (counter: 'act' | 'tiny') => async (req: { body: unknown }) => {
    calls[counter]++;
    return { action: (req.body as { legalActions: number[] }).legalActions[0] };
  };
  fake.post('/act', bot('act'));
  fake.post('/act-tiny', bot('tiny'));
  fakeBase = await fake.listen({ host: '127.0.0.1', port: 0 });
  process.env[KEY_ENV] = KEY;
  app = await buildServer({
    rateLimit: 0,
    jobWorkers: 2,
    // Each client's own budgets are what this file tests; the server-wide and per-host rates, shared by clients, are test/fair-shares.test.ts's.
    outsideCallsPerMinute: 100_000,
    outsideCallsPerHostMinute: 100_000,
    log: (line) => logged.push(line),
    now: () => clock.t,
    config: {
      // Timeouts of a minute bound a hang of the fake server: a busy machine's late answer is still the refusal it was.
      bots: {
        gpt: { agent: `llm:${MODEL}:baseUrl=${fakeBase}/refusing/gpt/v1:apiKeyEnv=${KEY_ENV}:maxRetries=0:timeoutMs=60000` },
        'gpt-live': { agent: `llm:${MODEL}:baseUrl=${fakeBase}/refusing/gpt-live/v1:apiKeyEnv=${KEY_ENV}:maxRetries=0:timeoutMs=60000` },
        chatty: { agent: `llm:${MODEL}:baseUrl=${fakeBase}/garbage/v1:apiKeyEnv=${KEY_ENV}:maxRetries=0`, budget: { perGame: 12 } },
        relay: { agent: `http:${fakeBase}/act:timeoutMs=60000`, budget: { perGame: 1000, perTournament: 400, perClientMinute: 100_000 } },
        tiny: { agent: `http:${fakeBase}/act-tiny:timeoutMs=60000`, budget: { perClientMinute: 10 } },
      },
    },
  });
});

afterAll(async () => {
  await app?.close();
  await fake.close();
  delete process.env[KEY_ENV];
});

async function call(method: 'GET' | 'POST', url: string, o: { body?: unknown; token?: string; client?: string } = {}) {
  const res = await app.inject({
    method, url, payload: o.body as object | undefined, remoteAddress: o.client ?? '10.0.0.1',
    headers: o.token ? { authorization: `Bearer ${o.token}` } : {},
  });
  answers.push(res.body);
  return { status: res.statusCode, body: res.json() as Record<string, any> };
}

/** A game of bot seats only: it is over when POST answers; its replay. */
async function botGame(seats: string[], client?: string) {
  const g = await call('POST', '/v1/games', { body: { seats, seed: `budget/${seats.join(',')}` }, client });
  expect(g.status).toBe(201);
  const replay = await call('GET', `/v1/games/${g.body.id}/replay`, { token: g.body.watchToken, client });
  expect(replay.status).toBe(200);
  return replay.body as { faults: { step: number; seat: number; reason: string }[]; actions: number[] };
}

/** A tournament polled until it ends, however long a busy machine takes (the test's timeout bounds a hang). */
async function finishedJob(body: unknown, client?: string) {
  const started = await call('POST', '/v1/tournaments', { body, client });
  expect(started.status).toBe(202);
  for (;;) {
    const job = await call('GET', `/v1/tournaments/${started.body.id}`, { client });
    if (job.body.status !== 'running') return job.body;
    await new Promise((r) => setTimeout(r, 50));
  }
}

function position() {
  const env = new CzechPubEnv({ seed: 'budget-view', players: 4 });
  for (let i = 0; i < 9 || env.legalActions().length < 2; i++) env.step(env.legalActions()[0]);
  return { view: JSON.parse(JSON.stringify(env.view(env.actor))), legalActions: env.legalActions() };
}

describe('bots that call a server elsewhere', () => {
  it('a tournament whose model server refuses the key stops, naming only the entry and the kind of failure', async () => {
    const job = await finishedJob({ agents: ['gpt', 'random'], games: 200, seed: 1 });
    expect(job.status).toBe('failed');
    expect(job.error).toBe("bot 'gpt': the model server refused the request (authentication)");
    expect(job.summary.stoppedBy).toBe(job.error);
    expect(job.summary.complete).toBe(false);
    expect(job.leaderboard).toMatch(/^# Czech Pub tournament/);
    // A refused key stops at once (every call would be refused alike): one request in the worker
    // that stopped it; the other worker's agent, stopped with it, had sent at most as many.
    expect(refusedAt.gpt).toBeGreaterThanOrEqual(1);
    expect(refusedAt.gpt).toBeLessThanOrEqual(2);
    expect(logged.join('\n')).toContain(PROVIDER);
    expect(logged.join('\n')).toContain(MODEL);
  }, 300_000);

  it('a live game with such a bot records the same fault, and stops asking the server once it is known broken', async () => {
    // An entry of its own, at a path of its own: a request the stopped tournament's other worker
    // had in flight may reach the fake server after this test starts, and is not counted here.
    const { faults } = await botGame(['gpt-live', 'random', 'random']);
    // In one game, one agent: the one request that found the key refused.
    expect(refusedAt['gpt-live']).toBe(1);
    expect(faults.length).toBeGreaterThan(1);
    expect(faults.every((f) => f.seat === 0 && f.reason === "bot 'gpt-live': the model server refused the request (authentication)")).toBe(true);
  });

  it('a game of six llm seats makes at most perGame calls per seat (corrections count), then each seat plays its fallback', async () => {
    const { faults } = await botGame(Array(6).fill('chatty'));
    expect(calls.garbage).toBe(6 * 12);
    expect(new Set(faults.map((f) => f.seat))).toEqual(new Set([0, 1, 2, 3, 4, 5]));
    expect(new Set(faults.map((f) => f.reason))).toEqual(new Set(["bot 'chatty' reached its per-game budget of 12 calls (a seat's calls in one game)"]));
  });

  it('a 20,000-game tournament on two worker threads makes exactly perTournament calls, then stops keeping its finished games', async () => {
    const job = await finishedJob({ agents: ['relay', 'random'], games: 20_000, seed: 2 });
    // 400 taken; the worker that did not stop the run may have had one of them on its way when it was stopped.
    expect(calls.act).toBeLessThanOrEqual(400);
    expect(calls.act).toBeGreaterThanOrEqual(399);
    expect(job.status).toBe('failed');
    expect(job.error).toBe("bot 'relay' reached its per-tournament budget of 400 calls");
    expect(job.done).toBeGreaterThan(0);
    expect(job.summary.games).toBe(job.done);
    // A new tournament has a budget of its own.
    const spent = calls.act;
    const again = await finishedJob({ agents: ['relay', 'random'], games: 2, seed: 3 });
    expect(again.status).toBe('done');
    expect(calls.act).toBeGreaterThan(spent);
  }, 300_000);

  it("one client's games and act requests share its minute budget; another client's is whole; a minute on (the server's clock moved), it is whole again", async () => {
    // The server's clock stands still until the test moves it: every call below is in one minute.
    const a = await botGame(['tiny', 'random'], '10.0.0.21');
    expect(calls.tiny).toBe(10);
    expect(a.faults[0].reason).toBe("bot 'tiny' reached its budget of 10 calls a minute per client");
    const a2 = await botGame(['tiny', 'random', 'random'], '10.0.0.21');
    expect(calls.tiny).toBe(10);
    expect(a2.faults.length).toBeGreaterThan(0);
    const act = await call('POST', '/v1/bots/tiny/act', { body: position(), client: '10.0.0.21' });
    expect(act.status).toBe(429);
    expect(act.body.error).toBe("bot 'tiny' reached its budget of 10 calls a minute per client");
    const b = await call('POST', '/v1/bots/tiny/act', { body: position(), client: '10.0.0.22' });
    expect(b.status).toBe(200);
    expect(calls.tiny).toBe(11);
    const bGame = await botGame(['tiny', 'random'], '10.0.0.22');
    expect(calls.tiny).toBe(20);
    expect(bGame.faults.length).toBeGreaterThan(0);
    // A minute later a's calls have left its window.
    clock.t += 60_001;
    expect((await call('POST', '/v1/bots/tiny/act', { body: position(), client: '10.0.0.21' })).status).toBe(200);
    expect(calls.tiny).toBe(21);
  });

  it('no answer holds the model, the server, the key or its variable, or the provider\'s words', async () => {
    await call('GET', '/v1/bots');
    expect(answers.length).toBeGreaterThan(20);
    const host = new URL(fakeBase).host;
    for (const text of answers) {
      for (const secret of [MODEL, host, KEY, KEY_ENV, PROVIDER, '/refusing', '/act-tiny']) expect(text).not.toContain(secret);
    }
  });
});
