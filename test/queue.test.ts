/**
 * Tournaments through the Redis job queue give the local run's results, also when Redis
 * (without persistence) restarts mid-run and when a worker is SIGKILLed mid-run; a training
 * evaluation (a policy's weights travelling with its games) gives the local one's, and a training run
 * whose rollouts workers play gives the local run's metrics and weights.
 *
 * The file starts one redis-server on loopback and three `czech-pub worker` processes (each
 * start-up takes seconds), which its cases share, in order: the first case starts the workers
 * (it checks that a run waits for workers that are not there yet), the restart case restarts
 * the server under them, and the last case kills one of them. A case reads only the worker
 * lines written since it began, and counts only its own run's jobs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bufferIo } from '../cli/io.ts';
import { main } from '../cli/main.ts';
import { NUM_ACTIONS } from '../env/actions.ts';
import { OBS_SIZE } from '../env/observation/encode.ts';
import { initWeights } from '../policy/weights.ts';
import { GAMES_QUEUE, redisOptions } from '../queue/connection.ts';
import { queueRunner } from '../queue/games.ts';
import { queueRollouts } from '../queue/rollouts.ts';
import { queueWorkerName } from '../queue/worker.ts';
import { evaluatePolicy } from '../training/evaluate.ts';
import { TRAIN_DEFAULTS, type TrainOptions } from '../training/options.ts';
import { runTraining } from '../training/run.ts';
import { loadCheckpoint } from '../policy/checkpoint.ts';
import { redisTestsRun, startRedis, type TestRedis } from './helpers/redis.ts';
import { cliEntry } from './helpers/cli.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The CLI, bundled for child processes (test/helpers/cli.ts). */
const BIN = await cliEntry();
const GAMES = 24;
/**
 * How long a case (or a start-up) may take before it is called hung. Not a speed check: on a
 * loaded 2-core machine, with another test file beside this one, three worker start-ups and a
 * tournament take a minute or more.
 */
const CASE_MS = 180_000;
const TOURNAMENT = ['tournament', '--agents', 'ismcts:iterations=10,random,greedy,heuristic', '--players', '4', '--games', String(GAMES), '--seed', '7', '--workers', '2'];

/** What differs between two runs of the same tournament because it is a time. */
function withoutTimes(r: Record<string, any>) {
  const { elapsedSec, gamesPerSec, startedAt, finishedAt, ...rest } = r;
  return { ...rest, summary: { ...r.summary, agents: r.summary.agents.map(({ msPerDecision, ...a }: Record<string, unknown>) => a) } };
}

interface WorkerProc {
  proc: ChildProcess;
  lines: string[];
}

let tmp = '';
const children = new Set<ChildProcess>();
let r: TestRedis;
let local: Record<string, any>;
let outs = 0;
/** The workers the cases share, once started. */
let shared: WorkerProc[] = [];

function killAll() {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  children.clear();
}

/** The shared workers, started (and waited for) on first use. */
async function sharedWorkers(): Promise<WorkerProc[]> {
  if (shared.length === 0) shared = await workers(r.url);
  return shared;
}

/** The lines each worker has written so far: a case reads what comes after. */
const marks = (ws: WorkerProc[]) => ws.map((w) => w.lines.length);
const since = (w: WorkerProc, ws: WorkerProc[], at: number[]) => w.lines.slice(at[ws.indexOf(w)]);

/** The queue's completed jobs (kept an hour: every case's). */
async function completedJobs() {
  const queue = new Queue(GAMES_QUEUE, { connection: redisOptions(r.url) });
  try {
    return await queue.getJobs(['completed']);
  } finally {
    await queue.close();
  }
}

