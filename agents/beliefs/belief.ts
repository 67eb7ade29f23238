/**
 * A belief over the hidden cards from the other seats' choices: worlds dealt as a search deals
 * them (uniformly among the deals consistent with what the seat knows, obs.sampleWorld), each
 * weighed by how likely a model of the players (model.ts) makes the decisions the other seats
 * were seen to take, in that world, and then drawn in proportion to their weights (sampling-
 * importance-resampling). A world's weight is the product over the other seats' last `window`
 * decisions each of the model's probability of the action taken, at the position that seat
 * would have seen in that world (env/beliefs/past.ts walks the world's hands back to it),
 * mixed with a uniform choice by `floor`; a world in which a decision could not have been taken
 * weighs nothing. A world the pool holds is drawn again with its pile and dice dealt anew.
 *
 * A pool of a few dozen worlds cannot show a likelihood as sharp as a trained policy's over a
 * dozen decisions: by Bayes' rule alone one or two worlds take nearly all the weight (an
 * effective sample size of about 3 of 32, docs/results/2026-12-05-beliefs.md), and a search
 * would judge every candidate in the same one or two deals. So the likelihood is tempered,
 * raised to the largest power at most `temper` that keeps an effective sample size of `ess`
 * of the possible worlds (temperedWeights).
 *
 * One belief is made per decision (its pool of `candidates` worlds from one seed); each world
 * a search asks for is drawn from it with a seed of its own, so the same seeds give the same
 * worlds. Where nothing is on the record, or no world in the pool could be, a draw is the
 * uniform deal (`fallback` says so).
 *
 *   const belief = new Belief(obs, model, `${seed}/belief`);
 *   const world = belief.sample(`${seed}/w${k}`);
 */
import { nextFloat, seedRng, type Candidate, type CzechPubEnv, type SeatPast } from '../../env/index.ts';
import type { AgentObservation } from '../agent.ts';
import { EnvObservation } from '../observation.ts';
import type { BeliefModel } from './model.ts';

export const BELIEF_DEFAULTS = {
  /** Worlds dealt and weighed per decision. */
  candidates: 16,
  /** The most recent decisions of each other seat that are weighed. */
  window: 4,
  /** Share of a uniform choice over the legal actions mixed into the model's probability: a choice the model would not make costs a world a factor, not the world. */
  floor: 0.1,
  /** Power the likelihood is raised to, at most (1: Bayes' rule; below 1, a model trusted less, the weights flatter). */
  temper: 1,
  /**
   * Least effective sample size, as a share of the possible worlds: the power is lowered until
   * the weights keep that many worlds in play (temperedWeights); 0 keeps `temper`.
   */
  ess: 0.5,
  /** A world whose log-likelihood (untempered) falls this far below the best one's so far is dropped unweighed. */
  cutoff: 30,
};

export type BeliefOptions = typeof BELIEF_DEFAULTS;

/** How a belief's pool came out, for diagnostics and measurement. */
export interface BeliefStats {
  candidates: number;
  /** Worlds in which every decision on the record could have been taken. */
  possible: number;
  /** Decisions weighed in each possible world (the same in each). */
  decisions: number;
  /** Effective sample size of the weights, (Σw)² / Σw²: 1 to `possible`. */
  ess: number;
  /** No world could be, or nothing was on the record: draws are the uniform deal. */
  fallback: boolean;
}

/** A world of the pool as weighed: the model's probability of each decision it weighed (those with more than one legal action), and their legal actions' counts. */
export interface Weighed {
  world: CzechPubEnv;
  /** Normalised: the chance a draw picks this world (equal for all where the belief fell back). */
  weight: number;
  /** A decision on the record could not have been taken in this world. */
  impossible: boolean;
  /** Dropped before all its decisions were weighed (weight 0): `probabilities` is cut short. */
  dropped: boolean;
  probabilities: number[];
  legal: number[];
}

export class Belief {
  private pool: Candidate[] = [];
  private weighedPool: { probabilities: number[]; legal: number[]; dropped: boolean }[] = [];
  private weights: Float64Array = new Float64Array(0);
  private total = 0;
  private past: SeatPast | null = null;
  private made = false;
  readonly options: BeliefOptions;

  constructor(private readonly obs: AgentObservation, private readonly model: BeliefModel, private readonly seed: string, options: Partial<BeliefOptions> = {}) {
    this.options = { ...BELIEF_DEFAULTS, ...options };
    checkOptions(this.options);
  }

  /** A world drawn from the belief with `seed` (the uniform deal where the belief has nothing). */
  sample(seed: string): CzechPubEnv {
    this.make();
    if (this.total === 0 || !this.past) return this.obs.sampleWorld!(seed);
    const rng = seedRng(`${seed}/belief`);
    let u = nextFloat(rng) * this.total;
    let i = 0;
    while (i < this.pool.length - 1 && (u -= this.weights[i]) >= 0) i++;
    while (this.weights[i] === 0) i--; // rounding at the top end
    return this.past.reshuffled(this.pool[i].world, seed);
  }

  /** The pool's worlds as weighed: for measurement (with `cutoff: Infinity`, every decision of every possible world is weighed). */
  weighted(): Weighed[] {
    this.make();
    const even = this.total === 0;
    return this.pool.map((c, i) => ({
      world: c.world,
      weight: even ? 1 / this.pool.length : this.weights[i] / this.total,
      impossible: c.impossible !== null,
      ...this.weighedPool[i],
    }));
  }

