/**
 * The edges of every request: the Host names the server answers to (DNS rebinding), whole
 * numbers in paths and queries written only in decimal digits, and event streams that send
 * their status line and headers at once.
 */
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, hostName } from './app.ts';

let app: FastifyInstance;
let base = '';

beforeAll(async () => {
  app = await buildServer({ rateLimit: 0, heartbeatMs: 60_000 });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await app.close();
});

function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; streamed: boolean }> {
  return new Promise((resolve, reject) => {
    const req = http.request(base + path, { headers, agent: false }, (res) => {
      // A stream: what counts is that its status line came before anything was written to it.
      if (res.headers['content-type'] === 'text/event-stream') {
        resolve({ status: res.statusCode ?? 0, body: res.read() ?? '', streamed: true });
        res.destroy();
        return;
      }
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, streamed: false }));
    });
    req.on('error', reject);
    // Bounds a hang only: a busy machine may take seconds to answer.
    req.setTimeout(30_000, () => req.destroy(new Error(`${path}: no answer in 30 s`)));
    req.end();
  });
}

describe('Host names', () => {
  it('reads the name part of a Host header', () => {
    expect(hostName('LocalHost:8787')).toBe('localhost');
    expect(hostName('127.0.0.1')).toBe('127.0.0.1');
    expect(hostName('[::1]:8787')).toBe('[::1]');
    expect(hostName('::1')).toBe('[::1]');
  });

  it('answers localhost and its own address, and refuses any other name before doing anything', async () => {
    expect((await get('/v1/bots', { host: `localhost:${new URL(base).port}` })).status).toBe(200);
    expect((await get('/v1/bots')).status).toBe(200);
    for (const host of ['attacker.example', 'attacker.example:8787', 'localhost.attacker.example', '127.0.0.1.nip.io']) {
      const r = await get('/v1/bots', { host });
      expect(r.status, host).toBe(421);
      // It names the request's own Host, never the names the server does answer to.
      expect(JSON.parse(r.body).error).toBe(`Host ${JSON.stringify(hostName(host))} is not a name this server answers to`);
    }
    const made = await app.inject({ method: 'POST', url: '/v1/games', headers: { host: 'attacker.example' }, payload: { seats: ['random', 'random'] } });
    expect(made.statusCode).toBe(421);
  });

  it('answers the names an operator lists, and only those', async () => {
    const listed = await buildServer({ rateLimit: 0, config: { allowedHosts: ['czech.example.org', '::1'] } });
    const ask = async (host: string) => (await listed.inject({ method: 'GET', url: '/healthz', headers: { host } })).statusCode;
    expect(await ask('czech.example.org')).toBe(200);
    expect(await ask('CZECH.example.org:443')).toBe(200);
    expect(await ask('[::1]:80')).toBe(200);
    expect(await ask('localhost')).toBe(421);
    await listed.close();
  });
});

describe('whole numbers in paths and queries', () => {
  it('takes decimal digits only: 0x10, 1e1, +5, an empty value, -1 and 1.0 are a 400 naming the field', async () => {
    const made = await app.inject({ method: 'POST', url: '/v1/games', payload: { seats: ['remote', 'random'], seed: 'edges' } });
    const { id, tokens } = made.json();
    const auth = { authorization: `Bearer ${tokens[0].token}` };
    for (const bad of ['0x10', '1e1', '+5', '', '-1', '1.0', ' 1', '1 ', '١']) {
      for (const url of [`/v1/games/${id}/view?at=${encodeURIComponent(bad)}`, `/v1/games/${id}/events?since=${encodeURIComponent(bad)}`]) {
        const r = await app.inject({ method: 'GET', url, headers: auth });
        expect(r.statusCode, url).toBe(400);
        expect(r.json().error, url).toMatch(/at|since/);
      }
    }
    const twice = await app.inject({ method: 'GET', url: `/v1/games/${id}/view?at=1&at=2`, headers: auth });
    expect(twice.statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: `/v1/games/${id}/view?at=0`, headers: auth })).json().step).toBe(0);
    expect((await app.inject({ method: 'GET', url: `/v1/games/${id}/view?at=000`, headers: auth })).json().step).toBe(0);
    for (const bad of ['0x10', '1e1', '+5', '-1']) {
      const r = await app.inject({ method: 'GET', url: `/v1/games/${id}/replay/${encodeURIComponent(bad)}`, headers: auth });
      expect(r.statusCode, bad).toBe(400);
    }
  });
});

describe('event streams', () => {
  it('send their status line and headers at once, even opened at their last event', async () => {
    const made = await app.inject({ method: 'POST', url: '/v1/games', payload: { seats: ['remote', 'random'] } });
    const { id, tokens } = made.json();
    const auth = { authorization: `Bearer ${tokens[0].token}` };
    const events = (await app.inject({ method: 'GET', url: `/v1/games/${id}/events`, headers: auth })).json().next;
    const r = await get(`/v1/games/${id}/stream?since=${events}`, auth);
    expect(r).toEqual({ status: 200, body: '', streamed: true });
    // Nothing was written yet (the heartbeat is a minute away): the headers were sent on their own. Held back, they would come only with that first write.
  });
});
