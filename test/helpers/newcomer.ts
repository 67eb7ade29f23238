/**
 * A newcomer's clicks, for the guided game's seed search (scripts/find-guide-seed.ts) and its
 * browser test: mostly orders a drink, else plays some card, else says done, now and then
 * anything at all. Seeded, so a test replays the same clicks the search checked.
 */
import { A_DONE } from '../../env/actions.ts';
import { randInt, type RngState } from '../../env/rng.ts';

/** Order cards are the first action ids (env/action-codec.ts: one "order" per orderable card). */
const ORDERS_BELOW = 10;

export function newcomerPick(rng: RngState, shown: number[]): number {
  const orders = shown.filter((a) => a < ORDERS_BELOW);
  const plays = shown.filter((a) => a < A_DONE);
  const r = randInt(rng, 10);
  if (orders.length > 0 && r < 7) return orders[randInt(rng, orders.length)];
  if (plays.length > 0 && r < 8) return plays[randInt(rng, plays.length)];
  if (shown.includes(A_DONE) && r < 9) return A_DONE;
  return shown[randInt(rng, shown.length)];
}
