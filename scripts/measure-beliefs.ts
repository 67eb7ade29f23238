/**
 * How much closer to the truth does a belief from the other seats' choices come than the
 * uniform deal? (agents/beliefs; docs/results/2026-12-05-beliefs.md)
 *
 *   npx tsx scripts/measure-beliefs.ts --games 40 --players 4 --seats ppo,heuristic,ppo,heuristic --seed beliefs
 *   npx tsx scripts/measure-beliefs.ts --games 40 --seats ppo,heuristic,heuristic,heuristic --model seats
 *
 * Plays seeded games with the seats given (each agent reset with the game's agent seeds, as a
 * tournament does). At a sampled share of the decisions with a choice (`--every`: one in N),
 * the deciding seat's belief is made as `ppo-search:beliefs=policy` makes it (its model the
 * shipped `ppo` policy, reset for that seat; `--model SPEC` another agent, as `best-response`
 * models the bot it answers; `--model seats` each other seat by its own agent, the model a
 * belief could have at best), from a pool of `--candidates` worlds dealt by the
 * resampler with every decision weighed, and set against the truth. The same pool, weighed
 * evenly, is the uniform deal, so every comparison is paired. For each other seat in the game
 * holding cards, under each weighing:
 *
 *   exact    the probability the weighing puts on that seat's true hand (its count of each type);
 *   overlap  the share of its true hand the drawn hand holds (card for card, by type), expected;
 *   brier    the Brier score of "holds a card of type t", averaged over the 23 types (lower is better).
 *
 * The weighings: `uniform` (every dealt world alike); `possible` (alike among those in which
 * every decision on the record could have been taken: with askForced off, a seat asked had a
 * choice); `policy f=F t=T` (the policy's likelihood, mixed with a uniform choice by F, raised
 * to T). Each figure is a mean over the points and seats, with a 95% interval over games (a
 * game's points are not independent), and its difference from `uniform` the same way, paired.
 * Prints by the kind of the seat believed about (its agent) as well.
 */
import { parseArgs } from 'node:util';
import { CzechPubEnv, HAND_TYPES, randInt, seedRng } from '../env/index.ts';
import { agentModel, agentSeed, Belief, createAgent, EnvObservation, policyModel, temperedWeights, type BeliefModel, type PpoAgent, type Weighed } from '../agents/index.ts';
import { meanCI } from '../eval/index.ts';

// ---- arguments -------------------------------------------------------------------------------
const ARGS = {
  /** Games played. */
  games: { type: 'string', default: '40' },
  players: { type: 'string', default: '4' },
  /** An agent spec per seat (synchronous agents). */
  seats: { type: 'string', default: 'ppo,heuristic,ppo,heuristic' },
  /** Game k is dealt from `${seed}/${k}`. */
  seed: { type: 'string', default: 'beliefs' },
  /** One decision with a choice in this many is measured (drawn at random). */
  every: { type: 'string', default: '8' },
  /** Worlds in each belief's pool. */
  candidates: { type: 'string', default: '32' },
  /** Decisions weighed per other seat. */
  window: { type: 'string', default: '6' },
  /** Who the others are taken to be: ppo (ppo-search's model), an agent spec, or `seats` (each seat its own agent). */
  model: { type: 'string', default: 'ppo' },
  /** Ask every seat at every decision (the record then says nothing by who was asked). */
  'ask-forced': { type: 'boolean', default: false },
} as const;

const { values } = parseArgs({ options: ARGS, strict: true });
const int = (name: keyof typeof ARGS, min: number, max: number): number => {
  const v = Number(values[name]);
  if (!Number.isInteger(v) || v < min || v > max) throw new Error(`--${name} must be a whole number from ${min} to ${max}, got ${values[name]}`);
  return v;
};
const games = int('games', 1, 100_000);
const players = int('players', 2, 6);
const every = int('every', 1, 1000);
const candidates = int('candidates', 1, 10_000);
const window = int('window', 0, 1000);
const askForced = values['ask-forced'];
const seats = values.seats.split(',');
if (seats.length !== players) throw new Error(`--seats must name ${players} agents, got ${seats.length}`);

