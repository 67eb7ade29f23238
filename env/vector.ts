/**
 * VectorEnv: N games stepped together for training. After every call the observation and
 * legal-action mask of each game's player to act sit in preallocated batched arrays;
 * finished games are reset automatically with the next seed of their own sequence, so the
 * whole run is fixed by one seed.
 *
 *   const v = new VectorEnv({ numEnvs: 64, players: 4, seed: 1 });
 *   v.reset();
 *   for (;;) {
 *     // v.obs: Float32Array(numEnvs × OBS_SIZE), v.masks: Uint8Array(numEnvs × NUM_ACTIONS),
 *     // v.currentPlayer[i]: the seat whose observation row i holds
 *     v.step(actions);            // Int32Array(numEnvs)
 *     // v.rewards: Float32Array(numEnvs × 6), per seat, for the step just taken;
 *     // v.terminated[i] / v.truncated[i]: game i ended at this step (and was reset)
 *   }
 */
import { NUM_ACTIONS } from './actions.ts';
import { applyStep, createState, finalScores, legalActionsFast } from './engine/index.ts';
import { encodeObservation, OBS_SIZE } from './observation/encode.ts';
import { DEFAULT_MAX_DECISIONS } from './env.ts';
import { terminalRewards, type RewardScheme } from './rewards.ts';
import { compileRuleset, DEFAULT_RULESET, MAX_PLAYERS, parseRuleset, type CompiledRules, type Ruleset } from './ruleset.ts';
import type { GameState } from './state.ts';

export interface VectorEnvOptions {
  numEnvs: number;
  players: number;
  seed: number | string;
  ruleset?: Ruleset;
  reward?: RewardScheme;
  askAll?: boolean;
  maxDecisions?: number;
}

export interface EpisodeResult {
  env: number;
  seed: string;
  scores: number[];
  returns: number[];
  decisions: number;
  truncated: boolean;
}

export class VectorEnv {
  readonly numEnvs: number;
  readonly obs: Float32Array;
  readonly masks: Uint8Array;
  readonly currentPlayer: Int32Array;
  readonly rewards: Float32Array;
  readonly terminated: Uint8Array;
  readonly truncated: Uint8Array;
  /** Games finished during the last step (cleared at each step). */
  finished: EpisodeResult[] = [];
  private readonly rules: CompiledRules;
  private readonly opts: Required<Omit<VectorEnvOptions, 'ruleset'>>;
  private readonly states: GameState[] = [];
  private readonly episodes: Int32Array;
  private readonly legal = new Int32Array(NUM_ACTIONS);

  constructor(opts: VectorEnvOptions) {
    if (!Number.isInteger(opts.numEnvs) || opts.numEnvs < 1) throw new RangeError(`numEnvs must be a positive integer, got ${opts.numEnvs}`);
    this.numEnvs = opts.numEnvs;
    const ruleset = opts.ruleset ?? DEFAULT_RULESET;
    this.rules = compileRuleset(ruleset === DEFAULT_RULESET ? ruleset : parseRuleset(ruleset));
    this.opts = {
      numEnvs: opts.numEnvs,
      players: opts.players,
      seed: opts.seed,
      reward: opts.reward ?? 'win',
      askAll: opts.askAll ?? false,
      maxDecisions: opts.maxDecisions ?? DEFAULT_MAX_DECISIONS,
    };
    this.obs = new Float32Array(this.numEnvs * OBS_SIZE);
    this.masks = new Uint8Array(this.numEnvs * NUM_ACTIONS);
    this.currentPlayer = new Int32Array(this.numEnvs);
    this.rewards = new Float32Array(this.numEnvs * MAX_PLAYERS);
    this.terminated = new Uint8Array(this.numEnvs);
    this.truncated = new Uint8Array(this.numEnvs);
    this.episodes = new Int32Array(this.numEnvs);
  }

  private seedOf(i: number): string {
    return `${this.opts.seed}/${i}/${this.episodes[i]}`;
  }

  private newGame(i: number): void {
    const { players, askAll } = this.opts;
    this.states[i] = createState({ players, seed: this.seedOf(i), ruleset: this.rules.ruleset, askAll }).state;
  }

  private write(i: number): void {
    const s = this.states[i];
    const seat = s.actor;
    this.currentPlayer[i] = seat;
    encodeObservation(this.rules, s, seat, this.obs, i * OBS_SIZE);
    const m = i * NUM_ACTIONS;
    this.masks.fill(0, m, m + NUM_ACTIONS);
    const n = legalActionsFast(this.rules, s, this.legal);
    for (let k = 0; k < n; k++) this.masks[m + this.legal[k]] = 1;
  }

  reset(): void {
    for (let i = 0; i < this.numEnvs; i++) {
      this.episodes[i] = 0;
      this.newGame(i);
      this.write(i);
    }
  }

  /** The state of game i (read-only use: for inspection and tests). */
  stateOf(i: number): Readonly<GameState> {
    return this.states[i];
  }

  step(actions: ArrayLike<number>): void {
    if (actions.length !== this.numEnvs) throw new RangeError(`expected ${this.numEnvs} actions, got ${actions.length}`);
    this.rewards.fill(0);
    this.terminated.fill(0);
    this.truncated.fill(0);
    this.finished = [];
    for (let i = 0; i < this.numEnvs; i++) {
      const s = this.states[i];
      const a = actions[i];
      if (!this.masks[i * NUM_ACTIONS + a]) applyStep(this.rules, s, a); // throws a descriptive error
      applyStep(this.rules, s, a, null, true);
      const cut = !s.over && s.decisions >= this.opts.maxDecisions;
      if (s.over || cut) {
        const scores = finalScores(this.rules, s);
        const returns = terminalRewards(this.opts.reward, scores);
        for (let p = 0; p < returns.length; p++) this.rewards[i * MAX_PLAYERS + p] = returns[p];
        this.terminated[i] = s.over ? 1 : 0;
        this.truncated[i] = cut ? 1 : 0;
        this.finished.push({ env: i, seed: this.seedOf(i), scores, returns, decisions: s.decisions, truncated: cut });
        this.episodes[i]++;
        this.newGame(i);
      }
      this.write(i);
    }
  }
}
