import { describe, expect, it } from 'vitest';
import { randInt, seedRng } from '../env/rng.ts';
import { buildServer } from './index.ts';

/**
 * A move sent with the step of the decision it answers lands only on that decision: a click
 * meant for a decision before (asked again after an X card, or moved on) changes nothing.
 */
describe('POST actions with the step it answers', () => {
  it('plays at the step named, and refuses any other with 409 decision-changed, playing nothing', async () => {
    const app = await buildServer({ rateLimit: 0 });
    try {
      const rng = seedRng('decision-step');
      for (let g = 0; g < 4; g++) {
        const made = (await app.inject({ method: 'POST', url: '/v1/games', payload: { seats: ['remote', 'heuristic', 'random'], seed: `step-${g}` } })).json();
        const token = made.tokens[0].token;
        const headers = { authorization: `Bearer ${token}` };
        let refused = 0;
        for (let moves = 0; moves < 400; moves++) {
          const view = (await app.inject({ method: 'GET', url: `/v1/games/${made.id}/view`, headers })).json();
          if (view.done) break;
          const legal = view.legalActions.map((a: { id: number }) => a.id);
          const action = legal[randInt(rng, legal.length)];
          // A stale or future step: refused, and the game stands where it was.
          const wrong = view.step + (randInt(rng, 2) === 0 ? -1 - randInt(rng, 3) : 1 + randInt(rng, 3));
          if (wrong >= 0) {
            const r = await app.inject({ method: 'POST', url: `/v1/games/${made.id}/actions`, headers, payload: { action, step: wrong } });
            expect(r.statusCode).toBe(409);
            expect(r.json().code).toBe('decision-changed');
            const after = (await app.inject({ method: 'GET', url: `/v1/games/${made.id}/view`, headers })).json();
            expect(after.step).toBe(view.step);
            refused++;
          }
          const ok = await app.inject({ method: 'POST', url: `/v1/games/${made.id}/actions`, headers, payload: { action, step: view.step } });
          expect(ok.statusCode).toBe(200);
          expect(ok.json().step).toBeGreaterThan(view.step);
        }
        expect(refused).toBeGreaterThan(5);
      }
      const bad = await app.inject({ method: 'POST', url: '/v1/games/x/actions', headers: { authorization: 'Bearer y' }, payload: { action: 0, step: -1 } });
      expect(bad.statusCode).toBe(400);
    } finally {
      await app.close();
    }
  });
});
