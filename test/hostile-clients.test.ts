/**
 * One client against the others, as a hostile tester tried it: a real server in a child
 * process (a secret in its environment), each client its own loopback address (the server
 * keys clients by address). Each row: the trouble-maker's statuses, nothing secret in any
 * answer, and the other clients unaffected.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as send, startServe, type Answer, type RequestOptions } from './helpers/serve.ts';

const SECRET_ENV = 'HOSTILE_CLIENTS_API_KEY';
const SECRET = 'sk-never-send-this-77c1';
const LIMITS = { maxGames: 300, maxGamesPerClient: 25, decisionMs: 2000, botIdleMs: 1000, maxOpenGamesPerClient: 5, maxJoinedSeatsPerClient: 10 };

let child: ChildProcess;
let base = '';
let work = '';
const answers: string[] = [];

type Got = Answer & { body: Record<string, any> };

/** One request from `local` (default 127.0.0.1); `abandon` gives up on it (closing the connection) after that many ms, or once that promise settles. */
async function request(method: string, p: string, body?: unknown, o: RequestOptions = {}): Promise<Got | null> {
  const a = await send(base, method, p, body, { local: '127.0.0.1', ...o });
  if (!a) return null;
  answers.push(a.text);
  return { ...a, body: a.body ?? {} };
}
const must = async (a: Promise<Got | null>) => (await a)!;

/**
 * Of `n` looks at the server's threads (Linux's /proc, every 50 ms), how many found one of
 * them running or ready to run: a thread that plays or serves is; an idle server's all sleep.
 */
async function busyLooks(n: number): Promise<number> {
  let busy = 0;
  for (let i = 0; i < n; i++) {
    const states = fs.readdirSync(`/proc/${child.pid}/task`).map((t) => {
      try {
        return fs.readFileSync(`/proc/${child.pid}/task/${t}/stat`, 'utf8').split(') ')[1][0];
      } catch {
        return 'gone';
      }
    });
    if (states.includes('R')) busy++;
    await new Promise((r) => setTimeout(r, 50));
  }
  return busy;
}

/**
 * A victim's moves against an ismcts seat: `moves` of them, or a whole game; the moves made,
 * how many were answered while `during()` held, and the game's id and watch token.
 */
async function victimGame(local: string, moves = Infinity, during = () => false): Promise<{ moves: number; answeredDuring: number; id: string; watch: string; done: boolean }> {
  const g = await must(request('POST', '/v1/games', { seats: ['remote', 'ismcts'] }, { local }));
  expect(g.status).toBe(201);
  const token = g.body.tokens[0].token;
  let v = (await must(request('GET', `/v1/games/${g.body.id}/view`, undefined, { local, token }))).body;
  let made = 0;
  let answeredDuring = 0;
  while (!v.done && made < moves) {
    // Answered once the bot has played to the seat's turn: decisions of up to decisionMs each,
    // and their waits for turns, which a busy machine makes longer than 30 s of a request.
    const r = await must(request('POST', `/v1/games/${g.body.id}/actions`, { action: v.legalActions[0].id }, { local, token, timeoutMs: 180_000 }));
    expect(r.status).toBe(200);
    if (during()) answeredDuring++;
    made++;
    v = r.body;
  }
  return { moves: made, answeredDuring, id: g.body.id, watch: g.body.watchToken, done: v.done };
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-clients-'));
  const served = await startServe(work, { limits: LIMITS }, { ...process.env, [SECRET_ENV]: SECRET });
  child = served.child;
  base = served.base;
}, 60_000);

afterAll(() => {
  child?.kill('SIGKILL');
  fs.rmSync(work, { recursive: true, force: true });
  // Nothing the server holds came back in any answer.
  for (const text of answers) expect(text).not.toMatch(new RegExp(`${SECRET}|node_modules|/work/|ENOENT`));
});

