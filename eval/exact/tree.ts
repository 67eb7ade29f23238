/**
 * The whole game tree of a small ruleset (the micro one), chance included, as flat arrays.
 *
 * The engine names every random outcome through a chance source (env/engine/context.ts,
 * Chance): the deal and each draw (a card type, weighted by the pile's counts), a die face, a
 * card taken at random from a hand, CLOSING TIME's depth. A step is expanded by running it
 * once per sequence of outcomes: a run that meets a chance node it has no outcome for stops,
 * and is run again for each outcome. So a node's children are the decisions (or ends) its
 * action can lead to, each with its probability.
 *
 * Every decision belongs to an information set of the seat deciding, named by the seat's
 * information-state key (env/observation/infoset.ts: what the seat channel showed it, its
 * hands at its decisions and its actions). All histories in one set must offer the same legal
 * actions: the walk checks it, as a check that the key holds all the seat knows.
 *
 * Nodes are numbered in depth-first pre-order, so a child's number is always above its
 * parent's: one pass up the numbers carries reach probabilities down the tree, one pass down
 * carries values up.
 */
import {
  applyStep, cloneState, createState, finalScores, foldAction, foldDecision, foldEvents, HAND_TYPES, infoKeyStart, legalActions,
  rulesFor, terminalRewards, type Chance, type CompiledRules, type GameEvent, type GameState, type RewardScheme, type Ruleset,
} from '../../env/index.ts';

export interface TreeOptions {
  players: number;
  ruleset: Ruleset;
  /** The payoff at the end (env/rewards.ts); `win` by default. */
  reward?: RewardScheme;
  /** A game still going after this many decisions is scored as it stands (the env's truncation). */
  maxDecisions?: number;
  /** Refuse a tree larger than this many nodes (memory). */
  maxNodes?: number;
}

export const TREE_DEFAULTS = { reward: 'win' as RewardScheme, maxDecisions: 200, maxNodes: 2_000_000 };

export class TreeTooLargeError extends Error {
  override name = 'TreeTooLargeError';
}

/** One information set: the seat deciding, its key, its legal actions (ascending), and a state of one of its histories. */
export interface InfoSet {
  seat: number;
  key: string;
  legal: number[];
  /** Where its actions' probabilities start in a policy's flat array (`GameTree.policySize` in all). */
  offset: number;
  /** A state of a history in the set: every history in it shows the seat the same. */
  state: GameState;
  /** Its nodes. */
  nodes: number[];
}

class NeedChance extends Error {
  constructor(readonly weights: readonly number[]) {
    super('a chance node without an outcome');
  }
}

/** Names the outcomes of `path` in turn; past its end, stops the run at the chance node met. */
class ScriptedChance implements Chance {
  private pos = 0;
  prob = 1;
  constructor(private readonly path: readonly number[]) {}
  pick(weights: readonly number[]): number {
    if (this.pos === this.path.length) throw new NeedChance(weights.slice());
    const i = this.path[this.pos++];
    let sum = 0;
    for (const w of weights) sum += w;
    this.prob *= weights[i] / sum;
    return i;
  }
}

interface Outcome {
  prob: number;
  state: GameState;
  log: GameEvent[];
}

/** Every way `run` can go, with its probability: one run per sequence of chance outcomes; more than `max` of them is refused. */
export function chanceOutcomes(run: (chance: Chance, log: GameEvent[]) => GameState, max = Infinity): Outcome[] {
  const out: Outcome[] = [];
  const stack: number[][] = [[]];
  while (stack.length > 0) {
    if (out.length + stack.length > max) throw new TreeTooLargeError(`one step has more than ${max} chance outcomes: choose a smaller ruleset or fewer players`);
    const path = stack.pop()!;
    const chance = new ScriptedChance(path);
    const log: GameEvent[] = [];
    try {
      const state = run(chance, log);
      out.push({ prob: chance.prob, state, log });
    } catch (e) {
      if (!(e instanceof NeedChance)) throw e;
      for (let i = e.weights.length - 1; i >= 0; i--) if (e.weights[i] > 0) stack.push([...path, i]);
    }
  }
  return out;
}

export class GameTree {
  readonly players: number;
  readonly rules: CompiledRules;
  readonly reward: RewardScheme;
  /** Per node: the seat deciding, or -1 at an end. */
  readonly actor: Int8Array;
  /** Per decision node: its information set. */
  readonly infoset: Int32Array;
  /** Per decision node: its first edge (one edge per legal action, in the set's order). */
  readonly edgeStart: Int32Array;
  /** Per edge: its outcomes, `outFrom[e]` up to `outTo[e]`. */
  readonly outFrom: Int32Array;
  readonly outTo: Int32Array;
  readonly outProb: Float64Array;
  readonly outChild: Int32Array;
  /** Per node × seat: the payoff at an end (zero elsewhere). */
  readonly payoff: Float64Array;
  /** The deals: outcomes `rootStart` up to `rootEnd`. */
  readonly rootStart: number;
  readonly rootEnd: number;
  readonly infosets: InfoSet[];
  readonly policySize: number;
  /** Ends reached by the decision cap rather than by the rules. */
  readonly truncated: number;
  readonly maxDepth: number;

