/**
 * CFR+ on a walked game tree (tree.ts): Tammelin's counterfactual regret minimisation with
 * regret matching+ (negative regrets floored at zero), alternating updates (one seat's regrets
 * per pass, the next seat seeing them at once) and the average strategy weighted by iteration
 * number. At 2 players the average strategy's NashConv goes to zero; at 3 there is no such
 * guarantee, and the curve says where it went.
 *
 * Each pass is two sweeps over the node numbers (tree.ts: children are numbered above their
 * parents): down the tree for the reach probabilities, up it for the values.
 */
import { exploitability, type Exploitability } from './best-response.ts';
import type { GameTree } from './tree.ts';

export interface CurvePoint {
  iterations: number;
  /** Seconds of solving (NashConv evaluations not counted). */
  seconds: number;
  nashConv: number;
}

export class CfrPlus {
  /** Iterations done. */
  iterations = 0;
  private readonly regret: Float64Array;
  private readonly avg: Float64Array;
  private readonly current: Float64Array;
  private readonly reachOthers: Float64Array;
  private readonly reachOwn: Float64Array;
  private readonly value: Float64Array;

  constructor(private readonly tree: GameTree) {
    this.regret = new Float64Array(tree.policySize);
    this.avg = new Float64Array(tree.policySize);
    this.current = new Float64Array(tree.policySize);
    this.reachOthers = new Float64Array(tree.nodes);
    this.reachOwn = new Float64Array(tree.nodes);
    this.value = new Float64Array(tree.nodes);
    for (const set of tree.infosets) this.match(set.offset, set.legal.length);
  }

  /** One iteration: a pass for each seat in turn. */
  iterate(): void {
    this.iterations++;
    for (let seat = 0; seat < this.tree.players; seat++) this.pass(seat);
  }

  /** The average strategy (what converges), normalised; a set never reached plays uniformly. */
  averagePolicy(): Float64Array {
    const out = new Float64Array(this.tree.policySize);
    for (const set of this.tree.infosets) {
      const n = set.legal.length;
      let sum = 0;
      for (let k = 0; k < n; k++) sum += this.avg[set.offset + k];
      for (let k = 0; k < n; k++) out[set.offset + k] = sum > 0 ? this.avg[set.offset + k] / sum : 1 / n;
    }
    return out;
  }

  exploitability(): Exploitability {
    return exploitability(this.tree, this.averagePolicy());
  }

  /** Regret matching+: the current strategy of one set from its regrets. */
  private match(offset: number, n: number): void {
    let sum = 0;
    for (let k = 0; k < n; k++) sum += this.regret[offset + k];
    for (let k = 0; k < n; k++) this.current[offset + k] = sum > 0 ? this.regret[offset + k] / sum : 1 / n;
  }

  private pass(seat: number): void {
    const t = this.tree;
    const P = t.players;
    const { reachOthers, reachOwn, value, current, regret, avg } = this;
    reachOthers.fill(0);
    reachOwn.fill(0);
    for (let o = t.rootStart; o < t.rootEnd; o++) {
      reachOthers[t.outChild[o]] = t.outProb[o];
      reachOwn[t.outChild[o]] = 1;
    }
    for (let n = 0; n < t.nodes; n++) {
      const actor = t.actor[n];
      if (actor < 0) continue;
      const set = t.infosets[t.infoset[n]];
      const mine = actor === seat;
      for (let k = 0; k < set.legal.length; k++) {
        const p = current[set.offset + k];
        const e = t.edgeStart[n] + k;
        const others = mine ? reachOthers[n] : reachOthers[n] * p;
        const own = mine ? reachOwn[n] * p : reachOwn[n];
        for (let o = t.outFrom[e]; o < t.outTo[e]; o++) {
          reachOthers[t.outChild[o]] = others * t.outProb[o];
          reachOwn[t.outChild[o]] = own;
        }
      }
    }
    const weight = this.iterations;
    for (let n = t.nodes - 1; n >= 0; n--) {
      const actor = t.actor[n];
      if (actor < 0) {
        value[n] = t.payoff[n * P + seat];
        continue;
      }
      const set = t.infosets[t.infoset[n]];
      const mine = actor === seat;
      let v = 0;
      for (let k = 0; k < set.legal.length; k++) {
        const e = t.edgeStart[n] + k;
        let q = 0;
        for (let o = t.outFrom[e]; o < t.outTo[e]; o++) q += t.outProb[o] * value[t.outChild[o]];
        v += current[set.offset + k] * q;
        // The action values wait in the regrets' slots for this node's own value, just below.
        if (mine) regret[set.offset + k] += reachOthers[n] * q;
      }
      value[n] = v;
      if (mine) {
        for (let k = 0; k < set.legal.length; k++) {
          regret[set.offset + k] -= reachOthers[n] * v;
          avg[set.offset + k] += weight * reachOwn[n] * current[set.offset + k];
        }
      }
    }
    // Regret matching+: floor at zero, then the new current strategy of this seat's sets.
    for (const set of t.infosets) {
      if (set.seat !== seat) continue;
      for (let k = 0; k < set.legal.length; k++) if (regret[set.offset + k] < 0) regret[set.offset + k] = 0;
      this.match(set.offset, set.legal.length);
    }
  }
}

/**
 * Runs CFR+ until `seconds` of solving have passed (or `maxIterations`), measuring the average
 * strategy's NashConv at iterations 1, 2, 5, 10, 20, 50, … and at the end. `now` is the clock in
 * seconds (injected: a test counts iterations instead).
 */
export function solve(
  tree: GameTree,
  opts: {
    seconds: number;
    maxIterations?: number;
    now?: () => number;
    /** At each point: the average strategy measured and its exploitability (the last call is the end's). */
    onPoint?: (p: CurvePoint, policy: Float64Array, e: Exploitability) => void;
  },
): { solver: CfrPlus; curve: CurvePoint[] } {
  const now = opts.now ?? (() => performance.now() / 1000);
  const solver = new CfrPlus(tree);
  const curve: CurvePoint[] = [];
  const max = opts.maxIterations ?? Infinity;
  let spent = 0;
  let next = 1;
  const measure = () => {
    const policy = solver.averagePolicy();
    const e = exploitability(tree, policy);
    const p = { iterations: solver.iterations, seconds: spent, nashConv: e.nashConv };
    curve.push(p);
    opts.onPoint?.(p, policy, e);
  };
  while (solver.iterations < max && spent < opts.seconds) {
    const start = now();
    solver.iterate();
    spent += now() - start;
    if (solver.iterations === next) {
      measure();
      const d = String(next)[0];
      next = d === '1' || d === '5' ? next * 2 : (next / 2) * 5;
    }
  }
  if (curve.at(-1)?.iterations !== solver.iterations) measure();
  return { solver, curve };
}
