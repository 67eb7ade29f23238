/**
 * `ppo-search`: a search on top of a trained policy, as expert-iteration and AlphaZero-style
 * agents do, at the root of the seat's decision only. The policy net gives the prior: the
 * candidates are its most likely legal actions (covering `mass` of its probability, at most
 * `candidates`, at least two). Each look at a candidate judges it in a world dealt by the
 * resampler (obs.sampleWorld: the seat's information set, hidden cards and dice dealt anew):
 * the action is played, the game goes on to the start of the seat's next own turn (the rest of
 * its own turn played by the policy, the other seats and its own reactions by the `rollout`
 * agent), and there the policy net's value head scores the position (a finished game scores the
 * terminal reward the net's value head learned: its checkpoint's training reward, `rank` where
 * the checkpoint does not say).
 *
 * Why the start of the next turn: a value head is not calibrated alike at every kind of
 * position. Scored at the seat's next real choice instead (`horizon=choice`, the first design),
 * a card was judged inside the same turn, before its roll, and "done" a turn later, after it:
 * the search then overruled the policy wrongly more often than rightly and lost to it (30.6%
 * against 3 × heuristic where the policy won 34.1% on the same deals). Scoring every candidate
 * at the same kind of position turned that into a gain (docs/results/2026-12-01-search-strength.md: the ppo-search rows).
 * The k-th look at every candidate meets the same k-th world, so candidates are compared on
 * equal deals.
 *
 * The budget is spent by sequential halving (Karnin et al. 2013, as Gumbel MuZero does at its
 * root): in each of ⌈log2 K⌉ rounds every remaining candidate gets an equal share of the
 * round's looks, and the better-valued half goes on. A trained policy is sharp (most of its
 * mass on one action), so a prior-weighted rule such as PUCT spends nearly every look
 * confirming the policy's choice; halving gives the alternatives a fair hearing. The winner
 * replaces the policy's own choice only if a paired test over the worlds both met says it is
 * better by `confidence` standard errors: where the noise decides, the policy is the better
 * guess.
 *
 *   ppo-search                        the shipped models (one per table size where there is one)
 *   ppo-search:<checkpoint.json>      a checkpoint of its own
 *   …:iterations=N:mass=X:candidates=K:rollout=SPEC:confidence=Z:horizon=turn|choice:beliefs=uniform|policy
 *
 * Deterministic: the same game seed gives the same choices.
 *
 * With a transcript (`useTranscript`, as a tournament's `transcripts` sets it) every search
 * appends a line (`SearchLine`): its candidates with their priors, looks and values, each one's
 * paired difference from the policy's choice, and what was played. Expert iteration
 * (training/distill.ts) reads its labels from it.
 */
import fs from 'node:fs';
import { NUM_ACTIONS, REWARD_SCHEMES, terminalRewards, type CzechPubEnv, type RewardScheme } from '../../env/index.ts';
import { argmaxMasked, JsNet, type Checkpoint } from '../../policy/index.ts';
import type { Agent, AgentObservation, DecisionBudget, GameStart } from '../agent.ts';
import { EnvObservation, maskOf } from '../observation.ts';
import { beatsPaired, pairedDifference } from '../paired.ts';
import { Belief } from '../beliefs/belief.ts';
import { netModel, type BeliefModel } from '../beliefs/model.ts';
import { SeatInput } from './input.ts';
import { netForGame } from './ppo-agent.ts';

export const PPO_SEARCH_DEFAULTS = {
  /** Leaf evaluations per decision. */
  iterations: 48,
  /** Candidates: the policy's most likely actions until they cover this share of its probability… */
  mass: 0.95,
  /** …but no more than this many. */
  candidates: 6,
  /** Who plays the other seats in a judged world until this seat's next choice (a synchronous agent's spec). */
  rollout: 'heuristic',
  /**
   * Standard errors by which the most visited candidate must beat the policy's own choice,
   * over the worlds both met, to replace it; 0 = always the most visited.
   */
  confidence: 1,
  /**
   * Where a look is scored: `turn`, at the start of the seat's next own turn (its own choices
   * on the way are the policy's, so every candidate is scored at the same kind of position);
   * `choice`, at the seat's next real choice, whatever it is.
   */
  horizon: 'turn',
  /**
   * How the worlds judged are dealt: `uniform`, alike among the deals consistent with what the
   * seat knows (the resampler, obs.sampleWorld); `policy`, drawn from a belief that weighs those
   * deals by how likely this search's own policy makes the other seats' recorded choices in
   * them (agents/beliefs: BELIEF_DEFAULTS).
   */
  beliefs: 'uniform',
};

