/**
 * Many games side by side where one seat is the learner's and the engine's own agents play the
 * rest: the fast path for training in another process (bridge/session.ts serves it). Each call
 * steps every game with the learner's action, lets the bots play until the learner next has a
 * real choice (a move with one legal action is made for it), and writes every game's learner
 * observation and mask into preallocated batched arrays. A game that ends restarts at once
 * (same-step auto-reset, as RLCard and Stable Baselines do): its row then holds the new game's
 * first learner observation, and `reward`, `win`, `terminated`, `truncated` say how the old
 * one ended.
 *
 * Seeds: game k of slot i is `{seed}/{i}/{k}`, and each bot is reset with that seed, so one
 * seed fixes the whole run. The learner sits at seat (i + k) mod players by default (every
 * seat in turn), or at a fixed seat. A shard of a larger vector env (vector-threads.ts) holds
 * the slots from `firstSlot` on and writes into the rows it is given, so its games are the
 * ones those slots hold in the whole, whichever thread steps them.
 */
import { agentSeed, createAgent, EnvObservation, type Agent } from '../agents/index.ts';
import {
  CzechPubEnv, DEFAULT_MAX_DECISIONS, DEFAULT_RULESET, NUM_ACTIONS, OBS_SIZE, parseRuleset, SeatChannel, terminalRewards,
  type RewardScheme, type Ruleset,
} from '../env/index.ts';

export interface LearnerVectorOptions {
  numEnvs: number;
  players: number;
  seed: string;
  /** One agent spec for every other seat, or one per other seat in seat order (comma-separated). */
  opponents: string;
  /** 'rotate' (default): game k of slot i seats the learner at (i + k) mod players; or a fixed seat. */
  seat?: 'rotate' | number;
  ruleset?: Ruleset;
  reward?: RewardScheme;
  /** The first slot's index in the whole vector env (a shard's; default 0). */
  firstSlot?: number;
  /** Arrays to write the batch into (a shard's rows of shared memory); made here if absent. */
  into?: VectorArrays;
}

/** A vector env's batched outputs, one row (or value) per game. */
export interface VectorArrays {
  obs: Float32Array;
  masks: Uint8Array;
  rewards: Float32Array;
  wins: Float32Array;
  terminated: Uint8Array;
  truncated: Uint8Array;
  seats: Uint8Array;
}

/**
 * The batch's arrays in the order they lie in one buffer, with their element type and elements
 * per game (the float32 ones first, so each starts 4-byte aligned).
 */
const ROWS = [
  ['obs', Float32Array, OBS_SIZE],
  ['rewards', Float32Array, 1],
  ['wins', Float32Array, 1],
  ['masks', Uint8Array, NUM_ACTIONS],
  ['terminated', Uint8Array, 1],
  ['truncated', Uint8Array, 1],
  ['seats', Uint8Array, 1],
] as const;

/** Bytes of a buffer that holds the batch of n games. */
export function vectorBytes(n: number): number {
  return ROWS.reduce((sum, [, Type, per]) => sum + Type.BYTES_PER_ELEMENT * per * n, 0);
}

/** Views of games [first, first + count) of the batch of `total` games that `buffer` holds. */
export function vectorArraysIn(buffer: ArrayBufferLike, total: number, first = 0, count = total): VectorArrays {
  const out: Partial<Record<keyof VectorArrays, Float32Array | Uint8Array>> = {};
  let at = 0;
  for (const [name, Type, per] of ROWS) {
    out[name] = new Type(buffer as ArrayBuffer, at + Type.BYTES_PER_ELEMENT * per * first, per * count);
    at += Type.BYTES_PER_ELEMENT * per * total;
  }
  return out as VectorArrays;
}

/**
 * Throws a RangeError naming the first game whose action its mask row does not allow, with
 * that row's legal actions (a mask holds exactly the legal actions).
 */
export function checkActions(actions: ArrayLike<number>, masks: Uint8Array, numEnvs: number): void {
  if (actions.length !== numEnvs) throw new RangeError(`expected ${numEnvs} actions, got ${actions.length}`);
  for (let i = 0; i < numEnvs; i++) {
    const a = actions[i];
    if (a >= 0 && a < NUM_ACTIONS && masks[i * NUM_ACTIONS + a] === 1) continue;
    const legal: number[] = [];
    for (let k = 0; k < NUM_ACTIONS; k++) if (masks[i * NUM_ACTIONS + k] === 1) legal.push(k);
    throw new RangeError(`env ${i}: action ${a} is not legal; legal actions: ${legal.join(', ')}`);
  }
}

