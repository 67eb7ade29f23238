/**
 * How many more turns a seat can expect, read from the view: where CLOSING TIME is (aside,
 * at a known depth range in the deck, or drawn), how many players are still in, and how
 * many cards a turn uses up. The answer is a range, since CLOSING TIME's depth is.
 */
import type { PlayerView, Ruleset } from '../../env/index.ts';

/** Cards drawn per player turn when nothing better is known (scripted games draw 2.5 to 5). */
export const DEFAULT_CARDS_PER_TURN = 3.5;

const deckSizes = new WeakMap<Ruleset, number>();

function deckSize(r: Ruleset): number {
  let deck = deckSizes.get(r);
  if (deck === undefined) {
    deck = 0;
    for (const id of Object.keys(r.cards) as (keyof Ruleset['cards'])[]) deck += r.cards[id].count;
    deckSizes.set(r, deck);
  }
  return deck;
}

/**
 * Cards drawn per player turn so far, measured on the deck before its first reshuffle; else
 * `fallback` (the caller keeps the last measurement for after the reshuffle).
 */
export function cardsPerTurn(r: Ruleset, v: PlayerView, fallback = DEFAULT_CARDS_PER_TURN): number {
  if (v.deck.reshuffles > 0) return fallback;
  const drawn = deckSize(r) - v.players * r.initialHandSize - v.deck.size;
  // The first turns are blended with the default, as if one round had been seen at that rate.
  const seen = Math.max(0, v.turn - 1);
  return Math.max(1.5, Math.min(6, (drawn + v.players * DEFAULT_CARDS_PER_TURN) / (seen + v.players)));
}

/** Range of cards still to be drawn before CLOSING TIME comes up, or null once it is drawn. */
export function cardsBeforeClosing(r: Ruleset, v: PlayerView): [number, number] | null {
  const ct = v.closingTime;
  if (ct.where === 'drawn') return null;
  if (ct.where === 'in_deck' && ct.depth) return ct.depth;
  const place = r.closingTime[String(v.players) as keyof Ruleset['closingTime']];
  let front = 0;
  for (const p of v.table) front += p.front.length;
  // The next pile is about everything not in a hand now.
  const pile = v.discard.size + v.deck.size + front;
  const skipped = Math.max(0, place.reshuffle - v.deck.reshuffles - 1) * pile;
  return [v.deck.size + skipped + place.from * pile, v.deck.size + skipped + place.to * pile];
}

/**
 * Range of turns `seat` gets after the current player turn: 0 when the game ends with it.
 * (If `seat` is not the active player, its own coming turns are counted.)
 */
export function turnsAfterNow(r: Ruleset, v: PlayerView, perTurn: number): [number, number] {
  const me = v.table[v.seat];
  if (me.out !== null) return [0, 0];
  let alive = 0;
  for (const p of v.table) if (p.out === null) alive++;
  const active = v.turnState.active === v.seat;
  if (alive <= 1) return active ? [0, 0] : [1, 1];
  const cards = cardsBeforeClosing(r, v);
  if (cards === null) return active || me.finalTurnTaken ? [0, 0] : [1, 1];
  const own = active ? 0 : 1;
  return [Math.ceil(cards[0] / (perTurn * alive) - 1e-9) + own, Math.ceil(cards[1] / (perTurn * alive) - 1e-9) + own];
}
