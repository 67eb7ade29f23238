/**
 * A ladder: every agent rated against every other across table sizes, in one leaderboard.
 *
 * For each table size P, tables of P different agents are drawn (a seeded shuffle per table,
 * so over many tables every agent meets every other at every size), and each table plays one
 * deal P times with the seats rotated, as a tournament does. One openskill rating per agent
 * is fitted over all games of all sizes (the tournament's summary, eval/summary.ts); beside it
 * each size's win rate, its 95% interval and its ratio to par (1/P), since a win means more
 * at a larger table.
 */
import { availableParallelism } from 'node:os';
import { agentLabels, createAgent, rulesetMismatch } from '../agents/index.ts';
import { DEFAULT_RULESET, parseRuleset, seedRng, shuffle, type Ruleset } from '../env/index.ts';
import { runGames, type RunOptions, type RunOutcome } from './runner.ts';
import type { ScheduledGame } from './schedule.ts';
import { summarize, type GameResult, type Summary } from './summary.ts';

export interface LadderOptions {
  agents: string[];
  /** Table sizes, each from the ruleset's minimum to its maximum and at most the number of agents. */
  sizes: number[];
  /** Games per table size, rounded up to whole tables (P games each). */
  games: number;
  seed: string;
  ruleset?: Ruleset;
  workers?: number;
  signal?: AbortSignal;
  onGame?: (done: number, total: number) => void;
  runner?: (o: RunOptions) => Promise<RunOutcome>;
}

export interface LadderRow {
  agent: string;
  rating: number;
  ratingSigma: number;
  ratingOrdinal: number;
  /** Per table size played: seat-games, win rate, its 95% interval, and win rate × P (1 = par). */
  bySize: Record<string, { games: number; winRate: number; winRateCI: [number, number]; toPar: number }>;
}

export interface LadderResult {
  format: 'czech-pub-ladder/1';
  agents: string[];
  labels: string[];
  sizes: number[];
  seed: string;
  gamesPlayed: number;
  complete: boolean;
  /** Best first, by rating ordinal (μ − 3σ). */
  rows: LadderRow[];
  overall: Summary;
}

export class LadderConfigError extends Error {
  override name = 'LadderConfigError';
}

/** The ladder's games: per size, tables of distinct agents, each a rotation of one deal. */
export function ladderSchedule(agents: number, sizes: readonly number[], games: number, seed: string): ScheduledGame[] {
  const out: ScheduledGame[] = [];
  for (const p of sizes) {
    const tables = Math.ceil(games / p);
    for (let t = 0; t < tables; t++) {
      const order = Array.from({ length: agents }, (_, i) => i);
      shuffle(seedRng(`ladder/${seed}/${p}p/${t}`), order);
      const chosen = order.slice(0, p);
      for (let r = 0; r < p; r++) {
        out.push({ index: out.length, deal: out.length - r, seed: `${seed}/${p}p/${t}`, seating: Array.from({ length: p }, (_, s) => chosen[(s - r + p) % p]) });
      }
    }
  }
  return out;
}

export async function runLadder(o: LadderOptions): Promise<LadderResult> {
  const ruleset = o.ruleset ? parseRuleset(o.ruleset) : DEFAULT_RULESET;
  if (new Set(o.agents).size !== o.agents.length) throw new LadderConfigError('each agent once: a ladder seats different agents at a table');
  if (o.agents.length < 2) throw new LadderConfigError('a ladder needs at least 2 agents');
  if (o.sizes.length === 0) throw new LadderConfigError('give at least one table size');
  for (const p of o.sizes) {
    if (!Number.isInteger(p) || p < ruleset.players.min || p > ruleset.players.max) throw new LadderConfigError(`table size ${p}: sizes go from ${ruleset.players.min} to ${ruleset.players.max}`);
    if (p > o.agents.length) throw new LadderConfigError(`table size ${p} needs at least ${p} agents, got ${o.agents.length}`);
  }
  if (!Number.isInteger(o.games) || o.games < 1) throw new LadderConfigError(`games must be a positive integer, got ${o.games}`);
  for (const spec of o.agents) {
    const agent = createAgent(spec);
    if (agent.clairvoyant) throw new LadderConfigError(`'${spec}' is a measurement reference that sees hidden cards: it has no place on a ladder`);
    const mismatch = rulesetMismatch(agent, ruleset);
    if (mismatch) throw new LadderConfigError(mismatch);
  }
  const sizes = [...new Set(o.sizes)].sort((a, b) => a - b);
  const games = ladderSchedule(o.agents.length, sizes, o.games, o.seed);
  let done = 0;
  const outcome = await (o.runner ?? runGames)({
    entries: o.agents,
    games,
    ruleset: ruleset === DEFAULT_RULESET ? undefined : ruleset,
    workers: o.workers ?? availableParallelism(),
    signal: o.signal,
    onGame: () => o.onGame?.(++done, games.length),
  });
  const labels = agentLabels(o.agents);
  const overall = summarize(labels, outcome.results);
  const perSize = new Map(sizes.map((p) => [p, summarize(labels, outcome.results.filter((r: GameResult) => r.seating.length === p))]));
  const rows: LadderRow[] = overall.agents.map((a) => ({
    agent: a.spec,
    rating: a.rating,
    ratingSigma: a.ratingSigma,
    ratingOrdinal: a.ratingOrdinal,
    bySize: Object.fromEntries(sizes.flatMap((p) => {
      const s = perSize.get(p)!.agents.find((x) => x.spec === a.spec);
      return s && s.games > 0 ? [[`${p}`, { games: s.games, winRate: s.winRate, winRateCI: s.winRateCI, toPar: s.winRate * p }]] : [];
    })),
  }));
  rows.sort((x, y) => y.ratingOrdinal - x.ratingOrdinal);
  return {
    format: 'czech-pub-ladder/1', agents: o.agents.slice(), labels, sizes, seed: o.seed,
    gamesPlayed: outcome.results.length, complete: !outcome.interrupted && outcome.results.length === games.length, rows, overall,
  };
}

/** The leaderboard as a Markdown table. */
export function ladderMarkdown(r: LadderResult): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const head = ['#', 'agent', 'rating (μ − 3σ)', ...r.sizes.map((p) => `${p} players: win rate (95% CI), × par`)];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  r.rows.forEach((row, i) => {
    const cells = r.sizes.map((p) => {
      const s = row.bySize[`${p}`];
      return s ? `${pct(s.winRate)} (${pct(s.winRateCI[0])}–${pct(s.winRateCI[1])}), ${s.toPar.toFixed(2)}` : '–';
    });
    lines.push(`| ${i + 1} | \`${row.agent}\` | ${row.ratingOrdinal.toFixed(2)} (${row.rating.toFixed(2)} ± ${row.ratingSigma.toFixed(2)}) | ${cells.join(' | ')} |`);
  });
  return `${lines.join('\n')}\n`;
}
