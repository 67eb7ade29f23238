/**
 * The action space: one fixed list of integers, the same size for every player count.
 * Targets are relative to the acting seat: offset k means the seat k places clockwise
 * (to the left), so a policy learns "the next player" rather than "seat 3".
 *
 * | range     | count | action                                                        | decision  |
 * |-----------|-------|---------------------------------------------------------------|-----------|
 * | 0–9       | 10    | play order: beer, small beer, rum, fernet, becherovka,        | play      |
 * |           |       | peppermint, vodka, tea, coffee, utopenec                      |           |
 * | 10–14     | 5     | play I'll get the same at seat offset 1..5                    | play      |
 * | 15–19     | 5     | play Flattery as rum, fernet, becherovka, peppermint, vodka   | play      |
 * | 20        | 1     | play Shot into a beer (own turn: allows one more shot)        | play      |
 * | 21–25     | 5     | play Let's do a shot at seat offset 1..5                      | play      |
 * | 26        | 1     | play Shots, everyone!                                         | play      |
 * | 27        | 1     | play Brawl                                                    | play      |
 * | 28        | 1     | play You don't want it anymore?                               | play      |
 * | 29–33     | 5     | play Insulted bartender at seat offset 1..5                   | play      |
 * | 34–38     | 5     | play That's my order at seat offset 1..5                      | play      |
 * | 39        | 1     | done: end playing (opens the last reaction window)            | play      |
 * | 40–62     | 23    | discard one card of type 0..22 (instead of playing)           | play/discard |
 * | 63        | 1     | stop discarding and draw up                                   | discard   |
 * | 64        | 1     | pass (no reaction; or accept a card aimed at you)             | reaction/response |
 * | 65–74     | 10    | X Knocked-over glass on an order of type 0..9                 | reaction  |
 * | 75–174    | 100   | X Mixed-up: take order a, give order b (75 + 10a + b)         | reaction  |
 * | 175–176   | 2     | X That beer is warm on a beer / small beer                    | reaction  |
 * | 177–181   | 5     | X Shot into a beer, pouring that shot type already in front   | reaction  |
 * | 182–186   | 5     | X Shot into a beer, pouring that shot type from your hand     | reaction  |
 * | 187       | 1     | Excuse me: cancel the effect on you                           | response  |
 * | 188–189   | 2     | Excuse me: redirect to your left / right neighbour            | response  |
 * | 190–194   | 5     | shot choice: discard that shot type from hand                 | response  |
 * | 195       | 1     | shot choice: discard a beer, lose points                      | response  |
 * | 196       | 1     | shot choice: discard a small beer, lose points                | response  |
 * | 197       | 1     | shot choice: discard nothing, lose points                     | response  |
 *
 * Where the active player has several cards of one type in front, an X card aimed at that
 * type takes the one placed last.
 */
import { CARD_IDS, cardName, HAND_TYPES, ORDER_TYPES, SHOT_TYPES, shotType } from './cards.ts';

export const ACTION_SPACE_VERSION = 1;

export const A_ORDER = 0;
export const A_SAME = 10;
export const A_FLATTERY = 15;
export const A_SIB = 20;
export const A_LDAS = 21;
export const A_SHOTS_EVERYONE = 26;
export const A_BRAWL = 27;
export const A_DONT_WANT = 28;
export const A_INSULT = 29;
export const A_THATS_MY = 34;
export const A_DONE = 39;
export const A_DISCARD = 40;
export const A_STOP_DISCARD = A_DISCARD + HAND_TYPES; // 63
export const A_PASS = 64;
export const A_KNOCK = 65;
export const A_MIXED = A_KNOCK + ORDER_TYPES; // 75
export const A_WARM = A_MIXED + ORDER_TYPES * ORDER_TYPES; // 175
export const A_SIBX_FRONT = A_WARM + 2; // 177
export const A_SIBX_HAND = A_SIBX_FRONT + SHOT_TYPES; // 182
export const A_EXCUSE_CANCEL = A_SIBX_HAND + SHOT_TYPES; // 187
export const A_EXCUSE_LEFT = 188;
export const A_EXCUSE_RIGHT = 189;
export const A_SHOT_DISCARD = 190;
export const A_SHOT_BEER = 195;
export const A_SHOT_SMALL = 196;
export const A_SHOT_NOTHING = 197;
export const NUM_ACTIONS = 198;