export const BELIEF_KINDS = ['uniform', 'policy'] as const;

export const HORIZONS = ['turn', 'choice'] as const;

export type PpoSearchOptions = typeof PPO_SEARCH_DEFAULTS;

/** A root action under judgement: its prior, and the values of its looks, the k-th in the k-th world. */
interface Candidate {
  a: number;
  p: number;
  sum: number;
  samples: number[];
}

const mean = (c: Candidate) => (c.samples.length > 0 ? c.sum / c.samples.length : -Infinity);

/** A candidate as a transcript line gives it. */
export interface SearchCandidate {
  a: number;
  /** The policy's probability of it. */
  p: number;
  /** Looks it got, and their mean value. */
  n: number;
  mean: number;
  /** Its mean paired difference from the policy's choice (the first candidate) over the worlds both met, and that mean's standard error; null for the choice itself and where fewer than two worlds were shared. */
  diff: number | null;
  se: number | null;
}

/** One search, as its transcript line: the decision by (agent game seed, seat, index of the seat's decisions asked), what was played, the candidates. */
export interface SearchLine {
  game: string;
  seat: number;
  decision: number;
  action: number;
  candidates: SearchCandidate[];
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** Decisions a rollout may take before it is cut (a safety net: a turn cycle is far shorter). */
const ROLLOUT_LIMIT = 2000;

export class PpoSearchAgent implements Agent {
  private net: JsNet;
  private readonly logits = new Float32Array(NUM_ACTIONS);
  /** The net's input at the root (the seat's own adviser) and at the judged positions (another, so the root's stays the seat's). */
  private root: SeatInput;
  private leaf: SeatInput;
  /** The judged positions' input buffer. */
  private x: Float32Array;
  private rollers: Agent[] = [];
  private gameSeed = 'ppo-search';
  private decision = 0;
  readonly rulesetFingerprint?: string;
  /** The terminal reward the value head learned: a finished game is scored on the same scale. */
  private reward: RewardScheme;
  /** Visits per candidate of the last search, for tests and diagnostics. */
  lastVisits: Map<number, number> | null = null;
  /** Where each search's line is appended (SearchLine), if anywhere. */
  private transcript: string | null = null;
  /** With `beliefs=policy`: the policy as a model of the other seats, reading through an input of its own. */
  private beliefInput: SeatInput;
  private readonly model: BeliefModel;

  constructor(
    readonly spec: string,
    checkpoint: Pick<Checkpoint, 'weights'> & Partial<Pick<Checkpoint, 'env' | 'options'>>,
    private readonly o: PpoSearchOptions,
    private readonly makeAgent: (spec: string) => Agent,
    /** For the shipped models: the checkpoint for a table of this many players (at each reset). */
    private readonly bySize?: (players: number) => Pick<Checkpoint, 'weights' | 'options'>,
  ) {
    this.net = new JsNet(checkpoint.weights);
    this.root = new SeatInput(checkpoint.weights.shape);
    this.leaf = new SeatInput(checkpoint.weights.shape);
    this.x = new Float32Array(this.leaf.size);
    this.rulesetFingerprint = checkpoint.env?.ruleset.fingerprint;
    this.reward = valueScale(checkpoint);
    makeAgent(o.rollout); // an unknown rollout agent fails now, not mid-game
    if (!(BELIEF_KINDS as readonly string[]).includes(o.beliefs)) throw new Error(`agent '${spec}': option 'beliefs' must be ${BELIEF_KINDS.join(' or ')}, got '${o.beliefs}'`);
    this.beliefInput = new SeatInput(checkpoint.weights.shape);
    this.model = netModel(() => this.net, () => this.beliefInput);
  }

