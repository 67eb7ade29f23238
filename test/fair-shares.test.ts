/**
 * Fair shares of the whole server, measured from outside: a server listening on 127.0.0.1,
 * twenty clients, each its own loopback address (the server keys clients by address), nineteen
 * of them filling what the server shares while the twentieth asks for its part. Each part
 * asserts on orders and counts, not on how long anything took, so a busy machine changes
 * nothing: the heavy bots are a counting worker (helpers/counting-worker.ts) whose every
 * decision is a fixed piece of work, and the outside servers are fakes counting what they get.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BroadcastChannel } from 'node:worker_threads';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer, type ServerOptions } from '../server/app.ts';
import { COUNTING_CHANNEL, HOLD_MS, type CountedDecision } from './helpers/counting.ts';
import { request as send, type Answer, type RequestOptions } from './helpers/serve.ts';

const FLOODERS = Array.from({ length: 19 }, (_, i) => `127.0.0.${10 + i}`);
const NEWCOMER = '127.0.0.40';

const started: { close: () => Promise<unknown> }[] = [];
afterEach(async () => {
  for (const s of started.splice(0).reverse()) await s.close();
});

/** A server of this process listening on 127.0.0.1, stopped after the test. */
async function serve(o: ServerOptions): Promise<string> {
  const app: FastifyInstance = await buildServer({ rateLimit: 0, ...o });
  await app.listen({ port: 0, host: '127.0.0.1' });
  started.push(app);
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

type Got = Answer & { body: Record<string, any> };
let base = '';
const answers: string[] = [];
async function request(method: string, p: string, body: unknown, o: RequestOptions): Promise<Got | null> {
  const a = await send(base, method, p, body, o);
  if (!a) return null;
  answers.push(a.text);
  return { ...a, body: a.body ?? {} };
}
const must = async (a: Promise<Got | null>) => (await a)!;

describe('fair shares: heavy bots', () => {
  it("keeps a client's decisions within their budget while nineteen others flood heavy bots", async () => {
    const decisionMs = 2000;
    base = await serve({ decisionMs, botIdleMs: 60_000, maxGamesPerClient: 4, botWorker: new URL('./helpers/counting-worker.ts', import.meta.url) });
    const ran: CountedDecision[] = [];
    const channel = new BroadcastChannel(COUNTING_CHANNEL);
    channel.onmessage = (e) => ran.push((e as { data: CountedDecision }).data);
    started.push({ close: async () => channel.close() });
    const gameOf = (d: CountedDecision) => d.key.split('/')[0];
    // Four games of six searches from each of nineteen addresses, held open until the newcomer's
    // game is over (however long a busy machine takes): their bots play on.
    let over!: () => void;
    const newcomerDone = new Promise<void>((r) => (over = r));
    started.push({ close: async () => over() });
    const heavy = Array(6).fill('ismcts:iterations=1000:rollout=heuristic');
    for (const local of FLOODERS) for (let k = 0; k < 4; k++) void request('POST', '/v1/games', { seats: heavy }, { local, abandon: newcomerDone });
    while (new Set(ran.map(gameOf)).size < FLOODERS.length * 4) await new Promise((r) => setTimeout(r, 20));
    // The newcomer plays a whole game against a search.
    const g = await must(request('POST', '/v1/games', { seats: ['remote', 'ismcts'] }, { local: NEWCOMER }));
    expect(g.status).toBe(201);
    const { id, watchToken } = g.body;
    const token = g.body.tokens[0].token;
    const from = ran.length;
    let v = (await must(request('GET', `/v1/games/${id}/view`, undefined, { local: NEWCOMER, token }))).body;
    while (!v.done) {
      const r = await must(request('POST', `/v1/games/${id}/actions`, { action: v.legalActions[0].id }, { local: NEWCOMER, token }));
      expect(r.status).toBe(200);
      v = r.body;
    }
    over();
    // Every decision of its bot was made within its budget: none waited one out, none was stopped at one.
    const replay = await must(request('GET', `/v1/games/${id}/replay`, undefined, { local: NEWCOMER, token: watchToken }));
    expect(replay.body.faults).toEqual([]);
    const mine = ran.filter((d) => gameOf(d) === id);
    expect(mine.length).toBeGreaterThan(10);
    // The flood played throughout: every one of its 76 games had decisions run while the newcomer played.
    expect(new Set(ran.slice(from).filter((d) => gameOf(d) !== id).map(gameOf)).size).toBe(FLOODERS.length * 4);
    // Between its asking and its start, a decision waited at most for the turn in progress and
    // one turn of each other client, the turns sharing about one decisionMs: what ran ahead of
    // it though asked after it (higher ids) is at most two budgets of work, counted in the work
    // each was told to do, not in time.
    for (const d of mine) {
      const ahead = ran.slice(0, ran.indexOf(d)).filter((x) => x.id > d.id);
      expect(ahead.reduce((ms, x) => ms + Math.min(x.told, HOLD_MS), 0), `decision ${d.id}`).toBeLessThanOrEqual(2 * decisionMs);
    }
  }, 300_000);
});

/** Waits until `done()` holds (a stream's close reaches this side), failing after 60 s: that bounds a hang, not a busy machine. */
async function until(done: () => boolean): Promise<void> {
  for (const by = Date.now() + 60_000; !done(); await new Promise((r) => setTimeout(r, 10))) if (Date.now() > by) throw new Error('not within 60 s');
}

/** An event stream as its client sees it: its status, what it was sent, whether it is still open. */
interface Stream {
  status: number;
  text: () => string;
  open: () => boolean;
  close: () => void;
}

/** Opens an event stream from `local`; resolves once the headers are in, and collects what it is sent until it closes. */
function stream(id: string, token: string, local: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    let text = '';
    let open = true;
    const req = http.request(`${base}/v1/games/${id}/stream`, { localAddress: local, agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('close', () => void (open = false));
      resolve({ status: res.statusCode ?? 0, text: () => text, open: () => open, close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
    started.push({ close: async () => req.destroy() });
  });
}

describe('fair shares: stored games, the lobby and event streams', () => {
  it('lets a newcomer create, join and stream while nineteen clients fill the store, the lobby and the streams', async () => {
    // botIdleMs: a game made or asked about this recently is in use, never dropped to make room.
    // It is counted on the server's clock, which stands still until the test moves it: none of
    // the flood's games goes idle before the flood is done, however long a busy machine takes.
    const limits = { maxGames: 60, maxGamesPerClient: 5, maxOpenGames: 20, maxOpenGamesPerClient: 2, maxJoinedSeatsPerClient: 3, maxStreams: 30, maxStreamsPerClient: 3, botIdleMs: 30_000 };
    const clock = { t: Date.now() };
    base = await serve({ ...limits, now: () => clock.t });
    const create = (local: string, seats: string[]) => must(request('POST', '/v1/games', { seats }, { local }));
    // Each flooder: two games waiting in the lobby, then games left in progress until it is refused.
    const floods: { local: string; id: string; token: string }[] = [];
    const refusals: Got[] = [];
    let made = 0;
    for (const local of FLOODERS) {
      for (let k = 0; k < 2; k++) {
        const r = await create(local, ['open', 'random', 'open']);
        if (r.status === 201) made++;
        else refusals.push(r);
      }
      for (;;) {
        const r = await create(local, ['remote', 'random']);
        if (r.status !== 201) {
          expect(r.status).toBe(429);
          refusals.push(r);
          break;
        }
        made++;
        floods.push({ local, id: r.body.id, token: r.body.tokens[0].token });
      }
    }
    // A game is dropped here only to make room for another: with more made than the store holds, it is full.
    expect(made).toBeGreaterThanOrEqual(limits.maxGames);
    // And each opens its three streams, on its own seats, while places last.
    const flooderStreams: (Stream & { local: string })[] = [];
    for (const f of floods) {
      const mineOpen = flooderStreams.filter((s) => s.local === f.local).length;
      if (mineOpen >= limits.maxStreamsPerClient) continue;
      const s = await stream(f.id, f.token, f.local);
      if (s.status === 200) flooderStreams.push({ ...s, local: f.local });
    }
    // Later flooders took places from earlier ones holding more (each closed saying why): thirty stay open.
    const open = () => flooderStreams.filter((s) => s.open());
    await until(() => open().length === limits.maxStreams);
    const closedBefore = flooderStreams.length - open().length;
    expect(closedBefore).toBeGreaterThan(0);
    for (const s of flooderStreams.filter((x) => !x.open())) expect(s.text()).toMatch(/event: closed\ndata: .*another client's stream/);
    // The store and the lobby are full, every stream place taken.
    expect((await must(request('GET', '/v1/games', undefined, { local: NEWCOMER }))).body.games).toHaveLength(limits.maxOpenGames);
    // Past botIdleMs (the server's clock moved past it) the flood's games are idle (those with a seat's stream open stay in use).
    clock.t += limits.botIdleMs + 100;
    const mine = await create(NEWCOMER, ['remote', 'random']);
    expect(mine.status).toBe(201);
    const table = await create(NEWCOMER, ['open', 'random', 'open']);
    expect(table.status).toBe(201);
    // It joins a table from the lobby, and streams its seat there and at its own game.
    const lobby = (await must(request('GET', '/v1/games', undefined, { local: NEWCOMER }))).body.games;
    const theirs = lobby.find((g: { id: string }) => g.id !== table.body.id);
    const joined = await must(request('POST', `/v1/games/${theirs.id}/join`, {}, { local: NEWCOMER }));
    expect(joined.status).toBe(200);
    const streams = [await stream(mine.body.id, mine.body.tokens[0].token, NEWCOMER), await stream(theirs.id, joined.body.token, NEWCOMER)];
    expect(streams.map((s) => s.status)).toEqual([200, 200]);
    // Their places came from clients holding more streams: two more flood streams were closed.
    await until(() => flooderStreams.length - open().length === closedBefore + 2);
    expect(streams.every((s) => s.open())).toBe(true);
    // The flood goes on creating games that finish at once: a client holding one finished game
    // keeps it and its replay, room being made from those holding more.
    const reader = '127.0.0.41';
    const kept = await create(reader, ['random', 'random']);
    expect(kept.status).toBe(201);
    for (let round = 0; round < 2; round++) for (const local of FLOODERS) await create(local, ['random', 'random']);
    expect((await must(request('GET', `/v1/games/${kept.body.id}/replay`, undefined, { local: reader, token: kept.body.watchToken }))).status).toBe(200);
    // No refusal named another client or game.
    for (const r of refusals) expect(r.text).not.toMatch(/127\.0\.0\.|game '/);
    for (const s of flooderStreams) s.close();
    for (const s of streams) s.close();
  }, 180_000);
});

/** A fake outside server on 127.0.0.1 counting what it is sent: an http bot playing the first legal action, and a model answering garbage. */
async function outside(): Promise<{ base: string; calls: Map<string, number>; total: () => number }> {
  const calls = new Map<string, number>();
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      calls.set(req.url!, (calls.get(req.url!) ?? 0) + 1);
      const reply = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.url!.endsWith('/chat/completions')) {
        reply({ id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'no idea' } }] });
      } else {
        reply({ action: (JSON.parse(text) as { legalActions: number[] }).legalActions[0] });
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  started.push({ close: () => new Promise((r) => server.close(r)) });
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls, total: () => [...calls.values()].reduce((a, b) => a + b, 0) };
}

describe('fair shares: outside calls', () => {
  it('keeps calls to bots and models elsewhere under the server-wide and per-host rates, one client alone held to half', async () => {
    const [near, far] = [await outside(), await outside()];
    const limits = { outsideCallsPerMinute: 40, outsideCallsPerHostMinute: 30 };
    // The windows count calls on the server's clock, which stands still: every call below is within one minute, however busy the machine.
    const clock = { t: Date.now() };
    const key = 'FAIR_SHARES_TEST_KEY';
    process.env[key] = 'sk-test';
    started.push({ close: async () => delete process.env[key] });
    base = await serve({
      ...limits,
      now: () => clock.t,
      config: {
        bots: {
          a: { agent: `http:${near.base}/a:timeoutMs=60000` },
          b: { agent: `http:${near.base}/b:timeoutMs=60000` },
          chatty: { agent: `llm:m:baseUrl=${near.base}/v1:apiKeyEnv=${key}:maxRetries=0:timeoutMs=60000` },
          c: { agent: `http:${far.base}/c:timeoutMs=60000` },
        },
      },
    });
    const seats = ['a', 'b', 'chatty', 'c', 'a', 'c'];
    // One client alone: half of each shared window, 20 of the server's 40, 15 at most to either host.
    const first = await must(request('POST', '/v1/games', { seats }, { local: FLOODERS[0] }));
    expect(first.status).toBe(201);
    expect(near.total() + far.total()).toBe(limits.outsideCallsPerMinute / 2);
    expect(near.total()).toBeLessThanOrEqual(limits.outsideCallsPerHostMinute / 2);
    expect(far.total()).toBeLessThanOrEqual(limits.outsideCallsPerHostMinute / 2);
    const replay = await must(request('GET', `/v1/games/${first.body.id}/replay`, undefined, { local: FLOODERS[0], token: first.body.watchToken }));
    expect(replay.body.faults.some((f: { reason: string }) => /^bot '(a|b|chatty|c)' reached its share of the server's (40 calls a minute to servers elsewhere|30 calls a minute to its host)$/.test(f.reason))).toBe(true);
    // Nineteen more at once, within the same minute: never past either rate.
    const before = near.total() + far.total();
    const rest = await Promise.all([...FLOODERS.slice(1), NEWCOMER].map((local) => must(request('POST', '/v1/games', { seats }, { local }))));
    expect(rest.every((r) => r.status === 201)).toBe(true);
    expect(near.total()).toBeLessThanOrEqual(limits.outsideCallsPerHostMinute);
    expect(far.total()).toBeLessThanOrEqual(limits.outsideCallsPerHostMinute);
    expect(near.total() + far.total()).toBeLessThanOrEqual(limits.outsideCallsPerMinute);
    // With one client holding half, the next may hold a third and so on: the other half went to them, and no more.
    expect(near.total() + far.total() - before).toBe(limits.outsideCallsPerMinute / 2);
    // No refusal told a client the other servers' addresses.
    for (const text of answers) expect(text).not.toContain('127.0.0.1:');
  }, 300_000);
});
