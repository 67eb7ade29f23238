/**
 * `czech-pub bench bridge`: decisions per second a Python user gets (python/bench.py, through
 * the bridge), with the same vector env stepped in this process as the reference: what the
 * bridge and Python cost on top of the engine.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { makeVectorEnv, parseThreads, type Threads } from '../bridge/index.ts';
import { NUM_ACTIONS, seedRng } from '../env/index.ts';
import { sampleMasked } from '../policy/index.ts';
import { warmupSeconds } from './bench-env.ts';
import { EXIT_OK, UsageError, type Io } from './io.ts';
import { helpText, parseOptions, PLAYERS_MAX, PLAYERS_MIN, type CommandSpec } from './options.ts';
import { formatNumber, formatTable } from './table.ts';

export const BENCH_BRIDGE = {
  name: 'bench bridge',
  description: `Measures, with uniformly random legal actions chosen in Python (python/bench.py):
  (a) the vector env: learner decisions per second, and all decisions the engine stepped
      (the bots' and forced moves too), N games per message on the engine threads of
      --threads, bots in the other seats;
  (b) the same with two vector envs of N/2 games on one bridge, one engine thread each,
      overlapped (step_async, step_wait): the engine steps one while Python picks the
      other's actions;
  (c) the AEC env: decisions per second, every seat's decision a round trip;
and, as the reference, the vector env of (a) stepped in this process without the bridge.
Needs a python3 with numpy.`,
  options: {
    players: { type: 'int', arg: 'N', min: PLAYERS_MIN, max: PLAYERS_MAX, default: 4, help: 'number of players' },
    'num-envs': { type: 'int', arg: 'N', min: 1, max: 65536, default: 256, help: 'games per vector-env message' },
    opponents: { type: 'string', arg: 'SPEC', default: 'random', help: 'agent spec of the vector env’s other seats' },
    seconds: { type: 'number', arg: 'T', min: 0, above: true, max: 3600, default: 5, help: 'seconds per part' },
    threads: { type: 'string', arg: 'N', default: 'auto', help: 'engine threads of each vector env: auto (up to 4, one per core) or a number' },
    python: { type: 'string', arg: 'EXE', help: 'the Python to run (default: the first of /usr/bin/python3, python3 with numpy)' },
    json: { type: 'flag', help: 'print one JSON object instead of a table' },
  },
} as const satisfies CommandSpec;

const SCRIPT = fileURLToPath(new URL('../python/bench.py', import.meta.url));

function threadsOption(text: string): Threads {
  try {
    return parseThreads(text === 'auto' ? text : /^\d+$/.test(text) ? Number(text) : text);
  } catch (e) {
    throw new UsageError(`--${(e as Error).message}`);
  }
}

function findPython(given?: string): string {
  for (const py of given ? [given] : ['/usr/bin/python3', 'python3']) {
    if (spawnSync(py, ['-c', 'import numpy'], { stdio: 'ignore' }).status === 0) return py;
  }
  throw new UsageError(given ? `--python: '${given}' cannot import numpy` : 'no python3 with numpy found (install python3-numpy, or name one with --python)');
}

/** The vector env stepped here, random legal actions: learner and engine decisions per second. */
function inProcess(players: number, numEnvs: number, opponents: string, seconds: number, threads: Threads) {
  const v = makeVectorEnv({ numEnvs, players, seed: '1', opponents }, threads);
  try {
    return stepFor(v, numEnvs, seconds);
  } finally {
    v.close();
  }
}