  useTranscript(file: string): void {
    this.transcript = file;
  }

  reset(game: GameStart): void {
    this.net = netForGame(this, game, this.net, this.bySize);
    if (this.bySize) this.reward = valueScale(this.bySize(game.players));
    if (this.root.shape !== this.net.weights.shape) {
      this.root = new SeatInput(this.net.weights.shape);
      this.leaf = new SeatInput(this.net.weights.shape);
      this.x = new Float32Array(this.leaf.size);
      this.beliefInput = new SeatInput(this.net.weights.shape);
    }
    if (this.o.beliefs === 'policy') this.model.reset!(game);
    this.root.reset(game.seat, game.players, game.seed, game.ruleset);
    this.leaf.reset(game.seat, game.players, `${game.seed}/leaf`, game.ruleset);
    this.gameSeed = game.seed;
    this.decision = 0;
    this.rollers = Array.from({ length: game.players }, (_, seat) => {
      const a = this.makeAgent(this.o.rollout);
      a.reset?.({ seat, players: game.players, seed: `${game.seed}/search${seat}`, ...(game.ruleset ? { ruleset: game.ruleset } : {}) });
      return a;
    });
  }

  act(obs: AgentObservation, limit?: DecisionBudget): number {
    // A caller's time budget (the server's bot workers) cuts the looks short: the answer comes from those made.
    const stopBy = limit ? performance.now() + limit.timeLeftMs : Infinity;
    const legal = obs.legalActions;
    const decision = this.decision++;
    this.lastVisits = null;
    if (legal.length === 1) return legal[0];
    if (!obs.sampleWorld) throw new Error(`agent '${this.spec}' needs obs.sampleWorld (a locally held game) to search`);
    const seat = obs.seat;
    // The prior over the legal actions (softmax of the masked logits).
    this.net.logitsOf(this.root.input(obs), obs.mask, this.logits);
    const max = Math.max(...legal.map((a) => this.logits[a]));
    const weights = legal.map((a) => Math.exp(this.logits[a] - max));
    const total = weights.reduce((x, y) => x + y, 0);
    const ranked = legal.map((a, i) => ({ a, p: weights[i] / total })).sort((x, y) => y.p - x.p || x.a - y.a);
    const cands: Candidate[] = [];
    let covered = 0;
    for (const r of ranked) {
      if (cands.length >= Math.max(1, this.o.candidates) || (cands.length >= 2 && covered >= this.o.mass)) break;
      cands.push({ ...r, sum: 0, samples: [] });
      covered += r.p;
    }
    if (cands.length === 1) return cands[0].a;
    const seed = `${this.gameSeed}/d${decision}`;
    const worlds: CzechPubEnv[] = [];
    // The clairvoyant reference is dealt the true game: a belief has nothing to add to it. A belief
    // weighs its pool when the first world is asked for, whole: a caller's time budget cuts the looks, not that.
    const belief = this.o.beliefs === 'policy' && !(this as { clairvoyant?: true }).clairvoyant ? new Belief(obs, this.model, `${seed}/belief`) : null;
    const deal = (k: number) => (belief ? belief.sample(`${seed}/w${k}`) : obs.sampleWorld!(`${seed}/w${k}`));
    const look = (c: Candidate) => {
      if (stopBy !== Infinity && c.samples.length > 0 && performance.now() >= stopBy) {
        left = 1; // this look is skipped, and it was the last
        return;
      }
      const k = c.samples.length;
      const world = (worlds[k] ??= deal(k)).clone();
      const turn = world.state.turn;
      world.step(c.a);
      const v = this.judge(world, seat, turn);
      c.samples.push(v);
      c.sum += v;
    };
    let alive = cands;
    let left = this.o.iterations;
    const rounds = Math.ceil(Math.log2(cands.length));
    for (let r = 0; r < rounds && left > 0; r++) {
      // This round's share: an equal part of what the remaining rounds may spend.
      const each = Math.max(1, Math.floor(left / (rounds - r) / alive.length));
      for (let i = 0; i < each; i++) {
        for (const c of alive) {
          if (left === 0) break;
          look(c);
          left--;
        }
      }
      if (r < rounds - 1) alive = [...alive].sort((x, y) => mean(y) - mean(x) || y.p - x.p).slice(0, Math.ceil(alive.length / 2));
    }
    // Whatever is left goes to the finalists.
    for (let i = 0; left > 0; i = (i + 1) % alive.length, left--) look(alive[i]);
    this.lastVisits = new Map(cands.map((c) => [c.a, c.samples.length]));
    let choice = alive[0];
    for (const c of alive) if (mean(c) > mean(choice) || (mean(c) === mean(choice) && c.p > choice.p)) choice = c;
    const takeChoice = choice === cands[0] || this.o.confidence <= 0 || (beatsPaired(choice.samples, cands[0].samples, this.o.confidence) ?? false);
    const played = takeChoice ? choice.a : cands[0].a;
    if (this.transcript) this.record({ game: this.gameSeed, seat, decision, action: played, candidates: cands.map((c) => describe(c, cands[0])) });
    return played;
  }

