/**
 * The action space: one fixed list of integers, the same size for every player count.
 * Targets are relative to the acting seat: offset k means the seat k places clockwise
 * (to the left), so a policy learns "the next player" rather than "seat 3".
 *
 * | range     | count | kind           | action                                                        | decision  |
 * |-----------|-------|----------------|---------------------------------------------------------------|-----------|
 * | 0–9       | 10    | order          | play order: beer, small beer, rum, fernet, becherovka,        | play      |
 * |           |       |                | peppermint, vodka, tea, coffee, utopenec                      |           |
 * | 10–14     | 5     | same           | play I'll get the same at seat offset 1..5                    | play      |
 * | 15–19     | 5     | flattery       | play Flattery as rum, fernet, becherovka, peppermint, vodka   | play      |
 * | 20        | 1     | sib            | play Shot into a beer (own turn: allows one more shot)        | play      |
 * | 21–25     | 5     | lets_do_a_shot | play Let's do a shot at seat offset 1..5                      | play      |
 * | 26        | 1     | shots_everyone | play Shots, everyone!                                         | play      |
 * | 27        | 1     | brawl          | play Brawl                                                    | play      |
 * | 28        | 1     | dont_want      | play You don't want it anymore?                               | play      |
 * | 29–33     | 5     | insult         | play Insulted bartender at seat offset 1..5                   | play      |
 * | 34–38     | 5     | thats_my       | play That's my order at seat offset 1..5                      | play      |
 * | 39        | 1     | done           | done: end playing (opens the last reaction window)            | play      |
 * | 40–62     | 23    | discard        | discard one card of type 0..22 (instead of playing)           | play/discard |
 * | 63        | 1     | stop_discard   | stop discarding and draw up                                   | discard   |
 * | 64        | 1     | pass           | pass (no reaction; or accept a card aimed at you)             | reaction/response |
 * | 65–74     | 10    | knock          | X Knocked-over glass on an order of type 0..9                 | reaction  |
 * | 75–174    | 100   | mixed          | X Mixed-up: take order a, give order b (75 + 10a + b)         | reaction  |
 * | 175–176   | 2     | warm           | X That beer is warm on a beer / small beer                    | reaction  |
 * | 177–181   | 5     | pour_front     | X Shot into a beer, pouring that shot type already in front   | reaction  |
 * | 182–186   | 5     | pour_hand      | X Shot into a beer, pouring that shot type from your hand     | reaction  |
 * | 187       | 1     | excuse_cancel  | Excuse me: cancel the effect on you                           | response  |
 * | 188       | 1     | excuse_left    | Excuse me: redirect to your left neighbour                    | response  |
 * | 189       | 1     | excuse_right   | Excuse me: redirect to your right neighbour                   | response  |
 * | 190–194   | 5     | shot_discard   | shot choice: discard that shot type from hand                 | response  |
 * | 195       | 1     | shot_beer      | shot choice: discard a beer, lose points                      | response  |
 * | 196       | 1     | shot_small     | shot choice: discard a small beer, lose points                | response  |
 * | 197       | 1     | shot_nothing   | shot choice: discard nothing, lose points                     | response  |
 *
 * Where the active player has several cards of one type in front, an X card aimed at that
 * type takes the one placed last.
 *
 * action-codec.ts holds this layout as data, with the codec everything else decodes ids with
 * (`decodeAction`, `encodeAction`); this module names actions (keys, words, groups).
 */
import { CARD_IDS, cardName, EXCUSE_ME, KNOCKED_OVER, MIXED_UP, SHOT_INTO_BEER, shotType, WARM_BEER } from './cards.ts';
import { decodeAction, isActionId, NUM_ACTIONS, type ActionGroup, type DecodedAction } from './action-codec.ts';

export * from './action-codec.ts';

export const ACTION_SPACE_VERSION = 1;

const GROUP_HEADINGS: Record<ActionGroup, string> = {
  order: 'Orders',
  pub: 'Pub cards',
  done: 'End of playing',
  discard: 'Discard',
  pass: 'Pass',
  x: 'X cards',
  excuse: 'Excuse me',
  shot_choice: 'Shot choice',
};

function groupRuns(): { first: number; last: number; kind: string }[] {
  const runs: { first: number; last: number; kind: string; group: ActionGroup }[] = [];
  for (let a = 0; a < NUM_ACTIONS; a++) {
    const g = decodeAction(a).group;
    const run = runs[runs.length - 1];
    if (run?.group === g) run.last = a;
    else runs.push({ first: a, last: a, kind: GROUP_HEADINGS[g], group: g });
  }
  return runs.map(({ first, last, kind }) => ({ first, last, kind }));
}

/** The action space in ranges of one group (ids first..last inclusive), for front ends to group buttons by. */
export const ACTION_GROUPS: readonly { first: number; last: number; kind: string }[] = groupRuns();

const id = (t: number): string => CARD_IDS[t];

