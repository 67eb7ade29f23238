/**
 * CzechPubEnv: the agent–environment cycle (like PettingZoo's AEC and OpenSpiel's State).
 *
 *   const env = new CzechPubEnv();
 *   env.reset({ seed: 1, players: 4 });
 *   while (!env.done) {
 *     const seat = env.actor;
 *     const obs = env.observe(seat);            // { encoding, mask, view, text, events }
 *     env.step(myPolicy(obs));                  // throws IllegalActionError on a bad action
 *   }
 *   env.returns();                              // per-seat returns under the chosen reward
 *
 * | property        | value                                                                  |
 * |-----------------|------------------------------------------------------------------------|
 * | agents          | seats 0..players−1 (2–6), seat 0 starts                                |
 * | action space    | Discrete(NUM_ACTIONS = 198), the same for every player count (actions.ts) |
 * | observation     | Float32Array(OBS_SIZE), named slices in observation/encode.ts            |
 * | action mask     | Uint8Array(198), 1 = legal for the seat to act                         |
 * | decision kinds  | play, discard, reaction (X cards), response (Excuse me, shot choice)   |
 * | rewards         | terminal; 'win' (default), 'rank' or 'score' (rewards.ts)             |
 * | truncation      | after `maxDecisions` decisions (default 5000), scored as it stands     |
 *
 * A player is asked only when they have more than one legal action, unless `askForced` is set:
 * then every eligible player is asked at every window, so being asked reveals nothing.
 */
import { describeAction, NUM_ACTIONS } from './actions.ts';
import {
  applyStep, createState, endReason, finalScores, IllegalActionError, isLegal, legalActionsFast, type EndReason, type GameConfig,
} from './engine/index.ts';
import { eventForSeat, type GameEvent } from './events.ts';
import { encodeObservation, OBS_SIZE } from './observation/encode.ts';
import { renderText } from './observation/text.ts';
import { makePublicView, makeView, type PlayerView, type PublicView } from './observation/view.ts';
import { resampleState } from './resample.ts';
import { seedRng } from './rng.ts';
import { DEFAULT_RULESET, type CompiledRules, type Ruleset } from './ruleset.ts';
import { terminalRewards, type RewardScheme } from './rewards.ts';
import { envSpec, type EnvSpec } from './spec.ts';
import { cloneState, PHASE_NAMES, type GameState, type PhaseName } from './state.ts';

export const DEFAULT_MAX_DECISIONS = 5000;

export interface ResetOptions {
  seed: number | string;
  players: number;
  ruleset?: Ruleset;
  reward?: RewardScheme;
  askForced?: boolean;
  maxDecisions?: number;
  /** Keep the event log (default true); switch off for speed in training. */
  log?: boolean;
}

export interface Observation {
  seat: number;
  encoding: Float32Array;
  /** Legal-action mask; all zero unless this seat is to act. */
  mask: Uint8Array;
  legalActions: number[];
  view: PlayerView;
  text: string;
  /** What this seat saw happen since its last decision. */
  events: GameEvent[];
}

/** Everything needed to rebuild an env exactly: configuration, state, actions, log cursors. */
export interface EnvSnapshot {
  config: Required<Omit<ResetOptions, 'ruleset'>> & { ruleset: Ruleset };
  state: GameState;
  actions: number[];
}

export class CzechPubEnv {
  private rules!: CompiledRules;
  private cfg!: EnvSnapshot['config'];
  private s!: GameState;
  private history: number[] = [];
  private log: GameEvent[] | null = null;
  private cursors: number[] = [];
  private legalBuf = new Int32Array(NUM_ACTIONS);
  private legalN = -1;
  /** Reward of each seat for the last step. */
  rewards: number[] = [];
  truncated = false;

  constructor(opts?: ResetOptions) {
    if (opts) this.reset(opts);
  }