  private record(line: SearchLine): void {
    fs.appendFileSync(this.transcript!, `${JSON.stringify(line)}\n`);
  }

  /**
   * Plays `world` on from a look's action, taken in turn `turn`, to the horizon (or the end of
   * the game) and scores it for `seat`.
   */
  private judge(world: CzechPubEnv, seat: number, turn: number): number {
    for (let k = 0; k < ROLLOUT_LIMIT && !world.done; k++) {
      const legal = world.legalActions();
      if (legal.length === 1) {
        world.step(legal[0]);
        continue;
      }
      const actor = world.actor;
      if (actor === seat) {
        const s = world.state;
        if (this.o.horizon === 'choice' || (s.active === seat && s.turn !== turn)) return this.valueOf(world, seat);
        // The rest of its own turn is the policy's; its reactions in others' turns are the rollout agent's (cheap).
        if (s.active === seat) {
          world.step(this.policyMove(world, seat, legal));
          continue;
        }
      }
      const a = this.rollers[actor].act(new EnvObservation(world, actor, legal));
      if (typeof a !== 'number') throw new Error(`agent '${this.spec}': rollout agent '${this.o.rollout}' is asynchronous; it needs a synchronous one`);
      world.step(a);
    }
    return world.done ? terminalRewards(this.reward, world.scores())[seat] : this.valueOf(world, seat);
  }

  private valueOf(world: CzechPubEnv, seat: number): number {
    const legal = world.legalActions();
    this.leaf.writeEnv(world, seat, legal, this.x);
    return this.net.valueOf(this.x);
  }

  /** The policy's own most likely move for `seat` in a judged world (as `ppo` plays). */
  private policyMove(world: CzechPubEnv, seat: number, legal: readonly number[]): number {
    const mask = maskOf(legal);
    this.leaf.writeEnv(world, seat, legal, this.x);
    this.net.logitsOf(this.x, mask, this.logits);
    return argmaxMasked(this.logits, mask, 0, NUM_ACTIONS);
  }
}

/** A candidate's figures for the transcript, its paired difference taken from `base` (the policy's choice). */
function describe(c: Candidate, base: Candidate): SearchCandidate {
  const d = c === base ? null : pairedDifference(c.samples, base.samples);
  return {
    a: c.a, p: round6(c.p), n: c.samples.length, mean: round6(c.sum / Math.max(1, c.samples.length)),
    diff: d ? round6(d.mean) : null, se: d ? round6(d.se) : null,
  };
}

/** The reward scheme a checkpoint's value head was trained on (its run's `reward`), else `rank`. */
export function valueScale(checkpoint: Partial<Pick<Checkpoint, 'options'>>): RewardScheme {
  const r = checkpoint.options?.reward;
  return typeof r === 'string' && (REWARD_SCHEMES as readonly string[]).includes(r) ? (r as RewardScheme) : 'rank';
}
