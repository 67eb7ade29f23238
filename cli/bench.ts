/**
 * `czech-pub bench <target>`: how fast things run. `env` (bench-env.ts): the environment's
 * steps, a readable table or one JSON object; `policy` (bench-policy.ts), `train` (bench-train.ts),
 * `queue` (bench-queue.ts) and `api` (bench-api.ts) are loaded on demand, as they bring in the
 * agents, TensorFlow.js, BullMQ or autocannon.
 */
import { BENCH_ENV, benchEnvCommand } from './bench-env.ts';
import { EXIT_OK, UsageError, type Io } from './io.ts';
import type { CommandSpec } from './options.ts';

/** The targets of `bench`, each with its own options; train and api load on demand. */
const TARGETS: Record<string, { summary: string; load: () => Promise<{ spec: CommandSpec; run: (args: readonly string[], io: Io) => Promise<number> | number }> }> = {
  env: { summary: 'how fast the environment steps', load: async () => ({ spec: BENCH_ENV, run: benchEnvCommand }) },
  policy: {
    summary: "the trained policy's forward pass, in each kernel",
    load: async () => {
      const m = await import('./bench-policy.ts');
      return { spec: m.BENCH_POLICY, run: m.benchPolicyCommand };
    },
  },
  train: {
    summary: "the PPO trainer's rollout and update speed",
    load: async () => {
      const m = await import('./bench-train.ts');
      return { spec: m.BENCH_TRAIN, run: m.benchTrainCommand };
    },
  },
  queue: {
    summary: 'tournaments through the Redis job queue against local threads',
    load: async () => {
      const m = await import('./bench-queue.ts');
      return { spec: m.BENCH_QUEUE, run: m.benchQueueCommand };
    },
  },
  bridge: {
    summary: 'the Python envs through the bridge, against the engine in-process',
    load: async () => {
      const m = await import('./bench-bridge.ts');
      return { spec: m.BENCH_BRIDGE, run: m.benchBridgeCommand };
    },
  },
  api: {
    summary: 'the HTTP API under load',
    load: async () => {
      const m = await import('./bench-api.ts');
      return { spec: m.BENCH_API, run: m.benchApiCommand };
    },
  },
};

export const BENCH_USAGE = `Usage: czech-pub bench <target> [options]

Targets:
${Object.entries(TARGETS).map(([name, t]) => `  ${name.padEnd(8)}${t.summary}`).join('\n')}

Run 'czech-pub bench <target> --help' for a target's options.`;

export async function benchCommand(args: readonly string[], io: Io): Promise<number> {
  const [target, ...rest] = args;
  if (target === '--help' || target === '-h') {
    io.out(BENCH_USAGE);
    return EXIT_OK;
  }
  if (target === undefined) throw new UsageError("missing what to measure: try 'czech-pub bench env', 'bench train' or 'bench api'");
  if (!Object.hasOwn(TARGETS, target)) {
    throw new UsageError(target.startsWith('-') ? `name a target before options: 'czech-pub bench env ${target}'` : `unknown bench target '${target}' (known: ${Object.keys(TARGETS).join(', ')})`);
  }
  const { run } = await TARGETS[target].load();
  return run(rest, io);
}

/** The commands of `bench`, for help listings (docs/commands.md's option blocks are checked against them). */
export async function benchSpecs(): Promise<CommandSpec[]> {
  return Promise.all(Object.values(TARGETS).map(async (t) => (await t.load()).spec));
}