  stats(): BeliefStats {
    this.make();
    const possible = this.pool.filter((c) => c.impossible === null);
    let sq = 0;
    for (const w of this.weights) sq += w * w;
    return {
      candidates: this.pool.length,
      possible: possible.length,
      decisions: possible[0]?.positions.length ?? 0,
      ess: sq > 0 ? (this.total * this.total) / sq : 0,
      fallback: this.total === 0,
    };
  }

  private make(): void {
    if (this.made) return;
    this.made = true;
    const { obs, options: o } = this;
    if (!obs.past || !obs.sampleWorld) throw new Error('a belief needs obs.past and obs.sampleWorld (a locally held game)');
    this.past = obs.past(o.window);
    if (this.past.decisions.length === 0) {
      this.past = null;
      return;
    }
    const logs = new Float64Array(o.candidates);
    let best = -Infinity;
    for (let i = 0; i < o.candidates; i++) {
      const c = this.past.candidate(`${this.seed}/c${i}`);
      this.pool.push(c);
      const w = { probabilities: [] as number[], legal: [] as number[], dropped: false };
      this.weighedPool.push(w);
      logs[i] = c.impossible === null ? this.logLikelihood(c, best - o.cutoff, w) : -Infinity;
      best = Math.max(best, logs[i]);
    }
    this.weights = Float64Array.from(temperedWeights(logs, o.ess, o.temper));
    this.total = this.weights.reduce((s, w) => s + w, 0);
  }

  /**
   * Σ over the decisions of the log of the model's probability (mixed with the floor) of the
   * action taken, at the position its seat saw in the world; every term is at most 0, so once
   * the sum falls below `drop` the world is dropped (-Infinity) without weighing the rest.
   */
  private logLikelihood(c: Candidate, drop: number, into: { probabilities: number[]; legal: number[]; dropped: boolean }): number {
    const { floor } = this.options;
    let sum = 0;
    // The most recent decisions first: they are made from hands closest to the world's own.
    for (let k = c.positions.length - 1; k >= 0; k--) {
      const d = c.positions[k];
      if (d.legal.length === 1) continue;
      const p = this.model.probability(new EnvObservation(d.world, d.seat, d.legal), d.action);
      into.probabilities.push(p);
      into.legal.push(d.legal.length);
      sum += Math.log((1 - floor) * p + floor / d.legal.length);
      if (sum < drop) {
        into.dropped = true;
        return -Infinity;
      }
    }
    return sum;
  }
}

/**
 * Weights exp(τ·(log − max)) for log-likelihoods `logs` (-Infinity: an impossible world), with
 * the largest τ ≤ `temper` whose effective sample size is at least `share` of the possible
 * worlds (adaptive tempering, as sequential Monte Carlo samplers do): a pool too small to show
 * how sharp the likelihood is keeps that many worlds in play instead of collapsing onto one.
 */
export function temperedWeights(logs: ArrayLike<number>, share: number, temper = 1): number[] {
  const finite = Array.from(logs).filter((l) => l > -Infinity);
  if (finite.length === 0) return Array.from(logs, () => 0);
  const max = Math.max(...finite);
  const at = (tau: number) => Array.from(logs, (l) => (l === -Infinity ? 0 : Math.exp(tau * (l - max))));
  const ess = (w: number[]) => {
    let s = 0;
    let sq = 0;
    for (const x of w) {
      s += x;
      sq += x * x;
    }
    return (s * s) / sq;
  };
  const target = share * finite.length;
  if (ess(at(temper)) >= target) return at(temper);
  let lo = 0;
  let hi = temper;
  for (let i = 0; i < 30; i++) {
    const mid = (lo + hi) / 2;
    if (ess(at(mid)) >= target) lo = mid;
    else hi = mid;
  }
  return at(lo);
}

function checkOptions(o: BeliefOptions): void {
  if (!Number.isInteger(o.candidates) || o.candidates < 1) throw new RangeError(`belief option 'candidates' must be an integer ≥ 1, got ${o.candidates}`);
  if (!Number.isInteger(o.window) || o.window < 0) throw new RangeError(`belief option 'window' must be an integer ≥ 0, got ${o.window}`);
  if (!(o.floor >= 0 && o.floor <= 1)) throw new RangeError(`belief option 'floor' must be in [0, 1], got ${o.floor}`);
  if (!(o.temper >= 0)) throw new RangeError(`belief option 'temper' must be ≥ 0, got ${o.temper}`);
  if (!(o.ess >= 0 && o.ess <= 1)) throw new RangeError(`belief option 'ess' must be in [0, 1], got ${o.ess}`);
  if (!(o.cutoff > 0)) throw new RangeError(`belief option 'cutoff' must be > 0, got ${o.cutoff}`);
}

const beliefs = new WeakMap<AgentObservation, { key: string; model: BeliefModel; belief: Belief }>();

/**
 * A world drawn with `seed` from the belief of `obs` under `model`; the belief itself (its pool,
 * from `options.seed`) is made once per observation and these options, so a search that asks
 * for many worlds at one decision weighs its pool once.
 *
 *   sampleBelievedWorld(obs, model, `${seed}/w${k}`, { seed: `${seed}/belief` })
 */
export function sampleBelievedWorld(obs: AgentObservation, model: BeliefModel, seed: string, options: Partial<BeliefOptions> & { seed: string }): CzechPubEnv {
  const { seed: pool, ...rest } = options;
  const key = JSON.stringify([pool, rest]);
  let held = beliefs.get(obs);
  if (!held || held.key !== key || held.model !== model) beliefs.set(obs, (held = { key, model, belief: new Belief(obs, model, pool, rest) }));
  return held.belief.sample(seed);
}