  reset(opts: ResetOptions): void {
    const ruleset = opts.ruleset ?? DEFAULT_RULESET;
    this.cfg = {
      seed: opts.seed,
      players: opts.players,
      ruleset,
      reward: opts.reward ?? 'win',
      askForced: opts.askForced ?? false,
      maxDecisions: opts.maxDecisions ?? DEFAULT_MAX_DECISIONS,
      log: opts.log ?? true,
    };
    if (!['win', 'rank', 'score'].includes(this.cfg.reward)) {
      throw new RangeError(`reward must be one of win, rank, score; got ${String(this.cfg.reward)}`);
    }
    this.log = this.cfg.log ? [] : null;
    const g = createState(this.gameConfig(), this.log);
    this.rules = g.rules;
    this.s = g.state;
    this.history = [];
    this.cursors = new Array<number>(this.cfg.players).fill(0);
    this.rewards = new Array<number>(this.cfg.players).fill(0);
    this.truncated = false;
    this.legalN = -1;
  }

  private gameConfig(): GameConfig {
    return { players: this.cfg.players, seed: this.cfg.seed, ruleset: this.cfg.ruleset, askForced: this.cfg.askForced };
  }

  /** Versions and sizes that make results comparable (see spec.ts). */
  get spec(): EnvSpec {
    return envSpec(this.cfg.ruleset);
  }

  get players(): number {
    return this.s.players;
  }
  get state(): Readonly<GameState> {
    return this.s;
  }
  get compiledRules(): CompiledRules {
    return this.rules;
  }
  get config(): Readonly<EnvSnapshot['config']> {
    return this.cfg;
  }
  get actions(): readonly number[] {
    return this.history;
  }
  /** Length of the event log so far (0 without a log): marks where each step's events begin. */
  get eventCount(): number {
    return this.log?.length ?? 0;
  }
  /** The whole log unfiltered, hidden cards included: for finished games and tests, never for a seat mid-game. */
  get fullLog(): readonly GameEvent[] {
    return this.log ?? [];
  }
  get terminated(): boolean {
    return this.s.over;
  }
  get done(): boolean {
    return this.s.over || this.truncated;
  }
  /** Why the game ended (engine/flow.ts endReason, or the decision cap), or null while it goes on. */
  get endReason(): EndReason | null {
    return this.truncated ? 'decision-limit' : endReason(this.s);
  }
  /** The seat to act, or -1 when the game is done. */
  get actor(): number {
    return this.done ? -1 : this.s.actor;
  }
  get decisionKind(): PhaseName {
    return this.done ? 'over' : PHASE_NAMES[this.s.phase];
  }

  private legalCount(): number {
    if (this.legalN < 0) this.legalN = this.done ? 0 : legalActionsFast(this.rules, this.s, this.legalBuf);
    return this.legalN;
  }

  legalActions(): number[] {
    // A plain loop: Array.from over a typed array goes through its iterator, several times slower.
    const n = this.legalCount();
    const out = new Array<number>(n);
    for (let i = 0; i < n; i++) out[i] = this.legalBuf[i];
    return out;
  }

  legalMask(out: Uint8Array = new Uint8Array(NUM_ACTIONS)): Uint8Array {
    out.fill(0);
    const n = this.legalCount();
    for (let i = 0; i < n; i++) out[this.legalBuf[i]] = 1;
    return out;
  }

  step(action: number): void {
    if (this.done) throw new IllegalActionError('the game is over: reset() before stepping');
    const n = this.legalCount();
    let ok = false;
    for (let i = 0; i < n; i++) if (this.legalBuf[i] === action) ok = true;
    if (!ok) applyStep(this.rules, this.s, action); // throws the descriptive error, changes nothing
    this.stepLegal(action);
  }

  /**
   * step() for a caller that has already checked `action` against this decision's
   * legalActions() or legalMask() (a batch checked as a whole before any game moves): the
   * legality scan is not repeated. An unchecked action here is a bug in the caller.
   */
  stepLegal(action: number): void {
    const seat = this.s.actor;
    if (this.log) this.cursors[seat] = this.log.length;
    applyStep(this.rules, this.s, action, this.log, true);
    this.history.push(action);
    this.legalN = -1;
    if (!this.s.over && this.s.decisions >= this.cfg.maxDecisions) this.truncated = true;
    this.rewards = this.done ? this.returns() : this.rewards.fill(0);
  }

  /** Per-seat returns: the terminal rewards once done (scored as it stands if truncated), else zeros. */
  returns(): number[] {
    if (!this.done) return new Array<number>(this.s.players).fill(0);
    return terminalRewards(this.cfg.reward, finalScores(this.rules, this.s));
  }

