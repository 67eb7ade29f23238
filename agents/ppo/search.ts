/**
 * `ppo-search`: a search on top of a trained policy, as expert-iteration and AlphaZero-style
 * agents do, at the root of the seat's decision only. The policy net gives the prior: the
 * candidates are its most likely legal actions (covering `mass` of its probability, at most
 * `candidates`). Each iteration takes a candidate by PUCT (Silver et al. 2017) — its mean
 * value plus c · prior · √N / (1 + n) — and judges it in a world dealt by the resampler
 * (obs.sampleWorld: the seat's information set, hidden cards and dice dealt anew): the action
 * is played, the other seats play on with the `rollout` agent until this seat next has a real
 * choice, and there the policy net's value head scores the position (a finished game scores
 * its terminal 'rank' reward, the scale the shipped models' value heads learned). The k-th
 * look at every candidate meets the same k-th world, so candidates are compared on equal
 * deals. The choice is the most visited candidate.
 *
 *   ppo-search                        the shipped models (one per table size where there is one)
 *   ppo-search:<checkpoint.json>      a checkpoint of its own
 *   …:iterations=N:c=X:mass=X:candidates=K:rollout=SPEC
 *
 * Deterministic: the same game seed gives the same choices.
 */
import { NUM_ACTIONS } from '../../env/actions.ts';
import type { CzechPubEnv } from '../../env/env.ts';
import { OBS_SIZE } from '../../env/observation/encode.ts';
import { terminalRewards } from '../../env/rewards.ts';
import type { Checkpoint } from '../../policy/checkpoint.ts';
import { JsNet } from '../../policy/weights.ts';
import type { Agent, AgentObservation, GameStart } from '../agent.ts';
import { EnvObservation, maskOf } from '../observation.ts';
import { netForGame } from './ppo-agent.ts';

export const PPO_SEARCH_DEFAULTS = {
  /** Leaf evaluations per decision. */
  iterations: 48,
  /** PUCT exploration constant (values lie in [−1, 1]). */
  c: 1.5,
  /** Candidates: the policy's most likely actions until they cover this share of its probability… */
  mass: 0.95,
  /** …but no more than this many. */
  candidates: 6,
  /** Who plays the other seats in a judged world until this seat's next choice (a synchronous agent's spec). */
  rollout: 'heuristic',
};

export type PpoSearchOptions = typeof PPO_SEARCH_DEFAULTS;

/** Decisions a rollout may take before it is cut (a safety net: a turn cycle is far shorter). */
const ROLLOUT_LIMIT = 2000;

export class PpoSearchAgent implements Agent {
  private net: JsNet;
  private readonly logits = new Float32Array(NUM_ACTIONS);
  private readonly obsBuf = new Float32Array(OBS_SIZE);
  private rollers: Agent[] = [];
  private gameSeed = 'ppo-search';
  private decision = 0;
  readonly rulesetFingerprint?: string;
  /** Visits per candidate of the last search, for tests and diagnostics. */
  lastVisits: Map<number, number> | null = null;

  constructor(
    readonly spec: string,
    checkpoint: Pick<Checkpoint, 'weights'> & Partial<Pick<Checkpoint, 'env'>>,
    private readonly o: PpoSearchOptions,
    private readonly makeAgent: (spec: string) => Agent,
    /** For the shipped models: the checkpoint for a table of this many players (at each reset). */
    private readonly bySize?: (players: number) => Pick<Checkpoint, 'weights'>,
  ) {
    this.net = new JsNet(checkpoint.weights);
    this.rulesetFingerprint = checkpoint.env?.ruleset.fingerprint;
    makeAgent(o.rollout); // an unknown rollout agent fails now, not mid-game
  }

  reset(game: GameStart): void {
    this.net = netForGame(this, game, this.net, this.bySize);
    this.gameSeed = game.seed;
    this.decision = 0;
    this.rollers = Array.from({ length: game.players }, (_, seat) => {
      const a = this.makeAgent(this.o.rollout);
      a.reset?.({ seat, players: game.players, seed: `${game.seed}/search${seat}`, ...(game.ruleset ? { ruleset: game.ruleset } : {}) });
      return a;
    });
  }

  act(obs: AgentObservation): number {
    const legal = obs.legalActions;
    const decision = this.decision++;
    this.lastVisits = null;
    if (legal.length === 1) return legal[0];
    if (!obs.sampleWorld) throw new Error(`agent '${this.spec}' needs obs.sampleWorld (a locally held game) to search`);
    const seat = obs.seat;
    // The prior over the legal actions (softmax of the masked logits).
    this.net.forward(obs.encoding, obs.mask, this.logits);
    const max = Math.max(...legal.map((a) => this.logits[a]));
    const weights = legal.map((a) => Math.exp(this.logits[a] - max));
    const total = weights.reduce((x, y) => x + y, 0);
    const ranked = legal.map((a, i) => ({ a, p: weights[i] / total })).sort((x, y) => y.p - x.p || x.a - y.a);
    const cands: { a: number; p: number; n: number; sum: number }[] = [];
    let covered = 0;
    for (const r of ranked) {
      if (cands.length >= Math.max(1, this.o.candidates) || (cands.length >= 2 && covered >= this.o.mass)) break;
      cands.push({ ...r, n: 0, sum: 0 });
      covered += r.p;
    }
    if (cands.length === 1) return cands[0].a;
    const mass = cands.reduce((x, c) => x + c.p, 0);
    const seed = `${this.gameSeed}/d${decision}`;
    const worlds: CzechPubEnv[] = [];
    for (let it = 0; it < this.o.iterations; it++) {
      const sqrtN = Math.sqrt(it);
      let best = cands[0];
      let bestScore = -Infinity;
      for (const c of cands) {
        // Unvisited candidates first, in the prior's order; then PUCT.
        const q = c.n > 0 ? c.sum / c.n : Infinity;
        const score = q + (this.o.c * (c.p / mass) * sqrtN) / (1 + c.n);
        if (score > bestScore) {
          bestScore = score;
          best = c;
        }
      }
      const world = (worlds[best.n] ??= obs.sampleWorld(`${seed}/w${best.n}`)).clone();
      world.step(best.a);
      best.sum += this.judge(world, seat);
      best.n++;
    }
    this.lastVisits = new Map(cands.map((c) => [c.a, c.n]));
    let choice = cands[0];
    for (const c of cands) if (c.n > choice.n || (c.n === choice.n && c.sum / c.n > choice.sum / choice.n)) choice = c;
    return choice.a;
  }

  /** Plays `world` on until `seat` has a real choice (or the game ends) and scores it for `seat`. */
  private judge(world: CzechPubEnv, seat: number): number {
    for (let k = 0; k < ROLLOUT_LIMIT && !world.done; k++) {
      const legal = world.legalActions();
      if (legal.length === 1) {
        world.step(legal[0]);
        continue;
      }
      const actor = world.currentPlayer;
      if (actor === seat) return this.valueOf(world, seat);
      const a = this.rollers[actor].act(new EnvObservation(world, actor, legal));
      if (typeof a !== 'number') throw new Error(`agent '${this.spec}': rollout agent '${this.o.rollout}' is asynchronous; it needs a synchronous one`);
      world.step(a);
    }
    return world.done ? terminalRewards('rank', world.scores())[seat] : this.valueOf(world, seat);
  }

  private valueOf(world: CzechPubEnv, seat: number): number {
    return this.net.forward(world.encode(seat, this.obsBuf), maskOf(world.legalActions()), this.logits);
  }
}
