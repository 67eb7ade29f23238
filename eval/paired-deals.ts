/**
 * Two players compared on the deals both played. A duplicate run plays each deal once per
 * seat rotation, so on a deal both played the luck of the cards is the same for both: the
 * difference of their mean scores there measures play, not cards. Over the common deals: the
 * mean difference with a 95% interval from a seeded bootstrap over deals, how many deals each
 * won (its mean score there above the other's), and how often each finished above the other
 * when both sat at one table.
 */
import { randInt, seedRng } from '../env/index.ts';
import type { RatedGame } from './ratings.ts';

/** One common deal: each player's mean score over its seats in the deal's games, and who finished above whom. */
export interface DealDifference {
  deal: string;
  a: number;
  b: number;
  /** a − b. */
  difference: number;
  /** Of the meetings (a seat of A and a seat of B at one table), those A finished above B, and B above A. */
  aAbove: number;
  bAbove: number;
  meetings: number;
}

export interface PairedComparison {
  a: string;
  b: string;
  /** Deals both played. */
  deals: number;
  /** Mean over the common deals of A's mean score minus B's; null without a common deal. */
  meanDifference: number | null;
  /** 95% bootstrap interval over deals; null with fewer than two common deals. */
  interval: [number, number] | null;
  /** Deals where A's mean score was above B's, below, equal. */
  dealWins: number;
  dealLosses: number;
  dealTies: number;
  /** Share of all meetings on the common deals that A finished above B, and B above A (ties are the rest). */
  aAboveShare: number | null;
  bAboveShare: number | null;
  perDeal: DealDifference[];
}

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** A and B compared over the deals of `games` both played (deals keyed as RatedGame.deal). */
export function pairedDeals(games: readonly RatedGame[], a: string, b: string, samples = 200, seed = 'paired'): PairedComparison {
  const byDeal = new Map<string, RatedGame[]>();
  for (const g of games) byDeal.set(g.deal, [...(byDeal.get(g.deal) ?? []), g]);
  const perDeal: DealDifference[] = [];
  for (const [deal, gs] of byDeal) {
    const scoresOf = (p: string) => gs.flatMap((g) => g.scores.filter((_, seat) => g.players[seat] === p));
    const sa = scoresOf(a);
    const sb = scoresOf(b);
    if (sa.length === 0 || sb.length === 0) continue;
    let aAbove = 0;
    let bAbove = 0;
    let meetings = 0;
    for (const g of gs) {
      g.players.forEach((pa, i) => {
        if (pa !== a) return;
        g.players.forEach((pb, j) => {
          if (pb !== b || i === j) return;
          meetings++;
          if (g.scores[i] > g.scores[j]) aAbove++;
          else if (g.scores[i] < g.scores[j]) bAbove++;
        });
      });
    }
    perDeal.push({ deal, a: mean(sa), b: mean(sb), difference: mean(sa) - mean(sb), aAbove, bAbove, meetings });
  }
  const diffs = perDeal.map((d) => d.difference);
  let interval: [number, number] | null = null;
  if (diffs.length >= 2) {
    const rng = seedRng(`${seed}/${a}/${b}`);
    const draws = Array.from({ length: samples }, () => {
      let s = 0;
      for (let k = 0; k < diffs.length; k++) s += diffs[randInt(rng, diffs.length)];
      return s / diffs.length;
    }).sort((x, y) => x - y);
    interval = [draws[Math.floor(0.025 * (samples - 1))], draws[Math.ceil(0.975 * (samples - 1))]];
  }
  const meetings = perDeal.reduce((s, d) => s + d.meetings, 0);
  const share = (k: 'aAbove' | 'bAbove') => (meetings ? perDeal.reduce((s, d) => s + d[k], 0) / meetings : null);
  return {
    a, b,
    deals: perDeal.length,
    meanDifference: diffs.length ? mean(diffs) : null,
    interval,
    dealWins: diffs.filter((d) => d > 0).length,
    dealLosses: diffs.filter((d) => d < 0).length,
    dealTies: diffs.filter((d) => d === 0).length,
    aAboveShare: share('aAbove'),
    bAboveShare: share('bAbove'),
    perDeal,
  };
}