/** The action space in ranges of one kind (ids first..last inclusive), for front ends to group buttons by. */
export const ACTION_GROUPS: readonly { first: number; last: number; kind: string }[] = [
  { first: A_ORDER, last: A_SAME - 1, kind: 'Orders' },
  { first: A_SAME, last: A_DONE - 1, kind: 'Pub cards' },
  { first: A_DONE, last: A_DONE, kind: 'End of playing' },
  { first: A_DISCARD, last: A_STOP_DISCARD, kind: 'Discard' },
  { first: A_PASS, last: A_PASS, kind: 'Pass' },
  { first: A_KNOCK, last: A_EXCUSE_CANCEL - 1, kind: 'X cards' },
  { first: A_EXCUSE_CANCEL, last: A_EXCUSE_RIGHT, kind: 'Excuse me' },
  { first: A_SHOT_DISCARD, last: A_SHOT_NOTHING, kind: 'Shot choice' },
];

/** Largest relative target offset (seats 1..5 to the left). */
export const MAX_OFFSET = 5;

/** A stable machine-readable key for an action, e.g. `play:rum`, `x:mixed_up:beer>tea`. */
export function actionKey(a: number): string {
  if (a < 0 || a >= NUM_ACTIONS || !Number.isInteger(a)) return `invalid:${a}`;
  if (a < A_SAME) return `play:${CARD_IDS[a]}`;
  if (a < A_FLATTERY) return `play:same:+${a - A_SAME + 1}`;
  if (a < A_SIB) return `play:flattery:${CARD_IDS[shotType(a - A_FLATTERY)]}`;
  if (a === A_SIB) return 'play:shot_into_beer';
  if (a < A_SHOTS_EVERYONE) return `play:lets_do_a_shot:+${a - A_LDAS + 1}`;
  if (a === A_SHOTS_EVERYONE) return 'play:shots_everyone';
  if (a === A_BRAWL) return 'play:brawl';
  if (a === A_DONT_WANT) return 'play:dont_want_it';
  if (a < A_THATS_MY) return `play:insulted_bartender:+${a - A_INSULT + 1}`;
  if (a < A_DONE) return `play:thats_my_order:+${a - A_THATS_MY + 1}`;
  if (a === A_DONE) return 'done';
  if (a < A_STOP_DISCARD) return `discard:${CARD_IDS[a - A_DISCARD]}`;
  if (a === A_STOP_DISCARD) return 'stop_discarding';
  if (a === A_PASS) return 'pass';
  if (a < A_MIXED) return `x:knocked_over:${CARD_IDS[a - A_KNOCK]}`;
  if (a < A_WARM) {
    const i = a - A_MIXED;
    return `x:mixed_up:${CARD_IDS[Math.floor(i / ORDER_TYPES)]}>${CARD_IDS[i % ORDER_TYPES]}`;
  }
  if (a < A_SIBX_FRONT) return `x:warm_beer:${CARD_IDS[a - A_WARM]}`;
  if (a < A_SIBX_HAND) return `x:shot_into_beer:front:${CARD_IDS[shotType(a - A_SIBX_FRONT)]}`;
  if (a < A_EXCUSE_CANCEL) return `x:shot_into_beer:hand:${CARD_IDS[shotType(a - A_SIBX_HAND)]}`;
  if (a === A_EXCUSE_CANCEL) return 'excuse_me:cancel';
  if (a === A_EXCUSE_LEFT) return 'excuse_me:left';
  if (a === A_EXCUSE_RIGHT) return 'excuse_me:right';
  if (a < A_SHOT_BEER) return `shot_choice:${CARD_IDS[shotType(a - A_SHOT_DISCARD)]}`;
  if (a === A_SHOT_BEER) return 'shot_choice:beer';
  if (a === A_SHOT_SMALL) return 'shot_choice:small_beer';
  return 'shot_choice:nothing';
}

