import type { FastifyInstance } from 'fastify';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from './app.ts';

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildServer({ rateLimit: 0 });
});

afterAll(async () => {
  await app.close();
});

async function call(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, token?: string) {
  const res = await app.inject({ method, url, payload: payload as object, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.statusCode, body: res.json() as Record<string, any>, text: res.body };
}

describe('seat settings, names and presence over the API', () => {
  it('reads and sets auto-pass with the seat token only, checking every field', async () => {
    const made = await call('POST', '/v1/games', { seats: ['remote', 'heuristic'] });
    expect(made.status).toBe(201);
    const { id, watchToken } = made.body;
    const token = made.body.tokens[0].token;
    const url = `/v1/games/${id}/settings`;
    expect(await call('GET', url, undefined, token)).toMatchObject({ status: 200, body: { autoPass: true, unwatched: [], windows: 'all' } });
    expect((await call('GET', url)).status).toBe(401);
    expect((await call('GET', url, undefined, 'nope')).status).toBe(403);
    expect((await call('GET', url, undefined, watchToken)).status).toBe(403);
    expect((await call('PUT', url, { autoPass: false }, watchToken)).status).toBe(403);
    expect((await call('GET', '/v1/games/nope/settings', undefined, token)).status).toBe(404);
    for (const bad of [{ unwatched: ['excuse_me'] }, { windows: 'some' }, { autoPass: 'yes' }, { autoPass: true, extra: 1 }, { unwatched: 'knocked_over' }]) {
      const r = await call('PUT', url, bad, token);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.error).toMatch(/^invalid request/);
    }
    expect(await call('PUT', url, { unwatched: ['warm_beer', 'knocked_over', 'warm_beer'] }, token))
      .toMatchObject({ status: 200, body: { autoPass: true, unwatched: ['warm_beer', 'knocked_over'] } });
    expect(await call('PUT', url, { autoPass: false }, token)).toMatchObject({ status: 200, body: { autoPass: false, unwatched: ['warm_beer', 'knocked_over'] } });
    expect((await call('GET', url, undefined, token)).body).toEqual({ autoPass: false, unwatched: ['warm_beer', 'knocked_over'], windows: 'all' });
    expect(await call('PUT', url, { windows: 'answering' }, token)).toMatchObject({ status: 200, body: { autoPass: false, unwatched: ['warm_beer', 'knocked_over'], windows: 'answering' } });
  });

  it('takes names when creating and joining, refuses bad ones, and shows names and presence in the view and the lobby', async () => {
    for (const names of [['x'.repeat(25)], ['a\u0000b'], ['   '], [null, 'Bot']]) {
      const r = await call('POST', '/v1/games', { seats: ['remote', 'random'], names });
      expect(r.status, JSON.stringify(names)).toBe(400);
    }
    const made = await call('POST', '/v1/games', { seats: ['remote', 'open', 'ppo'], names: ['  Anna  '] });
    expect(made.status).toBe(201);
    expect(made.body.names).toEqual(['Anna', 'Player 1', 'Strong']);
    const lobby = await call('GET', '/v1/games');
    const entry = lobby.body.games.find((g: { id: string }) => g.id === made.body.id);
    expect(entry.seats.map((s: { name: string; presence: string }) => [s.name, s.presence])).toEqual([['Anna', 'connected'], ['Player 1', 'open'], ['Strong', 'bot']]);
    expect((await call('POST', `/v1/games/${made.body.id}/join`, { name: 'x'.repeat(30) })).status).toBe(400);
    const joined = await call('POST', `/v1/games/${made.body.id}/join`, { name: 'Bára' });
    expect(joined.status).toBe(200);
    const view = await call('GET', `/v1/games/${made.body.id}/view`, undefined, made.body.watchToken);
    expect(view.body.names).toEqual(['Anna', 'Bára', 'Strong']);
    expect(view.body.presence).toEqual(['connected', 'connected', 'bot']);
    // The events narrate with the table's names.
    const events = await call('GET', `/v1/games/${made.body.id}/events`, undefined, joined.body.token);
    expect(events.body.events.some((e: { text: string | null }) => e.text?.includes('Anna'))).toBe(true);
  });

  it("cannot get the creator's game dropped from the state dir: a joiner's flood of settings PUTs writes no more to the game's file", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-settings-'));
    try {
      // 4 kB: appended, the 600 PUTs below (over 50 bytes each) passed it several times over.
      const first = await buildServer({ rateLimit: 0, stateDir: dir, stateMaxFileBytes: 4096, notice: () => {} });
      const made = (await first.inject({ method: 'POST', url: '/v1/games', payload: { seats: ['remote', 'open', 'random'] } })).json();
      const joined = (await first.inject({ method: 'POST', url: `/v1/games/${made.id}/join`, payload: {} })).json();
      const file = path.join(dir, `${made.id}.jsonl`);
      const size = fs.statSync(file).size;
      for (let i = 0; i < 600; i++) {
        const r = await first.inject({ method: 'PUT', url: `/v1/games/${made.id}/settings`, headers: { authorization: `Bearer ${joined.token}` }, payload: { autoPass: i % 2 === 0, unwatched: i % 3 === 0 ? ['warm_beer'] : [] } });
        expect(r.statusCode).toBe(200);
      }
      expect(fs.statSync(file).size).toBe(size);
      expect(fs.statSync(path.join(dir, `${made.id}.settings.json`)).size).toBeLessThan(200);
      await first.close();
      const second = await buildServer({ rateLimit: 0, stateDir: dir, stateMaxFileBytes: 4096, notice: () => {} });
      const view = await second.inject({ url: `/v1/games/${made.id}/view`, headers: { authorization: `Bearer ${made.tokens[0].token}` } });
      expect(view.statusCode).toBe(200);
      const settings = await second.inject({ url: `/v1/games/${made.id}/settings`, headers: { authorization: `Bearer ${joined.token}` } });
      // The last PUT's value (i = 599): kept, not the default.
      expect(settings.json()).toEqual({ autoPass: false, unwatched: [], windows: 'all' });
      await second.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