describe('one client against the others', () => {
  it('abandoned games of the heaviest bots stop playing, and another client\'s moves against ismcts stay within a decision budget', async () => {
    await victimGame('127.0.0.11', 3); // the bot worker started: its start-up would count against a decision's budget
    const heavy = Array(6).fill('ismcts:iterations=1000:rollout=heuristic');
    // The flood's client leaves (its creates given up on) once the server's threads were looked
    // at and the victim's first move was answered: by events, not after a time, so the flood
    // plays through both on any machine. A victim starved by the flood gets no answer while it
    // is in flight, which a bound far beyond any machine's time ends.
    let looked!: () => void;
    let answered!: () => void;
    const leave = Promise.race([
      Promise.all([new Promise<void>((r) => (looked = r)), new Promise<void>((r) => (answered = r))]),
      new Promise((r) => setTimeout(r, 60_000).unref()),
    ]);
    let flooding = true;
    const flood = Promise.all(Array.from({ length: 20 }, (_, i) => request('POST', '/v1/games', { seats: heavy, seed: `gone/${i}` }, { local: '127.0.0.10', abandon: leave })));
    void flood.then(() => void (flooding = false));
    await new Promise((r) => setTimeout(r, 300));
    // While the flood plays, the victim plays a whole game: its moves are answered while the
    // flood's creates are in flight. A decision of its bot waits for at most one turn of each
    // client (the pool's turns: server/bot-pool.test.ts, test/fair-shares.test.ts) and its
    // budget starts when it does; one still searching at the end of its budget (a machine too
    // busy for the search to stop in time) is stopped, the seat plays its first legal action,
    // and the game records a budget fault. Nothing else goes wrong. (The moves' latencies:
    // czech-pub bench api's fairness part.)
    const during = () => {
      const was = flooding;
      answered();
      return was;
    };
    const [busy, victim] = await Promise.all([busyLooks(10).finally(looked), victimGame('127.0.0.11', Infinity, during)]);
    expect(victim.done).toBe(true);
    expect(victim.answeredDuring).toBeGreaterThan(0);
    const replay = await must(request('GET', `/v1/games/${victim.id}/replay`, undefined, { local: '127.0.0.11', token: victim.watch }));
    for (const f of replay.body.faults) expect(f.reason).toBe('over the 2000 ms decision limit');
    expect((await flood).every((r) => r === null)).toBe(true); // given up on: the client is gone
    // botIdleMs after the client left, its games' bots stop: every thread of the server sleeps,
    // where while the flood played one was running at almost every look. On a loaded machine
    // a decision under way may outrun its budget before its thread sleeps, so the server is
    // given up to 30 s more to fall quiet: far less than the flood's games would play on
    // for (six ismcts seats of up to 2 s a decision each), were they not stopped.
    expect(busy).toBeGreaterThanOrEqual(8);
    await new Promise((r) => setTimeout(r, LIMITS.botIdleMs + LIMITS.decisionMs));
    const quietBy = Date.now() + 30_000;
    let quiet = await busyLooks(20);
    while (quiet > 1 && Date.now() < quietBy) quiet = await busyLooks(20);
    expect(quiet).toBeLessThanOrEqual(1);
  }, 400_000);

  it('16 creates of six ppo seats in flight do not hold up another client\'s GET /v1/bots', async () => {
    // The ppo seats play in the server's own thread, a slice at a time. Were a game played in
    // one go, each GET would wait for a whole game: at most one GET answered per game the flood
    // finished, and one more. Between slices the server answers many.
    let running = true;
    let finished = 0;
    const flood = Array.from({ length: 16 }, async (_, k) => {
      for (let n = 0; running; n++) {
        const r = await request('POST', '/v1/games', { seats: Array(6).fill('ppo'), seed: `ppo/${k}/${n}` }, { local: '127.0.0.12', abandon: running ? 60_000 : 1 });
        if (r) expect(r.status).toBe(201);
        if (r && running) finished++;
      }
    });
    await new Promise((r) => setTimeout(r, 1000)); // every create in flight has a game being played by now
    const before = finished;
    let answered = 0;
    for (let i = 0; i < 60; i++) {
      expect((await must(request('GET', '/v1/bots'))).status).toBe(200);
      answered++;
    }
    const during = finished - before;
    running = false;
    void flood; // the games in flight stop botIdleMs after their client leaves, or end
    expect(answered).toBeGreaterThan(3 * (during + 1));
  }, 300_000); // a count of answers against games finished: the timeout only bounds a hang

  it("many creates of games that finish at once never push out another client's finished game and its replay", async () => {
    const theirs = await must(request('POST', '/v1/games', { seats: ['random', 'random'] }, { local: '127.0.0.14' }));
    expect(theirs.status).toBe(201);
    for (let i = 0; i < LIMITS.maxGames + 50; i += 10) {
      const batch = await Promise.all(Array.from({ length: 10 }, (_, k) => must(request('POST', '/v1/games', { seats: ['random', 'random'], seed: `churn/${i + k}` }, { local: '127.0.0.13' }))));
      for (const r of batch) expect(r.status).toBe(201);
    }
    const replay = await must(request('GET', `/v1/games/${theirs.body.id}/replay`, undefined, { local: '127.0.0.14', token: theirs.body.watchToken }));
    expect(replay.status).toBe(200);
    expect((await must(request('GET', `/v1/games/${theirs.body.id}/replay/1`, undefined, { local: '127.0.0.14', token: theirs.body.watchToken }))).status).toBe(200);
  }, 60_000);

  it('one client cannot fill the lobby or take every open seat', async () => {
    const open = (local: string) => must(request('POST', '/v1/games', { seats: ['open', 'random', 'open'] }, { local }));
    for (const local of ['127.0.0.16', '127.0.0.17']) {
      for (let i = 0; i < LIMITS.maxOpenGamesPerClient; i++) expect((await open(local)).status).toBe(201);
      const refused = await open(local);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatch(/you have 5 games with open seats in the lobby, the most one client may have \(maxOpenGamesPerClient\)/);
    }
    expect((await open('127.0.0.18')).status).toBe(201);
    let joined = 0;
    let refusal: Got | null = null;
    for (const g of (await must(request('GET', '/v1/games'))).body.games) {
      for (let seat = 0; seat < 2 && !refusal; seat++) {
        const r = await must(request('POST', `/v1/games/${g.id}/join`, {}, { local: '127.0.0.19' }));
        if (r.status === 429) refusal = r;
        else {
          expect(r.status).toBe(200);
          joined++;
        }
      }
    }
    expect(joined).toBe(LIMITS.maxJoinedSeatsPerClient);
    expect(refusal?.body.error).toMatch(/you hold 10 seats joined from the lobby in games in progress, the most one client may \(maxJoinedSeatsPerClient\)/);
    // Others still find open seats, and may take one.
    const lobby = (await must(request('GET', '/v1/games', undefined, { local: '127.0.0.20' }))).body.games;
    expect(lobby.length).toBeGreaterThan(0);
    expect((await must(request('POST', `/v1/games/${lobby[0].id}/join`, {}, { local: '127.0.0.20' }))).status).toBe(200);
  }, 30_000);

  it('an event stream opened at its last event sends its status line and headers at once, not at the first heartbeat', async () => {
    const g = await must(request('POST', '/v1/games', { seats: ['remote', 'random'] }, { local: '127.0.0.21' }));
    const token = g.body.tokens[0].token;
    const next = (await must(request('GET', `/v1/games/${g.body.id}/events`, undefined, { local: '127.0.0.21', token }))).body.next;
    const { status, early } = await new Promise<{ status: number; early: unknown }>((resolve, reject) => {
      const req = http.request(`${base}/v1/games/${g.body.id}/stream?since=${next}`, { localAddress: '127.0.0.21', agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
        resolve({ status: res.statusCode ?? 0, early: res.read() });
        res.destroy();
      });
      req.on('error', reject);
      req.setTimeout(20_000, () => req.destroy(new Error('no status line in 20 s')));
      req.end();
    });
    expect(status).toBe(200);
    // The status line came before anything was written (the heartbeat is 15 s away, the default): sent on its own.
    expect(early).toBeNull();
  });
});