// ---- weighings -------------------------------------------------------------------------------
type Weighing = { name: string; weights: (pool: Weighed[]) => number[] };
const policy = (floor: number, temper: number): Weighing => ({
  name: `policy f=${floor} t=${temper}`,
  weights: (pool) => {
    const logs = pool.map((w) => (w.impossible ? -Infinity : w.probabilities.reduce((s, p, i) => s + temper * Math.log((1 - floor) * p + floor / w.legal[i]), 0)));
    const max = Math.max(...logs);
    return logs.map((l) => (max === -Infinity ? 1 : Math.exp(l - max)));
  },
});
/** The policy's likelihood tempered just enough that the effective sample size is at least `share` of the possible worlds (adaptive tempering). */
const adaptive = (floor: number, share: number): Weighing => ({
  name: `policy f=${floor} ess≥${share}`,
  weights: (pool) => {
    const logs = pool.map((w) => (w.impossible ? -Infinity : w.probabilities.reduce((s, p, i) => s + Math.log((1 - floor) * p + floor / w.legal[i]), 0)));
    return temperedWeights(logs, share);
  },
});
const WEIGHINGS: Weighing[] = [
  { name: 'uniform', weights: (pool) => pool.map(() => 1) },
  { name: 'possible', weights: (pool) => (pool.every((w) => w.impossible) ? pool.map(() => 1) : pool.map((w) => (w.impossible ? 0 : 1))) },
  policy(0.1, 1),
  policy(0.1, 0.5),
  policy(0.1, 0.25),
  policy(0.3, 0.5),
  policy(0.3, 1),
  adaptive(0.1, 0.25),
  adaptive(0.1, 0.5),
];

const METRICS = ['exact', 'overlap', 'brier'] as const;
type Metric = (typeof METRICS)[number];

/** The three figures of one weighing for one seat's true hand. */
function score(pool: Weighed[], weights: number[], seat: number, truth: number[]): Record<Metric, number> {
  const T = HAND_TYPES;
  const total = weights.reduce((s, w) => s + w, 0);
  const size = truth.reduce((s, k) => s + k, 0);
  let exact = 0;
  let overlap = 0;
  const holds = new Float64Array(T);
  pool.forEach((c, i) => {
    const w = weights[i] / total;
    if (w === 0) return;
    const hand = c.world.state.hand.slice(seat * T, (seat + 1) * T);
    let same = true;
    let common = 0;
    for (let t = 0; t < T; t++) {
      if (hand[t] !== truth[t]) same = false;
      common += Math.min(hand[t], truth[t]);
      if (hand[t] > 0) holds[t] += w;
    }
    if (same) exact += w;
    overlap += (w * common) / size;
  });
  let brier = 0;
  for (let t = 0; t < T; t++) brier += (holds[t] - (truth[t] > 0 ? 1 : 0)) ** 2;
  return { exact, overlap, brier: brier / T };
}

/** A believing seat's model of the others: `ppo` as ppo-search has it, another agent as best-response has its target, or every seat's own agent. */
function modelOf(spec: string): BeliefModel {
  if (spec === 'ppo') return policyModel(createAgent('ppo') as PpoAgent);
  if (spec !== 'seats') return agentModel(createAgent(spec));
  const bySeat = seats.map((s) => agentModel(createAgent(s)));
  return {
    probability: (obs, action) => bySeat[obs.seat].probability(obs, action),
    reset: (game) => bySeat.forEach((m, q) => m.reset?.({ ...game, seat: q })),
  };
}

// ---- games -----------------------------------------------------------------------------------
/** figures[kind][weighing][metric] = per game, the figures of its points. */
const figures = new Map<string, Map<string, Map<Metric, number[][]>>>();
const record = (kind: string, game: number, weighing: string, m: Record<Metric, number>) => {
  for (const k of [kind, 'all']) {
    if (!figures.has(k)) figures.set(k, new Map());
    const byW = figures.get(k)!;
    if (!byW.has(weighing)) byW.set(weighing, new Map(METRICS.map((x) => [x, []])));
    for (const x of METRICS) ((byW.get(weighing)!.get(x)![game] ??= [])).push(m[x]);
  }
};
let points = 0;
let fallbacks = 0;
let possibleShare = 0;
let essSum = 0;
let beliefMs = 0;
const started = performance.now();