/** Fresh arrays for a batch of n games. */
export function newVectorArrays(n: number): VectorArrays {
  return vectorArraysIn(new ArrayBuffer(vectorBytes(n)), n);
}

/** A batch's arrays, held by every kind of learner vector env (they write their games' rows into them). */
export abstract class VectorRows implements VectorArrays {
  readonly obs: Float32Array;
  readonly masks: Uint8Array;
  readonly rewards: Float32Array;
  readonly wins: Float32Array;
  readonly terminated: Uint8Array;
  readonly truncated: Uint8Array;
  readonly seats: Uint8Array;

  constructor(
    readonly numEnvs: number,
    readonly players: number,
    rows: VectorArrays,
  ) {
    if (rows.obs.length !== numEnvs * OBS_SIZE || rows.masks.length !== numEnvs * NUM_ACTIONS || rows.seats.length !== numEnvs) {
      throw new RangeError('the arrays given do not hold numEnvs rows');
    }
    ({ obs: this.obs, masks: this.masks, rewards: this.rewards, wins: this.wins, terminated: this.terminated, truncated: this.truncated, seats: this.seats } = rows);
  }
}

/** What the bridge steps: one vector env, whether in one thread or several. */
export interface LearnerBatchEnv extends Readonly<VectorArrays> {
  readonly numEnvs: number;
  readonly players: number;
  readonly learnerDecisions: number;
  readonly engineDecisions: number;
  /** Threads it steps its games on. */
  readonly threads: number;
  reset(): void;
  step(actions: ArrayLike<number>): void;
  close(): void;
}

/** Decisions the bots may take between two learner decisions before the game is called stuck. */
const BOT_LIMIT = DEFAULT_MAX_DECISIONS;

export class LearnerVectorEnv extends VectorRows implements LearnerBatchEnv {
  readonly threads = 1;
  /** Learner decisions and all decisions (learner's, bots', forced) stepped so far. */
  learnerDecisions = 0;
  engineDecisions = 0;
  private readonly games: CzechPubEnv[];
  private readonly bots: Agent[][];
  private readonly episodes: Int32Array;
  private readonly opponentSpecs: string[];
  private readonly ruleset: Ruleset;
  private readonly reward: RewardScheme;
  private readonly first: number;

  private readonly o: LearnerVectorOptions;

  constructor(o: LearnerVectorOptions) {
    if (!Number.isInteger(o.numEnvs) || o.numEnvs < 1 || o.numEnvs > 65536) throw new RangeError(`numEnvs must be a whole number from 1 to 65536, got ${o.numEnvs}`);
    const ruleset = parseRuleset(o.ruleset ?? DEFAULT_RULESET);
    const { min, max } = ruleset.players;
    if (!Number.isInteger(o.players) || o.players < min || o.players > max) throw new RangeError(`players must be a whole number from ${min} to ${max}, got ${o.players}`);
    super(o.numEnvs, o.players, o.into ?? newVectorArrays(o.numEnvs));
    this.o = o;
    this.ruleset = ruleset;
    const seat = o.seat ?? 'rotate';
    if (seat !== 'rotate' && !(Number.isInteger(seat) && seat >= 0 && seat < o.players)) throw new RangeError(`seat must be 'rotate' or a seat from 0 to ${o.players - 1}, got ${seat}`);
    const specs = o.opponents.split(',').map((s) => s.trim());
    if (specs.length !== 1 && specs.length !== o.players - 1) {
      throw new RangeError(`opponents must be one agent spec or ${o.players - 1} (one per other seat), got ${specs.length}`);
    }
    this.opponentSpecs = specs.length === 1 ? new Array<string>(o.players - 1).fill(specs[0]) : specs;
    this.reward = o.reward ?? 'win';
    this.first = o.firstSlot ?? 0;
    this.episodes = new Int32Array(o.numEnvs);
    this.games = Array.from({ length: o.numEnvs }, () => new CzechPubEnv());
    // Every bot is made now, so an unknown spec fails here, naming itself, not mid-step.
    this.bots = Array.from({ length: o.numEnvs }, () => this.opponentSpecs.map((s) => createAgent(s)));
    for (const b of this.bots[0]) if (b.clairvoyant) throw new RangeError(`agent '${b.spec}' is a measurement reference and cannot be an opponent here`);
  }

