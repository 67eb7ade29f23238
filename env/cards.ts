/**
 * The card types of Czech Pub. This is structure, not rules data: how many of each card
 * there are and what they cost live in the ruleset (ruleset.ts).
 *
 * Card types are small integers so hands can be count vectors (cards of one type are
 * interchangeable) and the engine can index arrays by type.
 */

export const CARD_IDS = [
  'beer', 'small_beer', 'rum', 'fernet', 'becherovka', 'peppermint', 'vodka', 'tea', 'coffee', 'utopenec',
  'same', 'flattery', 'shot_into_beer', 'lets_do_a_shot', 'shots_everyone', 'brawl', 'dont_want_it',
  'insulted_bartender', 'thats_my_order', 'excuse_me', 'mixed_up', 'knocked_over', 'warm_beer',
] as const;

export type CardId = (typeof CARD_IDS)[number];

/** Number of card types that can be held in a hand (CLOSING TIME never is). */
export const HAND_TYPES = CARD_IDS.length;

export const BEER = 0;
export const SMALL_BEER = 1;
export const RUM = 2;
export const VODKA = 6;
export const TEA = 7;
export const UTOPENEC = 9;
export const SAME = 10;
export const FLATTERY = 11;
export const SHOT_INTO_BEER = 12;
export const LETS_DO_A_SHOT = 13;
export const SHOTS_EVERYONE = 14;
export const BRAWL = 15;
export const DONT_WANT_IT = 16;
export const INSULTED_BARTENDER = 17;
export const THATS_MY_ORDER = 18;
export const EXCUSE_ME = 19;
export const MIXED_UP = 20;
export const KNOCKED_OVER = 21;
export const WARM_BEER = 22;
/** CLOSING TIME is tracked apart from the hand types; this id only appears in events. */
export const CLOSING_TIME = 23;

/** Orders are the ten drink cards, types 0..9. */
export const ORDER_TYPES = 10;
/** The five shot types, in order rum, fernet, becherovka, peppermint, vodka. */
export const SHOT_TYPES = 5;

export const isOrder = (t: number): boolean => t < ORDER_TYPES;
export const isBeer = (t: number): boolean => t === BEER || t === SMALL_BEER;
export const isShot = (t: number): boolean => t >= RUM && t <= VODKA;
export const isNonAlcoholic = (t: number): boolean => t >= TEA && t <= UTOPENEC;
/** X cards, played only in another player's turn (Shot into a beer, a pub card, may also be played as one). */
export const isXCard = (t: number): boolean => t >= EXCUSE_ME && t <= WARM_BEER;

export type CardKind = 'beer' | 'shot' | 'non_alcoholic' | 'pub' | 'x' | 'closing';

/** The card's kind as printed on it: orders by what they are, then pub cards and X cards. */
export function cardKind(t: number): CardKind {
  if (t === CLOSING_TIME) return 'closing';
  if (isBeer(t)) return 'beer';
  if (isShot(t)) return 'shot';
  if (isNonAlcoholic(t)) return 'non_alcoholic';
  return isXCard(t) ? 'x' : 'pub';
}

/** Shot index 0..4 of a shot card type. */
export const shotIndex = (t: number): number => t - RUM;
export const shotType = (i: number): number => RUM + i;

/** Pub cards played against one other player (and so open to Excuse me's redirect). */
export const isSingleTarget = (t: number): boolean =>
  t === SAME || t === LETS_DO_A_SHOT || t === INSULTED_BARTENDER || t === THATS_MY_ORDER;

export const CARD_NAMES: Record<CardId | 'closing_time', string> = {
  beer: 'Beer',
  small_beer: 'Small beer',
  rum: 'Rum',
  fernet: 'Fernet',
  becherovka: 'Becherovka',
  peppermint: 'Peppermint',
  vodka: 'Vodka',
  tea: 'Tea',
  coffee: 'Coffee',
  utopenec: 'Utopenec',
  same: "I'll get the same",
  flattery: 'Flattery',
  shot_into_beer: 'Shot into a beer',
  lets_do_a_shot: "Let's do a shot",
  shots_everyone: 'Shots, everyone!',
  brawl: 'Brawl',
  dont_want_it: "You don't want it anymore?",
  insulted_bartender: 'Insulted bartender',
  thats_my_order: "That's my order",
  excuse_me: 'Excuse me',
  mixed_up: 'Mixed-up',
  knocked_over: 'Knocked-over glass',
  warm_beer: 'That beer is warm',
  closing_time: 'CLOSING TIME',
};

export function cardName(t: number): string {
  return t === CLOSING_TIME ? CARD_NAMES.closing_time : CARD_NAMES[CARD_IDS[t]];
}

export function cardId(t: number): CardId | 'closing_time' {
  return t === CLOSING_TIME ? 'closing_time' : CARD_IDS[t];
}
