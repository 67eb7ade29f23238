import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A_DONE, A_STOP_DISCARD } from '../env/actions.ts';
import { CzechPubEnv } from '../env/env.ts';
import { eventForSeat } from '../env/events.ts';
import { withoutPrivate } from '../test/helpers/public-view.ts';
import { randInt, seedRng } from '../env/rng.ts';
import { EnvObservation } from '../agents/observation.ts';
import { createAgent } from '../agents/default-registry.ts';
import { runTournament } from '../eval/tournament.ts';
import { buildServer } from './app.ts';

let app: FastifyInstance;
let base = '';

beforeAll(async () => {
  app = await buildServer({ rateLimit: 0 });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await app.close();
});

async function call(method: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(base + path, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** Plays every remote seat with its first legal action until the game ends. */
async function playOut(id: string, tokens: { seat: number; token: string }[]) {
  for (let guard = 0; guard < 5000; guard++) {
    let moved = false;
    for (const t of tokens) {
      const v = await call('GET', `/v1/games/${id}/view`, undefined, t.token);
      expect(v.status).toBe(200);
      if (v.body.done) return v.body;
      if (!v.body.yourTurn) continue;
      const r = await call('POST', `/v1/games/${id}/actions`, { action: v.body.legalActions[0].id }, t.token);
      expect(r.status).toBe(200);
      moved = true;
    }
    expect(moved).toBe(true);
  }
  throw new Error('game did not end');
}

describe('HTTP API over a listening server', () => {
  it('plays a game of three bots and one remote seat to the end, and its replay reproduces it', async () => {
    const created = await call('POST', '/v1/games', { seats: ['heuristic', 'remote', 'greedy', 'random'], seed: 'http-1' });
    expect(created.status).toBe(201);
    expect(created.body.tokens).toEqual([{ seat: 1, token: expect.any(String) }]);
    const end = await playOut(created.body.id, created.body.tokens);
    expect(end.scores).toHaveLength(4);
    const replay = await call('GET', `/v1/games/${created.body.id}/replay`, undefined, created.body.tokens[0].token);
    expect(replay.status).toBe(200);
    expect(replay.body.askForced).toBe(true);
    const env = new CzechPubEnv({ seed: replay.body.seed, players: 4, askForced: true, log: false });
    for (const a of replay.body.actions) env.step(a);
    expect(env.done).toBe(true);
    expect(env.scores()).toEqual(end.scores);
  });

  it('plays a game of four remote seats, and each seat sees its own events', async () => {
    const created = await call('POST', '/v1/games', { seats: ['remote', 'remote', 'remote', 'remote'], seed: 7 });
    expect(created.body.tokens).toHaveLength(4);
    const end = await playOut(created.body.id, created.body.tokens);
    expect(end.done).toBe(true);
    const ev = await call('GET', `/v1/games/${created.body.id}/events?since=0`, undefined, created.body.tokens[2].token);
    expect(ev.status).toBe(200);
    expect(ev.body.events.length).toBe(ev.body.next);
    const later = await call('GET', `/v1/games/${created.body.id}/events?since=${ev.body.next - 3}`, undefined, created.body.tokens[2].token);
    expect(later.body.events).toEqual(ev.body.events.slice(-3));
   }, 300_000); // some hundreds of requests: the timeout only bounds a hang

  it('streams the seat events as Server-Sent Events while the game is played, ending with end', async () => {
    const created = await call('POST', '/v1/games', { seats: ['remote', 'heuristic', 'random'], seed: 'sse' });
    const { id, tokens } = created.body;
    const res = await fetch(`${base}/v1/games/${id}/stream`, { headers: { authorization: `Bearer ${tokens[0].token}` } });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reading = (async () => {
      const dec = new TextDecoder();
      let text = '';
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) text += dec.decode(chunk);
      return text;
    })();
    await playOut(id, tokens);
    const text = await reading;
    const data = text.split('\n\n').filter((b) => b.startsWith('id: ')).map((b) => JSON.parse(b.split('\ndata: ')[1]));
    const all = await call('GET', `/v1/games/${id}/events`, undefined, tokens[0].token);
    expect(data).toEqual(all.body.events);
    expect(text).toMatch(/event: end\ndata: \{"scores":\[/);
  });

  it('runs a tournament as a background job and reports it when done', async () => {
    const started = await call('POST', '/v1/tournaments', { agents: ['heuristic', 'random', 'greedy'], games: 30, seed: 3 });
    expect(started.status).toBe(202);
    let job = started.body;
    // Polled until it ends, however long a busy machine takes: the test's timeout only bounds a hang.
    while (job.status === 'running') {
      await new Promise((r) => setTimeout(r, 50));
      job = (await call('GET', `/v1/tournaments/${started.body.id}`)).body;
    }
    expect(job.status).toBe('done');
    expect(job.summary.games).toBe(30);
    expect(job.leaderboard).toMatch(/^# Czech Pub tournament/);
    expect((await call('POST', '/v1/tournaments', { agents: ['nobody', 'random'], games: 4 })).status).toBe(400);
    expect((await call('GET', '/v1/tournaments/none')).status).toBe(404);
  }, 300_000);

  it('never sends a seat more than it may know: every response is unchanged when the hidden cards are dealt anew', async () => {
    const seed = 'secret';
    const created = await call('POST', '/v1/games', { seats: ['remote', 'remote', 'remote', 'remote'], seed });
    const { id, tokens, watchToken } = created.body;
    // A live game asks every seat at every decision and takes the forced ones itself (askForced): the local copy does the same.
    const local = new CzechPubEnv({ seed, players: 4, askForced: true, log: true });
    const json = (x: unknown) => JSON.parse(JSON.stringify(x));
    const untexted = (events: Record<string, unknown>[]) => events.map(({ text: _t, ...ev }) => ev);
    // Every seat's view after each action of the game's record (forced ones included): what `?at=` answers.
    const pastViews: unknown[][] = [tokens.map((t: { seat: number }) => json(local.view(t.seat)))];
    const stepLocal = (a: number) => {
      local.step(a);
      pastViews.push(tokens.map((t: { seat: number }) => json(local.view(t.seat))));
    };
    const forced = () => {
      while (!local.done && local.legalActions().length === 1) stepLocal(local.legalActions()[0]);
    };
    forced();
    const rng = seedRng('secrecy');
    for (let step = 0; !local.done && step < 400; step++) {
      if (step % 10 === 0) {
        for (const t of tokens as { seat: number; token: string }[]) {
          const v = await call('GET', `/v1/games/${id}/view`, undefined, t.token);
          // Everything this seat cannot see, dealt anew: what it is sent must not change.
          const other = local.resample(t.seat, `x/${step}`);
          expect(v.body.view).toEqual(json(other.view(t.seat)));
          expect(v.body.text).toBe(other.text(t.seat));
          const ev = await call('GET', `/v1/games/${id}/events`, undefined, t.token);
          expect(untexted(ev.body.events)).toEqual(json(local.eventLog(t.seat)));
          // An earlier state: what this seat saw then.
          const k = randInt(rng, local.actions.length + 1);
          const past = await call('GET', `/v1/games/${id}/view?at=${k}`, undefined, t.token);
          expect(past.body.view).toEqual(pastViews[k][t.seat]);
          for (const e of untexted(past.body.events)) expect(json(local.eventLog(t.seat))).toContainEqual(e);
          // The onlooker sees what every seat sees, whoever's hidden cards are dealt anew.
          const w = await call('GET', `/v1/games/${id}/view?at=${local.actions.length}`, undefined, watchToken);
          expect(w.body.view).toEqual(json(withoutPrivate(other.view(t.seat))));
          expect(w.body.legalActions).toEqual([]);
          expect((await call('GET', `/v1/games/${id}/replay/0`, undefined, t.token)).status).toBe(409);
        }
        const we = await call('GET', `/v1/games/${id}/events`, undefined, watchToken);
        expect(untexted(we.body.events)).toEqual(json(local.fullLog.map((e) => eventForSeat(e, -1))));
        expect((await call('GET', `/v1/games/${id}/replay/0`, undefined, watchToken)).status).toBe(409);
      }
      const seat = local.actor;
      const legal = local.legalActions();
      const a = legal[randInt(rng, legal.length)];
      const r = await call('POST', `/v1/games/${id}/actions`, { action: a }, tokens[seat].token);
      expect(r.status).toBe(200);
      stepLocal(a);
      forced();
      if (!local.done) expect(r.body.view).toEqual(json(local.resample(seat, `y/${step}`).view(seat)));
    }
    // The watch token only watches.
    if (!local.done) {
      const w = await call('POST', `/v1/games/${id}/actions`, { action: local.legalActions()[0] }, watchToken);
      expect(w.status).toBe(403);
    }
  }, 60_000);

  it('answers its limits with clear 4xx: body size, live games, request rate (counted in a window of an hour, not raced against a second)', async () => {
    // The rate limit's window outlasts the test: it counts this client's requests, wherever a busy machine puts them in time.
    const small = await buildServer({ bodyLimit: 256, maxGames: 1, rateLimit: 5, rateLimitWindowMs: 3600_000 });
    const url = await small.listen({ host: '127.0.0.1', port: 0 });
    const post = (body: string) => fetch(`${url}/v1/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const big = await post(JSON.stringify({ seats: ['remote', 'random'], seed: 'x'.repeat(300) }));
    expect(big.status).toBe(413);
    expect((await big.json()).error).toMatch(/too large/);
    expect((await post(JSON.stringify({ seats: ['remote', 'random'] }))).status).toBe(201);
    const full = await post(JSON.stringify({ seats: ['remote', 'random'] }));
    expect(full.status).toBe(429);
    expect((await full.json()).error).toMatch(/too many live games/);
    // Three requests so far: the next two are the last of the five, the six after them are refused.
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await fetch(`${url}/v1/bots`)).status);
    expect(statuses).toEqual([200, 200, 429, 429, 429, 429, 429, 429]);
    const refused = await fetch(`${url}/v1/bots`);
    expect((await refused.json()).error).toMatch(/^rate limit: at most 5 requests per 3600 s per client; retry in \d+ s$/);
    await small.close();
    const noJobs = await buildServer({ maxJobs: 0 });
    const r = await noJobs.inject({ method: 'POST', url: '/v1/tournaments', payload: { agents: ['random', 'random'], games: 2 } });
    expect(r.statusCode).toBe(403);
    expect(r.json().error).toMatch(/runs no tournaments/);
    await noJobs.close();
  });

  it('publishes an OpenAPI document describing every response and the seat-token scheme, and its UI at /docs', async () => {
    const doc = await call('GET', '/docs/json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    const paths = doc.body.paths as Record<string, Record<string, { responses: Record<string, any>; security?: unknown }>>;
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(['/v1/games', '/v1/games/{id}/actions', '/v1/bots/{spec}/act', '/v1/tournaments', '/v1/tournaments/{id}', '/healthz']));
    expect(doc.body.components.securitySchemes.seatToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(paths['/v1/games'].post.responses)).toEqual(expect.arrayContaining(['201', '400', '429']));
    expect(Object.keys(paths['/v1/tournaments'].post.responses)).toEqual(expect.arrayContaining(['202', '400', '429']));
    expect(Object.keys(paths['/v1/tournaments/{id}'])).toEqual(expect.arrayContaining(['get', 'delete']));
    expect(paths['/v1/games/{id}/view'].get.security).toEqual([{ seatToken: [] }]);
    expect(Object.keys(paths['/v1/games/{id}/actions'].post.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '409']));
    // Every documented route documents its errors in the one error shape, named once.
    expect(doc.body.components.schemas.Error.required).toEqual(['error']);
    for (const [route, methods] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(methods)) {
        for (const [code, r] of Object.entries(op.responses)) {
          if (Number(code) >= 400) expect(r.content['application/json'].schema, `${method} ${route} ${code}`).toEqual({ $ref: '#/components/schemas/Error' });
        }
      }
    }
    const ui = await fetch(`${base}/docs`);
    expect(ui.status).toBe(200);
  });

  it('answers the health route, and sends CORS headers only for the origins the operator allows', async () => {
    const h = await call('GET', '/healthz');
    expect(h).toMatchObject({ status: 200, body: { status: 'ok' } });
    const none = await fetch(`${base}/v1/bots`, { headers: { origin: 'https://elsewhere.example' } });
    expect(none.headers.get('access-control-allow-origin')).toBeNull();
    const open = await buildServer({ rateLimit: 0, config: { corsOrigins: ['https://client.example'] } });
    const url = await open.listen({ host: '127.0.0.1', port: 0 });
    const allowed = await fetch(`${url}/v1/bots`, { headers: { origin: 'https://client.example' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://client.example');
    const other = await fetch(`${url}/v1/bots`, { headers: { origin: 'https://elsewhere.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    await open.close();
  });

  it('resumes an event stream from Last-Event-ID', async () => {
    const created = await call('POST', '/v1/games', { seats: ['remote', 'random', 'random'], seed: 'resume' });
    const { id, tokens } = created.body;
    await playOut(id, tokens);
    const all = await call('GET', `/v1/games/${id}/events`, undefined, tokens[0].token);
    const read = async (headers: Record<string, string>, query = '') => {
      const res = await fetch(`${base}/v1/games/${id}/stream${query}`, { headers: { authorization: `Bearer ${tokens[0].token}`, ...headers } });
      return { status: res.status, text: await res.text() };
    };
    const k = all.body.next - 5;
    const resumed = await read({ 'last-event-id': String(k) }, '?since=0');
    const ids = [...resumed.text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids).toEqual([k + 1, k + 2, k + 3, k + 4, k + 5]);
    expect(resumed.text).toMatch(/event: end\n/);
    expect((await read({ 'last-event-id': 'x' })).status).toBe(400);
    expect((await read({ 'last-event-id': String(all.body.next + 1) })).status).toBe(400);
  });

  it('lists the catalogue: the default entries with what a client may set, and no llm or http bot unless the operator defines one', async () => {
    const r = await call('GET', '/v1/bots');
    // Those with a strength first, weakest first (the measured ladder), then the research bots.
    expect(r.body.bots.map((b: { name: string }) => b.name)).toEqual(['random', 'heuristic', 'ppo', 'ppo-search', 'greedy', 'cautious', 'ismcts']);
    expect(r.body.bots.map((b: { displayName: string; strength: string | null }) => [b.displayName, b.strength])).toEqual([
      ['Beginner', 'Easy'], ['Regular', 'Medium'], ['Strong', 'Hard'], ['Expert', 'Very hard'], ['Greedy drinker', null], ['Cautious drinker', null], ['Tree search', null],
    ]);
    const ismcts = r.body.bots.find((b: { name: string }) => b.name === 'ismcts');
    expect(ismcts).toMatchObject({ agent: 'ismcts', heavy: true, servesPostedViews: false, options: { iterations: { min: 10, max: 1000, integer: true } } });
    expect(JSON.stringify(r.body)).not.toMatch(/models\/|\.json/);
  });

  it('serves bots statelessly: the same action as the bot playing locally', async () => {
    const rng = seedRng('serve');
    let checked = 0;
    for (let g = 0; g < 12; g++) {
      const env = new CzechPubEnv({ seed: `serve/${g}`, players: 4 });
      const steps = randInt(rng, 80);
      for (let i = 0; i < steps && !env.done; i++) env.step(env.legalActions()[randInt(rng, env.legalActions().length)]);
      if (env.done || env.legalActions().length < 2) continue;
      const seat = env.actor;
      const obs = new EnvObservation(env, seat);
      for (const spec of ['heuristic', 'ppo']) {
        const local = createAgent(spec);
        local.reset?.({ seat, players: 4, seed: 'served' });
        const want = await local.act(obs);
        // The view alone: the server encodes it for ppo as the seat's state does.
        const r = await call('POST', `/v1/bots/${spec}/act`, { view: obs.view, legalActions: obs.legalActions });
        expect(r.status).toBe(200);
        expect(r.body.action).toBe(want);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
    const env = new CzechPubEnv({ seed: 'serve-errors', players: 3 });
    const obs = new EnvObservation(env, env.actor);
    // An encoding posted by an older client is ignored, whatever it holds.
    const junk = await call('POST', '/v1/bots/ppo/act', { view: obs.view, legalActions: obs.legalActions, encoding: new Array(obs.encoding.length).fill(9) });
    expect(junk.status).toBe(200);
    const ppo = createAgent('ppo');
    ppo.reset?.({ seat: obs.seat, players: 3, seed: 'served' });
    expect(junk.body.action).toBe(await ppo.act(obs));
    expect((await call('POST', '/v1/bots/nobody/act', { view: obs.view, legalActions: obs.legalActions })).status).toBe(404);
    expect((await call('POST', '/v1/bots/ismcts/act', { view: obs.view, legalActions: obs.legalActions })).status).toBe(400);
    expect((await call('POST', '/v1/bots/random/act', { view: obs.view, legalActions: [] })).status).toBe(400);
  });

  it("answers a move for a view fetched from a live game's seat: the client holds nothing but that view", async () => {
    const created = await call('POST', '/v1/games', { seats: ['remote', 'remote', 'remote'], seed: 'act-from-view' });
    const tokens: { seat: number; token: string }[] = created.body.tokens;
    let asked = 0;
    for (let step = 0; step < 60 && asked < 8; step++) {
      const seen = await Promise.all(tokens.map((t) => call('GET', `/v1/games/${created.body.id}/view`, undefined, t.token)));
      const mine = seen.find((v) => v.body.yourTurn);
      if (!mine) break;
      const legal: number[] = mine.body.legalActions.map((a: { id: number }) => a.id);
      const r = await call('POST', '/v1/bots/ppo/act', { view: mine.body.view, legalActions: legal });
      expect(r.status).toBe(200);
      expect(legal).toContain(r.body.action);
      if (legal.length > 1) asked++;
      const played = await call('POST', `/v1/games/${created.body.id}/actions`, { action: r.body.action }, tokens[mine.body.seat].token);
      expect(played.status).toBe(200);
    }
    expect(asked).toBeGreaterThan(0);
  });

  it('lets an http: agent play a tournament through a bot server, counting fallbacks', async () => {
    // A minute to answer: no fallback comes of a busy machine's slow answer, only of a hang.
    const r = await runTournament({ agents: [`http:${base}/v1/bots/heuristic/act:timeoutMs=60000`, 'heuristic', 'random'], games: 6, seed: 'http-agent', workers: 0 });
    expect(r.complete).toBe(true);
    const u = r.usage[0];
    expect(u.decisions).toBeGreaterThan(0);
    expect(u.fallbacks).toBe(0);
    // A bot that is not there: every decision falls back, and the games still end.
    const dead = await runTournament({ agents: ['http:http://127.0.0.1:9/act:timeoutMs=200', 'random', 'random'], games: 3, seed: 'dead', workers: 0 });
    expect(dead.complete).toBe(true);
    expect(dead.usage[0].fallbacks).toBe(dead.usage[0].decisions);
    expect(() => createAgent('http:ftp://x')).toThrow(/give the bot's URL/);
  });

  it('steps through a finished game: the view of every seat at each step and the choice made there', async () => {
    const created = await call('POST', '/v1/games', { seats: ['heuristic', 'random', 'greedy'], seed: 'frames' });
    expect(created.body.tokens).toEqual([]);
    const { id, watchToken } = created.body;
    const replay = await call('GET', `/v1/games/${id}/replay`, undefined, watchToken);
    expect(replay.status).toBe(200);
    const local = new CzechPubEnv({ seed: 'frames', players: 3, askForced: true, log: true });
    const events: unknown[] = [];
    for (let k = 0; k <= replay.body.actions.length; k++) {
      const f = await call('GET', `/v1/games/${id}/replay/${k}`, undefined, watchToken);
      expect(f.status).toBe(200);
      expect(f.body.views).toEqual(JSON.parse(JSON.stringify([0, 1, 2].map((p) => local.view(p)))));
      expect(f.body.legalActions.map((x: { id: number }) => x.id)).toEqual(local.done ? [] : local.legalActions());
      events.push(...f.body.events.map(({ text: _t, ...ev }: Record<string, unknown>) => ev));
      if (local.done) {
        expect(f.body.next).toBeNull();
        break;
      }
      expect(f.body.next).toEqual({ seat: local.actor, id: replay.body.actions[k], name: expect.any(String) });
      local.step(replay.body.actions[k]);
    }
    expect(local.done).toBe(true);
    expect(events).toEqual(JSON.parse(JSON.stringify(local.fullLog)));
    // The view at a step, with its action and events, for the onlooker (stepping backwards too).
    const k = Math.floor(replay.body.actions.length / 2);
    const late = await call('GET', `/v1/games/${id}/view?at=${k + 5}`, undefined, watchToken);
    const mid = await call('GET', `/v1/games/${id}/view?at=${k}`, undefined, watchToken);
    expect(mid.body).toMatchObject({ step: k, steps: replay.body.actions.length, seat: null, lastAction: { id: replay.body.actions[k - 1] } });
    expect(late.body.step).toBe(k + 5);
    expect((await call('GET', `/v1/games/${id}/replay/${replay.body.actions.length + 1}`, undefined, watchToken)).status).toBe(404);
  });

  it('serves the ruleset, the card names and the web page', async () => {
    const r = await call('GET', '/v1/ruleset');
    expect(r.body.ruleset.chart.length).toBeGreaterThan(1);
    expect(r.body.cards[0]).toMatchObject({ id: 'beer', type: 0, name: 'Beer', kind: 'beer' });
    expect(r.body.cards.filter((c: { kind: string }) => c.kind === 'x').map((c: { id: string }) => c.id)).toEqual(['excuse_me', 'mixed_up', 'knocked_over', 'warm_beer']);
    expect(r.body.players).toEqual({ min: 2, max: 6 });
    expect(r.body.actionGroups[0]).toEqual({ first: 0, last: 9, kind: 'Orders' });
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toMatch(/<script type="module" src="\/app.js"><\/script>/);
    const js = await fetch(`${base}/app.js`);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
  });

  it('answers bad requests with the right status and leaves the game unchanged', async () => {
    const created = await call('POST', '/v1/games', { seats: ['remote', 'heuristic'], seed: 'bad' });
    const { id } = created.body;
    const token = created.body.tokens[0].token;
    const before = await call('GET', `/v1/games/${id}/view`, undefined, token);
    const illegal = before.body.yourTurn ? 197 : 0;
    const cases: [string, string, unknown, string | undefined, number, RegExp][] = [
      ['POST', '/v1/games', { seats: ['remote'] }, undefined, 400, /seats/],
      ['POST', '/v1/games', { seats: ['remote', 'nobody'] }, undefined, 400, /seats\[1\]: unknown bot "nobody"; this server's bots: random, greedy/],
      ['POST', '/v1/games', { seats: ['remote', 'random'], extra: 1 }, undefined, 400, /extra|Unrecognized/i],
      ['POST', '/v1/games', '{"seats": [', undefined, 400, /JSON|json|Unexpected|invalid/i],
      ['GET', '/v1/games/nope/view', undefined, token, 404, /game 'nope' is gone: .*start a new game/],
      ['GET', `/v1/games/${id}/view`, undefined, undefined, 401, /seat token is required/],
      ['GET', `/v1/games/${id}/view`, undefined, 'wrong', 403, /opens no seat/],
      ['POST', `/v1/games/${id}/actions`, { action: 'x' }, token, 400, /action/],
      ['POST', `/v1/games/${id}/actions`, { action: illegal }, token, 409, /not legal now|not yours/],
      ['GET', `/v1/games/${id}/replay`, undefined, token, 409, /once the game is over/],
      ['GET', `/v1/games/${id}/events?since=-1`, undefined, token, 400, /since/],
      ['GET', `/v1/games/${id}/view?at=-1`, undefined, token, 400, /at/],
      ['GET', `/v1/games/${id}/view?at=99999`, undefined, token, 400, /at: the game has had \d+ actions/],
      ['GET', `/v1/games/${id}/view?at=x`, undefined, token, 400, /at/],
      ['GET', `/v1/games/${id}/replay/0`, undefined, token, 409, /once the game is over/],
      ['GET', `/v1/games/${id}/replay/0`, undefined, 'wrong', 403, /opens no seat/],
      ['POST', `/v1/games/${id}/actions`, { action: 0 }, created.body.watchToken, 403, /watch token/],
    ];
    for (const [method, path, body, tok, status, message] of cases) {
      const r = await call(method, path, body, tok);
      expect(r.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status);
      expect(r.body.error).toMatch(message);
    }
    const after = await call('GET', `/v1/games/${id}/view`, undefined, token);
    expect(after.body).toEqual(before.body);
  });

  it('applies two actions posted at once one at a time: exactly one of each racing pair wins', async () => {
    // Four remote seats. Whenever a seat may end its decision (done playing, stop discarding) it
    // does, and posts that action twice at once: after the first is applied the second is no
    // longer legal, so exactly one may succeed. Otherwise it plays its first legal action.
    const created = await call('POST', '/v1/games', { seats: ['remote', 'remote', 'remote', 'remote'], seed: 'race' });
    const { id, tokens } = created.body as { id: string; tokens: { seat: number; token: string }[] };
    const intended: number[] = [];
    let races = 0;
    for (let guard = 0; guard < 5000; guard++) {
      const v = await call('GET', `/v1/games/${id}/view`, undefined, tokens[0].token);
      if (v.body.done) break;
      const t = tokens[v.body.actor].token;
      const me = await call('GET', `/v1/games/${id}/view`, undefined, t);
      const ids: number[] = me.body.legalActions.map((x: { id: number }) => x.id);
      const a = ids.find((x) => x === A_DONE || x === A_STOP_DISCARD) ?? ids[0];
      intended.push(a);
      if (a !== A_DONE && a !== A_STOP_DISCARD) {
        expect((await call('POST', `/v1/games/${id}/actions`, { action: a }, t)).status).toBe(200);
        continue;
      }
      races++;
      const results = await Promise.all([1, 2].map(() => call('POST', `/v1/games/${id}/actions`, { action: a }, t)));
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const lost = results.find((r) => r.status === 409)!;
      expect(lost.body.error).toMatch(/not legal now|not yours|over/);
    }
    expect(races).toBeGreaterThan(10);
    // The game holds exactly the actions meant, each applied once.
    const replay = await call('GET', `/v1/games/${id}/replay`, undefined, tokens[0].token);
    expect(replay.status).toBe(200);
    // The record holds the forced decisions too, taken by the server at once; the others are the ones posted.
    const local = new CzechPubEnv({ seed: replay.body.seed, players: 4, askForced: true, log: false });
    const chosen: number[] = [];
    for (const a of replay.body.actions as number[]) {
      if (local.legalActions().length > 1) chosen.push(a);
      local.step(a);
    }
    expect(chosen).toEqual(intended);
  });
});