function stepFor(v: ReturnType<typeof makeVectorEnv>, numEnvs: number, seconds: number) {
  v.reset();
  const rng = seedRng('bench-bridge');
  const actions = new Int32Array(numEnvs);
  // Equal logits: the trainer's own masked sampler then draws uniformly among the legal actions.
  const uniform = new Float32Array(numEnvs * NUM_ACTIONS);
  const loop = (ms: number) => {
    const l0 = v.learnerDecisions;
    const e0 = v.engineDecisions;
    const t0 = performance.now();
    while (performance.now() - t0 < ms) {
      for (let i = 0; i < numEnvs; i++) actions[i] = sampleMasked(uniform, v.masks, i, NUM_ACTIONS, rng).action;
      v.step(actions);
    }
    const dt = (performance.now() - t0) / 1000;
    return { learnerDecisionsPerSec: Math.round((v.learnerDecisions - l0) / dt), engineDecisionsPerSec: Math.round((v.engineDecisions - e0) / dt), threads: v.threads };
  };
  loop(warmupSeconds(seconds) * 1000);
  return loop(seconds * 1000);
}

export function benchBridgeCommand(args: readonly string[], io: Io): number {
  const parsed = parseOptions(BENCH_BRIDGE, args);
  if (!parsed) {
    io.out(helpText(BENCH_BRIDGE));
    return EXIT_OK;
  }
  const v = parsed.values;
  const threads = threadsOption(v.threads);
  const py = findPython(v.python);
  if (!v.json) io.err(`Measuring for about ${Math.ceil(4.6 * v.seconds + 10)} s...`);
  const reference = inProcess(v.players, v.numEnvs, v.opponents, v.seconds, threads);
  const r = spawnSync(py, [SCRIPT, '--players', String(v.players), '--num-envs', String(v.numEnvs), '--opponents', v.opponents, '--seconds', String(v.seconds), '--threads', String(threads)], {
    encoding: 'utf8',
    timeout: (10 * v.seconds + 120) * 1000,
  });
  if (r.status !== 0) throw new Error(`python/bench.py failed (${r.status ?? r.signal}): ${r.stderr.trim().split('\n').pop()}`);
  const py_ = JSON.parse(r.stdout) as {
    python: string;
    numpy: string;
    vector: { learnerDecisionsPerSec: number; engineDecisionsPerSec: number; gamesPerSec: number; threads: number };
    vectorOverlapped: { learnerDecisionsPerSec: number; engineDecisionsPerSec: number; threads: number[] };
    aec: { decisionsPerSec: number; gamesPerSec: number };
  };
  const record = { players: v.players, numEnvs: v.numEnvs, opponents: v.opponents, seconds: v.seconds, vector: py_.vector, vectorOverlapped: py_.vectorOverlapped, aec: py_.aec, inProcess: reference, python: py_.python, numpy: py_.numpy, node: process.version, date: new Date().toISOString() };
  if (v.json) {
    io.out(JSON.stringify(record));
    return EXIT_OK;
  }
  io.out(`Bridge benchmark: ${v.players} players, random legal actions, ${v.seconds} s per part; Python ${py_.python}, numpy ${py_.numpy}, Node ${process.version}`);
  io.out('');
  for (const line of formatTable(
    ['path', 'learner decisions/s', 'all decisions/s'],
    [
      [`vector env, ${v.numEnvs} games per message, ${v.opponents} bots, ${py_.vector.threads} engine thread(s) (Python)`, formatNumber(py_.vector.learnerDecisionsPerSec), formatNumber(py_.vector.engineDecisionsPerSec)],
      [`two vector envs of ${Math.max(1, Math.floor(v.numEnvs / 2))} games, 1 thread each, overlapped with step_async/step_wait (Python)`, formatNumber(py_.vectorOverlapped.learnerDecisionsPerSec), formatNumber(py_.vectorOverlapped.engineDecisionsPerSec)],
      ['AEC env, every decision a round trip (Python)', formatNumber(py_.aec.decisionsPerSec), formatNumber(py_.aec.decisionsPerSec)],
      [`vector env in this process, ${reference.threads} thread(s) (reference, no bridge)`, formatNumber(reference.learnerDecisionsPerSec), formatNumber(reference.engineDecisionsPerSec)],
    ],
  ))
    io.out(line);
  return EXIT_OK;
}
