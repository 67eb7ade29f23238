/**
 * The server as a hostile client meets it when the operator fields bots that call out, the
 * manner of hostile.test.ts: a real server in a child process with its own config, holding an
 * llm entry whose key the model server refuses (401, its body quoting the key), an llm entry
 * whose model answers garbage and an http entry, all at fakes on 127.0.0.1 that count what
 * they are sent; no budget is set, so the defaults hold (config.ts DEFAULT_BUDGET). After
 * each row: the status and message are the expected ones, nothing the operator holds (the
 * model's name, the servers' addresses, the key, its variable, the provider's words) is in
 * any answer, the outside servers were sent no more than the budgets allow, and another
 * client still gets its bots' calls and a prompt GET /v1/bots. The operator's stderr has
 * what the clients were not told.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as send, startServe, type Answer, type RequestOptions } from './helpers/serve.ts';

const KEY_ENV = 'HOSTILE_BUDGET_API_KEY';
const KEY = 'sk-operator-key-never-shown-a83b';
const MODEL = 'operator-model-x-9000';
const PROVIDER = 'Incorrect API key provided';
/** config.ts DEFAULT_BUDGET, which the config below leaves in force. */
const PER_GAME = 200;
const PER_CLIENT_MINUTE = 300;

let child: ChildProcess;
let base = '';
let work = '';
let stderr = () => '';
let fake: http.Server;
let fakeBase = '';
const sent = { refusing: 0, garbage: 0, bot: 0 };
/** When each call reached the fakes (ms), by kind. */
const arrived: Record<keyof typeof sent, number[]> = { refusing: [], garbage: [], bot: [] };

const request = async (method: string, p: string, body?: unknown, o: RequestOptions = {}): Promise<Answer> => (await send(base, method, p, body, o))!;

/** The fakes: a model server refusing the key, one answering garbage, a bot playing the first legal action. */
function fakeServer(): http.Server {
  return http.createServer((req, res) => {
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      const reply = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.url === '/refusing/v1/chat/completions') {
        sent.refusing++;
        arrived.refusing.push(performance.now());
        reply(401, { error: { message: `${PROVIDER}: ${KEY}. Find your key at ${fakeBase}.`, code: 'invalid_api_key' } });
      } else if (req.url === '/garbage/v1/chat/completions') {
        sent.garbage++;
        arrived.garbage.push(performance.now());
        reply(200, { id: 'x', object: 'chat.completion', created: 0, model: MODEL, choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'no idea, sorry' } }] });
      } else if (req.url === '/bot/act') {
        sent.bot++;
        arrived.bot.push(performance.now());
        reply(200, { action: (JSON.parse(text) as { legalActions: number[] }).legalActions[0] });
      } else {
        reply(404, {});
      }
    });
  });
}

beforeAll(async () => {
  fake = fakeServer();
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  fakeBase = `http://127.0.0.1:${(fake.address() as { port: number }).port}`;
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-budget-'));
  const config = {
    // Timeouts never reached here however busy the machine: a call timed out would be a fault in the other client's game below.
    bots: {
      gpt: { agent: `llm:${MODEL}:baseUrl=${fakeBase}/refusing/v1:apiKeyEnv=${KEY_ENV}:maxRetries=0:timeoutMs=60000`, description: 'a model' },
      chatty: { agent: `llm:${MODEL}:baseUrl=${fakeBase}/garbage/v1:apiKeyEnv=${KEY_ENV}:maxRetries=0:timeoutMs=60000`, description: 'another model' },
      relay: { agent: `http:${fakeBase}/bot/act:timeoutMs=60000`, description: 'a bot elsewhere' },
    },
    // The per-client budgets are left at their defaults; the rates shared by clients (outsideCallsPerMinute, ...PerHostMinute)
    // are raised out of their way, as their shares would bind first here: test/fair-shares.test.ts holds them.
    limits: { maxJobsPerClient: 1, maxJobGames: 20_000, outsideCallsPerMinute: 100_000, outsideCallsPerHostMinute: 100_000 },
  };
  const served = await startServe(work, config, { ...process.env, [KEY_ENV]: KEY });
  child = served.child;
  base = served.base;
  stderr = served.stderr;
}, 60_000);

afterAll(async () => {
  child?.kill('SIGKILL');
  await new Promise<void>((r) => fake.close(() => r()));
  fs.rmSync(work, { recursive: true, force: true });
});

/**
 * The server's minute as the fakes see it: a call arrives some time after the server took it
 * from its window, so a minute of arrivals may hold calls of two of its windows; 55 s of
 * arrivals lie within one of its minutes while calls take under 5 s on their way.
 */
const SEEN_MINUTE_MS = 55_000;

/**
 * The most calls of `kind` that arrived within SEEN_MINUTE_MS, of those after the first
 * `from`. A per-minute budget holds this to its limit however long the row takes: a row
 * slower than a minute (a busy machine) may make more calls in all, in later minutes.
 */
