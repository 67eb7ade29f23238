/**
 * The fake model server through the real `openai` client: every request gets a record, and
 * what the client receives (ids, statuses, usage, gzip and event-stream bodies, resets) is
 * what the record says was sent.
 */
import http from 'node:http';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './fake-model-server.ts';

const KEY = 'sk-fake-0123456789';
const SEED = 'fake-server-1';
const PRICES = { promptPerMillion: 3, completionPerMillion: 15 };
const LEGAL = ['  40: discard Beer', '  41: discard Rum', "  12: play That's my order at player 1 (the player 3 seats to your left)", '  57: done playing'];

/** The i-th request: every tenth a preflight, half of them structured. */
function params(i: number) {
  const content = i % 10 === 0 ? 'This is a connection check. Answer with JSON {"action": 0}.' : `Turn ${i}. You are player 0.\nYour legal actions:\n${LEGAL.join('\n')}`;
  return {
    model: 'fake-model',
    messages: [{ role: 'system' as const, content: 'You are playing Czech Pub.' }, { role: 'user' as const, content }],
    max_completion_tokens: 300,
    ...(i % 2 === 0 ? { response_format: { type: 'json_object' as const } } : {}),
  };
}

type Got = { ok: true; data: unknown; requestId: string | null; status: number } | { ok: false; error: unknown };

async function call(client: OpenAI, i: number): Promise<Got> {
  try {
    const { data, response } = await client.chat.completions.create(params(i)).withResponse();
    return { ok: true, data, requestId: response.headers.get('x-request-id'), status: response.status };
  } catch (error) {
    return { ok: false, error };
  }
}

async function withServer<T>(opts: Parameters<typeof startFakeModelServer>[0], run: (s: FakeModelServer, client: OpenAI) => Promise<T>): Promise<T> {
  const server = await startFakeModelServer(opts);
  try {
    return await run(server, new OpenAI({ baseURL: server.baseUrl, apiKey: KEY, maxRetries: 0, timeout: 10_000 }));
  } finally {
    await server.close();
  }
}

/** An event stream's deltas joined, and its usage wherever a server put it. */
function events(text: string): { content: string; usage: Record<string, any> | undefined } {
  let content = '';
  let usage: Record<string, any> | undefined;
  for (const line of text.split('\n')) {
    if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
    const c = JSON.parse(line.slice(6));
    for (const ch of c.choices) content += ch.delta?.content ?? '';
    usage = c.usage ?? c.x_groq?.usage ?? usage;
  }
  return { content, usage };
}

