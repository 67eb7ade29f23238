/**
 * Exact values on a walked game tree (tree.ts): each seat's expected payoff when every seat
 * plays a policy, each seat's best-response value against the others playing it, and NashConv,
 * the sum over seats of what a best response gains (zero exactly at a Nash equilibrium).
 *
 * A policy is one flat array: for each information set, its legal actions' probabilities from
 * `InfoSet.offset` on, summing to 1.
 *
 * The best response of seat i is computed as OpenSpiel's best_response.py does it: at each of
 * i's information sets it takes the action of highest counterfactual value, the sum over the
 * set's histories of (the chance and other seats' probability of reaching the history) × (the
 * value of the action there, i responding best below). Perfect recall (tree.ts) makes the
 * recursion well founded: every set met below an action of i lies deeper than the set itself.
 */
import type { GameTree } from './tree.ts';

export interface Exploitability {
  /** Each seat's expected payoff when every seat plays the policy. */
  values: number[];
  /** Each seat's best-response value against the others playing the policy. */
  bestResponse: number[];
  /** bestResponse − values, per seat (never negative). */
  gains: number[];
  /** The sum of the gains. */
  nashConv: number;
}

/** Each seat's expected payoff when every seat plays `policy`. */
export function policyValues(tree: GameTree, policy: Float64Array): number[] {
  const P = tree.players;
  const v = new Float64Array(tree.nodes * P);
  // Children are numbered above their parents: going down the numbers, every child is ready.
  for (let n = tree.nodes - 1; n >= 0; n--) {
    if (tree.actor[n] < 0) {
      for (let p = 0; p < P; p++) v[n * P + p] = tree.payoff[n * P + p];
      continue;
    }
    const set = tree.infosets[tree.infoset[n]];
    for (let k = 0; k < set.legal.length; k++) {
      const pa = policy[set.offset + k];
      if (pa === 0) continue;
      const e = tree.edgeStart[n] + k;
      for (let o = tree.outFrom[e]; o < tree.outTo[e]; o++) {
        const w = pa * tree.outProb[o];
        const c = tree.outChild[o];
        for (let p = 0; p < P; p++) v[n * P + p] += w * v[c * P + p];
      }
    }
  }
  const out = new Array<number>(P).fill(0);
  for (let o = tree.rootStart; o < tree.rootEnd; o++) {
    for (let p = 0; p < P; p++) out[p] += tree.outProb[o] * v[tree.outChild[o] * P + p];
  }
  return out;
}

/** The probability that chance and every seat but `seat` take the path to each node (the seat's own choices count as taken). */
export function othersReach(tree: GameTree, policy: Float64Array, seat: number): Float64Array {
  const reach = new Float64Array(tree.nodes);
  for (let o = tree.rootStart; o < tree.rootEnd; o++) reach[tree.outChild[o]] = tree.outProb[o];
  for (let n = 0; n < tree.nodes; n++) {
    if (tree.actor[n] < 0 || reach[n] === 0) continue;
    const set = tree.infosets[tree.infoset[n]];
    const mine = tree.actor[n] === seat;
    for (let k = 0; k < set.legal.length; k++) {
      const pa = mine ? 1 : policy[set.offset + k];
      if (pa === 0) continue;
      const e = tree.edgeStart[n] + k;
      for (let o = tree.outFrom[e]; o < tree.outTo[e]; o++) reach[tree.outChild[o]] = reach[n] * pa * tree.outProb[o];
    }
  }
  return reach;
}

/** Seat `seat`'s best-response value against the others playing `policy`, and its best action (an index into the set's legal actions) at each of its sets. */
export function bestResponse(tree: GameTree, policy: Float64Array, seat: number): { value: number; choice: Map<number, number> } {
  const P = tree.players;
  const reach = othersReach(tree, policy, seat);
  const value = new Float64Array(tree.nodes).fill(NaN);
  const choice = new Map<number, number>();

  const edgeValue = (n: number, k: number): number => {
    const e = tree.edgeStart[n] + k;
    let v = 0;
    for (let o = tree.outFrom[e]; o < tree.outTo[e]; o++) v += tree.outProb[o] * nodeValue(tree.outChild[o]);
    return v;
  };
  const best = (setIndex: number): number => {
    const known = choice.get(setIndex);
    if (known !== undefined) return known;
    const set = tree.infosets[setIndex];
    let pick = 0;
    let top = -Infinity;
    for (let k = 0; k < set.legal.length; k++) {
      let q = 0;
      for (const h of set.nodes) if (reach[h] > 0) q += reach[h] * edgeValue(h, k);
      if (q > top + 1e-12) {
        top = q;
        pick = k;
      }
    }
    choice.set(setIndex, pick);
    return pick;
  };
  function nodeValue(n: number): number {
    if (!Number.isNaN(value[n])) return value[n];
    let v = 0;
    if (tree.actor[n] < 0) v = tree.payoff[n * P + seat];
    else if (tree.actor[n] === seat) v = edgeValue(n, best(tree.infoset[n]));
    else {
      const set = tree.infosets[tree.infoset[n]];
      for (let k = 0; k < set.legal.length; k++) {
        const pa = policy[set.offset + k];
        if (pa !== 0) v += pa * edgeValue(n, k);
      }
    }
    value[n] = v;
    return v;
  }

  let total = 0;
  for (let o = tree.rootStart; o < tree.rootEnd; o++) total += tree.outProb[o] * nodeValue(tree.outChild[o]);
  return { value: total, choice };
}

export function exploitability(tree: GameTree, policy: Float64Array): Exploitability {
  checkPolicy(tree, policy);
  const values = policyValues(tree, policy);
  const br = [...Array(tree.players).keys()].map((seat) => bestResponse(tree, policy, seat).value);
  // A best response can do no worse than the policy itself; rounding can put it a hair below.
  const gains = br.map((b, p) => Math.max(0, b - values[p]));
  return { values, bestResponse: br, gains, nashConv: gains.reduce((a, b) => a + b, 0) };
}

/** Throws unless `policy` gives every information set a probability distribution over its legal actions. */
export function checkPolicy(tree: GameTree, policy: Float64Array): void {
  if (policy.length !== tree.policySize) throw new Error(`a policy for this tree has ${tree.policySize} entries, not ${policy.length}`);
  for (const set of tree.infosets) {
    let sum = 0;
    for (let k = 0; k < set.legal.length; k++) {
      const p = policy[set.offset + k];
      if (!(p >= 0)) throw new Error(`information set ${set.key}: probability ${p} of action ${set.legal[k]}`);
      sum += p;
    }
    if (Math.abs(sum - 1) > 1e-6) throw new Error(`information set ${set.key}: probabilities sum to ${sum}`);
  }
}

/** The uniform policy over each set's legal actions. */
export function uniformPolicy(tree: GameTree): Float64Array {
  const policy = new Float64Array(tree.policySize);
  for (const set of tree.infosets) for (let k = 0; k < set.legal.length; k++) policy[set.offset + k] = 1 / set.legal.length;
  return policy;
}
