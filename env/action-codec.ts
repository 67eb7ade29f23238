/**
 * The action-id layout as data, and the one codec over it: `decodeAction` turns an id into its
 * parts, `encodeAction` turns parts back into the id. The table in actions.ts documents the
 * same layout in words; `SEGMENTS` below is what the code reads.
 *
 *   decodeAction(A_MIXED + 27)                   // { kind: 'mixed', card: 2, give: 7, ... }
 *   encodeAction({ kind: 'same', target: 2 })    // A_SAME + 1
 *
 * Decoding is an array lookup of a shared frozen object, cheap enough for the engine's and the
 * agents' inner loops. Hot loops that write legal actions encode as `base + index` with the
 * A_* bases, the index being the one the segment documents (Mixed-up: 10 × taken + given).
 */
import {
  BEER, BRAWL, DONT_WANT_IT, EXCUSE_ME, FLATTERY, HAND_TYPES, INSULTED_BARTENDER, LETS_DO_A_SHOT,
  ORDER_TYPES, SAME, SHOT_INTO_BEER, SHOT_TYPES, SHOTS_EVERYONE, shotType, SMALL_BEER, THATS_MY_ORDER,
} from './cards.ts';

/** Largest relative target offset (seats 1..5 to the left). */
export const MAX_OFFSET = 5;

export type ActionKind =
  | 'order' | 'same' | 'flattery' | 'sib' | 'lets_do_a_shot' | 'shots_everyone' | 'brawl' | 'dont_want'
  | 'insult' | 'thats_my' | 'done' | 'discard' | 'stop_discard' | 'pass' | 'knock' | 'mixed' | 'warm'
  | 'pour_front' | 'pour_hand' | 'excuse_cancel' | 'excuse_left' | 'excuse_right' | 'shot_discard'
  | 'shot_beer' | 'shot_small' | 'shot_nothing';

/** The groups front ends show actions in; each is one run of consecutive ids. */
export type ActionGroup = 'order' | 'pub' | 'done' | 'discard' | 'pass' | 'x' | 'excuse' | 'shot_choice';

/** An action id in parts. Fields that do not apply to the kind hold their defaults (-1, or 0 for target). */
export interface DecodedAction {
  readonly kind: ActionKind;
  readonly group: ActionGroup;
  /**
   * The card type the action is about: the order or pub card played, the card discarded, the
   * order an X card hits (Mixed-up: the one taken; Shot into a beer: the shot poured), the card
   * given up in a shot choice, Excuse me for its answers; -1 for done, stop, pass and "nothing".
   */
  readonly card: number;
  /** Seat offset of a targeted pub card (1 = left neighbour, up to MAX_OFFSET); Excuse me's redirect: +1 left, -1 right; else 0. */
  readonly target: number;
  /** Shot index 0..4: Flattery's choice, a poured shot, a shot discarded in a shot choice; else -1. */
  readonly shot: number;
  /** Mixed-up: the order given in exchange; else -1. */
  readonly give: number;
}

/** What `encodeAction` takes: a kind and enough of its parts to name one id (a whole `DecodedAction` does). */
export interface ActionForm {
  kind: ActionKind;
  card?: number;
  target?: number;
  shot?: number;
  give?: number;
}

type Parts = Partial<Pick<DecodedAction, 'card' | 'target' | 'shot' | 'give'>>;

interface Segment {
  kind: ActionKind;
  group: ActionGroup;
  count: number;
  /** The parts of the segment's i-th id. */
  parts: (i: number) => Parts;
}

const one = (kind: ActionKind, group: ActionGroup, parts: Parts = {}): Segment => ({ kind, group, count: 1, parts: () => parts });
const targeted = (kind: ActionKind, card: number): Segment => ({ kind, group: 'pub', count: MAX_OFFSET, parts: (i) => ({ card, target: i + 1 }) });
const shots = (kind: ActionKind, group: ActionGroup): Segment => ({ kind, group, count: SHOT_TYPES, parts: (i) => ({ card: shotType(i), shot: i }) });