for (let g = 0; g < games; g++) {
  const seed = `${values.seed}/${g}`;
  const env = new CzechPubEnv({ seed, players, askForced, log: false });
  const bots = seats.map((s) => createAgent(s));
  bots.forEach((b, seat) => b.reset?.({ seat, players, seed: agentSeed(seed, seat) }));
  // Each seat's model of the others, reset for that seat as ppo-search:beliefs=policy resets its own.
  const models = seats.map((_, seat) => {
    const m = modelOf(values.model);
    m.reset!({ seat, players, seed: agentSeed(seed, seat) });
    return m;
  });
  const rng = seedRng(`${seed}/points`);
  while (!env.done) {
    const seat = env.actor;
    const legal = env.legalActions();
    if (legal.length === 1) {
      env.step(legal[0]);
      continue;
    }
    const obs = new EnvObservation(env, seat, legal);
    if (randInt(rng, every) === 0) {
      const t0 = performance.now();
      const belief = new Belief(obs, models[seat], `${seed}/p${env.actions.length}`, { candidates, window, floor: 0, temper: 1, cutoff: Infinity });
      const pool = belief.weighted();
      beliefMs += performance.now() - t0;
      const stats = belief.stats();
      if (stats.decisions > 0) {
        points++;
        fallbacks += stats.fallback ? 1 : 0;
        possibleShare += stats.possible / stats.candidates;
        const w = policy(0.1, 1).weights(pool);
        const sum = w.reduce((s, x) => s + x, 0);
        essSum += (sum * sum) / w.reduce((s, x) => s + x * x, 0);
        const s = env.state;
        for (let q = 0; q < players; q++) {
          if (q === seat || s.out[q] !== 0 || s.handSize[q] === 0) continue;
          const truth = s.hand.slice(q * HAND_TYPES, (q + 1) * HAND_TYPES);
          for (const weighing of WEIGHINGS) record(seats[q], g, weighing.name, score(pool, weighing.weights(pool), q, truth));
        }
      }
    }
    const a = bots[seat].act(obs);
    if (typeof a !== 'number') throw new Error(`seat ${seat}'s agent '${seats[seat]}' must answer at once`);
    env.step(a);
  }
  if ((g + 1) % 10 === 0) console.error(`${g + 1} games, ${points} points, ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

// ---- report ----------------------------------------------------------------------------------
const f = (x: number, d: number) => x.toFixed(d);
const ci = (xs: number[], d: number) => {
  const m = meanCI(xs);
  return `${f(m.mean, d)} (${f(m.lo, d)}–${f(m.hi, d)})`;
};
const gameMeans = (perGame: number[][]) => perGame.filter((xs) => xs && xs.length > 0).map((xs) => xs.reduce((a, b) => a + b, 0) / xs.length);

console.log(`${games} games, ${players} players (${seats.join(', ')}), model ${values.model}, askForced ${askForced}, ${points} points, ${candidates} worlds each, window ${window}`);
console.log(`worlds possible ${f((100 * possibleShare) / points, 1)}%, fallbacks ${fallbacks}, effective sample size (policy f=0.1 t=1) ${f(essSum / points, 1)}, ${f(beliefMs / points, 0)} ms a belief (every decision weighed)`);
for (const [kind, byW] of figures) {
  console.log(`\nabout ${kind} seats (${byW.get('uniform')!.get('exact')!.flat().length} hands)`);
  console.log('| weighing | exact (×1000) | Δ vs uniform | overlap | Δ vs uniform | brier | Δ vs uniform |');
  console.log('|---|---|---|---|---|---|---|');
  const base = byW.get('uniform')!;
  for (const w of WEIGHINGS) {
    const cols = METRICS.map((x) => {
      const scale = x === 'exact' ? 1000 : 1;
      const d = x === 'brier' ? 4 : 3;
      const mine = byW.get(w.name)!.get(x)!;
      const diffs = mine.map((xs, gi) => xs && xs.map((v, i) => scale * (v - base.get(x)![gi][i])));
      return `${ci(gameMeans(mine).map((v) => v * scale), d)} | ${w.name === 'uniform' ? '' : ci(gameMeans(diffs), d)}`;
    });
    console.log(`| ${w.name} | ${cols.join(' | ')} |`);
  }
}
