import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAgent, RandomAgent, TabularAgent, tabularPolicyFile, type Agent } from '../../agents/index.ts';
import {
  CARD_IDS, createState, CzechPubEnv, foldAction, foldDecision, foldEvents, infoKeyStart, MICRO_RULESET, nextFloat, parseRuleset, seedRng, type Ruleset,
} from '../../env/index.ts';
import { playGame } from '../game.ts';
import { agentPolicy, policyTable } from './agent-policy.ts';
import { bestResponse, exploitability, policyValues, uniformPolicy } from './best-response.ts';
import { CfrPlus, solve } from './cfr.ts';
import { chanceOutcomes, GameTree } from './tree.ts';

/** The micro ruleset cut down to two beers and two seats: 85 nodes, small enough to try every pure strategy. */
function tinyRuleset(overrides: Partial<Ruleset> = {}): Ruleset {
  const cards = Object.fromEntries(Object.entries(MICRO_RULESET.cards).map(([id, c]) => [id, { ...c, count: id === 'beer' ? 2 : 0 }]));
  return parseRuleset({ ...MICRO_RULESET, name: 'tiny', players: { min: 2, max: 2 }, cards, ...overrides });
}

/** A seeded random mixed policy, some sets certain, some mixed. */
function randomPolicy(tree: GameTree, seed: string): Float64Array {
  const rng = seedRng(seed);
  const p = new Float64Array(tree.policySize);
  for (const set of tree.infosets) {
    const n = set.legal.length;
    if (nextFloat(rng) < 0.4) {
      p[set.offset + Math.floor(nextFloat(rng) * n)] = 1;
      continue;
    }
    let sum = 0;
    for (let k = 0; k < n; k++) sum += p[set.offset + k] = nextFloat(rng) + 1e-3;
    for (let k = 0; k < n; k++) p[set.offset + k] /= sum;
  }
  return p;
}

/** The best a seat can do against `policy` by trying every pure strategy of its own: the brute force. */
function bruteForceBest(tree: GameTree, policy: Float64Array, seat: number): number {
  const sets = tree.infosetsOf(seat);
  const choice = new Array<number>(sets.length).fill(0);
  const p = policy.slice();
  let best = -Infinity;
  for (;;) {
    sets.forEach((set, i) => {
      for (let k = 0; k < set.legal.length; k++) p[set.offset + k] = k === choice[i] ? 1 : 0;
    });
    best = Math.max(best, policyValues(tree, p)[seat]);
    let i = 0;
    while (i < sets.length && ++choice[i] === sets[i].legal.length) choice[i++] = 0;
    if (i === sets.length) return best;
  }
}

describe('chance nodes', () => {
  it("a step's outcomes have probabilities summing to 1, one per way the chance can go", () => {
    const deals = chanceOutcomes((chance, log) => createState({ players: 2, seed: 0, ruleset: MICRO_RULESET }, log, chance).state);
    expect(deals.reduce((a, o) => a + o.prob, 0)).toBeCloseTo(1, 12);
    // Four different cards, one each to two seats: 4 × 3 deals, each 1/12.
    expect(deals.length).toBe(12);
    for (const d of deals) expect(d.prob).toBeCloseTo(1 / 12, 12);
  });
});

