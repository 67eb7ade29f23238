/**
 * Tournament results per agent: games, wins (shared wins counted fractionally), win rate and
 * mean final score with 95% intervals, mean rank, an openskill rating with its uncertainty,
 * wasted and thrown-out rates, decision cost; a head-to-head table; game length.
 *
 * An agent spec may fill several seats (e.g. two `ismcts` against two `heuristic`); its
 * figures are over all the seats it played ("games" counts seat-games).
 */
import { createRequire } from 'node:module';
import type { Rating } from 'openskill';
import type { EndReason } from '../env/index.ts';
import type { GameRecord } from './game.ts';
import type { ScheduledGame } from './schedule.ts';
import { meanCI, ranks, winRateCI, winShares } from './stats.ts';

// openskill takes about half a second to load, and most processes that load eval/ (game and
// vector threads, the bridge, `czech-pub --help`) never rate: it is loaded on the first
// summary, synchronously (its CommonJS build), as summarize is synchronous.
const require = createRequire(import.meta.url);
let openskillModule: typeof import('openskill') | undefined;
const openskill = () => (openskillModule ??= require('openskill') as typeof import('openskill'));

export interface GameResult extends GameRecord, ScheduledGame {}

export interface AgentSummary {
  spec: string;
  /** Seats this spec fills in each game. */
  seats: number;
  games: number;
  wins: number;
  winRate: number;
  winRateCI: [number, number];
  meanScore: number;
  scoreCI: [number, number];
  meanRank: number;
  /** openskill (Plackett–Luce) mean skill and its uncertainty (sigma); ordinal = mu − 3·sigma. */
  rating: number;
  ratingSigma: number;
  ratingOrdinal: number;
  wastedRate: number;
  thrownOutRate: number;
  decisions: number;
  msPerDecision: number;
}

export interface Summary {
  agents: AgentSummary[];
  /** headToHead[a][b]: how often spec a finished above spec b when both played (ties count half). */
  headToHead: Record<string, Record<string, number>>;
  games: number;
  /** Deals the games were played from (duplicate games of one deal share it): the sample size of the intervals. */
  deals: number;
  meanTurns: number;
  meanDecisions: number;
  truncatedGames: number;
  /** How many games ended each way (env endReason); games recorded before it was kept are not counted. */
  endings: Partial<Record<EndReason, number>>;
}

/** Summarises finished games (any order; they are sorted by index first, so ratings are reproducible). */
export function summarize(entries: readonly string[], results: readonly GameResult[]): Summary {
  const games = [...results].sort((a, b) => a.index - b.index);
  const specs = [...new Set(entries)];
  const seatsOf = (spec: string) => entries.filter((e) => e === spec).length;
  const acc = new Map(specs.map((s) => [s, { wins: 0, score: 0, rank: 0, n: 0, wasted: 0, thrown: 0, decisions: 0, ms: 0 }]));
  // Per deal: sum of win shares and scores and count of seat-games, for intervals over deals.
  const perDeal = new Map(specs.map((s) => [s, new Map<number, { win: number; score: number; n: number }>()]));
  const h2h = new Map<string, { beat: number; n: number }>();
  const { ordinal, rate, rating } = openskill();
  let entryRatings: Rating[] = entries.map(() => rating());

  for (const g of games) {
    const shares = winShares(g.scores);
    const rk = ranks(g.scores);
    g.seating.forEach((entry, seat) => {
      const spec = entries[entry];
      const a = acc.get(spec)!;
      a.wins += shares[seat];
      a.score += g.scores[seat];
      a.rank += rk[seat];
      a.n++;
      if (g.out[seat] === 'wasted') a.wasted++;
      if (g.out[seat] === 'thrown_out') a.thrown++;
      a.decisions += g.agentDecisions[seat];
      a.ms += g.agentMillis[seat];
      const d = perDeal.get(spec)!;
      const cell = d.get(g.deal) ?? { win: 0, score: 0, n: 0 };
      cell.win += shares[seat];
      cell.score += g.scores[seat];
      cell.n++;
      d.set(g.deal, cell);
      g.seating.forEach((other, otherSeat) => {
        const b = entries[other];
        if (b === spec || otherSeat === seat) return;
        const key = `${spec}\u0000${b}`;
        const h = h2h.get(key) ?? { beat: 0, n: 0 };
        h.beat += g.scores[seat] > g.scores[otherSeat] ? 1 : g.scores[seat] === g.scores[otherSeat] ? 0.5 : 0;
        h.n++;
        h2h.set(key, h);
      });
    });
    // One team per seat; openskill ranks: lower is better, ties equal.
    const teams = g.seating.map((entry) => [entryRatings[entry]]);
    const updated = rate(teams, { rank: rk });
    const next = entryRatings.slice();
    g.seating.forEach((entry, seat) => (next[entry] = updated[seat][0]));
    entryRatings = next;
  }

  const agents: AgentSummary[] = specs.map((spec) => {
    const a = acc.get(spec)!;
    const deals = [...perDeal.get(spec)!.values()];
    const score = meanCI(deals.map((d) => d.score / d.n));
    const mine = entries.flatMap((e, i) => (e === spec ? [entryRatings[i]] : []));
    const mu = mine.reduce((x, r) => x + r.mu, 0) / mine.length;
    const sigma = mine.reduce((x, r) => x + r.sigma, 0) / mine.length;
    return {
      spec,
      seats: seatsOf(spec),
      games: a.n,
      wins: a.wins,
      winRate: a.n ? a.wins / a.n : Number.NaN,
      winRateCI: winRateCI(deals.map((d) => d.win / d.n), a.wins, a.n),
      meanScore: a.n ? a.score / a.n : Number.NaN,
      scoreCI: [score.lo, score.hi],
      meanRank: a.n ? a.rank / a.n : Number.NaN,
      rating: mu,
      ratingSigma: sigma,
      ratingOrdinal: ordinal({ mu, sigma }),
      wastedRate: a.n ? a.wasted / a.n : Number.NaN,
      thrownOutRate: a.n ? a.thrown / a.n : Number.NaN,
      decisions: a.decisions,
      msPerDecision: a.decisions ? a.ms / a.decisions : 0,
    };
  });
  // An agent with no finished game has no rank: it goes last.
  agents.sort((x, y) => Number(x.games === 0) - Number(y.games === 0) || y.winRate - x.winRate || y.meanScore - x.meanScore);

  const headToHead: Record<string, Record<string, number>> = {};
  for (const a of specs) {
    headToHead[a] = {};
    for (const b of specs) {
      const h = h2h.get(`${a}\u0000${b}`);
      if (h) headToHead[a][b] = h.beat / h.n;
    }
  }
  const n = games.length;
  return {
    agents,
    headToHead,
    games: n,
    deals: new Set(games.map((g) => g.deal)).size,
    meanTurns: n ? games.reduce((x, g) => x + g.turns, 0) / n : 0,
    meanDecisions: n ? games.reduce((x, g) => x + g.decisions, 0) / n : 0,
    truncatedGames: games.filter((g) => g.truncated).length,
    endings: countEndings(games),
  };
}

function countEndings(games: readonly GameResult[]): Partial<Record<EndReason, number>> {
  const out: Partial<Record<EndReason, number>> = {};
  for (const g of games) if (g.ended) out[g.ended] = (out[g.ended] ?? 0) + 1;
  return out;
}
