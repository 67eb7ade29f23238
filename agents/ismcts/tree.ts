/**
 * The search tree of single-observer ISMCTS (Cowling, Powley & Whitehouse, 2012).
 *
 * A node is the searching seat's information set reached by a sequence of actions; it holds
 * the statistics of the edge that led to it. Children are keyed by (actor, action), not by
 * action alone: who is asked in a reaction window depends on hidden hands, so one action
 * sequence may reach different actors in different determinizations, and "seat 2 passes"
 * must not share statistics with "seat 3 passes".
 *
 * Every edge keeps the sum of each seat's reward, so the player choosing at a node picks
 * by their own mean (the max^n idea of multi-player MCTS). A child's `avail` counts the
 * iterations in which its action was legal at the parent, and replaces the parent's visit
 * count in UCB: an action legal in few determinizations is not starved of exploration.
 */
import { NUM_ACTIONS } from '../../env/index.ts';
import { beatsPaired } from '../paired.ts';

export class Node {
  /** Iterations that passed through this edge. */
  visits = 0;
  /** Iterations in which this edge's action was legal at the parent. */
  avail = 0;
  /** Sum of the backed-up reward of each seat. */
  readonly reward: Float64Array;
  /** At the root's children: the seat's reward of each visit in order (the k-th on the k-th world). */
  samples: number[] | null = null;
  readonly children = new Map<number, Node>();

  constructor(
    players: number,
    /** The seat that chose this edge's action (-1 at the root). */
    readonly actor: number,
    readonly action: number,
  ) {
    this.reward = new Float64Array(players);
  }

  child(actor: number, action: number): Node | undefined {
    return this.children.get(edgeKey(actor, action));
  }

  addChild(actor: number, action: number): Node {
    const n = new Node(this.reward.length, actor, action);
    this.children.set(edgeKey(actor, action), n);
    return n;
  }

  mean(seat: number): number {
    return this.visits > 0 ? this.reward[seat] / this.visits : 0;
  }
}

export const edgeKey = (actor: number, action: number): number => actor * NUM_ACTIONS + action;

/**
 * Counts one more availability for each child whose action is legal in this world: they go
 * to `out`, the legal actions without a child yet to `unexpanded`.
 */
export function markAvailable(node: Node, actor: number, legal: readonly number[], out: Node[], unexpanded: number[]): void {
  out.length = 0;
  unexpanded.length = 0;
  for (const a of legal) {
    const c = node.child(actor, a);
    if (c) {
      c.avail++;
      out.push(c);
    } else {
      unexpanded.push(a);
    }
  }
}

/** UCB1 with availability counts, for the seat choosing among `children` (all visited). */
export function selectUcb(children: readonly Node[], actor: number, c: number): Node {
  let best = children[0];
  let bestScore = -Infinity;
  for (const ch of children) {
    const score = ch.reward[actor] / ch.visits + c * Math.sqrt(Math.log(ch.avail) / ch.visits);
    // Ties keep the first child (lowest key in insertion order): deterministic.
    if (score > bestScore) {
      bestScore = score;
      best = ch;
    }
  }
  return best;
}

/** Adds one iteration's per-seat rewards to every edge of the path. */
export function backup(path: readonly Node[], rewards: ArrayLike<number>): void {
  for (const n of path) {
    n.visits++;
    for (let p = 0; p < n.reward.length; p++) n.reward[p] += rewards[p];
  }
}

/**
 * The root's decision: the most visited of the seat's legal actions, ties broken by the
 * seat's mean reward, then by the lower action id. Returns -1 if none was visited.
 */
export function mostVisited(root: Node, seat: number, legal: readonly number[]): number {
  let best = -1;
  let bestVisits = 0;
  let bestMean = -Infinity;
  for (const a of legal) {
    const ch = root.child(seat, a);
    if (!ch || ch.visits === 0) continue;
    const m = ch.mean(seat);
    if (ch.visits > bestVisits || (ch.visits === bestVisits && m > bestMean)) {
      best = a;
      bestVisits = ch.visits;
      bestMean = m;
    }
  }
  return best;
}

/**
 * Keeps the rollout policy's own choice `base` unless the search's choice beats it by more
 * than `z` standard errors: most near-ties the search resolves are noise, and the policy's
 * choice is the better prior among them. The test is paired, visit k of one against visit k
 * of the other, since both met the same k-th world.
 */
export function confidentChoice(root: Node, seat: number, best: number, base: number, z: number): number {
  if (best === base || base < 0 || z <= 0) return best;
  const x = root.child(seat, best)?.samples;
  const b = root.child(seat, base)?.samples;
  if (!x || !b) return best;
  return (beatsPaired(x, b, z) ?? true) ? best : base;
}

/** Whether the seat's most visited root action leads the runner-up by more than `left` visits. */
export function settled(root: Node, seat: number, left: number): boolean {
  let first = 0;
  let second = 0;
  for (const ch of root.children.values()) {
    if (ch.actor !== seat) continue;
    if (ch.visits > first) {
      second = first;
      first = ch.visits;
    } else if (ch.visits > second) {
      second = ch.visits;
    }
  }
  return first - second > left;
}

/**
 * The best-valued of the seat's well-explored root actions (visited at least half as often
 * as the most visited one), or -1 if none was visited.
 */
export function bestValued(root: Node, seat: number, legal: readonly number[]): number {
  let most = 0;
  for (const a of legal) most = Math.max(most, root.child(seat, a)?.visits ?? 0);
  let best = -1;
  let bestMean = -Infinity;
  for (const a of legal) {
    const ch = root.child(seat, a);
    if (!ch || ch.visits === 0 || 2 * ch.visits < most) continue;
    if (ch.mean(seat) > bestMean) {
      best = a;
      bestMean = ch.mean(seat);
    }
  }
  return best;
}
