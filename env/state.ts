/**
 * The game state: a plain object of numbers and arrays that survives JSON.stringify /
 * JSON.parse unchanged, with the random generator's state inside it. Per-seat data is kept
 * as parallel arrays (struct of arrays) so `cloneState` is a handful of `slice` calls.
 */
import { HAND_TYPES } from './cards.ts';
import { type RngState } from './rng.ts';

export const PHASE_PLAY = 0;
export const PHASE_DISCARD = 1;
export const PHASE_REACTION = 2;
export const PHASE_RESPONSE = 3;
export const PHASE_OVER = 4;
export const PHASE_NAMES = ['play', 'discard', 'reaction', 'response', 'over'] as const;
export type PhaseName = (typeof PHASE_NAMES)[number];

/** `out` values. */
export const IN_GAME = 0;
export const WASTED = 1;
export const THROWN_OUT = 2;

/** Where CLOSING TIME is. */
export const CLOSING_ASIDE = 0;
export const CLOSING_IN_DECK = 1;
export const CLOSING_DRAWN = 2;

/**
 * A card in front of a player is one packed integer: type (5 bits), flags (6 bits),
 * Flattery's shot index + 1 (3 bits), the seat that placed it (3 bits).
 */
export const F_PAID = 1; // its owner paid its action cost (refunded if it is removed)
export const F_COUNTED = 2; // counts towards the per-turn limits
export const F_GIVEN = 4; // put there by Mixed-up
export const F_POURED = 8; // a shot poured into a beer by an X Shot into a beer: no points
export const F_ADDED = 16; // that poured shot came from the reacting player's hand
export const F_MARKER = 32; // placed by another player (Insulted bartender, I'll get the same, X Shot into a beer)

export const packEntry = (type: number, flags: number, shot: number, by: number): number =>
  type | (flags << 5) | ((shot + 1) << 11) | (by << 14);
export const entryType = (e: number): number => e & 31;
export const entryFlags = (e: number): number => (e >> 5) & 63;
/** Flattery's chosen shot index, or -1. */
export const entryShot = (e: number): number => ((e >> 11) & 7) - 1;
export const entryBy = (e: number): number => (e >> 14) & 7;
export const withFlags = (e: number, flags: number): number => (e & ~(63 << 5)) | (flags << 5);

/** A pub card's effect waiting for the responses of the players it is aimed at. */
export interface PendingEffect {
  card: number;
  /** The active player, who played it. */
  by: number;
  /** The player deciding now. */
  target: number;
  /** Seats that already avoided this card with Excuse me (bitmask). */
  avoided: number;
  /** Seats still to respond, for cards aimed at several players. */
  queue: number[];
  /** Seats that took themselves out of a Brawl with Excuse me (bitmask). */
  excused: number;
}

export interface ClosingState {
  where: number;
  /** Seat that drew it, or -1. */
  drawnBy: number;
  /** Depth range it was shuffled into (cards above it), and the pile size after insertion. */
  lo: number;
  hi: number;
  pileSize: number;
}

export interface GameState {
  players: number;
  /** Ask every eligible player at each decision, even with a single legal action. */
  askForced: boolean;
  rng: RngState;
  /** Draw pile, top card last. May hold CLOSING_TIME. */
  deck: number[];
  /** Discard pile, top card last. */
  discard: number[];
  /** hand[seat * HAND_TYPES + type] = number of cards of that type. */
  hand: number[];
  handSize: number[];
  /** Cards in front of each player, packed (see packEntry). */
  front: number[][];
  points: number[];
  level: number[];
  space: number[];
  /** Shot tokens owned, a bitmask over the 5 shot types. */
  tokens: number[];
  /** Abstinence token: 0 none, 1 one-stripe side, 2 two-stripe side. */
  abstinence: number[];
  paused: number[];
  out: number[];
  /** Titles held, a bitmask over the ruleset's titles. */
  titles: number[];
  /** The seat each player will copy with I'll get the same, or -1. */
  copying: number[];
  titlesLeft: number[];
  /**
   * What each seat knows is in another seat's hand (lower bounds per type), from cards
   * taken by Brawl, That's my order, Mixed-up, That beer is warm and the discard pile:
   * known[(observer * players + owner) * HAND_TYPES + type].
   */
  known: number[];
  /** The part of that everyone knows (Mixed-up, That beer is warm, the discard pile): knownPublic[owner * HAND_TYPES + type]. */
  knownPublic: number[];
  /**
   * What each seat knows the draw pile may still hold, per type (an upper bound): the pile
   * as it was laid at the last reshuffle (or the whole deck less its own hand at the deal),
   * less the cards this seat drew from it since: pileKnown[seat * HAND_TYPES + type].
   */
  pileKnown: number[];
  active: number;
  turn: number;
  phase: number;
  /** The seat deciding now. */
  actor: number;
  // The active player's turn.
  actionsUsed: number;
  played: number;
  extraShots: number;
  blockedBeer: number;
  blockedSmall: number;
  playedSame: number;
  /** Set when one of the active player's cards is removed during the last window. */
  removed: number;
  /** The window now open follows "done". */
  doneWindow: number;
  // The reaction window.
  windowPasses: number;
  /** The card that opened the window, or -1 for "done". */
  windowCard: number;
  effect: PendingEffect | null;
  reshuffles: number;
  closing: ClosingState;
  /** Seats that have taken their last turn since CLOSING TIME was drawn (bitmask). */
  finalDone: number;
  /** Set when only one player is left: their next turn is the last. */
  soloLast: number;
  decisions: number;
  over: boolean;
}

export const handIndex = (seat: number, type: number): number => seat * HAND_TYPES + type;

export function cloneState(s: GameState): GameState {
  return {
    ...s,
    rng: [s.rng[0], s.rng[1], s.rng[2], s.rng[3]],
    deck: s.deck.slice(),
    discard: s.discard.slice(),
    hand: s.hand.slice(),
    handSize: s.handSize.slice(),
    front: s.front.map((f) => f.slice()),
    points: s.points.slice(),
    level: s.level.slice(),
    space: s.space.slice(),
    tokens: s.tokens.slice(),
    abstinence: s.abstinence.slice(),
    paused: s.paused.slice(),
    out: s.out.slice(),
    titles: s.titles.slice(),
    copying: s.copying.slice(),
    titlesLeft: s.titlesLeft.slice(),
    known: s.known.slice(),
    knownPublic: s.knownPublic.slice(),
    pileKnown: s.pileKnown.slice(),
    effect: s.effect && { ...s.effect, queue: s.effect.queue.slice() },
    closing: { ...s.closing },
  };
}

export const popcount = (x: number): number => {
  let n = 0;
  while (x) {
    x &= x - 1;
    n++;
  }
  return n;
};
