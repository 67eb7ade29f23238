/**
 * Speed of the environment on one core, with random legal actions: the engine alone, and
 * the engine plus what a training loop does at every decision (encode the observation of
 * the player to act into a reused Float32Array, write the legal mask into a reused
 * Uint8Array). Each part runs for a fixed time after a short warm-up.
 */
import { cpus } from 'node:os';
import {
  ACTION_SPACE_VERSION, applyStep, createState, DEFAULT_MAX_DECISIONS, DEFAULT_RULESET, encodeObservation, legalActionsFast, NUM_ACTIONS,
  OBS_SIZE, OBSERVATION_VERSION, randInt, seedRng, type RngState,
} from '../env/index.ts';
import { EXIT_OK, type Io } from './io.ts';
import { helpText, parseOptions, PLAYERS_MAX, PLAYERS_MIN, type CommandSpec } from './options.ts';
import { formatNumber, formatTable } from './table.ts';

export interface LoopResult {
  decisions: number;
  games: number;
  /** Games stopped at the decision cap without reaching their end. */
  truncated: number;
  seconds: number;
}

/** Random playouts until `seconds` have passed (checked between games). */
function runLoop(players: number, seconds: number, encode: boolean, rng: RngState, firstSeed: number, askForced: boolean): LoopResult {
  const legal = new Int32Array(NUM_ACTIONS);
  const obs = new Float32Array(OBS_SIZE);
  const mask = new Uint8Array(NUM_ACTIONS);
  let decisions = 0;
  let games = 0;
  let truncated = 0;
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  do {
    const { rules, state } = createState({ players, seed: firstSeed + games, askForced });
    while (!state.over) {
      if (state.decisions >= DEFAULT_MAX_DECISIONS) {
        truncated++;
        break;
      }
      const n = legalActionsFast(rules, state, legal);
      if (encode) {
        encodeObservation(rules, state, state.actor, obs, 0);
        mask.fill(0);
        for (let k = 0; k < n; k++) mask[legal[k]] = 1;
      }
      applyStep(rules, state, legal[randInt(rng, n)], null, true);
      decisions++;
    }
    games++;
  } while (performance.now() < until);
  return { decisions, games, truncated, seconds: (performance.now() - t0) / 1000 };
}

export interface EnvBenchResult {
  players: number;
  /** Forced decisions asked too (docs/environment.md, "Forced decisions"). */
  askForced: boolean;
  seconds: number;
  engine: LoopResult;
  encoded: LoopResult;
}

/** Warm-up time for a part: long enough for the JIT, short for tiny test budgets. */
export const warmupSeconds = (seconds: number): number => Math.min(1, Math.max(0.05, seconds / 5));

export function benchEnv(players: number, seconds: number, askForced = false): EnvBenchResult {
  const rng = seedRng('bench');
  runLoop(players, warmupSeconds(seconds), false, rng, 1_000_000, askForced);
  const engine = runLoop(players, seconds, false, rng, 0, askForced);
  runLoop(players, warmupSeconds(seconds), true, rng, 2_000_000, askForced);
  const encoded = runLoop(players, seconds, true, rng, 0, askForced);
  return { players, seconds, askForced, engine, encoded };
}

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
    'ask-forced': { type: 'flag', help: 'ask forced decisions too, as a live game does (docs/environment.md)' },
    json: { type: 'flag', help: 'print one JSON object instead of a table' },
  },
} as const satisfies CommandSpec;

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
    askForced: String(r.askForced),
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
    `Observation ${OBS_SIZE} floats, ${NUM_ACTIONS} actions, random legal actions${r.askForced ? ', forced decisions asked too (askForced)' : ''}.`,
    '',
    ...formatTable(
      ['part', 'decisions/s', 'games/s', 'decisions/game', 'games'],
      [row('engine only (legal + step)', r.engine), row('with encoding + mask', r.encoded)],
    ),
    ...(Number(rec.truncatedGames) > 0 ? [`  (${rec.truncatedGames} games stopped at the decision cap)`] : []),
  ];
}

export function benchEnvCommand(args: readonly string[], io: Io): number {
  const parsed = parseOptions(BENCH_ENV, args);
  if (!parsed) {
    io.out(helpText(BENCH_ENV));
    return EXIT_OK;
  }
  const { players, seconds, json, askForced } = parsed.values;
  if (!json) io.err(`Measuring for about ${Math.ceil(2 * (seconds + warmupSeconds(seconds)))} s...`);
  const result = benchEnv(players, seconds, askForced);
  const rec = benchRecord(result);
  if (json) io.out(JSON.stringify(rec));
  else for (const line of report(result, rec)) io.out(line);
  return EXIT_OK;
}
