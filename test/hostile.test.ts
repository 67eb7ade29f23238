/**
 * The server as a hostile client meets it: a real server in a child process (its own folder,
 * a secret in its environment) and a table of requests no client may get anything out of.
 * After each row: the status and message are the expected ones, the files a spec named are
 * unread (a named pipe blocks whoever opens it), unchanged and not joined by new ones, no
 * connection reached the listener every URL in the table points at, and the server still
 * answers GET /v1/bots (a request held up would fail at its own 20 s limit).
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CzechPubEnv } from '../env/env.ts';
import { SeatChannel } from '../env/observation/channel.ts';
import { request as send, startServe, type Answer, type RequestOptions } from './helpers/serve.ts';

const SECRET_TEXT = 'TOP-SECRET-CONTENTS-41c7';
const SECRET_ENV = 'HOSTILE_TEST_API_KEY';
const SECRET_ENV_VALUE = 'sk-never-send-this-9f2e';

let child: ChildProcess;
let base = '';
let dir = '';
let work = '';
let listener: net.Server;
let outbound = 0;
let trap = '';
/** An outside bot (the catalogue's `outside` entry): the bodies it was sent. */
let botServer: http.Server;
const botBodies: string[] = [];

/** One request, from `local` (another loopback address is another client). */
const request = async (method: string, p: string, body?: unknown, o: RequestOptions = {}): Promise<Answer> => (await send(base, method, p, body, { timeoutMs: 20_000, ...o }))!;

/** Everything in the watched folders: names, sizes, contents, modification times. */
function snapshot(): string {
  const rows: string[] = [];
  for (const d of [dir, work]) {
    for (const name of fs.readdirSync(d).sort()) {
      const f = path.join(d, name);
      const st = fs.lstatSync(f);
      rows.push(`${f} ${st.size} ${st.mtimeMs} ${st.isFile() ? fs.readFileSync(f, 'utf8') : st.isFIFO() ? 'fifo' : 'other'}`);
    }
  }
  return rows.join('\n');
}

function rssMb(): number {
  const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-hostile-'));
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-server-cwd-'));
  fs.writeFileSync(path.join(dir, 'secret.txt'), SECRET_TEXT);
  fs.writeFileSync(path.join(dir, 'profile.sh'), '# a shell start-up file\n');
  fs.mkdirSync(path.join(dir, 'folder'));
  // Opening a named pipe for reading blocks until a writer comes: a server that read it would hang.
  execFileSync('mkfifo', [path.join(dir, 'pipe')]);
  listener = net.createServer((s) => {
    outbound++;
    s.destroy();
  });
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  trap = `http://127.0.0.1:${(listener.address() as net.AddressInfo).port}`;
  botServer = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      botBodies.push(body);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ action: JSON.parse(body).legalActions.at(-1) }));
    });
  });
  await new Promise<void>((r) => botServer.listen(0, '127.0.0.1', r));
  const config = {
    bots: { outside: { agent: `http:http://127.0.0.1:${(botServer.address() as net.AddressInfo).port}/act`, description: 'a bot hosted elsewhere' } },
    limits: { maxGamesPerClient: 25, maxStreamsPerClient: 3, heartbeatMs: 300, requestTimeoutMs: 1500, idleMs: 4000, decisionMs: 5000, maxJobsPerClient: 1, maxJobGames: 20_000 },
  };
  const served = await startServe(work, config, { ...process.env, [SECRET_ENV]: SECRET_ENV_VALUE });
  child = served.child;
  base = served.base;
}, 60_000);

afterAll(async () => {
  child?.kill('SIGKILL');
  await new Promise<void>((r) => listener.close(() => r()));
  await new Promise<void>((r) => botServer.close(() => r()));
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(work, { recursive: true, force: true });
});

/** A real position with a choice to make, for the act route. */
function position() {
  const env = new CzechPubEnv({ seed: 'hostile-view', players: 4 });
  for (let i = 0; i < 9 || env.legalActions().length < 2; i++) env.step(env.legalActions()[0]);
  return { view: JSON.parse(JSON.stringify(env.view(env.actor))), legalActions: env.legalActions() };
}