  private seatOf(i: number): number {
    const seat = this.o.seat ?? 'rotate';
    return seat === 'rotate' ? (this.first + i + this.episodes[i]) % this.players : seat;
  }

  private newGame(i: number): void {
    const seed = `${this.o.seed}/${this.first + i}/${this.episodes[i]}`;
    const learner = this.seatOf(i);
    this.seats[i] = learner;
    this.games[i].reset({ seed, players: this.players, ruleset: this.ruleset, reward: this.reward, log: false });
    let k = 0;
    for (let seat = 0; seat < this.players; seat++) {
      if (seat === learner) continue;
      this.bots[i][k++].reset?.({ seat, players: this.players, seed: agentSeed(seed, seat), ruleset: this.ruleset });
    }
  }

  /** The bot at `seat` of game i (bots fill the other seats in order). */
  private botAt(i: number, seat: number): Agent {
    return this.bots[i][seat < this.seats[i] ? seat : seat - 1];
  }

  /**
   * Plays game i on until the learner has a real choice or the game ends; returns whether it
   * ended.
   */
  private advance(i: number): boolean {
    const g = this.games[i];
    const learner = this.seats[i];
    for (let k = 0; k < BOT_LIMIT; k++) {
      if (g.done) return true;
      const legal = g.legalActions();
      const seat = g.actor;
      if (legal.length === 1) {
        g.step(legal[0]);
        this.engineDecisions++;
        continue;
      }
      if (seat === learner) return false;
      const bot = this.botAt(i, seat);
      const a = bot.act(new EnvObservation(g, seat, legal));
      if (typeof a !== 'number') throw new Error(`agent '${bot.spec}' is asynchronous; the vector env needs agents that answer at once`);
      g.step(a); // an illegal bot action throws, naming it
      this.engineDecisions++;
    }
    throw new Error(`game ${this.first + i} (seed ${this.o.seed}/${this.first + i}/${this.episodes[i]}): the bots took ${BOT_LIMIT} decisions without the learner acting`);
  }

  /** Starts game i anew (after one ends) until the learner has a real choice. */
  private settle(i: number): void {
    // A game can end before the learner ever chooses (rare); then the next one starts.
    for (let tries = 0; ; tries++) {
      this.newGame(i);
      if (!this.advance(i)) return;
      this.episodes[i]++;
      if (tries > 100) throw new Error(`games of slot ${this.first + i} keep ending before the learner acts`);
    }
  }

  private write(i: number): void {
    const g = this.games[i];
    SeatChannel.encodeSeat(g, this.seats[i], this.obs, i * OBS_SIZE);
    SeatChannel.maskSeat(g, this.seats[i], this.masks.subarray(i * NUM_ACTIONS, (i + 1) * NUM_ACTIONS));
  }

  reset(): void {
    this.rewards.fill(0);
    this.wins.fill(0);
    this.terminated.fill(0);
    this.truncated.fill(0);
    for (let i = 0; i < this.numEnvs; i++) {
      this.episodes[i] = 0;
      this.settle(i);
      this.write(i);
    }
  }

  /**
   * Steps every game with its action. Nothing changes if any action is illegal: they are all
   * checked first, and the error names the game, the action and the legal ones.
   */
  step(actions: ArrayLike<number>): void {
    checkActions(actions, this.masks, this.numEnvs);
    this.stepChecked(actions);
  }

  /** step() for actions `checkActions` has passed: game i takes actions[from + i]. */
  stepChecked(actions: ArrayLike<number>, from = 0): void {
    this.rewards.fill(0);
    this.wins.fill(0);
    this.terminated.fill(0);
    this.truncated.fill(0);
    for (let i = 0; i < this.numEnvs; i++) {
      const g = this.games[i];
      g.stepLegal(actions[from + i]);
      this.learnerDecisions++;
      this.engineDecisions++;
      if (this.advance(i)) {
        const seat = this.seats[i];
        this.rewards[i] = g.returns()[seat];
        this.wins[i] = terminalRewards('win', g.scores())[seat];
        this.terminated[i] = g.truncated ? 0 : 1;
        this.truncated[i] = g.truncated ? 1 : 0;
        this.episodes[i]++;
        this.settle(i);
      }
      this.write(i);
    }
  }

  close(): void {}
}
