/**
 * `czech-pub bench queue`: tournament throughput through the Redis job queue against the local
 * worker-thread pool, in the same run: `random`×4 and `heuristic`×4, each played locally on W
 * threads and then through the queue by W worker processes of one thread each (same seed, same
 * games). Then training (bench-rollouts.ts): how a rollout chunk is best sent to the learner,
 * and default PPO with rollouts played here against through the queue. It starts its own Redis
 * on a free loopback port unless --queue names one, and stops everything it started.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { runTournament } from '../eval/index.ts';
import { rolloutTransfer, trainingThroughput, type TrainingFigures } from './bench-rollouts.ts';
import { startBackend } from './train.ts';
import { EXIT_OK, UsageError, type Io } from './io.ts';
import { helpText, parseOptions, type CommandSpec } from './options.ts';
import { loadQueue } from './queue-option.ts';
import { formatNumber, formatTable } from './table.ts';

export const BENCH_QUEUE = {
  name: 'bench queue',
  description: `Plays random×4 and heuristic×4 tournaments twice each: on W local worker threads,
then through a Redis job queue by W local 'czech-pub worker' processes (one thread each), and
prints games/s of both and their ratio. Then training: the bytes and learner time per decision
of a rollout sent as actions (replayed by the learner) against as observation rows, and default
PPO iterations with rollouts played locally against by the queue's workers (staleness 0 and 1).
Needs redis-server, or a Redis named by --queue.`,
  options: {
    workers: { type: 'int', arg: 'W', min: 1, max: 64, default: 2, help: 'local threads, and queue worker processes' },
    'random-games': { type: 'int', arg: 'G', min: 8, max: 10_000_000, default: 40_000, help: 'games of the random×4 tournament' },
    'heuristic-games': { type: 'int', arg: 'G', min: 8, max: 10_000_000, default: 8_000, help: 'games of the heuristic×4 tournament' },
    'train-iterations': { type: 'int', arg: 'N', min: 0, max: 100, default: 4, help: 'PPO iterations per training run, the first not counted (0: no training runs)' },
    queue: { type: 'string', arg: 'URL', help: 'use this Redis (its queue must be otherwise idle) instead of starting one' },
    json: { type: 'flag', help: 'print one JSON object' },
  },
} as const satisfies CommandSpec;

const BIN = fileURLToPath(new URL('../bin/czech-pub.js', import.meta.url));

/** Starts a worker process and resolves once it takes jobs. */
function startWorker(url: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'worker', '--queue', url, '--concurrency', '1'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let text = '';
    const onData = (d: Buffer) => {
      text += d.toString();
      if (text.includes('taking jobs')) {
        child.stderr!.off('data', onData);
        child.stderr!.resume();
        resolve(child);
      }
    };
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`queue worker exited (${code}): ${text.trim().split('\n').pop() ?? ''}`)));
  });
}