  scores(): number[] {
    return finalScores(this.rules, this.s);
  }

  view(seat: number): PlayerView {
    return makeView(this.rules, this.s, this.checkSeat(seat));
  }

  /** What an onlooker at the table sees: the public facts alone (view.ts, makePublicView). */
  publicView(): PublicView {
    return makePublicView(this.rules, this.s);
  }

  encode(seat: number, out: Float32Array = new Float32Array(OBS_SIZE), offset = 0): Float32Array {
    encodeObservation(this.rules, this.s, this.checkSeat(seat), out, offset);
    return out;
  }

  text(seat: number): string {
    const legal = seat === this.actor
      ? this.legalActions().map((id) => ({ id, text: describeAction(id, seat, this.s.players) }))
      : undefined;
    return renderText(this.view(seat), legal);
  }

  /** Events `seat` may see, since its last decision (or from `since`, an index into the log). */
  events(seat: number, since?: number): GameEvent[] {
    if (!this.log) return [];
    const from = since ?? this.cursors[this.checkSeat(seat)];
    return this.log.slice(from).map((e) => eventForSeat(e, seat));
  }

  /** The whole log as `seat` may see it. */
  eventLog(seat: number): GameEvent[] {
    return this.events(seat, 0);
  }

  observe(seat: number): Observation {
    const mine = seat === this.actor;
    return {
      seat,
      encoding: this.encode(seat),
      mask: mine ? this.legalMask() : new Uint8Array(NUM_ACTIONS),
      legalActions: mine ? this.legalActions() : [],
      view: this.view(seat),
      text: this.text(seat),
      events: this.events(seat),
    };
  }

  clone(): CzechPubEnv {
    const e = Object.create(CzechPubEnv.prototype) as CzechPubEnv;
    e.rules = this.rules;
    e.cfg = this.cfg;
    e.s = cloneState(this.s);
    e.history = this.history.slice();
    e.log = this.log ? this.log.slice() : null;
    e.cursors = this.cursors.slice();
    e.legalBuf = new Int32Array(NUM_ACTIONS);
    e.legalN = -1;
    e.rewards = this.rewards.slice();
    e.truncated = this.truncated;
    return e;
  }

  /**
   * A copy of this env in which everything `seat` cannot see (other hands, the draw pile's
   * order, CLOSING TIME's place in it, future dice) is dealt anew, consistent with what it
   * knows. For search bots; the copy keeps no event log and no action history.
   */
  resample(seat: number, seed: number | string): CzechPubEnv {
    const e = this.clone();
    e.s = resampleState(this.rules, this.s, this.checkSeat(seat), seed);
    e.log = null;
    e.history = [];
    return e;
  }

  /**
   * A copy of the game as it truly stands (every hand, the draw pile's order) whose dice to
   * come are rolled anew from `seed`: what the clairvoyant measurement reference searches
   * (agents/clairvoyant.ts). Never a seat's view of the game.
   */
  withFreshDice(seed: number | string): CzechPubEnv {
    const e = this.clone();
    e.s.rng = seedRng(`${seed}:dice`);
    e.log = null;
    e.history = [];
    return e;
  }

    toJSON(): EnvSnapshot {
    return { config: this.cfg, state: this.s, actions: this.history };
  }

  /** Rebuilds an env from a snapshot (its event log is rebuilt by replaying the actions). */
  static fromJSON(snap: EnvSnapshot): CzechPubEnv {
    const env = new CzechPubEnv(snap.config);
    for (const a of snap.actions) env.step(a);
    if (JSON.stringify(env.s) !== JSON.stringify(snap.state)) {
      // A snapshot of a resampled or edited state: take the state as given.
      env.s = cloneState(snap.state);
      env.legalN = -1;
    }
    return env;
  }

  private checkSeat(seat: number): number {
    if (!Number.isInteger(seat) || seat < 0 || seat >= this.s.players) {
      throw new RangeError(`seat must be an integer from 0 to ${this.s.players - 1}, got ${seat}`);
    }
    return seat;
  }
}

export { isLegal };
