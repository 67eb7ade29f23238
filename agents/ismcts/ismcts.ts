/**
 * `ismcts`: single-observer information-set Monte Carlo tree search (Cowling, Powley &
 * Whitehouse 2012; OpenSpiel's ISMCTS is the same idea keyed by information-state strings).
 *
 * Per decision, a fresh tree is rooted at the seat's information set. Each iteration:
 *   1. pick a root action by UCB, widening progressively in the rollout policy's order (its
 *      own choice first); the k-th visit of every root action meets the same k-th world;
 *   2. determinize: obs.sampleWorld(seed) deals everything the seat cannot see anew (other
 *      hands, draw-pile order, future dice) consistently with what it knows — the agent's
 *      only view of a full state, so it never reads the real hidden cards;
 *   3. select below the root: descend while every action legal in this world has a child,
 *      choosing by UCB with availability counts for whichever seat acts (each maximises its
 *      own reward); forced moves (one legal action) are stepped without a node;
 *   4. expand one untried legal action: the rollout policy's, if untried, else a random one;
 *   5. roll out with the rollout policy to the end, or to the start of the `depth`-th turn
 *      after the root's, and score it as it stands (value.ts);
 *   6. back up per-seat rewards (evaluate.ts) along the path.
 * The decision is the root's most visited action, unless a paired test over the shared
 * worlds cannot tell it from the rollout policy's own choice (tree.ts, confidentChoice).
 *
 * Given a model of the other seats (`opponents`: a best response, best-response.ts), every
 * other seat's move, in the tree and in rollouts, is the model's in the sampled world, not a
 * UCB choice: the tree then keeps their moves apart without searching them. Without one, as
 * registered (`ismcts`), every seat is searched as above.
 *
 * Budget: `iterations` per decision is deterministic — the same game seed gives the same
 * choices. `timeMs` > 0 searches for that long instead, so choices depend on the machine.
 * A caller's time budget (the server's, `act(obs, budget)`) cuts either short: the search
 * answers with what it has rather than be stopped with nothing.
 */
import { DEFAULT_RULESET, randInt, seedRng, shuffle, type CzechPubEnv, type RngState } from '../../env/index.ts';
import type { Agent, AgentObservation, DecisionBudget, GameStart } from '../agent.ts';
import { Belief } from '../beliefs/belief.ts';
import { agentModel, type BeliefModel } from '../beliefs/model.ts';
import { outcomeRewards } from './evaluate.ts';
import { cutOffDepth, type IsmctsOptions } from './options.ts';
import { Evaluator } from './value.ts';
import { Horizon, makeRollout, ModelledRollout, rollout, type RolloutPolicy } from './rollout.ts';
import { backup, bestValued, confidentChoice, markAvailable, mostVisited, Node, selectUcb, settled } from './tree.ts';

export interface SearchStats {
  iterations: number;
  /** Visits per root action. */
  rootVisits: Map<number, number>;
  root: Node;
}

export class IsmctsAgent implements Agent {
  /** Every seat's rollouts: the rollout policy, or with a model, the seat's own and the model for the others. */
  private readonly policy: RolloutPolicy;
  private gameSeed = 'ismcts';
  private decision = 0;
  /** This game's cut-off (options.ts, cutOffDepth). */
  private depth: number;
  /** Statistics of the last search, for tests and diagnostics. */
  lastSearch: SearchStats | null = null;

  constructor(
    readonly spec: string,
    private readonly opts: IsmctsOptions,
    /** Makes the rollout policy's agents from its spec (the registry's create). */
    makeAgent: (spec: string) => Agent,
    /** Clock for `timeMs` (injected so the search itself stays clock-free). */
    private readonly now: () => number = () => performance.now(),
    /** How every seat but the searching one plays (best-response.ts); null: each is searched. */
    private readonly opponents: RolloutPolicy | null = null,
    /** With `beliefs=policy`: the model of the players the belief weighs deals with (default the shipped `ppo`). */
    beliefModel?: BeliefModel,
  ) {
    const own = makeRollout(opts.rollout, makeAgent);
    this.policy = opponents ? new ModelledRollout(own, opponents) : own;
    this.evaluator = new Evaluator(opts.eval);
    this.depth = opts.depth; // until a game under other rules says otherwise (reset)
    this.beliefModel = opts.beliefs === 'policy' ? (beliefModel ?? agentModel(makeAgent('ppo'))) : null;
  }

  private readonly beliefModel: BeliefModel | null;

  reset(game: GameStart): void {
    this.depth = cutOffDepth(this.spec, this.opts, game.ruleset ?? DEFAULT_RULESET);
    this.gameSeed = game.seed;
    this.decision = 0;
    this.policy.reset(game.players, `ismcts/${game.seed}`, game.seat, game.ruleset);
    this.beliefModel?.reset?.(game);
  }