  constructor(opts: TreeOptions) {
    const o = { ...TREE_DEFAULTS, ...opts };
    const rules = rulesFor(o.ruleset);
    const b = new Builder(rules, o.players, o.reward, o.maxDecisions, o.maxNodes);
    const deals = chanceOutcomes((chance, log) => createState({ players: o.players, seed: 0, ruleset: o.ruleset }, log, chance).state, o.maxNodes);
    const start = [...Array(o.players).keys()].map(infoKeyStart);
    const [from, to] = b.outcomes(deals, start);
    this.players = o.players;
    this.rules = rules;
    this.reward = o.reward;
    this.actor = Int8Array.from(b.actor);
    this.infoset = Int32Array.from(b.infoset);
    this.edgeStart = Int32Array.from(b.edgeStart);
    this.outFrom = Int32Array.from(b.outFrom);
    this.outTo = Int32Array.from(b.outTo);
    this.outProb = Float64Array.from(b.outProb);
    this.outChild = Int32Array.from(b.outChild);
    this.payoff = Float64Array.from(b.payoff);
    this.rootStart = from;
    this.rootEnd = to;
    this.infosets = b.infosets;
    this.policySize = b.policySize;
    this.truncated = b.truncated;
    this.maxDepth = b.maxDepth;
  }

  get nodes(): number {
    return this.actor.length;
  }
  get edges(): number {
    return this.outFrom.length;
  }
  get ends(): number {
    let n = 0;
    for (let i = 0; i < this.actor.length; i++) if (this.actor[i] < 0) n++;
    return n;
  }
  /** Chance outcomes (the deals and every outcome of every action). */
  get outcomes(): number {
    return this.outProb.length;
  }

  /** The information sets of one seat. */
  infosetsOf(seat: number): InfoSet[] {
    return this.infosets.filter((s) => s.seat === seat);
  }
}

class Builder {
  actor: number[] = [];
  infoset: number[] = [];
  edgeStart: number[] = [];
  outFrom: number[] = [];
  outTo: number[] = [];
  outProb: number[] = [];
  outChild: number[] = [];
  payoff: number[] = [];
  infosets: InfoSet[] = [];
  private byKey = new Map<string, number>();
  policySize = 0;
  truncated = 0;
  maxDepth = 0;

  constructor(
    private readonly r: CompiledRules,
    private readonly players: number,
    private readonly reward: RewardScheme,
    private readonly maxDecisions: number,
    private readonly maxNodes: number,
  ) {}

  /** The deals: their slots laid out, then each child built; returns the slot range. */
  outcomes(outs: Outcome[], keys: readonly string[]): [number, number] {
    const from = this.slots(outs);
    this.children(from, outs, keys, 0);
    return [from, from + outs.length];
  }

  /** Slots for `outs` (probabilities now, children to come), contiguous; returns the first. */
  private slots(outs: Outcome[]): number {
    const from = this.outProb.length;
    for (const o of outs) {
      this.outProb.push(o.prob);
      this.outChild.push(-1);
    }
    return from;
  }

  /** Builds the child of each of `outs` into its slot from `from` on, every seat's key moved on by what it saw. */
  private children(from: number, outs: Outcome[], keys: readonly string[], depth: number): void {
    for (let k = 0; k < outs.length; k++) {
      const next = keys.map((key, seat) => foldEvents(key, seat, outs[k].log));
      this.outChild[from + k] = this.node(outs[k].state, next, depth);
    }
  }

  private newNode(actor: number): number {
    const n = this.actor.length;
    if (n >= this.maxNodes) {
      throw new TreeTooLargeError(`the game tree has more than ${this.maxNodes} nodes: choose a smaller ruleset or fewer players`);
    }
    this.actor.push(actor);
    this.infoset.push(-1);
    this.edgeStart.push(-1);
    for (let p = 0; p < this.players; p++) this.payoff.push(0);
    return n;
  }

  private node(s: GameState, keys: readonly string[], depth: number): number {
    if (depth > this.maxDepth) this.maxDepth = depth;
    if (s.over || s.decisions >= this.maxDecisions) {
      const n = this.newNode(-1);
      if (!s.over) this.truncated++;
      const pay = terminalRewards(this.reward, finalScores(this.r, s));
      for (let p = 0; p < this.players; p++) this.payoff[n * this.players + p] = pay[p];
      return n;
    }
    const seat = s.actor;
    const key = foldDecision(keys[seat], s.hand.slice(seat * HAND_TYPES, (seat + 1) * HAND_TYPES));
    const legal = legalActions(this.r, s);
    const n = this.newNode(seat);
    const set = this.infosetFor(seat, key, legal, s);
    set.nodes.push(n);
    this.infoset[n] = set.index;
    this.edgeStart[n] = this.outFrom.length;
    const perEdge: Outcome[][] = legal.map((a) =>
      chanceOutcomes((chance, log) => {
        const next = cloneState(s);
        applyStep(this.r, next, a, log, true, chance);
        return next;
      }, this.maxNodes),
    );
    // This node's edges and all their outcome slots are laid out before any child takes numbers.
    const starts = perEdge.map((outs) => {
      const from = this.slots(outs);
      this.outFrom.push(from);
      this.outTo.push(from + outs.length);
      return from;
    });
    for (let i = 0; i < legal.length; i++) {
      const after = keys.slice();
      after[seat] = foldAction(key, legal[i]);
      this.children(starts[i], perEdge[i], after, depth + 1);
    }
    return n;
  }

  private infosetFor(seat: number, key: string, legal: number[], s: GameState): InfoSet & { index: number } {
    const known = this.byKey.get(key);
    if (known !== undefined) {
      const set = this.infosets[known] as InfoSet & { index: number };
      if (set.legal.length !== legal.length || set.legal.some((a, i) => a !== legal[i])) {
        throw new Error(`information set ${key} of seat ${seat} offers different actions in two of its histories: its key misses something the seat knows`);
      }
      return set;
    }
    const set = { seat, key, legal, offset: this.policySize, state: cloneState(s), nodes: [], index: this.infosets.length };
    this.policySize += legal.length;
    this.byKey.set(key, set.index);
    this.infosets.push(set);
    return set;
  }
}