const KEY_TO_ACTION = new Map<string, number>(
  Array.from({ length: NUM_ACTIONS }, (_, a) => [actionKey(a), a] as [string, number]),
);

/** The action for a key made by `actionKey`, or -1. */
export function actionFromKey(key: string): number {
  return KEY_TO_ACTION.get(key) ?? -1;
}

function seatWords(offset: number, seat: number | undefined, players: number | undefined): string {
  const rel = offset === 1 ? 'the player on your left' : `the player ${offset} seats to your left`;
  if (seat === undefined || players === undefined) return rel;
  return `player ${(seat + offset) % players} (${rel})`;
}

/**
 * An action in words. With the acting seat and the player count, relative targets are also
 * named by seat number.
 */
export function describeAction(a: number, seat?: number, players?: number): string {
  if (a < 0 || a >= NUM_ACTIONS || !Number.isInteger(a)) return `invalid action ${a}`;
  if (a < A_SAME) return `play ${cardName(a)}`;
  if (a < A_FLATTERY) return `play I'll get the same at ${seatWords(a - A_SAME + 1, seat, players)}`;
  if (a < A_SIB) return `play Flattery as ${cardName(shotType(a - A_FLATTERY))}`;
  if (a === A_SIB) return 'play Shot into a beer (one more shot this turn)';
  if (a < A_SHOTS_EVERYONE) return `play Let's do a shot at ${seatWords(a - A_LDAS + 1, seat, players)}`;
  if (a === A_SHOTS_EVERYONE) return 'play Shots, everyone!';
  if (a === A_BRAWL) return 'play Brawl';
  if (a === A_DONT_WANT) return "play You don't want it anymore? (take the top discard)";
  if (a < A_THATS_MY) return `play Insulted bartender at ${seatWords(a - A_INSULT + 1, seat, players)}`;
  if (a < A_DONE) return `play That's my order at ${seatWords(a - A_THATS_MY + 1, seat, players)}`;
  if (a === A_DONE) return 'done playing';
  if (a < A_STOP_DISCARD) return `discard ${cardName(a - A_DISCARD)}`;
  if (a === A_STOP_DISCARD) return 'stop discarding and draw up';
  if (a === A_PASS) return 'pass';
  if (a < A_MIXED) return `Knocked-over glass: discard their ${cardName(a - A_KNOCK)}`;
  if (a < A_WARM) {
    const i = a - A_MIXED;
    return `Mixed-up: take their ${cardName(Math.floor(i / ORDER_TYPES))}, give your ${cardName(i % ORDER_TYPES)}`;
  }
  if (a < A_SIBX_FRONT) return `That beer is warm: send their ${cardName(a - A_WARM)} back to their hand`;
  if (a < A_SIBX_HAND) return `Shot into a beer: pour their ${cardName(shotType(a - A_SIBX_FRONT))} into their beer`;
  if (a < A_EXCUSE_CANCEL) return `Shot into a beer: pour your ${cardName(shotType(a - A_SIBX_HAND))} into their beer`;
  if (a === A_EXCUSE_CANCEL) return 'Excuse me: cancel the effect on you';
  if (a === A_EXCUSE_LEFT) return 'Excuse me: redirect to your left neighbour';
  if (a === A_EXCUSE_RIGHT) return 'Excuse me: redirect to your right neighbour';
  if (a < A_SHOT_BEER) return `discard your ${cardName(shotType(a - A_SHOT_DISCARD))} (take its token)`;
  if (a === A_SHOT_BEER) return 'discard a Beer and lose points';
  if (a === A_SHOT_SMALL) return 'discard a Small beer and lose points';
  return 'discard nothing and lose points';
}
