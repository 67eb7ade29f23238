/** `czech-pub bench env`: how fast the environment steps; a readable table or one JSON object. */
import { ACTION_SPACE_VERSION, NUM_ACTIONS } from '../env/actions.ts';
import { OBS_SIZE, OBSERVATION_VERSION } from '../env/observation/encode.ts';
import { DEFAULT_RULESET } from '../env/ruleset.ts';
import { cpus } from 'node:os';
import { intOption, parseCommand, positiveOption } from './args.ts';
import { benchEnv, warmupSeconds, type EnvBenchResult } from './bench-env.ts';
import { EXIT_OK, UsageError, type Io } from './io.ts';
import { formatNumber, formatTable } from './table.ts';

const { min: MIN_PLAYERS, max: MAX_PLAYERS } = DEFAULT_RULESET.players;
const MAX_SECONDS = 3600;

export const BENCH_USAGE = `Usage: czech-pub bench env [--players N] [--seconds T] [--json]
       czech-pub bench train --help   (the PPO trainer's speed)
       czech-pub bench api --help     (the HTTP API under load)

Measures, on one core with random legal actions:
  (a) engine-only decisions per second (legal actions + step, no log),
  (b) decisions per second with the observation encoded and the legal mask written
      for the player to act at every decision, as a training loop does,
  (c) games per second and decisions per game.
Each part runs for T seconds after a short warm-up.

Options:
  --players N   number of players, ${MIN_PLAYERS}-${MAX_PLAYERS} (default 4)
  --seconds T   seconds per part, more than 0 and at most ${MAX_SECONDS} (default 5)
  --json        print one JSON object instead of a table
  -h, --help    show this help`;

const API_OPTIONS = {
  seconds: { type: 'string' },
  connections: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const TRAIN_OPTIONS = {
  iterations: { type: 'string' },
  backend: { type: 'string' },
  'no-reference': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const OPTIONS = {
  players: { type: 'string' },
  seconds: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

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

type LazyTarget = { usage: string; run: (values: Record<string, unknown>, io: Io) => Promise<number> };

/** Targets with their own options, loaded on demand: they bring in TensorFlow.js or autocannon. */
const LAZY_TARGETS = {
  train: {
    options: TRAIN_OPTIONS,
    load: async (): Promise<LazyTarget> => {
      const m = await import('./bench-train.ts');
      return { usage: m.BENCH_TRAIN_USAGE, run: m.benchTrainCommand };
    },
  },
  api: {
    options: API_OPTIONS,
    load: async (): Promise<LazyTarget> => {
      const m = await import('./bench-api.ts');
      return { usage: m.BENCH_API_USAGE, run: m.benchApiCommand };
    },
  },
};

export function benchCommand(args: readonly string[], io: Io): number | Promise<number> {
  const lazy = args[0] !== undefined && Object.hasOwn(LAZY_TARGETS, args[0]) ? LAZY_TARGETS[args[0] as keyof typeof LAZY_TARGETS] : undefined;
  if (lazy) {
    const parsed = parseCommand(args.slice(1), lazy.options, true);
    if (parsed.positionals.length > 0) throw new UsageError(`unexpected argument '${parsed.positionals[0]}'`);
    return lazy.load().then((m) => {
      if (parsed.values.help) {
        io.out(m.usage);
        return EXIT_OK;
      }
      return m.run(parsed.values, io);
    });
  }
  const { values, positionals } = parseCommand(args, OPTIONS, true);
  if (values.help) {
    io.out(BENCH_USAGE);
    return EXIT_OK;
  }
  if (positionals.length === 0) throw new UsageError("missing what to measure: try 'czech-pub bench env' or 'czech-pub bench train'");
  if (positionals[0] !== 'env') throw new UsageError(`unknown bench target '${positionals[0]}' (known: env, train, api)`);
  if (positionals.length > 1) throw new UsageError(`unexpected argument '${positionals[1]}'`);
  const players = intOption(values, 'players', 4, MIN_PLAYERS, MAX_PLAYERS);
  const seconds = positiveOption(values, 'seconds', 5, MAX_SECONDS);
  if (!values.json) io.err(`Measuring for about ${Math.ceil(2 * (seconds + warmupSeconds(seconds)))} s...`);
  const result = benchEnv(players, seconds);
  const rec = benchRecord(result);
  if (values.json) io.out(JSON.stringify(rec));
  else for (const line of report(result, rec)) io.out(line);
  return EXIT_OK;
}
