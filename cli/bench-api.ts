/**
 * `czech-pub bench api`: load on the HTTP API. The server runs in a child process (`serve
 * --rate-limit 0`, per-client game quotas raised: one load generator is every client here),
 * so the load generator does not share its event loop. Parts: autocannon against GET
 * /v1/bots (a reference doing no game work), POST /v1/bots/random/act and
 * /v1/bots/heuristic/act with a real position, many clients playing remote games (one remote
 * seat, three random bots) as fast as they can, and GET /v1/bots again while the catalogue's
 * heavy bots, at the most expensive options it allows, play many games at once. Each part
 * reports requests/s and latency percentiles.
 *
 * Two parts measure one client's effect on another (each client its own loopback address,
 * as the server keys clients by address): a victim playing a remote seat against an `ismcts`
 * seat, alone and then while another client floods the bot workers with the heaviest
 * catalogue bots (target: move p99 within the solo p99 plus one decision budget, which the
 * bench shortens to BENCH_DECISION_MS), and then the server's CPU use once that client has
 * left (its games' bots stop: target under 0.3 cores); and GET /v1/bots while another client
 * keeps 16 creates of six `ppo` seats in flight (target: p99 under 50 ms).
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CzechPubEnv } from '../env/index.ts';
import { EnvObservation } from '../agents/index.ts';
import { percentile } from '../eval/index.ts';
import { EXIT_OK, type Io } from './io.ts';
import { helpText, parseOptions, type CommandSpec } from './options.ts';
import { formatNumber, formatTable } from './table.ts';

export const BENCH_API = {
  name: 'bench api',
  description: `Starts the API in a child process and measures, for T seconds each with C connections:
GET /v1/bots (the reference), POST /v1/bots/random/act, POST /v1/bots/heuristic/act,
clients playing remote games (GET view, POST action, until the game ends), and GET /v1/bots
while C/5 clients keep games of the heaviest catalogue bots (at their most expensive allowed
options) playing. Each autocannon part follows 2 s of load that is not counted. Reports
requests/s and latency (median, p99, max). Two parts with another client making trouble (each
client its own loopback address): a victim's moves against an ismcts seat, alone and while
the other floods the bot workers with the heaviest bots (the server's decision budget is
shortened to 1000 ms for this), then the server's CPU use once the other has left; GET
/v1/bots while the other keeps 16 creates of six ppo seats in flight. Each target is
reported with pass or fail.`,
  options: {
    seconds: { type: 'int', arg: 'T', min: 1, max: 3600, default: 10, help: 'seconds per part' },
    connections: { type: 'int', arg: 'C', min: 1, max: 10_000, default: 50, help: 'connections (and remote-game clients)' },
    json: { type: 'flag', help: 'print one JSON object' },
  },
} as const satisfies CommandSpec;

interface Part {
  part: string;
  requests: number;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: number;
}

async function startServer(): Promise<{ url: string; pid: number; stop: () => void }> {
  const bin = fileURLToPath(new URL('../bin/czech-pub.js', import.meta.url));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-bench-'));
  const config = path.join(dir, 'config.json');
  fs.writeFileSync(config, JSON.stringify({
    limits: { maxGames: 1_000_000, maxGamesPerClient: 1_000_000, maxQueuedDecisions: 1_000_000, decisionMs: BENCH_DECISION_MS, botIdleMs: BENCH_BOT_IDLE_MS },
  }));
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--rate-limit', '0', '--no-state', '--config', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const url = await new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`the server exited (${code}): ${err}`)));
  });
  return { url, pid: child.pid!, stop: () => child.kill('SIGINT') };
}

/**
 * The server's decision budget here (the default is 10 s): short, so that a flood of the
 * heaviest bots is felt within a part of a few seconds. Said in the output.
 */
export const BENCH_DECISION_MS = 1000;
/** Bots of games whose client left stop this soon (the flood's games, aborted at the end of their part). */
const BENCH_BOT_IDLE_MS = 1000;

function toPart(part: string, r: autocannon.Result): Part {
  return { part, requests: r.requests.total, requestsPerSec: r.requests.average, p50Ms: r.latency.p50, p99Ms: r.latency.p99, maxMs: r.latency.max, errors: r.errors + r.non2xx };
}

/** Seconds of load sent before each autocannon part and not counted: the route's code is compiled by then. */
const WARM_UP_SECONDS = 2;

/** autocannon for `seconds`, after a warm-up that is not counted. */
async function measure(label: string, o: autocannon.Options, seconds: number): Promise<Part> {
  await autocannon({ ...o, duration: WARM_UP_SECONDS });
  return toPart(label, await autocannon({ ...o, duration: seconds }));
}

