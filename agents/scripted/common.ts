/**
 * Shared plumbing of the scripted agents: actions decoded into their parts, the seat's view
 * turned into flat arrays, and small helpers on the table (who leads, who is still in).
 * Everything here reads the observation only; no engine state.
 */
import * as A from '../../env/actions.ts';
import { CARD_IDS, EXCUSE_ME, HAND_TYPES, ORDER_TYPES, shotType } from '../../env/cards.ts';
import type { PlayerPublicView, PlayerView } from '../../env/observation/view.ts';
import { randInt, seedRng, type RngState } from '../../env/rng.ts';
import type { Agent, AgentObservation, GameStart } from '../agent.ts';

export type ActionKind =
  | 'order' | 'same' | 'flattery' | 'sib' | 'lets_do_a_shot' | 'shots_everyone' | 'brawl' | 'dont_want'
  | 'insult' | 'thats_my' | 'done' | 'discard' | 'stop_discard' | 'pass' | 'knock' | 'mixed' | 'warm'
  | 'pour_front' | 'pour_hand' | 'excuse_cancel' | 'excuse_left' | 'excuse_right' | 'shot_discard'
  | 'shot_beer' | 'shot_small' | 'shot_nothing';

/** An action id in parts: the card it plays or aims at, the seat offset it targets, the shot it names. */
export interface Decoded {
  kind: ActionKind;
  /** Card type played, discarded or aimed at (Mixed-up: the order taken), or -1. */
  card: number;
  /** Mixed-up: the order given, or -1. */
  give: number;
  /** Seat offset (1 = left neighbour) of a targeted pub card, or 0. */
  target: number;
  /** Shot index 0..4 (Flattery's choice, a poured or discarded shot), or -1. */
  shot: number;
}

function d(kind: ActionKind, card = -1, target = 0, shot = -1, give = -1): Decoded {
  return { kind, card, give, target, shot };
}

function decodeUncached(a: number): Decoded {
  if (a < A.A_SAME) return d('order', a);
  if (a < A.A_FLATTERY) return d('same', -1, a - A.A_SAME + 1);
  if (a < A.A_SIB) return d('flattery', -1, 0, a - A.A_FLATTERY);
  if (a === A.A_SIB) return d('sib');
  if (a < A.A_SHOTS_EVERYONE) return d('lets_do_a_shot', -1, a - A.A_LDAS + 1);
  if (a === A.A_SHOTS_EVERYONE) return d('shots_everyone');
  if (a === A.A_BRAWL) return d('brawl');
  if (a === A.A_DONT_WANT) return d('dont_want');
  if (a < A.A_THATS_MY) return d('insult', -1, a - A.A_INSULT + 1);
  if (a < A.A_DONE) return d('thats_my', -1, a - A.A_THATS_MY + 1);
  if (a === A.A_DONE) return d('done');
  if (a < A.A_STOP_DISCARD) return d('discard', a - A.A_DISCARD);
  if (a === A.A_STOP_DISCARD) return d('stop_discard');
  if (a === A.A_PASS) return d('pass');
  if (a < A.A_MIXED) return d('knock', a - A.A_KNOCK);
  if (a < A.A_WARM) {
    const i = a - A.A_MIXED;
    return d('mixed', Math.floor(i / ORDER_TYPES), 0, -1, i % ORDER_TYPES);
  }
  if (a < A.A_SIBX_FRONT) return d('warm', a - A.A_WARM);
  if (a < A.A_SIBX_HAND) return d('pour_front', shotType(a - A.A_SIBX_FRONT), 0, a - A.A_SIBX_FRONT);
  if (a < A.A_EXCUSE_CANCEL) return d('pour_hand', shotType(a - A.A_SIBX_HAND), 0, a - A.A_SIBX_HAND);
  if (a === A.A_EXCUSE_CANCEL) return d('excuse_cancel', EXCUSE_ME);
  if (a === A.A_EXCUSE_LEFT) return d('excuse_left', EXCUSE_ME, 1);
  if (a === A.A_EXCUSE_RIGHT) return d('excuse_right', EXCUSE_ME, -1);
  if (a < A.A_SHOT_BEER) return d('shot_discard', shotType(a - A.A_SHOT_DISCARD), 0, a - A.A_SHOT_DISCARD);
  if (a === A.A_SHOT_BEER) return d('shot_beer', 0);
  if (a === A.A_SHOT_SMALL) return d('shot_small', 1);
  return d('shot_nothing');
}