/** A raw request (what the openai client never sends): its status and x-request-id. */
function raw(baseUrl: string, method: string, path: string, body: string): Promise<{ status: number; id: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${new URL(baseUrl).origin}${path}`, { method, headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, id: res.headers['x-request-id'] as string | undefined }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const tokens = (u: Record<string, any>) => ({ prompt: u.prompt_tokens, completion: u.completion_tokens, reasoning: u.completion_tokens_details?.reasoning_tokens ?? 0 });

describe('the fake model server, through the openai client', () => {
  it(`answers 100 requests (seed ${SEED}) with records that match what the client got`, async () => {
    await withServer({ seed: SEED, apiKey: KEY, prices: PRICES }, async (server, client) => {
      const got: Got[] = [];
      for (let i = 0; i < 100; i++) got.push(await call(client, i));
      const records = server.records;
      expect(records.map((r) => r.n)).toEqual([...Array(100).keys()]);
      expect(records.map((r) => r.id)).toEqual(records.map((r) => `fake-${SEED}-${r.n}`));
      const seen = { usage: 0, stream: 0, gzip: 0, faults: 0, lost: 0 };
      for (const [i, r] of records.entries()) {
        const g = got[i];
        const where = `reply ${i} (${r.shape}, ${r.transport})`;
        // Whole replies under 300 come through, but for a JSON body that is empty once unzipped, which the client fails to parse.
        const unparsable = r.shape === 'ok-empty' && r.transport === 'gzip';
        expect(g.ok, where).toBe(r.delivered && r.status !== null && r.status < 300 && !unparsable);
        if (!g.ok) {
          if (g.error instanceof OpenAI.APIError && g.error.status !== undefined) {
            expect([g.error.status, g.error.requestID], where).toEqual([r.status, r.id]);
            seen.faults++;
          } else {
            expect(!r.delivered || unparsable, where).toBe(true);
            seen.lost++;
          }
          continue;
        }
        expect([g.status, g.requestId], where).toEqual([r.status, r.id]);
        const data = g.data as Record<string, any> | string | null | undefined;
        if (r.transport === 'stream' || r.transport === 'gzip-stream') {
          expect(typeof data, where).toBe('string');
          const s = events(data as string);
          expect(s.content, where).toBe(r.content ?? '');
          if (r.usageShape === 'openai' || r.usageShape === 'groq' || r.usageShape === 'openrouter') expect(tokens(s.usage!), where).toEqual(r.billed);
          seen.stream++;
          if (r.transport === 'gzip-stream') seen.gzip++;
          continue;
        }
        if (r.transport === 'gzip') seen.gzip++;
        if (typeof data !== 'object' || data === null || !Array.isArray(data.choices)) continue;
        expect(data.id, where).toBe(r.id);
        if (data.choices.length === 1) expect(data.choices[0].message.content, where).toBe(r.content);
        if (r.usageShape === 'openai' || r.usageShape === 'openrouter') {
          expect(tokens(data.usage), where).toEqual(r.billed);
          seen.usage++;
        }
        if (r.costReported !== undefined) {
          expect(data.usage.cost, where).toBe(r.costReported);
          expect(r.costReported).toBe((r.billed.prompt * PRICES.promptPerMillion + r.billed.completion * PRICES.completionPerMillion) / 1e6);
        }
      }
      expect(seen.usage).toBeGreaterThan(10);
      expect(seen.stream).toBeGreaterThan(0);
      expect(seen.gzip).toBeGreaterThan(0);
      expect(seen.faults).toBeGreaterThan(0);
      // The preflight (every tenth request) got {"action": 0} or a fault.
      for (const r of records.filter((x) => x.n % 10 === 0)) expect(r.shape === 'preflight-json' || r.outcome === 'fault', r.shape).toBe(true);
    });
  });

  it('resets a connection mid-body: the client throws, the record says undelivered but billed', async () => {
    await withServer({ seed: 'resets', weights: { retryable: 1 } }, async (server, client) => {
      const kinds = new Set<string>();
      for (let i = 1; i < 200 && kinds.size < 2; i++) {
        const g = await call(client, i);
        const r = server.records.at(-1)!;
        if (r.shape !== 'reset-mid-body' && r.shape !== 'reset-before-headers') continue;
        kinds.add(r.shape);
        expect(g.ok).toBe(false);
        expect(g.ok ? null : g.error).toSatisfy((e) => e instanceof OpenAI.APIConnectionError || (e instanceof Error && !(e instanceof OpenAI.APIError)));
        expect(r).toMatchObject({ delivered: false, usageReported: false, outcome: 'fault', fault: 'connection-lost' });
        if (r.shape === 'reset-mid-body') expect(r.billed.prompt > 0 && r.billed.completion > 0).toBe(true);
        else expect(r.billed).toEqual({ prompt: 0, completion: 0, reasoning: 0 });
      }
      expect([...kinds].sort()).toEqual(['reset-before-headers', 'reset-mid-body']);
    });
  });

  it('draws reply n from the seed and n alone: concurrent requests get the replies sequential ones do', async () => {
    const shapes = (s: FakeModelServer) => s.records.map((r) => `${r.n} ${r.shape} ${r.transport}`);
    const sequential = await withServer({ seed: 'same' }, async (s, client) => {
      for (let i = 0; i < 16; i++) await call(client, 1);
      return shapes(s);
    });
    const concurrent = await withServer({ seed: 'same' }, async (s, client) => {
      await Promise.all(Array.from({ length: 16 }, () => call(client, 1)));
      return shapes(s);
    });
    expect(concurrent).toEqual(sequential);
  });

  it('refuses another key with a 401 that echoes it', async () => {
    await withServer({ seed: 'key', apiKey: 'sk-the-right-one' }, async (server, client) => {
      const g = await call(client, 1);
      expect(g.ok).toBe(false);
      expect((g as { error: InstanceType<typeof OpenAI.APIError> }).error.message).toContain(KEY);
      expect(server.records[0]).toMatchObject({ shape: 'wrong-key', fault: 'authentication', status: 401, billed: { prompt: 0, completion: 0, reasoning: 0 } });
    });
  });

  it('records what is no chat completion request too: another path, a body that is no JSON', async () => {
    await withServer({ seed: 'raw' }, async (server) => {
      expect(await raw(server.baseUrl, 'GET', '/v1/models', '')).toEqual({ status: 404, id: 'fake-raw-0' });
      expect(await raw(server.baseUrl, 'POST', '/v1/chat/completions', '{"model": ')).toEqual({ status: 400, id: 'fake-raw-1' });
      expect(server.records.map((r) => [r.shape, r.fault, r.billed.prompt])).toEqual([['no-route', 'not-found', 0], ['unreadable-request', 'bad-request', 0]]);
    });
  });
});
