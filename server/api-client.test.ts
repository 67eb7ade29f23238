/**
 * A client made from the OpenAPI document alone plays a game: openapi-fetch typed with
 * server/api-types.ts (openapi-typescript's types of the document), against the server
 * listening on 127.0.0.1. `tsc` checks every call below against the document, so a route
 * whose document stops matching what a client sends or reads fails to type-check or here.
 */
import type { FastifyInstance } from 'fastify';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from './api-types.ts';
import { buildServer } from './app.ts';

let app: FastifyInstance;
let baseUrl = '';

beforeAll(async () => {
  app = await buildServer({ rateLimit: 0 });
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await app.close();
});

describe('a client generated from the OpenAPI document', () => {
  it('creates a game against a bot and plays its seat to the end', async () => {
    const api = createClient<paths>({ baseUrl });
    const bots = await api.GET('/v1/bots');
    expect(bots.data?.bots.map((b) => b.name)).toContain('heuristic');

    const created = await api.POST('/v1/games', { body: { seats: ['remote', 'heuristic'], seed: 'generated-client' } });
    expect(created.response.status).toBe(201);
    if (!created.data) throw new Error(created.error?.error);
    const { id, tokens } = created.data;
    expect(tokens).toEqual([{ seat: 0, token: expect.any(String) }]);

    const seat = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${tokens[0].token}` } });
    const path = { id };
    let state = (await seat.GET('/v1/games/{id}/view', { params: { path } })).data;
    let moves = 0;
    while (state && !state.done) {
      expect(moves++).toBeLessThan(5000);
      const next = state.yourTurn
        ? await seat.POST('/v1/games/{id}/actions', { params: { path }, body: { action: state.legalActions[0].id } })
        : await seat.GET('/v1/games/{id}/view', { params: { path } });
      if (!next.data) throw new Error(`${next.response.status}: ${next.error?.error}`);
      state = next.data;
    }
    expect(state?.scores).toHaveLength(2);
    expect(moves).toBeGreaterThan(0);

    // An error comes back in the document's Error shape, typed: a 409 lists the legal actions (none, once over).
    const late = await seat.POST('/v1/games/{id}/actions', { params: { path }, body: { action: 0 } });
    expect(late.response.status).toBe(409);
    expect(late.error).toEqual({ error: 'the game is over', legalActions: [] });

    const replay = await seat.GET('/v1/games/{id}/replay', { params: { path } });
    expect(replay.data?.seed).toBe('generated-client');
    expect(replay.data?.actions).toHaveLength(state!.steps);
    expect(replay.data?.scores).toEqual(state!.scores);

    // Without the token the seat's routes are closed.
    const anonymous = await api.GET('/v1/games/{id}/view', { params: { path } });
    expect(anonymous.response.status).toBe(401);
  });
});
