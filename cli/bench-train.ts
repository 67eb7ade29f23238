/**
 * `czech-pub bench train`: how fast the trainer runs with its default network, from a few
 * PPO iterations with no evaluation or files: env steps per second while collecting
 * rollouts (every seat's steps, with batched inference for the policy's), and training
 * samples per second in the update. The update is also timed with tf's own dense-layer
 * gradient, as a reference in the same run (on wasm it uses slow transposed matMuls).
 */
import { cpus } from 'node:os';
import { NUM_ACTIONS, OBS_SIZE } from '../env/index.ts';
import { train, TRAIN_DEFAULTS, TRAIN_OPTIONS, type BackendChoice, type IterationMetrics } from '../training/index.ts';
import { startBackend } from './train.ts';
import { EXIT_OK, type Io } from './io.ts';
import { helpText, parseOptions, type CommandSpec } from './options.ts';
import { formatNumber, formatTable } from './table.ts';

export const BENCH_TRAIN = {
  name: 'bench train',
  description: `Runs N PPO iterations (the first is a warm-up and not counted) with the default
network (${OBS_SIZE} → ${TRAIN_DEFAULTS.hidden.join(' → ')} → ${NUM_ACTIONS} + value), ${TRAIN_DEFAULTS.numEnvs} games side by side, ${TRAIN_DEFAULTS.rolloutSteps} learner
decisions per rollout and the default opponent pool, and prints the median rates.`,
  options: {
    iterations: { type: 'int', arg: 'N', min: 2, max: 100, default: 4, help: 'iterations to run' },
    backend: TRAIN_OPTIONS.backend,
    'no-reference': { type: 'flag', help: "skip the reference run with tf's own dense gradient" },
    json: { type: 'flag', help: 'print one JSON object' },
  },
} as const satisfies CommandSpec;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

async function measure(iterations: number, backend: BackendChoice, plainDense: boolean, log: (l: string) => void) {
  let backendName = '';
  const r = await train(
    { ...TRAIN_DEFAULTS, backend, plainDense, totalSteps: iterations * TRAIN_DEFAULTS.rolloutSteps * 10, snapshotEvery: 1 },
    {
      onBackend: (b) => (backendName = b.name),
      // The backend is reported in the result, not as a log line.
      log: (l) => {
        if (!l.startsWith('backend: ')) log(l);
      },
      shouldStop: (() => { let n = 0; return () => n++ >= iterations; })(),
    },
  );
  const counted = r.metrics.slice(1);
  return {
    backend: backendName,
    rollout: median(counted.map((m: IterationMetrics) => m.rolloutStepsPerSec)),
    update: median(counted.map((m: IterationMetrics) => m.updateSamplesPerSec)),
  };
}

export async function benchTrainCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseOptions(BENCH_TRAIN, args);
  if (!parsed) {
    io.out(helpText(BENCH_TRAIN));
    return EXIT_OK;
  }
  const values = parsed.values;
  const { iterations, backend } = values;
  await startBackend(backend);
  const log = values.json ? () => {} : (l: string) => io.err(l);
  const ours = await measure(iterations, backend, false, log);
  const ref = values.noReference ? null : await measure(iterations, backend, true, () => {});
  const rec = {
    backend: ours.backend,
    network: `${OBS_SIZE}-${TRAIN_DEFAULTS.hidden.join('-')}-${NUM_ACTIONS}+1`,
    numEnvs: TRAIN_DEFAULTS.numEnvs,
    rolloutSteps: TRAIN_DEFAULTS.rolloutSteps,
    minibatch: TRAIN_DEFAULTS.minibatch,
    iterationsCounted: iterations - 1,
    rolloutEnvStepsPerSec: Math.round(ours.rollout),
    updateSamplesPerSec: Math.round(ours.update),
    referenceUpdateSamplesPerSec: ref ? Math.round(ref.update) : null,
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    date: new Date().toISOString(),
  };
  if (values.json) {
    io.out(JSON.stringify(rec));
    return EXIT_OK;
  }
  io.out(`PPO trainer benchmark: backend ${rec.backend}, network ${rec.network}, ${rec.numEnvs} games side by side, median of ${rec.iterationsCounted} iterations`);
  io.out('');
  const rows = [
    ['rollouts: env steps/s (all seats, batched inference)', formatNumber(rec.rolloutEnvStepsPerSec)],
    ['update: samples/s (custom dense gradient)', formatNumber(rec.updateSamplesPerSec)],
  ];
  if (ref) rows.push(["update: samples/s (tf's own dense gradient, reference)", formatNumber(ref.update)]);
  for (const line of formatTable(['part', 'rate'], rows)) io.out(line);
  return EXIT_OK;
}