function cannon(url: string, path: string, body: string, seconds: number, connections: number, label: string): Promise<Part> {
  return measure(label, { url: url + path, method: 'POST', headers: { 'content-type': 'application/json' }, body, connections }, seconds);
}

async function games(url: string, seconds: number, clients: number): Promise<Part> {
  const lat: number[] = [];
  let errors = 0;
  let played = 0;
  const end = performance.now() + seconds * 1000;
  const timed = async (path: string, init?: RequestInit) => {
    const t0 = performance.now();
    const res = await fetch(url + path, init);
    const body = await res.json();
    lat.push(performance.now() - t0);
    if (!res.ok) errors++;
    return body as Record<string, any>;
  };
  const client = async (k: number) => {
    let n = 0;
    while (performance.now() < end) {
      const g = await timed('/v1/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seats: ['remote', 'random', 'random', 'random'], seed: `load/${k}/${n++}` }) });
      const auth = { authorization: `Bearer ${g.tokens[0].token}` };
      for (let v = await timed(`/v1/games/${g.id}/view`, { headers: auth }); !v.done && performance.now() < end; ) {
        v = await timed(`/v1/games/${g.id}/actions`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ action: v.legalActions[0].id }) });
      }
      played++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: clients }, (_, k) => client(k)));
  const secs = (performance.now() - t0) / 1000;
  return { part: `remote games (${played} played)`, requests: lat.length, requestsPerSec: lat.length / secs, p50Ms: percentile(lat, 50), p99Ms: percentile(lat, 99), maxMs: Math.max(...lat), errors };
}

interface ListedBot {
  name: string;
  heavy: boolean;
  options: Record<string, { min: number; max: number } | { values: unknown[] }>;
}

/** Each heavy catalogue bot with every ranged option at its maximum (the costliest a client may ask for). */
export function costliestSpecs(bots: ListedBot[]): string[] {
  return bots.filter((b) => b.heavy).map((b) => b.name + Object.entries(b.options).flatMap(([k, o]) => ('max' in o ? [`:${k}=${o.max}`] : [])).join(''));
}

/**
 * GET /v1/bots measured while `clients` clients each keep a game of four heavy bots being
 * played (creating the next as soon as one ends): the bots' searches must not reach the
 * event loop that answers everyone else.
 */
