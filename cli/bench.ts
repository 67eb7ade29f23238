/**
 * `czech-pub bench <target>`: how fast things run. `env` (here): the environment's steps, a
 * readable table or one JSON object; `train` (bench-train.ts), `queue` (bench-queue.ts) and `api`
 * (bench-api.ts) are loaded on demand, as they bring in TensorFlow.js, BullMQ or autocannon.
 */
import { ACTION_SPACE_VERSION, DEFAULT_RULESET, NUM_ACTIONS, OBS_SIZE, OBSERVATION_VERSION } from '../env/index.ts';
import { cpus } from 'node:os';
import { benchEnv, warmupSeconds, type EnvBenchResult } from './bench-env.ts';
import { EXIT_OK, UsageError, type Io } from './io.ts';
import { helpText, parseOptions, PLAYERS_MAX, PLAYERS_MIN, type CommandSpec } from './options.ts';
import { formatNumber, formatTable } from './table.ts';

export const BENCH_ENV = {
  name: 'bench env',
  description: `Measures, on one core with random legal actions:
  (a) engine-only decisions per second (legal actions + step, no log),
  (b) decisions per second with the observation encoded and the legal mask written
      for the player to act at every decision, as a training loop does,
  (c) games per second and decisions per game.
Each part runs for T seconds after a short warm-up.`,
  options: {
    players: { type: 'int', arg: 'N', min: PLAYERS_MIN, max: PLAYERS_MAX, default: 4, help: 'number of players' },
    seconds: { type: 'number', arg: 'T', min: 0, above: true, max: 3600, default: 5, help: 'seconds per part' },
    json: { type: 'flag', help: 'print one JSON object instead of a table' },
  },
} as const satisfies CommandSpec;

/** The targets of `bench`, each with its own options; train and api load on demand. */
const TARGETS: Record<string, { summary: string; load: () => Promise<{ spec: CommandSpec; run: (args: readonly string[], io: Io) => Promise<number> | number }> }> = {
  env: { summary: 'how fast the environment steps', load: async () => ({ spec: BENCH_ENV, run: benchEnvCommand }) },
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

/** The figures as one flat, machine-readable record. */
export function benchRecord(r: EnvBenchResult): Record<string, number | string> {
  return {
    decisionsPerSec: Math.round(r.engine.decisions / r.engine.seconds),
    encodedDecisionsPerSec: Math.round(r.encoded.decisions / r.encoded.seconds),
    gamesPerSec: Number((r.engine.games / r.engine.seconds).toFixed(1)),
    decisionsPerGame: Number((r.engine.decisions / r.engine.games).toFixed(1)),
    encodedGamesPerSec: Number((r.encoded.games / r.encoded.seconds).toFixed(1)),
    games: r.engine.games,
    encodedGames: r.encoded.games,
    truncatedGames: r.engine.truncated + r.encoded.truncated,
    players: r.players,
    seconds: r.seconds,
    warmupSeconds: warmupSeconds(r.seconds),
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    obsSize: OBS_SIZE,
    numActions: NUM_ACTIONS,
    observationVersion: OBSERVATION_VERSION,
    actionSpaceVersion: ACTION_SPACE_VERSION,
    ruleset: DEFAULT_RULESET.name,
    date: new Date().toISOString(),
  };
}

function report(r: EnvBenchResult, rec: ReturnType<typeof benchRecord>): string[] {
  const row = (label: string, l: EnvBenchResult['engine']) => [
    label,
    formatNumber(l.decisions / l.seconds),
    formatNumber(l.games / l.seconds, 1),
    formatNumber(l.decisions / l.games, 1),
    formatNumber(l.games),
  ];
  return [
    `Czech Pub env benchmark: ${r.players} players, ${r.seconds} s per part after ${rec.warmupSeconds} s warm-up, ` +
      `one core, Node ${rec.node} (${rec.cpu})`,
    `Observation ${OBS_SIZE} floats, ${NUM_ACTIONS} actions, random legal actions.`,
    '',
    ...formatTable(
      ['part', 'decisions/s', 'games/s', 'decisions/game', 'games'],
      [row('engine only (legal + step)', r.engine), row('with encoding + mask', r.encoded)],
    ),
    ...(Number(rec.truncatedGames) > 0 ? [`  (${rec.truncatedGames} games stopped at the decision cap)`] : []),
  ];
}

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

export function benchEnvCommand(args: readonly string[], io: Io): number {
  const parsed = parseOptions(BENCH_ENV, args);
  if (!parsed) {
    io.out(helpText(BENCH_ENV));
    return EXIT_OK;
  }
  const { players, seconds, json } = parsed.values;
  if (!json) io.err(`Measuring for about ${Math.ceil(2 * (seconds + warmupSeconds(seconds)))} s...`);
  const result = benchEnv(players, seconds);
  const rec = benchRecord(result);
  if (json) io.out(JSON.stringify(rec));
  else for (const line of report(result, rec)) io.out(line);
  return EXIT_OK;
}