function keyOf(d: DecodedAction): string {
  switch (d.kind) {
    case 'order':
    case 'sib':
    case 'shots_everyone':
    case 'brawl':
    case 'dont_want':
      return `play:${id(d.card)}`;
    case 'same':
    case 'lets_do_a_shot':
    case 'insult':
    case 'thats_my':
      return `play:${id(d.card)}:+${d.target}`;
    case 'flattery':
      return `play:flattery:${id(shotType(d.shot))}`;
    case 'done':
      return 'done';
    case 'discard':
      return `discard:${id(d.card)}`;
    case 'stop_discard':
      return 'stop_discarding';
    case 'pass':
      return 'pass';
    case 'knock':
      return `x:knocked_over:${id(d.card)}`;
    case 'mixed':
      return `x:mixed_up:${id(d.card)}>${id(d.give)}`;
    case 'warm':
      return `x:warm_beer:${id(d.card)}`;
    case 'pour_front':
      return `x:shot_into_beer:front:${id(d.card)}`;
    case 'pour_hand':
      return `x:shot_into_beer:hand:${id(d.card)}`;
    case 'excuse_cancel':
      return 'excuse_me:cancel';
    case 'excuse_left':
      return 'excuse_me:left';
    case 'excuse_right':
      return 'excuse_me:right';
    case 'shot_discard':
    case 'shot_beer':
    case 'shot_small':
      return `shot_choice:${id(d.card)}`;
    case 'shot_nothing':
      return 'shot_choice:nothing';
  }
}

const KEYS: readonly string[] = Array.from({ length: NUM_ACTIONS }, (_, a) => keyOf(decodeAction(a)));

/** A stable machine-readable key for an action, e.g. `play:rum`, `x:mixed_up:beer>tea`. */
export function actionKey(a: number): string {
  return isActionId(a) ? KEYS[a] : `invalid:${a}`;
}

const KEY_TO_ACTION = new Map<string, number>(
  Array.from({ length: NUM_ACTIONS }, (_, a) => [actionKey(a), a] as [string, number]),
);

/** The action for a key made by `actionKey`, or -1. */
export function actionFromKey(key: string): number {
  return KEY_TO_ACTION.get(key) ?? -1;
}

/** How a table names its seats for one reader: each seat's display name, and the reader's own seat ("you"). */
export interface SeatNaming {
  names: readonly string[];
  /** The seat reading the words (null: an onlooker); its own seat is "you". */
  viewer: number | null;
}

function seatWords(offset: number, seat: number | undefined, players: number | undefined, naming?: SeatNaming): string {
  if (seat === undefined || players === undefined) return offset === 1 ? 'the player on your left' : `the player ${offset} seats to your left`;
  const target = (seat + offset) % players;
  if (!naming) return `player ${target} (${offset === 1 ? 'the player on your left' : `the player ${offset} seats to your left`})`;
  const name = target === naming.viewer ? 'you' : naming.names[target] ?? `Player ${target}`;
  // Left of the actor is the reader's left only when the reader acts.
  if (seat !== naming.viewer) return name;
  return `${name} (${offset === 1 ? 'on your left' : `${offset} seats to your left`})`;
}

/**
 * The card of the acting seat's hand an action plays: the order or pub card, the X card of a
 * reaction (whose `card` is the order it hits), Excuse me; undefined for done, pass,
 * discarding or a shot choice.
 */
export function cardPlayed(a: number): string | undefined {
  const d = decodeAction(a);
  if (d.group === 'order' || d.group === 'pub') return CARD_IDS[d.card];
  if (d.group === 'excuse') return CARD_IDS[EXCUSE_ME];
  if (d.kind === 'knock') return CARD_IDS[KNOCKED_OVER];
  if (d.kind === 'mixed') return CARD_IDS[MIXED_UP];
  if (d.kind === 'warm') return CARD_IDS[WARM_BEER];
  if (d.kind === 'pour_front' || d.kind === 'pour_hand') return CARD_IDS[SHOT_INTO_BEER];
  return undefined;
}

/**
 * An action in words. With the acting seat and the player count, relative targets are also
 * named by seat number; with a table's naming, by the names its reader sees (the reader's
 * own seat "you", the direction only when the reader is the one acting).
 */
export function describeAction(a: number, seat?: number, players?: number, naming?: SeatNaming): string {
  if (!isActionId(a)) return `invalid action ${a}`;
  const d = decodeAction(a);
  switch (d.kind) {
    case 'order':
    case 'shots_everyone':
    case 'brawl':
      return `play ${cardName(d.card)}`;
    case 'same':
    case 'lets_do_a_shot':
    case 'insult':
    case 'thats_my':
      return `play ${cardName(d.card)} at ${seatWords(d.target, seat, players, naming)}`;
    case 'flattery':
      return `play Flattery as ${cardName(shotType(d.shot))}`;
    case 'sib':
      return 'play Shot into a beer (one more shot this turn)';
    case 'dont_want':
      return "play You don't want it anymore? (take the top discard)";
    case 'done':
      return 'done playing';
    case 'discard':
      return `discard ${cardName(d.card)}`;
    case 'stop_discard':
      return 'stop discarding and draw up';
    case 'pass':
      return 'pass';
    case 'knock':
      return `Knocked-over glass: discard their ${cardName(d.card)}`;
    case 'mixed':
      return `Mixed-up: take their ${cardName(d.card)}, give your ${cardName(d.give)}`;
    case 'warm':
      return `That beer is warm: send their ${cardName(d.card)} back to their hand`;
    case 'pour_front':
      return `Shot into a beer: pour their ${cardName(d.card)} into their beer`;
    case 'pour_hand':
      return `Shot into a beer: pour your ${cardName(d.card)} into their beer`;
    case 'excuse_cancel':
      return 'Excuse me: cancel the effect on you';
    case 'excuse_left':
      return `Excuse me: redirect to ${naming && seat !== naming.viewer ? 'their' : 'your'} left neighbour`;
    case 'excuse_right':
      return `Excuse me: redirect to ${naming && seat !== naming.viewer ? 'their' : 'your'} right neighbour`;
    case 'shot_discard':
      return `discard your ${cardName(d.card)} (take its token)`;
    case 'shot_beer':
    case 'shot_small':
      return `discard a ${cardName(d.card)} and lose points`;
    case 'shot_nothing':
      return 'discard nothing and lose points';
  }
}