const DECODED: readonly Decoded[] = Array.from({ length: A.NUM_ACTIONS }, (_, a) => Object.freeze(decodeUncached(a)));

/** The parts of an action id (shared frozen objects: do not mutate). */
export function decode(a: number): Decoded {
  return DECODED[a];
}

/**
 * The kind of decision a list of legal actions belongs to, without building the view: play
 * always offers "done", discard "stop discarding", a response Excuse me or a shot choice.
 */
export function decisionKind(legal: readonly number[]): 'play' | 'discard' | 'reaction' | 'response' {
  let response = false;
  for (const a of legal) {
    if (a === A.A_DONE) return 'play';
    if (a === A.A_STOP_DISCARD) return 'discard';
    if (a >= A.A_EXCUSE_CANCEL) response = true;
  }
  return response ? 'response' : 'reaction';
}

const TYPE_OF = new Map<string, number>(CARD_IDS.map((id, t) => [id, t]));

/** Card type number of a card id. */
export function typeOf(id: string): number {
  return TYPE_OF.get(id) ?? -1;
}

/** A hand (or any per-card record) as counts indexed by card type. */
export function handCounts(rec: Readonly<Record<string, number>>): number[] {
  const out = new Array<number>(HAND_TYPES);
  for (let t = 0; t < HAND_TYPES; t++) out[t] = rec[CARD_IDS[t]] ?? 0;
  return out;
}

/** Shot-token bitmask of a player. */
export function tokenMask(p: PlayerPublicView): number {
  let m = 0;
  for (const id of p.shotTokens) m |= 1 << (typeOf(id) - shotType(0));
  return m;
}

export { popcount } from '../../env/state.ts';

/**
 * How much harming player `seat` is worth to the viewer, 0..1: the player with the best
 * score among the others counts most, players far behind both the viewer and that leader
 * count little. Out players cannot be harmed and count 0.
 */
export function threat(v: PlayerView, seat: number): number {
  const p = v.table[seat];
  if (seat === v.seat || p.out !== null) return 0;
  const mine = v.table[v.seat].score;
  let top = -Infinity;
  for (const q of v.table) if (q.seat !== v.seat && q.score > top) top = q.score;
  const ref = Math.max(top, mine);
  const gap = ref - p.score;
  const base = p.score >= top ? 1 : Math.max(0.15, 1 - gap / 15);
  return p.score > mine ? base : base * 0.8;
}

/** Base class of the scripted agents: a per-game generator for tie-breaks. */
export abstract class ScriptedAgent implements Agent {
  abstract readonly spec: string;
  protected rng: RngState = seedRng('scripted');

  reset(game: GameStart): void {
    this.rng = seedRng(`${this.spec}/${game.seed}`);
  }

  abstract act(obs: AgentObservation): number;

  /** The action with the highest score; ties broken by the seeded generator. */
  protected argmax(actions: readonly number[], score: (a: number) => number): number {
    let best = -Infinity;
    let pick = actions[0];
    let ties = 0;
    for (const a of actions) {
      const s = score(a);
      if (s > best + 1e-9) {
        best = s;
        pick = a;
        ties = 1;
      } else if (s > best - 1e-9) {
        ties++;
        if (randInt(this.rng, ties) === 0) pick = a;
      }
    }
    return pick;
  }
}