/** `n` workers, each ready (connected to the queue) before this returns. */
async function workers(url: string, n = 3): Promise<WorkerProc[]> {
  const ws = Array.from({ length: n }, () => {
    const proc = spawn(process.execPath, [BIN, 'worker', '--queue', url, '--concurrency', '1', '--lock-ms', '2000'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    children.add(proc);
    const w: WorkerProc = { proc, lines: [] };
    let partial = '';
    proc.stderr!.on('data', (d: Buffer) => {
      const parts = (partial + d.toString()).split('\n');
      partial = parts.pop()!;
      w.lines.push(...parts);
    });
    return w;
  });
  await until(() => ws.every((w) => w.lines.some((l) => l.includes('worker: taking jobs'))), CASE_MS / 2, () => `workers not ready: ${ws.map((w) => w.lines.join(' | ')).join(' || ')}`);
  return ws;
}

async function until(cond: () => boolean, ms: number, why: () => string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${why()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Runs the tournament in this process; `io.stderr` shows its progress lines while it runs. */
function tournament(extra: string[]) {
  const io = bufferIo();
  const out = join(tmp, `run-${outs++}`);
  const done = main([...TOURNAMENT, ...extra, '--out', out], io).then((code) => ({
    code,
    results: JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Record<string, any>,
  }));
  return { io, done };
}

/** Games finished so far, from the last progress line (`N/48 games, ...`). */
function gamesDone(stderr: string[]): number {
  const last = stderr.filter((l) => /^\d+\/\d+ games/.test(l)).at(-1);
  return last ? Number(last.split('/')[0]) : 0;
}

const jobLine = /job \S+: \d+ games in [\d.]+ s/;

/**
 * Stops `w` (SIGSTOP) at a moment Redis shows it holding a job, and returns that job's id; while
 * it holds none it runs on between looks. Stopped, it can neither finish the job nor take
 * another, so a kill then strands that job however fast or slow the machine is. Two looks agree
 * on it: a completion the worker wrote just before it stopped is in by the second.
 */
async function stopHolding(w: WorkerProc, done: () => boolean): Promise<string | undefined> {
  const queue = new Queue(GAMES_QUEUE, { connection: redisOptions(r.url) });
  const name = queueWorkerName(w.proc.pid);
  const held = async () => (await queue.getJobs(['active'])).find((j) => j.processedBy === name)?.id;
  try {
    while (!done()) {
      w.proc.kill('SIGSTOP');
      const id = await held();
      if (id !== undefined && (await held()) === id) return id;
      w.proc.kill('SIGCONT');
      await new Promise((res) => setTimeout(res, 20));
    }
    return undefined;
  } finally {
    await queue.close();
  }
}

describe.runIf(redisTestsRun())('tournament --queue', () => {
  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'czech-pub-queue-test-'));
    r = await startRedis();
    const io = bufferIo();
    const out = join(tmp, 'local');
    expect(await main([...TOURNAMENT, '--out', out], io)).toBe(0);
    local = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    expect(local.complete).toBe(true);
  }, CASE_MS);

  afterAll(async () => {
    killAll();
    await r?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('with no worker listening it says so and waits; workers started later play it, results as local', async () => {
    expect(shared).toEqual([]); // the first case: no worker has started yet
    const run = tournament(['--queue', r.url]);
    await until(() => run.io.stderr.some((l) => l.startsWith('no worker is taking jobs from this queue yet')), CASE_MS / 2, () => run.io.stderr.join(' | '));
    await sharedWorkers();
    const { code, results } = await run.done;
    expect(code).toBe(0);
    expect(withoutTimes(results)).toEqual(withoutTimes(local));
  }, CASE_MS);

  it('three workers give the local run\'s results but for the times', async () => {
    const ws = await sharedWorkers();
    const at = marks(ws);
    const { code, results } = await tournament(['--queue', r.url]).done;
    expect(code).toBe(0);
    expect(results.complete).toBe(true);
    expect(results.gamesPlayed).toBe(GAMES);
    expect(withoutTimes(results)).toEqual(withoutTimes(local));
    expect(ws.filter((w) => since(w, ws, at).some((l) => jobLine.test(l))).length).toBeGreaterThan(0);
  }, CASE_MS);

  it("a training evaluation played by workers, the policy's weights sent with the games, equals the local one", async () => {
    await sharedWorkers();
    const weights = initWeights({ inputs: OBS_SIZE, hidden: [32], actions: NUM_ACTIONS }, 'queue-eval');
    const local = await evaluatePolicy(weights, 'heuristic', 6, 4, 'q');
    const queued = await evaluatePolicy(weights, 'heuristic', 6, 4, 'q', undefined, queueRunner(r.url));
    expect(queued).toEqual(local);
    expect(local.games).toBe(24);
  }, CASE_MS);

  it('training with rollouts on workers equals the local run, at staleness 0 and at staleness 1', async () => {
    const ws = await sharedWorkers();
    const at = marks(ws);
    // Three iterations: the fewest that tell staleness 1 (iteration 3 plays version 1) from 0 (version 2).
    const tiny = (staleness: number): TrainOptions => ({
      ...TRAIN_DEFAULTS, seed: 3, out: mkdtempSync(join(tmp, 'train-')), hidden: [16], numEnvs: 3, rolloutSteps: 150, minibatch: 75, epochs: 2,
      totalSteps: 450, evalEvery: 2, evalDeals: 1, evalOpponents: ['random'], checkpointEvery: 1, snapshotEvery: 1, staleness,
    });
    /** A run's metrics without its times and rates, and its final weights. */
    const outcome = async (staleness: number, queued: boolean) => {
      const rollouts = queued ? await queueRollouts(r.url) : undefined;
      try {
        const t = await runTraining(tiny(staleness), queued ? { rollouts, evalRunner: queueRunner(r.url) } : {});
        const metrics = t.metrics.map(({ seconds, rolloutStepsPerSec, updateSamplesPerSec, ...m }) => m);
        return { metrics, evals: t.evals, weights: loadCheckpoint(join(t.dir, 'model.json')).weights.layers.map((l) => [...l.w]) };
      } finally {
        await rollouts?.close();
      }
    };
    const local0 = await outcome(0, false);
    const queued0 = await outcome(0, true);
    expect(local0.metrics.length).toBeGreaterThanOrEqual(3);
    expect(local0.metrics.map((m) => m.rolloutVersion)).toEqual(local0.metrics.map((m) => m.iteration - 1));
    expect(queued0).toEqual(local0);
    // The workers played the chunks, each naming the policy version it used.
    const chunkLines = ws.flatMap((w) => since(w, ws, at).filter((l) => /rollout chunk of 3 games \(policy version \d+\)/.test(l)));
    expect(chunkLines.length).toBeGreaterThanOrEqual(local0.metrics.reduce((n, m) => n + m.chunks, 0));
    const local1 = await outcome(1, false);
    const queued1 = await outcome(1, true);
    // Iteration i's games are played by version i − 2 (none older than 0): ahead of the learner.
    expect(local1.metrics.map((m) => m.rolloutVersion)).toEqual(local1.metrics.map((m) => Math.max(0, m.iteration - 2)));
    expect(queued1).toEqual(local1);
    expect(local1.metrics[2].policyLoss).not.toBe(local0.metrics[2].policyLoss);
  }, CASE_MS);

  it('Redis restarted without persistence mid-run: lost jobs are enqueued again, results as local', async () => {
    const ws = await sharedWorkers();
    const run = tournament(['--queue', r.url, '--batch', '2']);
    let settled = false;
    const done = run.done.finally(() => void (settled = true));
    await until(() => settled || gamesDone(run.io.stderr) >= GAMES / 10, CASE_MS / 2, () => 'no progress before the restart');
    expect(settled).toBe(false);
    await r.restart();
    const restarted = new Date().toISOString();
    const { code, results } = await done;
    expect(code).toBe(0);
    expect(results.complete).toBe(true);
    expect(withoutTimes(results)).toEqual(withoutTimes(local));
    // Every worker is still alive and took jobs again after the restart.
    expect(ws.every((w) => w.proc.exitCode === null)).toBe(true);
    expect(ws.some((w) => w.lines.some((l) => jobLine.test(l) && l.slice(0, 24) > restarted))).toBe(true);
  }, CASE_MS);

  it('a worker SIGKILLed mid-run: its job goes to another after --lock-ms, results as local', async () => {
    const ws = await sharedWorkers(); // the last case: it kills one
    const at = marks(ws);
    const earlier = new Set((await completedJobs()).map((j) => j.id));
    const run = tournament(['--queue', r.url, '--batch', '2']);
    let settled = false;
    const done = run.done.finally(() => void (settled = true));
    let victim: WorkerProc | undefined;
    await until(() => settled || (victim = ws.find((w) => since(w, ws, at).some((l) => jobLine.test(l)))) !== undefined, CASE_MS / 2, () => 'no worker finished a job');
    // Killed while it holds a job of this run (it takes its next as it finishes one).
    const stranded = await stopHolding(victim!, () => settled);
    const before = gamesDone(run.io.stderr);
    expect(settled).toBe(false);
    expect(stranded).toBeDefined();
    victim!.proc.kill('SIGKILL');
    const { code, results } = await done;
    expect(before).toBeLessThan(GAMES);
    expect(code).toBe(0);
    expect(results.complete).toBe(true);
    expect(withoutTimes(results)).toEqual(withoutTimes(local));
    expect(victim!.proc.signalCode).toBe('SIGKILL');
    // The job the victim held was handed on as stalled, not lost or played by nobody.
    const jobs = (await completedJobs()).filter((j) => !earlier.has(j.id));
    expect(jobs.length).toBe(GAMES / 2);
    expect(jobs.find((j) => j.id === stranded)?.stalledCounter).toBeGreaterThanOrEqual(1);
  }, CASE_MS);
});