/** The layout, in id order: each kind is one run of ids. Changing it changes ACTION_SPACE_VERSION. */
const SEGMENTS: readonly Segment[] = [
  { kind: 'order', group: 'order', count: ORDER_TYPES, parts: (i) => ({ card: i }) },
  targeted('same', SAME),
  { kind: 'flattery', group: 'pub', count: SHOT_TYPES, parts: (i) => ({ card: FLATTERY, shot: i }) },
  one('sib', 'pub', { card: SHOT_INTO_BEER }),
  targeted('lets_do_a_shot', LETS_DO_A_SHOT),
  one('shots_everyone', 'pub', { card: SHOTS_EVERYONE }),
  one('brawl', 'pub', { card: BRAWL }),
  one('dont_want', 'pub', { card: DONT_WANT_IT }),
  targeted('insult', INSULTED_BARTENDER),
  targeted('thats_my', THATS_MY_ORDER),
  one('done', 'done'),
  { kind: 'discard', group: 'discard', count: HAND_TYPES, parts: (i) => ({ card: i }) },
  one('stop_discard', 'discard'),
  one('pass', 'pass'),
  { kind: 'knock', group: 'x', count: ORDER_TYPES, parts: (i) => ({ card: i }) },
  { kind: 'mixed', group: 'x', count: ORDER_TYPES * ORDER_TYPES, parts: (i) => ({ card: Math.floor(i / ORDER_TYPES), give: i % ORDER_TYPES }) },
  { kind: 'warm', group: 'x', count: 2, parts: (i) => ({ card: i === 0 ? BEER : SMALL_BEER }) },
  shots('pour_front', 'x'),
  shots('pour_hand', 'x'),
  one('excuse_cancel', 'excuse', { card: EXCUSE_ME }),
  one('excuse_left', 'excuse', { card: EXCUSE_ME, target: 1 }),
  one('excuse_right', 'excuse', { card: EXCUSE_ME, target: -1 }),
  shots('shot_discard', 'shot_choice'),
  one('shot_beer', 'shot_choice', { card: BEER }),
  one('shot_small', 'shot_choice', { card: SMALL_BEER }),
  one('shot_nothing', 'shot_choice'),
];

const DECODED: DecodedAction[] = [];
const RANGE = new Map<ActionKind, { base: number; count: number }>();
for (const seg of SEGMENTS) {
  RANGE.set(seg.kind, { base: DECODED.length, count: seg.count });
  for (let i = 0; i < seg.count; i++) {
    DECODED.push(Object.freeze({ kind: seg.kind, group: seg.group, card: -1, target: 0, shot: -1, give: -1, ...seg.parts(i) }));
  }
}

export const NUM_ACTIONS = DECODED.length;

/** The first id of a kind; its ids are base .. base + count - 1. */
function base(kind: ActionKind): number {
  return RANGE.get(kind)!.base;
}

export const A_ORDER = base('order');
export const A_SAME = base('same');
export const A_FLATTERY = base('flattery');
export const A_SIB = base('sib');
export const A_LDAS = base('lets_do_a_shot');
export const A_SHOTS_EVERYONE = base('shots_everyone');
export const A_BRAWL = base('brawl');
export const A_DONT_WANT = base('dont_want');
export const A_INSULT = base('insult');
export const A_THATS_MY = base('thats_my');
export const A_DONE = base('done');
export const A_DISCARD = base('discard');
export const A_STOP_DISCARD = base('stop_discard');
export const A_PASS = base('pass');
export const A_KNOCK = base('knock');
export const A_MIXED = base('mixed');
export const A_WARM = base('warm');
export const A_SIBX_FRONT = base('pour_front');
export const A_SIBX_HAND = base('pour_hand');
export const A_EXCUSE_CANCEL = base('excuse_cancel');
export const A_EXCUSE_LEFT = base('excuse_left');
export const A_EXCUSE_RIGHT = base('excuse_right');
export const A_SHOT_DISCARD = base('shot_discard');
export const A_SHOT_BEER = base('shot_beer');
export const A_SHOT_SMALL = base('shot_small');
export const A_SHOT_NOTHING = base('shot_nothing');

/** Whether `a` is an action id (an integer in [0, NUM_ACTIONS)). */
export function isActionId(a: number): boolean {
  return Number.isInteger(a) && a >= 0 && a < NUM_ACTIONS;
}

/** The parts of action id `a` (a shared frozen object); throws a RangeError for anything but an action id. */
export function decodeAction(a: number): DecodedAction {
  const d = DECODED[a];
  if (d === undefined) throw new RangeError(`not an action id: ${a} (ids are integers 0..${NUM_ACTIONS - 1})`);
  return d;
}

/**
 * The id whose parts are `form`: its kind, and every part given equal to the id's. Throws a
 * RangeError when no id matches (an unknown kind, a part out of range or not of the kind) or
 * when the parts given leave more than one (`{ kind: 'order' }`).
 */
export function encodeAction(form: ActionForm): number {
  const range = RANGE.get(form.kind);
  if (range === undefined) throw new RangeError(`not an action kind: ${String(form.kind)}`);
  let found = -1;
  const { card, target, shot, give } = form;
  for (let a = range.base; a < range.base + range.count; a++) {
    const d = DECODED[a];
    if ((card !== undefined && card !== d.card) || (target !== undefined && target !== d.target)) continue;
    if ((shot !== undefined && shot !== d.shot) || (give !== undefined && give !== d.give)) continue;
    if (found >= 0) throw new RangeError(`ambiguous action ${JSON.stringify(form)}: ids ${found} and ${a} both match`);
    found = a;
  }
  if (found < 0) throw new RangeError(`no action ${JSON.stringify(form)}`);
  return found;
}
