/**
 * The engine's working context and the primitive card moves. Every move that takes a card
 * out of a hand or puts one in also keeps the players' knowledge of hands (state.known)
 * right, so no rule code has to remember to.
 */
import { HAND_TYPES } from '../cards.ts';
import type { GameEvent } from '../events.ts';
import { randInt } from '../rng.ts';
import type { CompiledRules } from '../ruleset.ts';
import type { GameState } from '../state.ts';

export interface Ctx {
  r: CompiledRules;
  s: GameState;
  /** Events are appended here when a log is wanted; null skips building them. */
  log: GameEvent[] | null;
  /**
   * Shows the face (1 to `sides`) of a digestion's die instead of drawing it from `s.rng`:
   * a preview digests once for every face. Absent in play, where every roll is drawn.
   */
  die?: (sides: number) => number;
  /**
   * Names every random outcome instead of drawing it from `s.rng`: set by a walker of the
   * whole game tree (eval/exact), which branches on each one. See `Chance`.
   */
  chance?: Chance;
}

/**
 * The source of a game's random outcomes as explicit chance nodes. Each call offers the
 * outcomes with integer weights and takes back the one chosen, whose probability is its weight
 * over their sum. Under a chance source the draw pile's order means nothing: a draw picks a
 * card type in proportion to the cards of each type in the pile (CLOSING TIME comes when the
 * cards above it are gone), which is the same distribution a shuffled pile gives, with one
 * branch per type instead of one per order. A seeded game is one path through these nodes
 * (engine/chance.test.ts).
 */
export interface Chance {
  /** An index i with weights[i] > 0. */
  pick(weights: readonly number[]): number;
}

/** A uniform integer in [0, n): from the chance source where there is one, else from the game's generator. */
export function uniform(c: Ctx, n: number): number {
  return c.chance ? c.chance.pick(new Array<number>(n).fill(1)) : randInt(c.s.rng, n);
}


/** Removes a card everyone sees leave (played, discarded, given). */
export function handLosePublic(s: GameState, seat: number, t: number): void {
  s.hand[seat * HAND_TYPES + t]--;
  s.handSize[seat]--;
  const n = s.players;
  for (let o = 0; o < n; o++) {
    const k = (o * n + seat) * HAND_TYPES + t;
    if (s.known[k] > 0) s.known[k]--;
  }
  if (s.knownPublic[seat * HAND_TYPES + t] > 0) s.knownPublic[seat * HAND_TYPES + t]--;
}

/** Adds a card everyone sees go into the hand (Mixed-up, warm beer, the discard pile). */
export function handGainPublic(s: GameState, seat: number, t: number): void {
  s.hand[seat * HAND_TYPES + t]++;
  s.handSize[seat]++;
  const n = s.players;
  for (let o = 0; o < n; o++) if (o !== seat) s.known[(o * n + seat) * HAND_TYPES + t]++;
  s.knownPublic[seat * HAND_TYPES + t]++;
}

/** Adds a card only its new holder sees (a draw). */
export function handGainPrivate(s: GameState, seat: number, t: number): void {
  s.hand[seat * HAND_TYPES + t]++;
  s.handSize[seat]++;
}

/**
 * A card taken at random from `from` into `to`'s hand: both of them know which; the others
 * only see a card move, so whatever they knew of `from`'s hand may have been that card.
 */
export function handMovePrivate(s: GameState, from: number, to: number, t: number): void {
  s.hand[from * HAND_TYPES + t]--;
  s.handSize[from]--;
  s.hand[to * HAND_TYPES + t]++;
  s.handSize[to]++;
  const n = s.players;
  for (let o = 0; o < n; o++) {
    if (o === from) continue;
    const base = (o * n + from) * HAND_TYPES;
    if (o === to) {
      if (s.known[base + t] > 0) s.known[base + t]--;
    } else {
      for (let u = 0; u < HAND_TYPES; u++) if (s.known[base + u] > 0) s.known[base + u]--;
    }
  }
  s.known[(from * n + to) * HAND_TYPES + t]++;
  const pub = from * HAND_TYPES;
  for (let u = 0; u < HAND_TYPES; u++) if (s.knownPublic[pub + u] > 0) s.knownPublic[pub + u]--;
}

/** Empties a hand onto the discard pile face up (a player leaving the game). */
export function handDiscardAll(s: GameState, seat: number): void {
  const n = s.players;
  for (let t = 0; t < HAND_TYPES; t++) {
    const i = seat * HAND_TYPES + t;
    for (let k = s.hand[i]; k > 0; k--) s.discard.push(t);
    s.hand[i] = 0;
  }
  s.handSize[seat] = 0;
  for (let u = 0; u < HAND_TYPES; u++) s.knownPublic[seat * HAND_TYPES + u] = 0;
  for (let o = 0; o < n; o++) {
    const base = (o * n + seat) * HAND_TYPES;
    for (let u = 0; u < HAND_TYPES; u++) s.known[base + u] = 0;
  }
}

/** A card type taken at random from `seat`'s non-empty hand (each card equally likely). */
export function randomTypeInHand(c: Ctx, seat: number): number {
  const s = c.s;
  if (c.chance) return c.chance.pick(s.hand.slice(seat * HAND_TYPES, (seat + 1) * HAND_TYPES));
  return randomCardInHand(s, seat, randInt(s.rng, s.handSize[seat]));
}

/** Picks a uniformly random card type from a non-empty hand. */
export function randomCardInHand(s: GameState, seat: number, roll: number): number {
  let i = roll;
  const base = seat * HAND_TYPES;
  for (let t = 0; t < HAND_TYPES; t++) {
    i -= s.hand[base + t];
    if (i < 0) return t;
  }
  throw new Error('randomCardInHand: roll beyond hand size');
}

/** Seats in play order starting after `from`. */
export function isEligible(s: GameState, seat: number): boolean {
  return s.out[seat] === 0 && s.paused[seat] === 0;
}

export function nextInGame(s: GameState, from: number): number {
  const n = s.players;
  for (let k = 1; k <= n; k++) {
    const seat = (from + k) % n;
    if (s.out[seat] === 0) return seat;
  }
  return -1;
}
