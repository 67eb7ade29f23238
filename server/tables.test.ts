import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { buildServer } from './app.ts';

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildServer({ rateLimit: 0, maxOpenGames: 2 });
});

afterAll(async () => {
  await app.close();
});

async function call(method: 'GET' | 'POST', url: string, payload?: unknown, token?: string) {
  const res = await app.inject({ method, url, payload: payload as object, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.statusCode, body: res.json() as Record<string, any>, text: res.body };
}

describe('seed commitments', () => {
  it('refuses a chosen seed for a game with open seats; commits to the seed everywhere and reveals it with the salt only in the replay', async () => {
    const chosen = await call('POST', '/v1/games', { seats: ['remote', 'open', 'random'], seed: 4242 });
    expect(chosen.status).toBe(400);
    expect(chosen.body.error).toMatch(/^seed: a game with open seats is dealt from a seed nobody chose/);

    const made = await call('POST', '/v1/games', { seats: ['remote', 'open', 'random'] });
    expect(made.status).toBe(201);
    const shown = made.body.seed;
    expect(shown).toEqual({ commitment: expect.stringMatching(/^[0-9a-f]{64}$/), chosen: false });
    const seen: string[] = [made.text];
    const lobby = await call('GET', '/v1/games');
    seen.push(lobby.text);
    expect(lobby.body.games.find((g: { id: string }) => g.id === made.body.id).seed).toEqual(shown);
    const joined = await call('POST', `/v1/games/${made.body.id}/join`, {});
    seen.push(joined.text);
    expect(joined.body.seed).toEqual(shown);
    const tokens = [made.body.tokens[0].token, joined.body.token];
    for (let guard = 0; guard < 5000; guard++) {
      const views = await Promise.all(tokens.map((tk) => call('GET', `/v1/games/${made.body.id}/view`, undefined, tk)));
      for (const v of views) {
        seen.push(v.text);
        expect(v.body.seed).toEqual(shown);
      }
      const mine = views.find((v) => v.body.yourTurn);
      if (!mine) break;
      const acted = await call('POST', `/v1/games/${made.body.id}/actions`, { action: mine.body.legalActions[0].id }, tokens[mine.body.seat]);
      expect(acted.status).toBe(200);
    }
    const replay = await call('GET', `/v1/games/${made.body.id}/replay`, undefined, tokens[0]);
    expect(replay.status).toBe(200);
    const { seed, salt } = replay.body;
    expect(createHash('sha256').update(salt + seed).digest('hex')).toBe(shown.commitment);
    expect(replay.body).toMatchObject({ seedCommitment: shown.commitment, seedChosen: false });
    // Neither the seed nor the salt went out before the end.
    for (const text of seen) {
      expect(text).not.toContain(seed);
      expect(text).not.toContain(salt);
    }
  });

  it("lets a table without open seats choose its seed, and its views say so", async () => {
    const made = await call('POST', '/v1/games', { seats: ['remote', 'random'], seed: 'my-table' });
    expect(made.status).toBe(201);
    expect(made.body.seed.chosen).toBe(true);
    const view = await call('GET', `/v1/games/${made.body.id}/view`, undefined, made.body.tokens[0].token);
    expect(view.body.seed).toEqual(made.body.seed);
  });
});

describe('the lobby and open seats', () => {
  it('lists a game with an open seat by public facts only, hands its seat out once, then no longer lists it', async () => {
    const made = await call('POST', '/v1/games', { seats: ['remote', 'open', 'random'] });
    expect(made.status).toBe(201);
    expect(made.body.tokens.map((t: { seat: number }) => t.seat)).toEqual([0]);
    const lobby = await call('GET', '/v1/games');
    expect(lobby.status).toBe(200);
    const entry = lobby.body.games.find((g: { id: string }) => g.id === made.body.id);
    expect(entry.seats).toEqual([
      { seat: 0, who: 'person', open: false, name: 'Player 0', presence: 'connected' },
      { seat: 1, who: 'person', open: true, name: 'Player 1', presence: 'open' },
      { seat: 2, who: 'random', open: false, name: 'Beginner', presence: 'bot' },
    ]);
    // Nothing secret: no token, no watch token, no hand.
    for (const secret of [made.body.tokens[0].token, made.body.watchToken, 'hand']) expect(lobby.text).not.toContain(secret);

    const joined = await call('POST', `/v1/games/${made.body.id}/join`, {});
    expect(joined.status).toBe(200);
    expect(joined.body.seat).toBe(1);
    const view = await call('GET', `/v1/games/${made.body.id}/view`, undefined, joined.body.token);
    expect(view.status).toBe(200);
    expect(view.body.seat).toBe(1);
    expect(view.body.openSeats).toEqual([]);
    expect(lobby.text).not.toContain(joined.body.token);
    const again = await call('POST', `/v1/games/${made.body.id}/join`, {});
    expect(again).toMatchObject({ status: 409, body: { error: 'this game has no open seat left' } });
    expect((await call('GET', '/v1/games')).body.games.some((g: { id: string }) => g.id === made.body.id)).toBe(false);
  });

  it('names what is wrong with a join, and holds the limit on games with open seats', async () => {
    const made = await call('POST', '/v1/games', { seats: ['open', 'random', 'open'] });
    expect(made.status).toBe(201);
    expect((await call('GET', `/v1/games/${made.body.id}/view`, undefined, 'x')).status).toBe(403);
    expect(await call('POST', `/v1/games/${made.body.id}/join`, { seat: 1 })).toMatchObject({ status: 409, body: { error: 'seat 1 is not open; open seats: 0, 2' } });
    expect((await call('POST', `/v1/games/${made.body.id}/join`, { seat: -1 })).status).toBe(400);
    expect((await call('POST', `/v1/games/${made.body.id}/join`, { seat: 2, extra: 1 })).body.error).toMatch(/invalid request/);
    expect((await call('POST', '/v1/games/nope/join', {})).status).toBe(404);
    expect((await call('POST', `/v1/games/${made.body.id}/join`, { seat: 2 })).body.seat).toBe(2);
    // maxOpenGames is 2: this game (seat 0 still open) and one more; the third is refused.
    expect((await call('POST', '/v1/games', { seats: ['open', 'random'] })).status).toBe(201);
    const over = await call('POST', '/v1/games', { seats: ['open', 'random'] });
    expect(over.status).toBe(429);
    expect(over.body.error).toMatch(/the lobby holds 2 games with open seats/);
    // Games without open seats are not held back by the lobby's limit.
    expect((await call('POST', '/v1/games', { seats: ['remote', 'random'], seed: 'lobby-5' })).status).toBe(201);
  });
});

describe('GET /v1/games/:id/preview', () => {
  it("previews every legal choice of the seat to act, digesting now only when it chooses what to play, and nothing at other seats' decisions", async () => {
    const made = await call('POST', '/v1/games', { seats: ['remote', 'random', 'random'], seed: 'preview-1' });
    const { id } = made.body;
    const token = made.body.tokens[0].token;
    expect((await call('GET', `/v1/games/${id}/preview`)).status).toBe(401);
    expect((await call('GET', `/v1/games/${id}/preview`, undefined, made.body.watchToken)).body.error).toMatch(/watch token/);
    expect((await call('GET', `/v1/games/${id}/preview`, undefined, 'wrong')).status).toBe(403);
    let previewed = 0;
    let elsewhere = 0;
    for (let i = 0; i < 60; i++) {
      const view = await call('GET', `/v1/games/${id}/view`, undefined, token);
      if (view.body.done) break;
      const p = await call('GET', `/v1/games/${id}/preview`, undefined, token);
      expect(p.status).toBe(200);
      expect(p.body.step).toBe(view.body.step);
      if (view.body.yourTurn) {
        expect(p.body.actions.map((a: { id: number }) => a.id)).toEqual(view.body.legalActions.map((a: { id: number }) => a.id));
        const playing = view.body.view.decision.kind === 'play';
        expect(p.body.now === null).toBe(!playing);
        if (!playing) elsewhere++;
        const digests = [p.body.now, ...p.body.actions.map((a: { digest: unknown }) => a.digest)].filter(Boolean);
        for (const a of digests) {
          expect(a.passChance === null || (a.passChance >= 0 && a.passChance <= 1)).toBe(true);
          // Every way the digestion can go is in the moves, or it throws the seat out.
          const ways = a.moves.reduce((sum: number, m: { chance: number }) => sum + m.chance, 0) + (a.thrownOut ? 1 : 0);
          expect(ways).toBeCloseTo(a.skips ? 0 : 1, 12);
        }
        previewed++;
      } else {
        expect(p.body).toMatchObject({ now: null, actions: [] });
      }
      const act = view.body.legalActions[view.body.legalActions.length > 1 ? 1 : 0].id;
      expect((await call('POST', `/v1/games/${id}/actions`, { action: act }, token)).status).toBe(200);
    }
    expect(elsewhere).toBeGreaterThan(0);
    expect(previewed).toBeGreaterThan(3);
  });

  it("notes each button's consequence: a discard makes the turn an abstinence, a shot choice names the points lost", async () => {
    const made = await call('POST', '/v1/games', { seats: ['remote', 'random'], seed: 'notes-1' });
    const view = await call('GET', `/v1/games/${made.body.id}/view`, undefined, made.body.tokens[0].token);
    const discard = view.body.legalActions.find((a: { name: string }) => a.name.startsWith('discard'));
    expect(discard.note).toMatch(/the turn is an abstinence \(you lose 1 point and move 1 back\)/);
    const rules = await call('GET', '/v1/ruleset');
    expect(rules.body.cards.find((c: { id: string }) => c.id === 'brawl').text).toMatch(/random card from every other player's hand/);
    expect(rules.body.glossary.map((g: { term: string }) => g.term)).toContain('PAUSE');
  });
});

describe('the event stream and open seats', () => {
  it("sends a 'step' event when a seat is joined, though no game event happened", async () => {
    const live = await buildServer({ rateLimit: 0 });
    const base = await live.listen({ host: '127.0.0.1', port: 0 });
    try {
      const made = await (await fetch(`${base}/v1/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seats: ['remote', 'open', 'random'] }) })).json();
      const ctrl = new AbortController();
      const res = await fetch(`${base}/v1/games/${made.id}/stream`, { headers: { authorization: `Bearer ${made.tokens[0].token}` }, signal: ctrl.signal });
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      // The events so far come at once; then the join.
      while (!text.includes('\n\n')) text += (await reader.read()).value;
      expect(text).not.toContain('event: step');
      const joined = await fetch(`${base}/v1/games/${made.id}/join`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(joined.status).toBe(200);
      while (!text.includes('event: step')) text += (await reader.read()).value;
      expect(text).toMatch(/event: step\ndata: \{"step":\d+,"openSeats":\[\]\}/);
      ctrl.abort();
    } finally {
      await live.close();
    }
  });
});
