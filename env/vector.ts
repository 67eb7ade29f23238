/**
 * VectorEnv: N games side by side, for training. Finished games restart by themselves with the
 * next seed of their own sequence (`{seed}/{i}/{episode}`), so the whole run is fixed by one seed.
 *
 * Stepped all together, the observation and legal-action mask of each game's player to act
 * sit in preallocated batched arrays after every call:
 *
 *   const v = new VectorEnv({ numEnvs: 64, players: 4, seed: 1 });
 *   v.reset();
 *   for (;;) {
 *     // v.obs: Float32Array(numEnvs × OBS_SIZE), v.masks: Uint8Array(numEnvs × NUM_ACTIONS),
 *     // v.actors[i]: the seat whose observation row i holds
 *     v.step(actions);            // Int32Array(numEnvs)
 *     // v.rewards: Float32Array(numEnvs × 6), per seat, for the step just taken;
 *     // v.terminated[i] / v.truncated[i]: game i ended at this step (and was reset)
 *   }
 *
 * Stepped one game at a time (`stepGame`), as a trainer does whose seats are played by
 * different controllers, with `observe: false`: nothing is encoded until asked, and
 * `writeObservation` puts a game's observation and mask wherever the caller keeps them (a
 * rollout buffer's next row). `game(i)` is the game itself, for agents to observe.
 */
import { NUM_ACTIONS } from './actions.ts';
import { CzechPubEnv, DEFAULT_MAX_DECISIONS } from './env.ts';
import { OBS_SIZE } from './observation/encode.ts';
import type { RewardScheme } from './rewards.ts';
import { DEFAULT_RULESET, MAX_PLAYERS, parseRuleset, type Ruleset } from './ruleset.ts';
import type { GameState } from './state.ts';

export interface VectorEnvOptions {
  numEnvs: number;
  players: number;
  seed: number | string;
  ruleset?: Ruleset;
  reward?: RewardScheme;
  askForced?: boolean;
  maxDecisions?: number;
  /**
   * Write every game's observation and mask into `obs` and `masks` after each `step` and
   * `reset` (default true). Off, they stay zero: read a game's with `writeObservation`.
   */
  observe?: boolean;
}

/** A game that ended, with its results under the env's reward scheme. */
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
  readonly actors: Int32Array;
  readonly rewards: Float32Array;
  readonly terminated: Uint8Array;
  readonly truncated: Uint8Array;
  /** Games finished during the last `step` (cleared at each step). */
  finished: EpisodeResult[] = [];
  private readonly opts: Required<VectorEnvOptions>;
  private readonly games: CzechPubEnv[];
  private readonly episodes: Int32Array;

  constructor(opts: VectorEnvOptions) {
    if (!Number.isInteger(opts.numEnvs) || opts.numEnvs < 1) throw new RangeError(`numEnvs must be a positive integer, got ${opts.numEnvs}`);
    this.numEnvs = opts.numEnvs;
    const ruleset = opts.ruleset ?? DEFAULT_RULESET;
    this.opts = {
      numEnvs: opts.numEnvs,
      players: opts.players,
      seed: opts.seed,
      // Checked once here rather than at the first game.
      ruleset: parseRuleset(ruleset),
      reward: opts.reward ?? 'win',
      askForced: opts.askForced ?? false,
      maxDecisions: opts.maxDecisions ?? DEFAULT_MAX_DECISIONS,
      observe: opts.observe ?? true,
    };
    this.obs = new Float32Array(this.numEnvs * OBS_SIZE);
    this.masks = new Uint8Array(this.numEnvs * NUM_ACTIONS);
    this.actors = new Int32Array(this.numEnvs);
    this.rewards = new Float32Array(this.numEnvs * MAX_PLAYERS);
    this.terminated = new Uint8Array(this.numEnvs);
    this.truncated = new Uint8Array(this.numEnvs);
    this.episodes = new Int32Array(this.numEnvs);
    this.games = Array.from({ length: this.numEnvs }, () => new CzechPubEnv());
  }

  /** The seed of the game now in slot i. */
  seedOf(i: number): string {
    return `${this.opts.seed}/${i}/${this.episodes[i]}`;
  }

  /**
   * The game now in slot i (it is replaced by a new one when it ends), for agents to observe
   * (agents/observation.ts) and for inspection. Step it only through `step` or `stepGame`.
   */
  game(i: number): CzechPubEnv {
    return this.games[i];
  }

  /** The state of game i (read-only use: for inspection and tests). */
  stateOf(i: number): Readonly<GameState> {
    return this.games[i].state;
  }

  private newGame(i: number): void {
    const { players, ruleset, reward, askForced, maxDecisions } = this.opts;
    this.games[i].reset({ seed: this.seedOf(i), players, ruleset, reward, askForced, maxDecisions, log: false });
    this.actors[i] = this.games[i].actor;
  }

  /** Writes game i's observation (of its player to act) and legal-action mask at the given offsets. */
  writeObservation(i: number, obs: Float32Array, obsOffset: number, mask: Uint8Array, maskOffset: number): void {
    const g = this.games[i];
    g.encode(g.actor, obs, obsOffset);
    g.legalMask(mask.subarray(maskOffset, maskOffset + NUM_ACTIONS));
  }

  reset(): void {
    for (let i = 0; i < this.numEnvs; i++) {
      this.episodes[i] = 0;
      this.newGame(i);
      if (this.opts.observe) this.writeObservation(i, this.obs, i * OBS_SIZE, this.masks, i * NUM_ACTIONS);
    }
  }

  /**
   * Steps game i alone. When that ends it, the next game of slot i starts and the finished
   * one's results are returned; else null. (`obs`, `masks`, `rewards`, `terminated`,
   * `truncated` and `finished` belong to `step` and are left alone.)
   */
  stepGame(i: number, action: number): EpisodeResult | null {
    const g = this.games[i];
    g.step(action); // an illegal action throws a descriptive error and changes nothing
    if (!g.done) {
      this.actors[i] = g.actor;
      return null;
    }
    const result: EpisodeResult = { env: i, seed: this.seedOf(i), scores: g.scores(), returns: g.returns(), decisions: g.state.decisions, truncated: g.truncated };
    this.episodes[i]++;
    this.newGame(i);
    return result;
  }

  /** Steps every game, game i with actions[i]. */
  step(actions: ArrayLike<number>): void {
    if (actions.length !== this.numEnvs) throw new RangeError(`expected ${this.numEnvs} actions, got ${actions.length}`);
    this.rewards.fill(0);
    this.terminated.fill(0);
    this.truncated.fill(0);
    this.finished = [];
    for (let i = 0; i < this.numEnvs; i++) {
      const r = this.stepGame(i, actions[i]);
      if (r) {
        for (let p = 0; p < r.returns.length; p++) this.rewards[i * MAX_PLAYERS + p] = r.returns[p];
        this.terminated[i] = r.truncated ? 0 : 1;
        this.truncated[i] = r.truncated ? 1 : 0;
        this.finished.push(r);
      }
      if (this.opts.observe) this.writeObservation(i, this.obs, i * OBS_SIZE, this.masks, i * NUM_ACTIONS);
    }
  }
}
