/**
 * `czech-pub bench api`: load on the HTTP API. The server runs in a child process (`serve
 * --rate-limit 0`, per-client game quotas raised: one load generator is every client here),
 * so the load generator does not share its event loop. Parts: autocannon against GET
 * /v1/bots (a reference doing no game work), POST /v1/bots/random/act and
 * /v1/bots/heuristic/act with a real position, many clients playing remote games (one remote
 * seat, three random bots) as fast as they can, and GET /v1/bots again while the catalogue's
 * heavy bots, at the most expensive options it allows, play many games at once. Each part
 * reports requests/s and latency percentiles.
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CzechPubEnv } from '../env/env.ts';
import { EnvObservation } from '../agents/observation.ts';
import { percentile } from '../eval/stats.ts';
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
requests/s and latency (median, p99).`,
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
  errors: number;
}

async function startServer(): Promise<{ url: string; stop: () => void }> {
  const bin = fileURLToPath(new URL('../bin/czech-pub.js', import.meta.url));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-bench-'));
  const config = path.join(dir, 'config.json');
  fs.writeFileSync(config, JSON.stringify({ limits: { maxGames: 1_000_000, maxGamesPerClient: 1_000_000, maxQueuedDecisions: 1_000_000 } }));
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--rate-limit', '0', '--config', config], { stdio: ['ignore', 'ignore', 'pipe'] });
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
  return { url, stop: () => child.kill('SIGINT') };
}

function toPart(part: string, r: autocannon.Result): Part {
  return { part, requests: r.requests.total, requestsPerSec: r.requests.average, p50Ms: r.latency.p50, p99Ms: r.latency.p99, errors: r.errors + r.non2xx };
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
  return { part: `remote games (${played} played)`, requests: lat.length, requestsPerSec: lat.length / secs, p50Ms: percentile(lat, 50), p99Ms: percentile(lat, 99), errors };
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
  const obs = new EnvObservation(env, env.currentPlayer);
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
    const loaded = await underHeavyBots(server.url, seconds, connections, Math.max(1, Math.round(connections / 5)));
    if (loaded) parts.push(loaded);
    if (values.json) io.out(JSON.stringify({ seconds, connections, node: process.version, parts }));
    else for (const line of formatTable(['part', 'requests', 'requests/s', 'median ms', 'p99 ms', 'errors'], parts.map((p) => [p.part, formatNumber(p.requests), formatNumber(p.requestsPerSec), p.p50Ms.toFixed(1), p.p99Ms.toFixed(1), String(p.errors)]))) io.out(line);
    return EXIT_OK;
  } finally {
    server.stop();
  }
}
