import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer } from './app.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-restart-'));
const apps: FastifyInstance[] = [];
afterAll(async () => {
  for (const a of apps) await a.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function serve(): Promise<FastifyInstance> {
  const app = await buildServer({ rateLimit: 0, stateDir: dir, notice: () => {} });
  apps.push(app);
  return app;
}

const get = async (app: FastifyInstance, url: string, token?: string) => {
  const res = await app.inject({ url, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.statusCode, body: res.json() as Record<string, any> };
};

describe('a server restarted on its state dir', () => {
  it('answers the same views and history after the restart, the history paged and equal to the views step by step', async () => {
    const first = await serve();
    const made = await first.inject({ method: 'POST', url: '/v1/games', payload: { seats: ['remote', 'random', 'random'] } });
    const { id, tokens, watchToken } = made.json() as { id: string; tokens: { token: string }[]; watchToken: string };
    const token = tokens[0].token;
    for (let i = 0; i < 8; i++) {
      const v = await get(first, `/v1/games/${id}/view`, token);
      if (v.body.done) break;
      await first.inject({ method: 'POST', url: `/v1/games/${id}/actions`, headers: { authorization: `Bearer ${token}` }, payload: { action: v.body.legalActions[0].id } });
    }
    const before = await get(first, `/v1/games/${id}/view`, token);
    const steps = before.body.step as number;
    expect(steps).toBeGreaterThan(8);
    await first.close();

    const second = await serve();
    const after = await get(second, `/v1/games/${id}/view`, token);
    expect(after.body).toEqual(before.body);
    expect((await get(second, `/v1/games/${id}/view`, watchToken)).body.seat).toBeNull();

    // Paged by 5: every step's action and events as the seat saw them, equal to view?at=K.
    const entries: any[] = [];
    for (let from: number | null = 0; from !== null;) {
      const page = await get(second, `/v1/games/${id}/history?from=${from}&limit=5`, token);
      expect(page.status).toBe(200);
      expect(page.body.entries.length).toBeLessThanOrEqual(5);
      entries.push(...page.body.entries);
      from = page.body.next;
    }
    expect(entries.map((e) => e.step)).toEqual([...Array(steps + 1).keys()]);
    for (const k of [0, 1, Math.floor(steps / 2), steps]) {
      const at = await get(second, `/v1/games/${id}/view?at=${k}`, token);
      expect(entries[k]).toEqual({ step: k, lastAction: at.body.lastAction, events: at.body.events });
    }
    expect((await get(second, `/v1/games/${id}/history?from=${steps + 1}`, token)).status).toBe(400);
  });

  it('says plainly that a game it does not hold is gone, with a code a page can act on', async () => {
    const app = await serve();
    const res = await get(app, '/v1/games/AAAAAAAAAAAA/view', 'whatever');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('game-gone');
    expect(res.body.error).toMatch(/is gone: this server no longer holds it .*start a new game/);
  });
});
