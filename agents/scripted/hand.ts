/**
 * What a card in hand is worth keeping, in points, for hand management: a card played or
 * discarded is replaced by a fresh draw at cleanup, so spending a card worth less than an
 * average draw gains the difference. Values are per copy: the first beers and shots are
 * worth more than the fifth (only three beers and one shot fit in a turn).
 */
import { BEER, CARD_IDS, HAND_TYPES, isShot, ORDER_TYPES, RUM, SHOT_TYPES, type Ruleset } from '../../env/index.ts';

/** Keep value of the 1st, 2nd, 3rd, ... copy of each card type (the last entry repeats). */
export type KeepTable = readonly (readonly number[])[];

/** Keep table from a per-card-id record; missing ids are worth nothing. */
export function keepTable(values: Partial<Record<(typeof CARD_IDS)[number], readonly number[]>>): KeepTable {
  return CARD_IDS.map((id) => values[id] ?? [0]);
}

/** Value of holding the `i`-th copy (0-based) of card type `t`. */
export function keepOf(table: KeepTable, t: number, i: number): number {
  const row = table[t];
  return row[Math.min(i, row.length - 1)];
}

/** Value of the copy that would go if one card of type `t` left a hand with `hand[t]` copies. */
export function lastCopy(table: KeepTable, hand: readonly number[], t: number): number {
  return hand[t] > 0 ? keepOf(table, t, hand[t] - 1) : 0;
}

/**
 * Shots of types the player does not own yet are worth a little more (their token); a shot
 * card's copies are counted over all five types, since one shot fits in a turn.
 */
export function shotKeep(table: KeepTable, hand: readonly number[], t: number, tokens: number, newBonus: number): number {
  let before = 0;
  for (let i = 0; i < SHOT_TYPES; i++) before += hand[RUM + i];
  const v = keepOf(table, t, Math.max(0, before - 1));
  return tokens & (1 << (t - RUM)) ? v : v + newBonus;
}

/** Expected keep value of a card drawn from a full deck (the average fresh draw). */
export function averageDraw(table: KeepTable, r: Ruleset): number {
  let sum = 0;
  let cards = 0;
  CARD_IDS.forEach((id, t) => {
    const c = r.cards[id].count;
    // A drawn card is usually among the first copies held.
    sum += c * keepOf(table, t, t === BEER ? 1 : 0);
    cards += c;
  });
  return cards > 0 ? sum / cards : 0;
}

/** Cards in hand ranked from least to most worth keeping, with their values (each copy apart). */
export function rankHand(
  table: KeepTable, hand: readonly number[], tokens: number, newShotBonus: number,
): { t: number; value: number }[] {
  const out: { t: number; value: number }[] = [];
  let shotsSeen = 0;
  for (let t = 0; t < HAND_TYPES; t++) {
    for (let i = 0; i < hand[t]; i++) {
      let value: number;
      if (t < ORDER_TYPES && isShot(t)) {
        value = keepOf(table, t, shotsSeen++) + (tokens & (1 << (t - RUM)) ? 0 : newShotBonus);
      } else {
        value = keepOf(table, t, i);
      }
      out.push({ t, value });
    }
  }
  out.sort((a, b) => a.value - b.value || a.t - b.t);
  return out;
}