  act(obs: AgentObservation, limit?: DecisionBudget): number {
    const legal = obs.legalActions;
    const decision = this.decision++;
    this.lastSearch = null;
    if (legal.length === 1) return legal[0];
    if (!obs.sampleWorld) throw new Error(`agent '${this.spec}' needs obs.sampleWorld (a locally held game) to search`);
    const seat = obs.seat;
    const seed = `${this.gameSeed}/d${decision}`;
    const rng = seedRng(`ismcts/${seed}`);
    // The clairvoyant reference is dealt the true game: a belief has nothing to add to it.
    const belief = this.beliefModel && !(this as { clairvoyant?: true }).clairvoyant ? new Belief(obs, this.beliefModel, `${seed}/belief`) : null;
    const deal = (s: string) => (belief ? belief.sample(s) : obs.sampleWorld!(s));
    // The root is the seat's own information set: the same legal actions in every
    // determinization, and the same choice of the policy in any of them.
    const base = this.policy.guides ? this.policy.act(deal(`${seed}/base`), legal, rng) : -1;
    const order = legal.filter((a) => a !== base);
    shuffle(rng, order);
    if (base >= 0) order.unshift(base);
    const root = new Node(obs.players, -1, -1);
    const start = this.opts.timeMs > 0 || limit ? this.now() : 0;
    const deadline = Math.min(this.opts.timeMs > 0 ? start + this.opts.timeMs : Infinity, limit ? start + limit.timeLeftMs : Infinity);
    const budget = this.opts.timeMs > 0 ? Infinity : this.opts.iterations;
    // The k-th visit of every root action meets the same k-th world (and dice and rollout
    // draws): common random numbers, so root actions are compared on equal deals. Each world
    // is dealt once per decision and copied for every root action that meets it.
    const worlds: CzechPubEnv[] = [];
    let it = 0;
    while (it < budget) {
      if (it > 0 && deadline !== Infinity && this.now() >= deadline) break;
      const child = this.selectRoot(root, seat, order);
      const k = child.visits;
      const world = (worlds[k] ??= deal(`${seed}/w${k}`)).clone();
      const horizon = new Horizon(world, this.depth);
      world.step(child.action);
      horizon.update(world);
      this.iterate(root, child, world, horizon, seedRng(`ismcts/${seed}/r${k}`));
      it++;
      // Stop once the most visited action cannot be overtaken in the iterations left.
      if (budget !== Infinity && it % 10 === 0 && settled(root, seat, budget - it)) break;
    }
    this.lastSearch = {
      iterations: it,
      rootVisits: new Map(legal.map((a) => [a, root.child(seat, a)?.visits ?? 0])),
      root,
    };
    const best = this.opts.final === 'value' ? bestValued(root, seat, legal) : mostVisited(root, seat, legal);
    if (best < 0) return base >= 0 ? base : legal[0];
    return confidentChoice(root, seat, best, base, this.opts.confidence);
  }

  /** UCB over the root's actions, widening in `order` (the policy's choice first). */
  private selectRoot(root: Node, seat: number, order: readonly number[]): Node {
    // Root children are added in `order`, so the available ones come in that order too (UCB
    // ties keep the first) and the first untried action is the next one to widen to.
    markAvailable(root, seat, order, this.available, this.untried);
    if (this.untried.length > 0 && this.available.length < this.width(root)) {
      const child = root.addChild(seat, this.untried[0]);
      child.avail = 1;
      child.samples = [];
      return child;
    }
    return selectUcb(this.available, seat, this.opts.c);
  }

  /** Progressive widening: how many children `node` may have by now. */
  private width(node: Node): number {
    return this.opts.widen > 0 ? Math.ceil(this.opts.widen * Math.sqrt(node.visits + 1)) : Infinity;
  }

  private readonly available: Node[] = [];
  private readonly untried: number[] = [];
  private readonly path: Node[] = [];
  private rewardBuf = new Float64Array(0);
  private totals = new Float64Array(0);
  private readonly evaluator: Evaluator;

  /** The rollout policy's action if it is untried, so a young node plays like the policy; else a random untried one. */
  private expansion(world: CzechPubEnv, legal: readonly number[], rng: RngState): number {
    const untried = this.untried;
    if (this.policy.guides) {
      const a = this.policy.act(world, legal, rng);
      if (untried.includes(a)) return a;
    }
    return untried[randInt(rng, untried.length)];
  }

  /** One iteration below the root's chosen `child` (the searching seat's move), whose action `world` has just taken. */
  private iterate(root: Node, child: Node, world: CzechPubEnv, horizon: Horizon, rng: RngState): void {
    const path = this.path;
    path.length = 0;
    path.push(root, child);
    let node = child;
    // Selection and expansion.
    while (!world.done && !horizon.reached) {
      const legal = world.legalActions();
      if (legal.length === 1) {
        world.step(legal[0]);
        horizon.update(world);
        continue;
      }
      const actor = world.actor;
      if (this.opponents && actor !== child.actor) {
        // A modelled seat moves as the model plays here; a move new to this node ends the descent.
        const a = this.opponents.act(world, legal, rng);
        const seen = node.child(actor, a);
        const next = seen ?? node.addChild(actor, a);
        path.push(next);
        world.step(a);
        horizon.update(world);
        if (!seen) break;
        node = next;
        continue;
      }
      markAvailable(node, actor, legal, this.available, this.untried);
      if (this.untried.length > 0 && this.available.length < this.width(node)) {
        const a = this.expansion(world, legal, rng);
        const child = node.addChild(actor, a);
        child.avail = 1;
        path.push(child);
        world.step(a);
        horizon.update(world);
        break;
      }
      node = selectUcb(this.available, actor, this.opts.c);
      path.push(node);
      world.step(node.action);
      horizon.update(world);
    }
    rollout(world, this.policy, rng, horizon);
    if (this.rewardBuf.length !== world.players) this.rewardBuf = new Float64Array(world.players);
    if (this.totals.length !== world.players) this.totals = new Float64Array(world.players);
    const rewards = outcomeRewards(this.evaluator.totals(world, this.totals), this.opts, this.rewardBuf);
    backup(path, rewards);
    child.samples!.push(rewards[child.actor]);
  }
}
