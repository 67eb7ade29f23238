/**
 * How long a restarted server takes to answer, with a full state dir: `czech-pub serve
 * --state-dir` in a child process, started on (1) an empty dir, (2) 1,000 finished games of
 * six `ppo` seats, (3) the same 1,000 files as servers before the "end" mark wrote them
 * (every one restored in the background, as a game in progress is). For each: the time from
 * the spawn to the first answered request (GET /healthz, sent every 10 ms from the spawn on;
 * target under 2 s with 1,000 finished games), to the first replay of a finished game
 * (restored when asked for), and, for (3), to the line saying the background restore ended.
 *
 *   node --import tsx scripts/bench-restart.ts [games, default 1000]
 *
 * The games are one real six-ppo game played to its end here, copied under 1,000 ids: each
 * file is a whole finished game, and restoring one costs what restoring any of them does.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer } from '../server/index.ts';

const GAMES = Number(process.argv[2] ?? 1000);
const BIN = fileURLToPath(new URL('../bin/czech-pub.js', import.meta.url));
const TARGET_MS = 2000;

/** A free loopback port (the server is told it, so requests can be sent before it listens). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One finished six-ppo game's files on a fresh dir: its id, watch token and the file's lines. */
async function oneGame(): Promise<{ lines: string[]; watch: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-bench-restart-'));
  const app = await buildServer({ rateLimit: 0, stateDir: dir, notice: () => {} });
  const made = (await app.inject({ method: 'POST', url: '/v1/games', payload: { seats: Array(6).fill('ppo'), seed: 'bench-restart' } })).json() as { id: string; watchToken: string };
  const replay = await app.inject({ url: `/v1/games/${made.id}/replay`, headers: { authorization: `Bearer ${made.watchToken}` } });
  if (replay.statusCode !== 200) throw new Error(`the six-ppo game did not finish: ${replay.body}`);
  await app.close();
  const lines = fs.readFileSync(path.join(dir, `${made.id}.jsonl`), 'utf8').split('\n').slice(0, -1);
  fs.rmSync(dir, { recursive: true, force: true });
  return { lines, watch: made.watchToken };
}

/** `n` copies of a game's lines under their own ids; `ended`: with the "end" mark on the last action (as servers now write it). */
function fill(dir: string, lines: string[], n: number, ended: boolean): string[] {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = `b${String(i).padStart(11, '0')}`;
    const head = JSON.stringify({ ...JSON.parse(lines[0]), id });
    const last = JSON.parse(lines[lines.length - 1]) as Record<string, unknown>;
    if (!ended) delete last.end;
    fs.writeFileSync(path.join(dir, `${id}.jsonl`), [head, ...lines.slice(1, -1), JSON.stringify(last)].map((l) => `${l}\n`).join(''), { mode: 0o600 });
    ids.push(id);
  }
  return ids;
}

interface Start {
  firstAnswerMs: number;
  replayMs: number | null;
  restoredMs: number | null;
}

/** Starts serve on `dir`, asks /healthz until answered, then one finished game's replay; stops it. */
async function start(dir: string, replayOf: { id: string; watch: string } | null, waitRestored: boolean): Promise<Start> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port), '--rate-limit', '0', '--state-dir', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  let restoredMs: number | null = null;
  const restored = new Promise<void>((resolve) => {
    child.stderr.on('data', (d: Buffer) => {
      err += d;
      if (restoredMs === null && /restored \d+ of \d+ games in progress/.test(err)) {
        restoredMs = performance.now() - t0;
        resolve();
      }
    });
  });
  try {
    let firstAnswerMs = 0;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited: ${err}`);
      const ok = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
      if (ok) {
        firstAnswerMs = performance.now() - t0;
        break;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    let replayMs: number | null = null;
    if (replayOf) {
      const r = await fetch(`${base}/v1/games/${replayOf.id}/replay`, { headers: { authorization: `Bearer ${replayOf.watch}` } });
      if (r.status !== 200) throw new Error(`the replay of ${replayOf.id}: ${r.status} ${await r.text()}`);
      replayMs = performance.now() - t0;
    }
    if (waitRestored) await restored;
    return { firstAnswerMs, replayMs, restoredMs: waitRestored ? restoredMs : null };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

const game = await oneGame();
const rows: [string, Start][] = [];
const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-bench-restart-'));
rows.push(['empty state dir', await start(empty, null, false)]);
const ended = fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-bench-restart-'));
const endedIds = fill(ended, game.lines, GAMES, true);
rows.push([`${GAMES} finished six-ppo games`, await start(ended, { id: endedIds[GAMES >> 1], watch: game.watch }, false)]);
const unmarked = fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-bench-restart-'));
const unmarkedIds = fill(unmarked, game.lines, GAMES, false);
rows.push([`${GAMES} such games without the end mark`, await start(unmarked, { id: unmarkedIds[GAMES - 1], watch: game.watch }, true)]);
for (const d of [empty, ended, unmarked]) fs.rmSync(d, { recursive: true, force: true });

const ms = (x: number | null) => (x === null ? '-' : `${Math.round(x)} ms`);
console.log(`node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}); one six-ppo game of ${game.lines.length - 1} records, copied`);
console.log(`${'state dir'.padEnd(42)}${'first answer'.padStart(14)}${'a replay'.padStart(12)}${'all restored'.padStart(15)}`);
for (const [what, r] of rows) console.log(`${what.padEnd(42)}${ms(r.firstAnswerMs).padStart(14)}${ms(r.replayMs).padStart(12)}${ms(r.restoredMs).padStart(15)}`);
const finished = rows[1][1].firstAnswerMs;
console.log(`${finished < TARGET_MS ? 'pass' : 'FAIL'}  first answer with ${GAMES} finished games < ${TARGET_MS} ms: ${Math.round(finished)} ms`);