async function underHeavyBots(url: string, seconds: number, connections: number, clients: number): Promise<Part | null> {
  const heavy = costliestSpecs(((await (await fetch(`${url}/v1/bots`)).json()) as { bots: ListedBot[] }).bots);
  if (heavy.length === 0) return null;
  let running = true;
  let started = 0;
  const client = async (k: number) => {
    for (let n = 0; running; n++) {
      started++;
      const seats = Array.from({ length: 4 }, (_, i) => heavy[(k + i) % heavy.length]);
      await fetch(`${url}/v1/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seats, seed: `heavy/${k}/${n}` }) }).catch(() => undefined);
    }
  };
  const loops = Array.from({ length: clients }, (_, k) => client(k));
  await new Promise((r) => setTimeout(r, 1000)); // the bot workers are busy by now
  const r = await autocannon({ url: `${url}/v1/bots`, duration: seconds, connections });
  running = false;
  void loops; // games in play end with the server
  return toPart(`GET /v1/bots while ${clients} clients play games of ${heavy.join(', ')}`, r);
}

interface Answer {
  status: number;
  body: Record<string, any>;
  ms: number;
}

/**
 * One client: requests from its own loopback source address (the server keys clients by
 * address), on kept-alive connections. `abort` ends every request in flight.
 */
function loopbackClient(url: string, localAddress: string) {
  const agent = new http.Agent({ keepAlive: true });
  const live = new Set<http.ClientRequest>();
  const send = (method: string, path: string, body?: unknown, token?: string) => new Promise<Answer>((resolve, reject) => {
    const t0 = performance.now();
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(url + path, {
      method, agent, localAddress,
      headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        live.delete(req);
        let parsed: Record<string, any> = {};
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = {};
        }
        resolve({ status: res.statusCode ?? 0, body: parsed, ms: performance.now() - t0 });
      });
    });
    live.add(req);
    req.on('error', (e) => {
      live.delete(req);
      reject(e);
    });
    req.end(payload);
  });
  return {
    send,
    abort: () => {
      for (const r of live) r.destroy();
      agent.destroy();
    },
  };
}

/** Keeps `inFlight` creates of `seats` going from `client` until stopped; its games end when it aborts (botIdleMs). */
function keepCreating(client: ReturnType<typeof loopbackClient>, seats: () => string[], inFlight: number) {
  let running = true;
  let created = 0;
  const loop = async (k: number) => {
    for (let n = 0; running; n++) {
      const r = await client.send('POST', '/v1/games', { seats: seats(), seed: `flood/${k}/${n}` }).catch(() => null);
      if (r?.status === 201) created++;
    }
  };
  const loops = Array.from({ length: inFlight }, (_, k) => loop(k));
  return {
    get created() {
      return created;
    },
    stop: async () => {
      running = false;
      client.abort();
      await Promise.allSettled(loops);
      // The server's bots of the aborted games stop botIdleMs after their client left.
      await new Promise((r) => setTimeout(r, BENCH_BOT_IDLE_MS + 500));
    },
  };
}

/** A victim's moves (POST actions: the ismcts seat decides before the answer) for `seconds`; latencies in ms. */
async function victimMoves(url: string, seconds: number, localAddress: string): Promise<{ moves: number[]; faults: number }> {
  const me = loopbackClient(url, localAddress);
  const moves: number[] = [];
  let faults = 0;
  const end = performance.now() + seconds * 1000;
  try {
    for (let g = 0; performance.now() < end; g++) {
      const made = await me.send('POST', '/v1/games', { seats: ['remote', 'ismcts'], seed: `victim/${localAddress}/${g}` });
      if (made.status !== 201) throw new Error(`the victim's game was refused: ${made.status} ${JSON.stringify(made.body)}`);
      const token: string = made.body.tokens[0].token;
      let v = (await me.send('GET', `/v1/games/${made.body.id}/view`, undefined, token)).body;
      while (!v.done && performance.now() < end) {
        const r = await me.send('POST', `/v1/games/${made.body.id}/actions`, { action: v.legalActions[0].id }, token);
        moves.push(r.ms);
        v = r.body;
      }
      if (v.done) faults += ((await me.send('GET', `/v1/games/${made.body.id}/replay`, undefined, token)).body.faults ?? []).length;
    }
  } finally {
    me.abort();
  }
  return { moves, faults };
}

/** The server's CPU use (all its threads) over `ms`, in cores; null where /proc does not tell (not Linux). */
async function serverCores(pid: number, ms: number): Promise<number | null> {
  const ticks = () => {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(f[11]) + Number(f[12]); // utime + stime, in clock ticks (1/100 s)
  };
  try {
    const a = ticks();
    await new Promise((r) => setTimeout(r, ms));
    return (ticks() - a) / 100 / (ms / 1000);
  } catch {
    return null;
  }
}

/** Most of a core an idle server may use once a flood's client has left and its bots stopped. */
const IDLE_CORES = 0.3;

export interface Target {
  what: string;
  value: number;
  limit: number;
  pass: boolean;
}

/**
 * The victim's move latency against an ismcts seat alone, then while another client keeps
 * games of the heaviest bots (every seat) in flight: p99 ≤ solo p99 + one decision budget.
 * Then the server's CPU use once that client has left and its games' bots have stopped.
 */
async function fairness(url: string, pid: number, seconds: number, heavy: string[]) {
  await victimMoves(url, 1, '127.0.0.2'); // not counted: the bot worker starts, the search's code is compiled
  const solo = await victimMoves(url, seconds, '127.0.0.2');
  const flooder = keepCreating(loopbackClient(url, '127.0.0.3'), () => Array.from({ length: 6 }, (_, i) => heavy[i % heavy.length]), 8);
  await new Promise((r) => setTimeout(r, 1000)); // the bot workers are busy by now
  const flooded = await victimMoves(url, seconds, '127.0.0.4');
  const floodGames = flooder.created;
  await flooder.stop();
  const idleCores = await serverCores(pid, 1500);
  const soloP99 = percentile(solo.moves, 99);
  const p99 = percentile(flooded.moves, 99);
  return {
    part: `victim's moves vs ismcts while another client floods the workers with ${heavy.join(', ')} (8 creates of 6 seats in flight)`,
    decisionMs: BENCH_DECISION_MS,
    decisionMsNote: `the server's decision budget is shortened to ${BENCH_DECISION_MS} ms for this bench (default 10,000)`,
    soloMoves: solo.moves.length, soloP50Ms: percentile(solo.moves, 50), soloP99Ms: soloP99,
    moves: flooded.moves.length, p50Ms: percentile(flooded.moves, 50), p99Ms: p99,
    victimFaults: flooded.faults, floodGamesFinished: floodGames, idleCores,
    target: { what: 'flooded move p99 ≤ solo p99 + one decision budget (ms)', value: p99, limit: soloP99 + BENCH_DECISION_MS, pass: p99 <= soloP99 + BENCH_DECISION_MS } satisfies Target,
    idleTarget: idleCores === null ? null : { what: "server CPU once the flood's client left, its bots stopped (cores)", value: idleCores, limit: IDLE_CORES, pass: idleCores < IDLE_CORES } satisfies Target,
  };
}

/** GET /v1/bots (autocannon, from 127.0.0.1) while another client keeps 16 creates of six ppo seats in flight. */
async function underPpoCreates(url: string, seconds: number, connections: number): Promise<{ part: Part; target: Target }> {
  const flooder = keepCreating(loopbackClient(url, '127.0.0.5'), () => Array(6).fill('ppo'), 16);
  await new Promise((r) => setTimeout(r, 1000));
  const r = await autocannon({ url: `${url}/v1/bots`, duration: seconds, connections });
  const games = flooder.created;
  await flooder.stop();
  const part = toPart(`GET /v1/bots while another client keeps 16 creates of six ppo in flight (${games} games made)`, r);
  return { part, target: { what: 'GET /v1/bots p99 under the ppo creates < 50 ms', value: part.p99Ms, limit: 50, pass: part.p99Ms < 50 } };
}

export async function benchApiCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseOptions(BENCH_API, args);
  if (!parsed) {
    io.out(helpText(BENCH_API));
    return EXIT_OK;
  }
  const values = parsed.values;
  const { seconds, connections } = values;
  const env = new CzechPubEnv({ seed: 'bench-api', players: 4 });
  for (let i = 0; i < 9; i++) env.step(env.legalActions()[0]);
  const obs = new EnvObservation(env, env.actor);
  const body = JSON.stringify({ view: obs.view, legalActions: obs.legalActions });
  const server = await startServer();
  try {
    if (!values.json) io.err(`Server at ${server.url}; ${seconds} s per part, ${connections} connections.`);
    const parts = [
      // The same server and machine answering a request that does no game work: the ceiling here.
      await measure('GET /v1/bots (reference)', { url: `${server.url}/v1/bots`, connections }, seconds),
      await cannon(server.url, '/v1/bots/random/act', body, seconds, connections, 'POST /v1/bots/random/act'),
      await cannon(server.url, '/v1/bots/heuristic/act', body, seconds, connections, 'POST /v1/bots/heuristic/act'),
      await games(server.url, seconds, connections),
    ];
    const heavy = costliestSpecs(((await (await fetch(`${server.url}/v1/bots`)).json()) as { bots: ListedBot[] }).bots);
    const fair = heavy.length > 0 ? await fairness(server.url, server.pid, seconds, heavy) : null;
    const ppo = await underPpoCreates(server.url, seconds, connections);
    parts.push(ppo.part);
    const loaded = await underHeavyBots(server.url, seconds, connections, Math.max(1, Math.round(connections / 5)));
    if (loaded) parts.push(loaded);
    const targets: Target[] = [...(fair ? [fair.target] : []), ...(fair?.idleTarget ? [fair.idleTarget] : []), ppo.target];
    if (loaded) targets.push({ what: 'GET /v1/bots p99 while clients play the heaviest bots < 50 ms', value: loaded.p99Ms, limit: 50, pass: loaded.p99Ms < 50 });
    const act = parts.find((p) => p.part === 'POST /v1/bots/random/act')!;
    targets.push({ what: 'POST /v1/bots/random/act p99 < 20 ms', value: act.p99Ms, limit: 20, pass: act.p99Ms < 20 });
    if (values.json) io.out(JSON.stringify({ seconds, connections, node: process.version, parts, fairness: fair, targets }));
    else {
      for (const line of formatTable(['part', 'requests', 'requests/s', 'median ms', 'p99 ms', 'max ms', 'errors'], parts.map((p) => [p.part, formatNumber(p.requests), formatNumber(p.requestsPerSec), p.p50Ms.toFixed(1), p.p99Ms.toFixed(1), p.maxMs.toFixed(1), String(p.errors)]))) io.out(line);
      if (fair) {
        io.out('');
        io.out(`${fair.part}: ${fair.decisionMsNote}`);
        io.out(`  alone: ${fair.soloMoves} moves, median ${fair.soloP50Ms.toFixed(1)} ms, p99 ${fair.soloP99Ms.toFixed(1)} ms; flooded: ${fair.moves} moves, median ${fair.p50Ms.toFixed(1)} ms, p99 ${fair.p99Ms.toFixed(1)} ms, ${fair.victimFaults} faults in the victim's finished games`);
        if (fair.idleCores !== null) io.out(`  once the flood's client left and its bots stopped: the server used ${fair.idleCores.toFixed(2)} cores`);
      }
      io.out('');
      for (const t of targets) io.out(`${t.pass ? 'pass' : 'FAIL'}  ${t.what}: ${t.value.toFixed(1)} (limit ${t.limit.toFixed(1)})`);
    }
    return EXIT_OK;
  } finally {
    server.stop();
  }
}
