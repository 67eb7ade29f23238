/**
 * Ratings fitted over all games at once, so that runs compare: a Bradley–Terry model of every
 * pair of seats in every game (the one who finished above wins; a tie is half a win each),
 * fitted by Hunter's MM iteration, with the anchors' ratings held where they are put (fixed
 * bots, the same in every run), and 95% intervals from a bootstrap over deals (games of one
 * deal are resampled together: they are not independent).
 *
 * Ratings are on the Elo scale: 400 points is odds of 10 to 1 of finishing above.
 */
import { randInt, seedRng } from '../env/index.ts';

/** One game: who played each seat (a player's name) and the seat's final score. */
export interface RatedGame {
  deal: string;
  players: readonly string[];
  scores: readonly number[];
}

export interface FittedRating {
  player: string;
  rating: number;
  /** 95% bootstrap interval over deals; null with fewer than two deals. */
  interval: [number, number] | null;
  games: number;
  anchor: boolean;
}

const ELO = 400 / Math.LN10;
const ITERATIONS = 2000;
const TOLERANCE = 1e-9;

/** Pairwise wins w[i][j] (i above j) and meetings n[i][j] of the games. */
function tally(index: Map<string, number>, games: readonly RatedGame[]) {
  const k = index.size;
  const wins = Array.from({ length: k }, () => new Float64Array(k));
  const met = Array.from({ length: k }, () => new Float64Array(k));
  for (const g of games) {
    for (let a = 0; a < g.players.length; a++) {
      for (let b = a + 1; b < g.players.length; b++) {
        const i = index.get(g.players[a])!;
        const j = index.get(g.players[b])!;
        if (i === j) continue; // two seats of one player say nothing of its strength
        const s = g.scores[a] > g.scores[b] ? 1 : g.scores[a] < g.scores[b] ? 0 : 0.5;
        wins[i][j] += s;
        wins[j][i] += 1 - s;
        met[i][j] += 1;
        met[j][i] += 1;
      }
    }
  }
  return { wins, met };
}

/**
 * Ratings by MM; anchors keep theirs. A player who never lost (or never won) has no finite
 * strength: a prior of one virtual tie against a player of rating 0 keeps every estimate finite.
 */
function fit(players: readonly string[], games: readonly RatedGame[], anchors: ReadonlyMap<string, number>): number[] {
  const index = new Map(players.map((p, i) => [p, i]));
  const { wins, met } = tally(index, games);
  const k = players.length;
  const fixed = players.map((p) => anchors.has(p));
  const gamma = players.map((p) => (anchors.has(p) ? Math.exp(anchors.get(p)! / ELO) : 1));
  for (let it = 0; it < ITERATIONS; it++) {
    let change = 0;
    for (let i = 0; i < k; i++) {
      if (fixed[i]) continue;
      // The prior: one virtual game, a tie, against a player of strength 1.
      let w = 0.5;
      let d = 1 / (gamma[i] + 1);
      for (let j = 0; j < k; j++) {
        if (met[i][j] === 0) continue;
        w += wins[i][j];
        d += met[i][j] / (gamma[i] + gamma[j]);
      }
      const next = w / d;
      change = Math.max(change, Math.abs(Math.log(next / gamma[i])));
      gamma[i] = next;
    }
    if (!anchors.size) {
      // Without anchors only differences are defined: the geometric mean is held at 1 (rating 0).
      const mean = gamma.reduce((s, g) => s + Math.log(g), 0) / k;
      for (let i = 0; i < k; i++) gamma[i] /= Math.exp(mean);
    }
    if (change < TOLERANCE) break;
  }
  return gamma.map((g) => ELO * Math.log(g));
}

/**
 * Every player's rating over `games`, the anchors' held at the ratings given, with a 95%
 * interval from `samples` bootstrap resamples of the deals (seeded: the same figures anywhere).
 * Sorted best first.
 */
export function fitRatings(games: readonly RatedGame[], anchors: ReadonlyMap<string, number> = new Map(), samples = 200, seed = 'ratings'): FittedRating[] {
  const players = [...new Set(games.flatMap((g) => g.players))].sort();
  for (const a of anchors.keys()) if (!players.includes(a)) throw new RangeError(`anchor '${a}' played no game here`);
  const point = fit(players, games, anchors);
  const byDeal = new Map<string, RatedGame[]>();
  for (const g of games) byDeal.set(g.deal, [...(byDeal.get(g.deal) ?? []), g]);
  const deals = [...byDeal.values()];
  const draws: number[][] = players.map(() => []);
  if (deals.length >= 2) {
    const rng = seedRng(seed);
    for (let s = 0; s < samples; s++) {
      const resampled = Array.from({ length: deals.length }, () => deals[randInt(rng, deals.length)]).flat();
      fit(players, resampled, anchors).forEach((r, i) => draws[i].push(r));
    }
  }
  const count = (p: string) => games.reduce((n, g) => n + (g.players.includes(p) ? 1 : 0), 0);
  return players
    .map((player, i) => {
      const d = draws[i].sort((x, y) => x - y);
      const interval: [number, number] | null = d.length ? [d[Math.floor(0.025 * (d.length - 1))], d[Math.ceil(0.975 * (d.length - 1))]] : null;
      return { player, rating: point[i], interval, games: count(player), anchor: anchors.has(player) };
    })
    .sort((a, b) => b.rating - a.rating);
}

/**
 * Groups of players whose intervals overlap, best first: within a group the data do not tell
 * them apart. A player without an interval is a group of its own.
 */
export function tieGroups(ratings: readonly FittedRating[]): number[] {
  const group: number[] = [];
  let g = 0;
  let floor = Infinity;
  for (const r of ratings) {
    if (r.interval === null || r.interval[1] < floor) {
      if (group.length > 0) g++;
      // A player without an interval is told apart from no one: the next starts a group too.
      floor = r.interval?.[0] ?? Infinity;
    } else {
      floor = Math.min(floor, r.interval[0]);
    }
    group.push(g + 1);
  }
  return group;
}