function busiestMinute(kind: keyof typeof sent, from: number): number {
  const t = arrived[kind].slice(from);
  let most = 0;
  for (let i = 0, j = 0; j < t.length; j++) {
    while (t[j] - t[i] >= SEEN_MINUTE_MS) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

/** Polls a job until it has ended (a budget stops it: seconds, more on a busy machine); every answer is returned for the secrecy checks. */
async function ended(id: string, local: string): Promise<Answer> {
  for (let i = 0; i < 3000; i++) {
    const r = await request('GET', `/v1/tournaments/${id}`, undefined, { local });
    if (r.body?.status !== 'running') return r;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error('the tournament did not end in 3000 looks (5 min)');
}

/**
 * A game of bot seats, over when POST answers, and its replay. The POST waits for the whole
 * game (hundreds of calls out on a busy machine), so it is not held to the 30 s of a request.
 */
async function botGame(seats: string[], local: string): Promise<[Answer, Answer]> {
  const g = await request('POST', '/v1/games', { seats }, { local, timeoutMs: 180_000 });
  const replay = g.status === 201 ? await request('GET', `/v1/games/${g.body!.id}/replay`, undefined, { token: g.body!.watchToken, local }) : g;
  return [g, replay];
}

type Row = [string, (local: string) => Promise<Answer[]>, number, RegExp, (before: typeof sent) => void];

describe('a hostile client against bots that call out', () => {
  it('gets nothing of the operator, spends no more than the budgets, and leaves other clients theirs', async () => {
    const rows: Row[] = [
      ['tournament of an llm entry whose key is wrong', async (local) => {
        const started = await request('POST', '/v1/tournaments', { agents: ['gpt', 'random'], games: 1000 }, { local });
        return [started, await ended(started.body!.id, local)];
      }, 202, /^bot 'gpt': the model server refused the request \(authentication\)$/, (before) => {
        // A refused key stops the entry's bot at once: one request in the worker that stopped the
        // run, at most one more in the other worker, stopped with it.
        expect(sent.refusing - before.refusing).toBeGreaterThanOrEqual(1);
        expect(sent.refusing - before.refusing).toBeLessThanOrEqual(2);
      }],
      // Six seats asking three times a decision (two corrections) reach the client's minute before any seat its game.
      ['one anonymous game of six llm seats', async (local) => botGame(Array(6).fill('chatty'), local),
        201, /^bot 'chatty' reached its budget of 300 calls a minute per client$/, (before) => {
          expect(sent.garbage - before.garbage).toBeGreaterThanOrEqual(PER_CLIENT_MINUTE);
          expect(busiestMinute('garbage', before.garbage)).toBeLessThanOrEqual(PER_CLIENT_MINUTE);
        }],
      ['20,000-game tournament of an llm entry', async (local) => {
        const started = await request('POST', '/v1/tournaments', { agents: ['chatty', 'random'], games: 20_000 }, { local });
        return [started, await ended(started.body!.id, local)];
      }, 202, /^bot 'chatty' reached its (per-game budget of 200|budget of 300 calls a minute per client)/, (before) => {
        // A seat's game may end under its 200; the client's minute then stops the next.
        expect(busiestMinute('garbage', before.garbage)).toBeLessThanOrEqual(PER_CLIENT_MINUTE);
      }],
      ['20,000-game tournament of an http entry', async (local) => {
        const started = await request('POST', '/v1/tournaments', { agents: ['relay', 'random'], games: 20_000 }, { local });
        return [started, await ended(started.body!.id, local)];
      }, 202, /^bot 'relay' reached its budget of 300 calls a minute per client$/, (before) => {
        expect(sent.bot - before.bot).toBeGreaterThanOrEqual(PER_CLIENT_MINUTE);
        expect(busiestMinute('bot', before.bot)).toBeLessThanOrEqual(PER_CLIENT_MINUTE);
      }],
    ];
    let n = 0;
    for (const [name, send, status, message, spent] of rows) {
      const local = `127.0.0.${20 + n++}`;
      const before = { ...sent };
      const answers = await send(local);
      expect(answers[0].status, `${name}: ${answers[0].text.slice(0, 300)}`).toBe(status);
      const last = answers.at(-1)!.body!;
      const told = last.error ?? last.faults?.[0]?.reason;
      expect(told, name).toMatch(message);
      spent(before);
      for (const a of answers) {
        for (const secret of [MODEL, fakeBase, '127.0.0.1:', KEY, KEY_ENV, PROVIDER, '/refusing', '/garbage', '/bot/act']) expect(a.text, `${name}: ${secret}`).not.toContain(secret);
      }
      // Another client: its bots still call out, and the server answers (a request held up
      // would fail at its own time limit).
      const other = `127.0.0.${60 + n}`;
      const b0 = sent.bot;
      const [, replay] = await botGame(['relay', 'random'], other);
      expect(replay.status, name).toBe(200);
      expect(replay.body!.faults, name).toEqual([]);
      expect(sent.bot - b0, name).toBeGreaterThan(0);
      const bots = await request('GET', '/v1/bots', undefined, { local: other });
      expect(bots.status, name).toBe(200);
      expect(bots.text).not.toContain(fakeBase);
    }
    // The operator was told what the clients were not.
    expect(stderr()).toContain(PROVIDER);
    expect(stderr()).toContain(MODEL);
  }, 480_000);
});
