/**
 * The arithmetic of a digestion, read from the ruleset: what beers give, and how far a roll
 * moves the figure. One source for the engine (digestion.ts) and for the bots that plan with
 * it (agents/scripted/drink.ts).
 */
import type { Ruleset } from '../ruleset.ts';

/** Points and drunkenness of `beers` beers in front (with a small one among them, or not). */
export function beerScore(rs: Ruleset, beers: number, small: boolean): { points: number; drunkenness: number } {
  if (beers <= 0) return { points: 0, drunkenness: 0 };
  const row = small ? rs.beerTable.withSmall : rs.beerTable.regular;
  const base = row[Math.min(beers, row.length) - 1];
  const extra = Math.max(0, beers - row.length);
  return {
    points: base.points + extra * rs.beerTable.perExtraBeer.points,
    drunkenness: base.drunkenness + extra * rs.beerTable.perExtraBeer.drunkenness,
  };
}

/** Spaces forward a roll of `die` moves at this total (drunkenness + the space's number). */
export function rollMove(rs: Ruleset, total: number, die: number): number {
  const roll = rs.roll;
  return die >= total ? roll.okMove : roll.failMove + Math.floor((total - die - 1) / roll.failStep);
}