describe('the micro tree at 2 players', () => {
  let tree: GameTree;
  beforeAll(() => {
    tree = new GameTree({ players: 2, ruleset: MICRO_RULESET });
  }, 300_000); // the whole tree walked: seconds, more on a busy machine (a hook's default limit is 10 s)

  it('is whole: every edge has outcomes whose probabilities sum to 1, and no game is cut short', () => {
    expect(tree.truncated).toBe(0);
    let root = 0;
    for (let o = tree.rootStart; o < tree.rootEnd; o++) root += tree.outProb[o];
    expect(root).toBeCloseTo(1, 12);
    for (let e = 0; e < tree.edges; e++) {
      let sum = 0;
      for (let o = tree.outFrom[e]; o < tree.outTo[e]; o++) sum += tree.outProb[o];
      expect(Math.abs(sum - 1)).toBeLessThan(1e-12);
    }
    // Children are numbered above their parents (the passes rely on it).
    for (let n = 0; n < tree.nodes; n++) {
      if (tree.actor[n] < 0) continue;
      const width = tree.infosets[tree.infoset[n]].legal.length;
      for (let e = tree.edgeStart[n]; e < tree.edgeStart[n] + width; e++) {
        for (let o = tree.outFrom[e]; o < tree.outTo[e]; o++) expect(tree.outChild[o]).toBeGreaterThan(n);
      }
    }
  });

  it('holds every seeded game as a path, each decision at the information set its seat keys from its own channel', () => {
    const byKey = new Map(tree.infosets.map((s) => [s.key, s]));
    for (let g = 0; g < 200; g++) {
      const env = new CzechPubEnv({ players: 2, seed: `path-${g}`, ruleset: MICRO_RULESET });
      const keys = [infoKeyStart(0), infoKeyStart(1)];
      const rng = seedRng(`path-${g}`);
      while (!env.done) {
        const seat = env.actor;
        const legal = env.legalActions();
        const view = env.view(seat);
        const key = foldDecision(foldEvents(keys[seat], seat, env.events(seat)), CARD_IDS.map((id) => view.hand[id]));
        const set = byKey.get(key);
        expect(set, `game ${g}, decision ${env.actions.length}`).toBeDefined();
        expect(set!.seat).toBe(seat);
        expect(set!.legal).toEqual(legal);
        const a = legal[Math.floor(nextFloat(rng) * legal.length)];
        keys[seat] = foldAction(key, a);
        env.step(a);
      }
    }
  });

  it("gives the value seeded games average: random against random, exact against 20,000 games", () => {
    const exact = policyValues(tree, uniformPolicy(tree))[0];
    let sum = 0;
    let sq = 0;
    const n = 20_000;
    // One stream for every game's moves: streams seeded by strings that differ only in the
    // game's number are not independent of the deals seeded the same way.
    const rng = seedRng('mc-moves');
    for (let g = 0; g < n; g++) {
      const env = new CzechPubEnv({ players: 2, seed: `mc-${g}`, ruleset: MICRO_RULESET, log: false });
      while (!env.done) {
        const legal = env.legalActions();
        env.step(legal[Math.floor(nextFloat(rng) * legal.length)]);
      }
      const r = env.returns()[0];
      sum += r;
      sq += r * r;
    }
    const mean = sum / n;
    const se = Math.sqrt((sq / n - mean * mean) / n);
    expect(Math.abs(mean - exact)).toBeLessThan(4 * se);
  });

  it('a best response never scores below the policy it answers, for random, scripted and generated policies', () => {
    const policies = [uniformPolicy(tree), agentPolicy(tree, 'heuristic'), agentPolicy(tree, 'greedy'), ...[0, 1, 2, 3].map((i) => randomPolicy(tree, `gen-${i}`))];
    for (const policy of policies) {
      const e = exploitability(tree, policy);
      for (let seat = 0; seat < 2; seat++) {
        expect(e.bestResponse[seat]).toBeGreaterThanOrEqual(e.values[seat] - 1e-12);
        // The best response's own strategy, played, scores its value.
        const { value, choice } = bestResponse(tree, policy, seat);
        const played = policy.slice();
        for (const [set, k] of choice) {
          const s = tree.infosets[set];
          for (let j = 0; j < s.legal.length; j++) played[s.offset + j] = j === k ? 1 : 0;
        }
        expect(policyValues(tree, played)[seat]).toBeCloseTo(value, 10);
      }
      expect(e.nashConv).toBeGreaterThan(0);
    }
  });

  it('CFR+ ends below a tenth of random’s NashConv, counted in iterations', () => {
    const random = exploitability(tree, uniformPolicy(tree)).nashConv;
    const { solver, curve } = solve(tree, { seconds: Infinity, maxIterations: 50 });
    expect(solver.iterations).toBe(50);
    expect(curve.map((p) => p.iterations)).toEqual([1, 2, 5, 10, 20, 50]);
    expect(curve[0].nashConv).toBeCloseTo(random, 10);
    expect(solver.exploitability().nashConv).toBeLessThan(random / 10);
  });

  it('a CFR policy written as a table plays real games at the information sets it was solved on', async () => {
    const solver = new CfrPlus(tree);
    for (let i = 0; i < 20; i++) solver.iterate();
    const policy = solver.averagePolicy();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabular-'));
    const file = path.join(dir, 'policy.json');
    fs.writeFileSync(file, JSON.stringify(tabularPolicyFile(MICRO_RULESET, 2, { solver: 'test' }, policyTable(tree, policy))));
    const agent = createAgent(`tabular:${file}`) as TabularAgent;
    // Read back from the file by the tree's keys, the policy is the one solved (to the 6 digits written).
    const back = agentPolicy(tree, `tabular:${file}`);
    for (let i = 0; i < policy.length; i++) expect(Math.abs(back[i] - policy[i])).toBeLessThan(1e-5);
    let decisions = 0;
    for (let g = 0; g < 100; g++) {
      const seats: Agent[] = g % 2 === 0 ? [agent, new RandomAgent()] : [new RandomAgent(), agent];
      await playGame(seats, { seed: `tab-${g}`, ruleset: MICRO_RULESET });
      expect(agent.misses).toBe(0);
      decisions += agent.decisions;
    }
    expect(decisions).toBeGreaterThan(100);
    fs.rmSync(dir, { recursive: true });
    expect(() => createAgent(`tabular:${file}`)).toThrow(/cannot read the tabular policy/);
  });
});

describe('brute force on a two-beer ruleset', () => {
  it('the best response is the best of every pure strategy', () => {
    for (const [ruleset, seats] of [[tinyRuleset(), [0]], [tinyRuleset({ roll: { dieSides: 1, okMove: 1, failMove: 1, failStep: 2 } }), [0, 1]]] as const) {
      const tree = new GameTree({ players: 2, ruleset });
      expect(tree.nodes).toBeLessThan(100);
      for (const policy of [uniformPolicy(tree), randomPolicy(tree, 'tiny-a'), randomPolicy(tree, 'tiny-b')]) {
        for (const seat of seats) {
          expect(bestResponse(tree, policy, seat).value).toBeCloseTo(bruteForceBest(tree, policy, seat), 12);
        }
      }
    }
  });
});