type Row = [string, () => Promise<Answer>, number | number[], RegExp];

describe('a hostile client', () => {
  it('gets nothing the server holds, makes it reach nothing, and cannot stall it', async () => {
    const secret = path.join(dir, 'secret.txt');
    const pipe = path.join(dir, 'pipe');
    const { view, legalActions } = position();
    const seats = (spec: string) => request('POST', '/v1/games', { seats: ['remote', spec] });
    const tour = (spec: string, games = 4) => request('POST', '/v1/tournaments', { agents: [spec, 'random'], games });
    const act = (spec: string, body: unknown = { view, legalActions }) => request('POST', `/v1/bots/${encodeURIComponent(spec)}/act`, body);
    const notOption = /is not an option clients may set/;
    const mine = await request('POST', '/v1/games', { seats: ['remote', 'random'] });
    const asSeat = { headers: { authorization: `Bearer ${mine.body!.tokens[0].token}` } };
    const at = (q: string) => request('GET', `/v1/games/${mine.body!.id}/view?at=${q}`, undefined, asSeat);
    const unknownBot = /unknown bot ".*"; this server's bots: random, greedy, cautious, heuristic, ppo, ppo-search, ismcts/;
    const rows: Row[] = [
      // Paths where a spec or an option can carry one.
      ['seat ppo:/etc/passwd', () => seats('ppo:/etc/passwd'), 400, notOption],
      ['seat ppo:<secret file>', () => seats(`ppo:${secret}`), 400, notOption],
      ['seat ppo:<named pipe>', () => seats(`ppo:${pipe}`), 400, notOption],
      ['seat ppo:/dev/zero', () => seats('ppo:/dev/zero'), 400, notOption],
      ['seat ppo:<folder>', () => seats(`ppo:${path.join(dir, 'folder')}`), 400, notOption],
      ['tournament agent ppo:/etc/passwd', () => tour('ppo:/etc/passwd'), 400, /agents\[0\]: bot 'ppo'/],
      ['tournament agent ppo:<named pipe>', () => tour(`ppo:${pipe}`), 400, notOption],
      ['act route ppo:/dev/zero', () => act('ppo:/dev/zero'), 400, notOption],
      ['act route ppo:<secret file>:sample=true', () => act(`ppo:${secret}:sample=true`), 400, notOption],
      ['rollout option naming a checkpoint path', () => seats(`ismcts:rollout=ppo:${secret}`), 400, /option 'rollout' must be one of random, greedy, cautious, heuristic/],
      ['sample option carrying a path', () => seats(`ppo:sample=${secret}`), 400, /option 'sample' must be one of false, true/],
      // URLs and environment variables.
      ['seat llm with a base URL and any key variable', () => seats(`llm:m:baseUrl=${trap}/v1:apiKeyEnv=${SECRET_ENV}`), 400, unknownBot],
      ['tournament llm with a base URL', () => tour(`llm:m:baseUrl=${trap}/v1:apiKeyEnv=${SECRET_ENV}`), 400, unknownBot],
      ['act route llm with a base URL', () => act(`llm:m:baseUrl=${trap}/v1:apiKeyEnv=${SECRET_ENV}`), 404, unknownBot],
      ['seat llm with a transcript file', () => seats(`llm:m:transcript=${path.join(dir, 'profile.sh')}`), 400, unknownBot],
      ['seat http: at any address', () => seats(`http:${trap}/act`), 400, unknownBot],
      ['tournament http: at any address', () => tour(`http:${trap}/act:timeoutMs=60000`), 400, unknownBot],
      ['act route http: at any address', () => act(`http:${trap}/act`), 404, unknownBot],
      ['ismcts rollout naming a URL', () => seats(`ismcts:rollout=http:${trap}`), 400, /option 'rollout' must be one of/],
      // Whitespace and case.
      ['act route " llm"', () => act(' llm:m'), 404, unknownBot],
      ['act route "\\tllm"', () => act('\tllm:m'), 404, unknownBot],
      ['act route " ismcts"', () => act(' ismcts'), 404, unknownBot],
      ['seat "RANDOM"', () => seats('RANDOM'), 400, unknownBot],
      ['seat "Ismcts"', () => seats('Ismcts:iterations=10'), 400, unknownBot],
      ['seat "remote " (trailing space)', () => seats('remote '), 400, unknownBot],
      ['seat "random " (trailing space)', () => seats('random '), 400, unknownBot],
      // Budgets.
      ['seat ismcts:iterations=100000000', () => seats('ismcts:iterations=100000000'), 400, /option 'iterations' must be from 10 to 1000/],
      ['seat ismcts:timeMs=3000', () => seats('ismcts:timeMs=3000'), 400, notOption],
      ['seat ismcts:iterations=1e8', () => seats('ismcts:iterations=1e8'), 400, /must be a number from 10 to 1000/],
      ['seat ismcts:iterations=Infinity', () => seats('ismcts:iterations=Infinity'), 400, /must be a number from 10 to 1000/],
      ['seat ismcts:iterations=10.5', () => seats('ismcts:iterations=10.5'), 400, /must be a whole number from 10 to 1000/],
      ['seat ismcts:iterations=500:iterations=1000', () => seats('ismcts:iterations=500:iterations=1000'), 400, /given twice/],
      ['tournament of ismcts:iterations=100000000, 20,000 games', () => tour('ismcts:iterations=100000000', 20_000), 400, /must be from 10 to 1000/],
      ['tournament over the games limit', () => tour('random', 20_001), 400, /games/],
      ['act route ismcts (needs a game held here)', () => act('ismcts'), 400, /cannot answer a posted view/],
      // Prototype keys.
      ['seat random:__proto__=1', () => seats('random:__proto__=1'), 400, /"__proto__" is not an option clients may set \(it has none\)/],
      ['seat heuristic:constructor=x', () => seats('heuristic:constructor=x'), 400, /"constructor" is not an option/],
      ['seat ismcts:toString=1', () => seats('ismcts:toString=1'), 400, notOption],
      ['act route ppo:hasOwnProperty=1', () => act('ppo:hasOwnProperty=1'), 400, notOption],
      ['body with a __proto__ key', () => request('POST', '/v1/games', '{"seats":["remote","random"],"__proto__":{"polluted":1}}'), 400, /"__proto__".* is not allowed/],
      ['body with an escaped __proto__ key', () => request('POST', '/v1/games', '{"seats":["remote","random"],"\\u005f_proto__":{"polluted":1}}'), 400, /"__proto__".* is not allowed/],
      ['body with constructor.prototype', () => request('POST', '/v1/games', '{"seats":["remote","random"],"constructor":{"prototype":{"polluted":1}}}'), 400, /constructor|prototype|Unrecognized/i],
      ['tournament id __proto__', () => request('GET', '/v1/tournaments/__proto__'), 404, /no tournament/],
      // What the act route answers.
      ['act route with legal actions its view contradicts', () => act('heuristic', { view, legalActions: [7, 9] }), [200, 400], /contradict|"action":(7|9),/],
      ['act route view with a hand of a billion beers', () => act('heuristic', { view: { ...view, hand: { ...view.hand, beer: 1e9 } }, legalActions }), 400, /view\.hand\.beer/],
      ['act route view with a __proto__ hand key', () => act('heuristic', `{"view":${JSON.stringify(view).replace('"hand":{', '"hand":{"__proto__":{"x":1},')},"legalActions":${JSON.stringify(legalActions)}}`), 400, /proto|hand/i],
      ['act route view of 40 players', () => act('heuristic', { view: { ...view, table: Array.from({ length: 40 }, () => view.table[0]) }, legalActions }), 400, /view\.table/],
      ['act route spec of 5,000 characters', () => act(`ismcts:${'iterations=10:'.repeat(400)}`), [400, 404, 414], /./],
      // Sizes and shapes of requests.
      ['body over the size limit', () => request('POST', '/v1/games', { seats: ['remote', 'random'], seed: 'x'.repeat(100_000) }), 413, /too large/],
      ['seed over 200 characters', () => request('POST', '/v1/games', { seats: ['remote', 'random'], seed: 'x'.repeat(201) }), 400, /seed/],
      ['seven seats', () => request('POST', '/v1/games', { seats: Array(7).fill('random') }), 400, /seats/],
      ['a body that is not JSON', () => request('POST', '/v1/games', 'seats=remote', { headers: { 'content-type': 'text/plain' } }), 415, /content-type|Unsupported Media Type/i],
      ['a view asked at step 1e9', () => request('GET', '/v1/games/x/view?at=1000000000', undefined, { headers: { authorization: 'Bearer x' } }), 404, /game 'x' is gone/],
      ['a bearer token of 8 KB', () => request('GET', '/v1/games/x/view', undefined, { headers: { authorization: `Bearer ${'t'.repeat(8000)}` } }), 404, /game 'x' is gone/],
      ['the web page folder escaped', () => request('GET', '/../../../../etc/passwd'), 404, /not found/i],
      ['the web page folder escaped, encoded', () => request('GET', '/%2e%2e/%2e%2e/%2e%2e/etc/passwd'), 404, /not found/i],
      ['the docs folder escaped', () => request('GET', '/docs/static/..%2f..%2f..%2f..%2fetc%2fpasswd'), [403, 404], /./],
      // Whole numbers are decimal digits.
      ['?at=0x10', () => at('0x10'), 400, /at/],
      ['?at=1e1', () => at('1e1'), 400, /at/],
      ['?at=+5', () => at('%2B5'), 400, /at/],
      ['?at= (empty)', () => at(''), 400, /at/],
      ['/replay/0x10', () => request('GET', `/v1/games/${mine.body!.id}/replay/0x10`, undefined, asSeat), 400, /step/],
      ['?since=1e1', () => request('GET', `/v1/games/${mine.body!.id}/events?since=1e1`, undefined, asSeat), 400, /since/],
      // DNS rebinding: a page elsewhere whose name resolves here.
      ['Host: attacker.example', () => request('GET', '/v1/bots', undefined, { headers: { host: 'attacker.example' } }), 421, /"attacker\.example" is not a name this server answers to/],
      ['Host: attacker.example, creating a game of outside bots', () => request('POST', '/v1/games', { seats: ['outside', 'outside'] }, { headers: { host: 'attacker.example:80' } }), 421, /not a name this server answers to/],
      // Lobby strangers: a chosen seed would let the creator (or anyone who guesses it) know every hand.
      ['a lobby game with a chosen seed', () => request('POST', '/v1/games', { seats: ['remote', 'open'], seed: 4242 }), 400, /^seed: a game with open seats is dealt from a seed nobody chose/],
      ['a lobby game with a chosen string seed', () => request('POST', '/v1/games', { seats: ['open', 'random', 'open'], seed: 'twin' }), 400, /^seed: /],
    ];
    expect(rows.length).toBeGreaterThanOrEqual(50);
    const before = snapshot();
    for (const [name, send, status, message] of rows) {
      const r = await send();
      expect([status].flat(), `${name}: ${r.status} ${r.text.slice(0, 300)}`).toContain(r.status);
      expect(typeof r.body?.error === 'string' ? r.body.error : r.text, name).toMatch(message);
      if (r.status === 200 && name.includes('contradict')) expect([7, 9], name).toContain(r.body!.action);
      // Nothing the server holds comes back: no file contents, no environment, no paths of its own.
      expect(r.text, name).not.toContain(SECRET_TEXT);
      expect(r.text, name).not.toContain(SECRET_ENV_VALUE);
      expect(r.text, name).not.toMatch(/root:x:0:0|ENOENT|EISDIR|EACCES|models\/ppo|node_modules|\/work\//);
      expect(snapshot(), name).toBe(before);
      expect(outbound, name).toBe(0);
      const bots = await request('GET', '/v1/bots');
      expect(bots.status, name).toBe(200);
    }
    // The Host rows reached no bot.
    expect(botBodies).toEqual([]);
  }, 120_000);

  it('sends an outside bot the seat\'s view, its legal actions and an opaque game name, never a seed', async () => {
    const made = await request('POST', '/v1/games', { seats: ['remote', 'outside', 'outside'] });
    expect(made.status).toBe(201);
    const token = made.body!.tokens[0].token;
    const auth = { headers: { authorization: `Bearer ${token}` } };
    const seen: string[] = [];
    for (let guard = 0; guard < 3000; guard++) {
      const v = await request('GET', `/v1/games/${made.body!.id}/view`, undefined, auth);
      seen.push(v.text);
      if (v.body!.done) break;
      expect(v.body!.yourTurn).toBe(true);
      expect((await request('POST', `/v1/games/${made.body!.id}/actions`, { action: v.body!.legalActions[0].id }, auth)).status).toBe(200);
    }
    const replay = await request('GET', `/v1/games/${made.body!.id}/replay`, undefined, auth);
    expect(replay.status).toBe(200);
    const seed = replay.body!.seed as string;
    expect(botBodies.length).toBeGreaterThan(10);
    const games = new Set<string>();
    for (const body of botBodies) {
      const b = JSON.parse(body);
      expect(Object.keys(b).sort()).toEqual(['game', 'legalActions', 'view']);
      expect([1, 2]).toContain(b.view.seat);
      games.add(b.game);
      expect(body).not.toContain(seed);
      // Nothing of the person's hand: the bot's view holds its own seat's cards only.
      expect(b.view.table[0].known).toBeDefined();
    }
    // One opaque name per bot seat, unlike the game's seed and the agents' seeds.
    expect(games.size).toBe(2);
    for (const g of games) expect(g).not.toContain(seed.slice(0, 8));
    for (const text of seen) expect(text).not.toContain(seed);
    botBodies.length = 0;
  }, 60_000);

  it('previews a digestion from what the seat may see: the same answer with the hidden cards and the dice dealt anew', async () => {
    // A private table of two remote seats, its seed chosen, so the test can follow the game locally.
    const made = await request('POST', '/v1/games', { seats: ['remote', 'remote'], seed: 'hostile-preview' });
    expect(made.body!.seed.chosen).toBe(true);
    const tokens = made.body!.tokens.map((t: { token: string }) => t.token);
    const local = new CzechPubEnv({ seed: 'hostile-preview', players: 2 });
    // Choices are worded with the table's names, as the server calls the seats.
    const names: string[] = (await request('GET', `/v1/games/${made.body!.id}/view`, undefined, { headers: { authorization: `Bearer ${tokens[0]}` } })).body!.names;
    let previews = 0;
    while (!local.done) {
      const seat = local.actor;
      const auth = { headers: { authorization: `Bearer ${tokens[seat]}` } };
      const p = await request('GET', `/v1/games/${made.body!.id}/preview`, undefined, auth);
      expect(p.status).toBe(200);
      const redealt = new SeatChannel(local.resample(seat, `hostile/${local.actions.length}`), seat).preview(names);
      expect(p.body!.now).toEqual(redealt?.now ?? null);
      expect(p.body!.actions).toEqual(redealt?.actions ?? []);
      if (p.body!.now) previews++;
      const action = local.legalActions()[local.actions.length % local.legalActions().length];
      expect((await request('POST', `/v1/games/${made.body!.id}/actions`, { action }, auth)).status).toBe(200);
      local.step(action);
    }
    expect(previews).toBeGreaterThan(5);
  }, 60_000);

  it('cannot slow other clients down with the most expensive bots the catalogue allows', async () => {
    // One client (127.0.0.7) plays the remote seat of a game of the costliest bots; while each
    // of its moves is out (the bots decide before it is answered), another (127.0.0.1) asks
    // GET /v1/bots, one request after another. A search in the server's own thread would hold
    // a GET until the search ended: at most one GET answered per bot decision, and one more.
    // The server answers many while one search runs (how long they take: czech-pub bench api).
    const heavy = ['ismcts:iterations=1000', 'ismcts:iterations=1000:rollout=cautious'];
    const made = await request('POST', '/v1/games', { seats: ['remote', ...heavy], seed: 'heavy' }, { local: '127.0.0.7' });
    expect(made.status).toBe(201);
    const id = made.body!.id as string;
    const mover = { local: '127.0.0.7', headers: { authorization: `Bearer ${made.body!.tokens[0].token}` } };
    // A refused ask (a 429 of the per-client rate, on a loaded machine) is asked again after a pause; any other answer is the view.
    const view = async () => {
      for (let k = 0; ; k++) {
        const r = await request('GET', `/v1/games/${id}/view`, undefined, mover);
        if (r.status === 429 && k < 100) {
          await new Promise((done) => setTimeout(done, 200));
          continue;
        }
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        return r.body!;
      }
    };
    // The seat's view once it is its turn again: a move's answer can come while the bots still
    // play (they pause when no request waits on them; asking for the view starts them again).
    const myTurn = async (seen: Record<string, any>) => {
      // 3000 looks (over 150 s): a bound on a hang, which no busy machine's bots come near.
      for (let k = 0; !seen.done && seen.legalActions.length === 0; k++) {
        if (k >= 3000) throw new Error('the bots did not come back to the remote seat');
        await new Promise((r) => setTimeout(r, 50));
        seen = await view();
      }
      return seen;
    };
    // The game as the seat's record tells it (the seed was chosen): which of the bots' steps were searches, not forced passes the engine took.
    const local = new CzechPubEnv({ seed: 'heavy', players: 3, askForced: true });
    const searches = async (to: number): Promise<number> => {
      let n = 0;
      while (local.actions.length < to) {
        const h = await request('GET', `/v1/games/${id}/history?from=${local.actions.length + 1}&limit=${to - local.actions.length}`, undefined, mover);
        expect(h.status).toBe(200);
        for (const e of h.body!.entries as { lastAction: { id: number } }[]) {
          if (local.actor !== 0 && local.legalActions().length > 1) n++;
          local.step(e.lastAction.id);
        }
      }
      return n;
    };
    let v = await myTurn(await view());
    await searches(v.steps);
    let decisions = 0;
    let answered = 0;
    let mostIfHeld = 0;
    while (!v.done && decisions < 6) {
      let out = true;
      // Answered once the bots have played to the seat's turn: several searches of up to
      // decisionMs each (5 s) on a busy machine, so not held to the 20 s of other requests.
      const move = request('POST', `/v1/games/${id}/actions`, { action: v.legalActions[0].id }, { ...mover, timeoutMs: 180_000 }).finally(() => void (out = false));
      let gets = 0;
      while (out) {
        expect((await request('GET', '/v1/bots')).status).toBe(200);
        gets++;
      }
      const moved = await move;
      expect(moved.status).toBe(200);
      const bots = await searches(moved.body!.steps);
      if (bots > 0) {
        decisions += bots;
        answered += gets;
        mostIfHeld += bots + 1;
      }
      v = await myTurn(moved.body!);
    }
    expect(decisions).toBeGreaterThan(0);
    expect(answered).toBeGreaterThan(3 * mostIfHeld);
  }, 300_000);

  it('cannot grow the server by spelling one model path many ways', async () => {
    await request('POST', '/v1/bots/ppo/act', position()); // the shipped model, loaded once
    const start = rssMb();
    for (let i = 0; i < 300; i++) {
      const spelling = `ppo:/proc/self/cwd/${'./'.repeat(i % 50)}models/${'/'.repeat(i % 7)}ppo-4p.json`;
      const r = await request('POST', '/v1/games', { seats: ['remote', spelling] });
      expect(r.status).toBe(400);
    }
    expect(rssMb() - start).toBeLessThan(60);
  }, 60_000);

  it('draws a seed nobody can guess when none is given', async () => {
    const r = await request('POST', '/v1/games', { seats: ['random', 'random'] });
    expect(r.status).toBe(201);
    const replay = await request('GET', `/v1/games/${r.body!.id}/replay`, undefined, { headers: { authorization: `Bearer ${r.body!.watchToken}` } });
    expect(replay.body!.seed).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(replay.body!.seed).not.toMatch(/^\d+$/);
    expect(r.text).not.toContain(replay.body!.seed);
    expect(r.body!.seed).toEqual({ commitment: replay.body!.seedCommitment, chosen: false });
  });

  it('limits live games per client: one client at its quota does not lock out another', async () => {
    let refused: Answer | null = null;
    for (let i = 0; i < 40 && !refused; i++) {
      const r = await request('POST', '/v1/games', { seats: ['remote', 'random'] }, { local: '127.0.0.3' });
      if (r.status === 429) refused = r;
      else expect(r.status).toBe(201);
    }
    expect(refused?.body?.error).toMatch(/you have 25 games in progress, the most one client may have/);
    const other = await request('POST', '/v1/games', { seats: ['remote', 'random'] }, { local: '127.0.0.4' });
    expect(other.status).toBe(201);
  });

  it('limits tournaments per client, and DELETE stops one with its finished games kept', async () => {
    const first = await request('POST', '/v1/tournaments', { agents: ['heuristic', 'heuristic'], games: 20_000, seed: 1 }, { local: '127.0.0.5' });
    expect(first.status).toBe(202);
    const second = await request('POST', '/v1/tournaments', { agents: ['random', 'random'], games: 10 }, { local: '127.0.0.5' });
    expect(second.status).toBe(429);
    expect(second.body!.error).toMatch(/you have 1 tournament\(s\) running/);
    await new Promise((r) => setTimeout(r, 1500));
    const stopped = await request('DELETE', `/v1/tournaments/${first.body!.id}`);
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ status: 'cancelled', agents: ['heuristic', 'heuristic'] });
    expect(stopped.body!.summary.games).toBe(stopped.body!.done);
    expect(stopped.body!.summary.complete).toBe(false);
    // Its place is free again; a finished job is dropped by a second DELETE.
    const third = await request('POST', '/v1/tournaments', { agents: ['random', 'random'], games: 4 }, { local: '127.0.0.5' });
    expect(third.status).toBe(202);
    expect((await request('DELETE', `/v1/tournaments/${first.body!.id}`)).status).toBe(200);
    expect((await request('GET', `/v1/tournaments/${first.body!.id}`)).status).toBe(404);
  }, 60_000);

  it('cuts off a body sent a byte at a time, and a connection that never sends a request', async () => {
    const port = Number(new URL(base).port);
    // The server closes each (this side never does: a server that did not would fail the test at its timeout).
    const closed = (send: (s: net.Socket) => void) => new Promise<string>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      let reply = '';
      s.on('data', (d) => (reply += d));
      s.on('close', () => resolve(reply));
      s.on('error', () => undefined);
      send(s);
    });
    let dripped = 0;
    const slow = await closed((s) => {
      s.write('POST /v1/games HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n');
      const drip = setInterval(() => (s.destroyed ? clearInterval(drip) : (s.write('{'), dripped++)), 400);
      s.on('close', () => clearInterval(drip));
    });
    // Cut off before the body was whole.
    expect(dripped).toBeLessThan(100);
    expect(slow).toMatch(/^HTTP\/1\.1 408|^$/);
    expect(await closed(() => undefined)).toMatch(/^HTTP\/1\.1 408|^$/);
  }, 30_000);

  it('limits event streams per client, keeps them alive with heartbeats, and closes them when their game expires', async () => {
    const g = await request('POST', '/v1/games', { seats: ['remote', 'random'] }, { local: '127.0.0.6' });
    const token = g.body!.tokens[0].token;
    const open = () => new Promise<{ status: number; res: http.IncomingMessage; text: () => string; ended: Promise<void> }>((resolve, reject) => {
      const req = http.request(`${base}/v1/games/${g.body!.id}/stream`, { localAddress: '127.0.0.6', agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        const ended = new Promise<void>((r) => res.on('close', () => r()));
        resolve({ status: res.statusCode ?? 0, res, text: () => text, ended });
      });
      req.on('error', reject);
      req.end();
    });
    const streams = [await open(), await open(), await open()];
    expect(streams.map((s) => s.status)).toEqual([200, 200, 200]);
    const fourth = await open();
    expect(fourth.status).toBe(429);
    // Nobody asks about the game: it expires (4 s idle) and its streams end with `gone`
    // (a stream left open would fail the test at its timeout), kept alive until then by a
    // heartbeat every 300 ms: the server's timers, in order however busy the machine is.
    await streams[0].ended;
    expect(streams[0].text()).toMatch(/: keep-alive\n\n[\s\S]*event: gone\n/);
  }, 30_000);
});
