/**
 * Speed of the environment on one core, with random legal actions: the engine alone, and
 * the engine plus what a training loop does at every decision (encode the observation of
 * the player to act into a reused Float32Array, write the legal mask into a reused
 * Uint8Array). Each part runs for a fixed time after a short warm-up.
 */
import {
  applyStep, createState, DEFAULT_MAX_DECISIONS, encodeObservation, legalActionsFast, NUM_ACTIONS, OBS_SIZE, randInt, seedRng,
  type RngState,
} from '../env/index.ts';

export interface LoopResult {
  decisions: number;
  games: number;
  /** Games stopped at the decision cap without reaching their end. */
  truncated: number;
  seconds: number;
}

/** Random playouts until `seconds` have passed (checked between games). */
function runLoop(players: number, seconds: number, encode: boolean, rng: RngState, firstSeed: number): LoopResult {
  const legal = new Int32Array(NUM_ACTIONS);
  const obs = new Float32Array(OBS_SIZE);
  const mask = new Uint8Array(NUM_ACTIONS);
  let decisions = 0;
  let games = 0;
  let truncated = 0;
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  do {
    const { rules, state } = createState({ players, seed: firstSeed + games });
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
  seconds: number;
  engine: LoopResult;
  encoded: LoopResult;
}

/** Warm-up time for a part: long enough for the JIT, short for tiny test budgets. */
export const warmupSeconds = (seconds: number): number => Math.min(1, Math.max(0.05, seconds / 5));

export function benchEnv(players: number, seconds: number): EnvBenchResult {
  const rng = seedRng('bench');
  runLoop(players, warmupSeconds(seconds), false, rng, 1_000_000);
  const engine = runLoop(players, seconds, false, rng, 0);
  runLoop(players, warmupSeconds(seconds), true, rng, 2_000_000);
  const encoded = runLoop(players, seconds, true, rng, 0);
  return { players, seconds, engine, encoded };
}