export async function benchQueueCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseOptions(BENCH_QUEUE, args);
  if (!parsed) {
    io.out(helpText(BENCH_QUEUE));
    return EXIT_OK;
  }
  const v = parsed.values;
  const q = v.queue !== undefined ? await loadQueue(v.queue) : await import('../queue/index.ts');
  if (v.queue === undefined && !q.redisServerAvailable()) {
    throw new UsageError('no redis-server here (apt-get install redis-server), and no --queue URL given');
  }
  const log = v.json ? () => {} : (l: string) => io.err(l);
  const redis = v.queue === undefined ? await q.startLocalRedis() : null;
  const url = v.queue ?? redis!.url;
  const workers: ChildProcess[] = [];
  const sets = [
    { name: 'random×4', agents: ['random', 'random', 'random', 'random'], games: v.randomGames },
    { name: 'heuristic×4', agents: ['heuristic', 'heuristic', 'heuristic', 'heuristic'], games: v.heuristicGames },
  ];
  const rows: { set: string; games: number; localGamesPerSec: number; queueGamesPerSec: number; ratio: number }[] = [];
  log('training: rollout chunks sent both ways…');
  await startBackend('auto');
  const transfer = rolloutTransfer(16);
  const training: TrainingFigures[] = [];
  try {
    for (let i = 0; i < v.workers; i++) workers.push(await startWorker(url));
    for (const set of sets) {
      const base = { agents: set.agents, games: set.games, seed: 'bench-queue' };
      log(`${set.name}: ${set.games} games on ${v.workers} local threads…`);
      const local = await runTournament({ ...base, workers: v.workers });
      log(`${set.name}: the same through the queue on ${v.workers} worker processes…`);
      const queued = await runTournament({ ...base, workers: v.workers, runner: q.queueRunner(url) });
      if (!local.complete || !queued.complete) throw new Error(`${set.name}: a tournament did not complete`);
      rows.push({
        set: set.name,
        games: local.gamesPlayed,
        localGamesPerSec: Math.round(local.gamesPerSec * 10) / 10,
        queueGamesPerSec: Math.round(queued.gamesPerSec * 10) / 10,
        ratio: Math.round((queued.gamesPerSec / local.gamesPerSec) * 1000) / 1000,
      });
    }
    if (v.trainIterations >= 2) {
      log(`training: ${v.trainIterations} default PPO iterations with rollouts played here…`);
      training.push(await trainingThroughput('local', v.trainIterations, 0));
      for (const staleness of [0, 1]) {
        log(`training: the same with rollouts on the ${v.workers} queue workers, staleness ${staleness}…`);
        const source = await q.queueRollouts(url);
        try {
          training.push(await trainingThroughput('queue', v.trainIterations, staleness, source));
        } finally {
          await source.close();
        }
      }
    }
  } finally {
    await Promise.all(workers.map((w) => q.stopProcess(w, 10_000)));
    await redis?.stop();
  }
  const rec = { workers: v.workers, sets: rows, transfer, training, node: process.version, cpu: cpus()[0]?.model ?? 'unknown', date: new Date().toISOString() };
  if (v.json) {
    io.out(JSON.stringify(rec));
    return EXIT_OK;
  }
  io.out(`Tournament throughput, ${v.workers} local threads vs ${v.workers} queue worker processes (same games, same seed):`);
  io.out('');
  const table = rows.map((r) => [
    r.set, formatNumber(r.games), formatNumber(r.localGamesPerSec, 1), formatNumber(r.queueGamesPerSec, 1), `${(r.ratio * 100).toFixed(1)}%`,
  ]);
  for (const line of formatTable(['agents', 'games', 'local games/s', 'queue games/s', 'queue / local'], table)) io.out(line);
  io.out('');
  io.out(`Rollouts sent to the learner (${transfer.chunks} chunks of the default setup, ${formatNumber(transfer.decisions)} learner decisions):`);
  io.out('');
  const transferRows = [
    ['actions, log-probabilities, values (replayed)', formatNumber(transfer.compactBytesPerDecision, 1), formatNumber(transfer.compactUsPerDecision, 2)],
    ['observation rows', formatNumber(transfer.fullBytesPerDecision), formatNumber(transfer.fullUsPerDecision, 2)],
  ];
  for (const line of formatTable(['sent as', 'bytes / decision', 'learner µs / decision'], transferRows)) io.out(line);
  if (training.length > 0) {
    io.out('');
    io.out(`Default PPO, learner decisions per second (${training[0].iterationsCounted} iterations after a warm-up):`);
    io.out('');
    const trainRows = training.map((t) => [t.where === 'local' ? 'rollouts in the learner' : `rollouts on ${v.workers} queue workers`, String(t.staleness), formatNumber(t.decisionsPerSec)]);
    for (const line of formatTable(['where', 'staleness', 'decisions/s'], trainRows)) io.out(line);
  }
  return EXIT_OK;
}
