/**
 * The other seats' hands walked back through the game, from hands as they might be now to the
 * hands each seat would then have held at its past decisions (beliefs over hidden cards,
 * agents/beliefs). It reads the game as the viewing seat saw it, step by step: the events as
 * they were shown to it (`eventForSeat`), and what it knew at each step's start of every hand
 * (its own row of state.known: cards it knows to be there) and of the draw pile (state.pileKnown).
 *
 * Undoing a card a seat laid face up gives it back; undoing a card it picked up in view takes
 * that card away. What the viewer did not see is chosen at random where it must be undone:
 * which cards a seat drew (among the cards of its hand then that the viewer did not know to be
 * there, and of types the draw pile could still hold, at most as many as it could), and which
 * card one seat took unseen from another. A walk that meets a card a hand cannot have had (a
 * card picked up that it does not hold, a hand short of what the viewer knew it held) stops:
 * the hands it started from are no history the viewer's game could have had.
 *
 * The choices are uniform over the cards that could have been drawn, which is what an unseen
 * card's being any of the unseen cards gives when nothing else is known. (It is not exactly the
 * prior: how many ways the rest of the pile could be laid is not weighed.) The truth is always
 * among the choices: every constraint here holds of the game as it was (walk.test.ts walks real
 * games back with their true draws and meets every hand they had).
 */
import { EXCUSE_ME, HAND_TYPES, KNOCKED_OVER, MIXED_UP, SHOT_INTO_BEER, WARM_BEER } from '../cards.ts';
import type { GameEvent } from '../events.ts';
import { randInt, type RngState } from '../rng.ts';

const T = HAND_TYPES;

/** One recorded step (one decision taken) as the viewer saw it. */
export interface StepRecord {
  /** The seat that decided, and what it did. */
  actor: number;
  action: number;
  /** The step's events as the viewer saw them, and the seat whose turn it was as each happened. */
  events: GameEvent[];
  active: number[];
  /** The viewer's lower bounds on the hands at the step's start: known[seat * T + type] (its own row of state.known). */
  known: number[];
  /** The viewer's upper bound on what the draw pile held at the step's start, by type (state.pileKnown). */
  pile: number[];
  /** The draw pile ran out and was laid anew from the discard pile during the step. */
  reshuffled: boolean;
  /** The viewer's lower bounds just before each event that draws or takes unseen (knowledgeBefore), once worked out. */
  before?: Int32Array[];
}

/** Cards taken out of a hand where the viewer did not see which: `free` cards of each type, `bound` at most of each (Infinity: no bound). */
export type Chooser = (seat: number, count: number, free: Int32Array, bound: ArrayLike<number> | null, event: GameEvent, rng: RngState) => number[] | null;

/** Chooses `count` of the free cards uniformly (each card alike), at most `bound[t]` of type t; null when too few are free. */
export const uniformChooser: Chooser = (_seat, count, free, bound, _event, rng) => {
  const cards: number[] = [];
  for (let t = 0; t < T; t++) {
    const k = bound ? Math.min(free[t], bound[t]) : free[t];
    for (let i = 0; i < k; i++) cards.push(t);
  }
  if (cards.length < count) return null;
  // A partial Fisher–Yates: the first `count` places.
  for (let i = 0; i < count; i++) {
    const j = i + randInt(rng, cards.length - i);
    const x = cards[i];
    cards[i] = cards[j];
    cards[j] = x;
  }
  return cards.slice(0, count);
};

/** What a walk gives: each seat's hand at the start of each step asked for, or why there is none. */
export interface Walk {
  /** hands.get(step): every seat's hand then (hand[seat * T + type]); the viewer's and untracked seats' rows are zero. */
  hands: Map<number, Int32Array>;
  /** Seats whose hand was still tracked at that step's start: a seat gone out, or whose hand took in a card that only such a seat could name, is not. */
  tracked: Map<number, boolean[]>;
  /** Null when the walk went through; else the step where the hands met a contradiction, and what it was. */
  stuck: { step: number; why: string } | null;
}

/**
 * Walks `hands` (every seat's hand after the last step) back through `steps[from…]`, keeping
 * the hands at the start of each step in `keep`. `viewer`'s own hand is not walked (it knows
 * it); nor is any seat in `untracked` (those out of the game now: their hands are empty).
 */
export function walkBack(
  steps: readonly StepRecord[], from: number, keep: ReadonlySet<number>, players: number, viewer: number,
  hands: ArrayLike<number>, untracked: readonly boolean[], choose: Chooser, rng: RngState,
): Walk {
  const n = players;
  const h = Int32Array.from(hands);
  const tracked = Array.from({ length: n }, (_, p) => p !== viewer && !untracked[p]);
  for (let p = 0; p < n; p++) if (!tracked[p]) h.fill(0, p * T, (p + 1) * T);
  const out: Walk = { hands: new Map(), tracked: new Map(), stuck: null };
  const free = new Int32Array(T);
  const lower = new Int32Array(n * T);

  for (let k = steps.length - 1; k >= from; k--) {
    const step = steps[k];
    // The same for every world walked back: worked out once per record.
    const before = (step.before ??= knowledgeBefore(step, n, viewer, lower).before);
    const fail = (why: string): Walk => ({ ...out, stuck: { step: k, why } });
    const give = (p: number, t: number) => {
      if (tracked[p]) h[p * T + t]++;
    };
    const take = (p: number, t: number): boolean => {
      if (!tracked[p]) return true;
      if (h[p * T + t] === 0) return false;
      h[p * T + t]--;
      return true;
    };
    for (let i = step.events.length - 1; i >= 0; i--) {
      const e = step.events[i];
      switch (e.k) {
        case 'draw': {
          if (!tracked[e.seat]) break;
          const known = before[i];
          for (let t = 0; t < T; t++) free[t] = Math.max(0, h[e.seat * T + t] - known[e.seat * T + t]);
          // Before a reshuffle in the step, the cards came from the pile the viewer knew of; after it, from the new one.
          const drawn = choose(e.seat, e.count, free, step.reshuffled ? null : step.pile, e, rng);
          if (!drawn) return fail(`seat ${e.seat} holds too few cards it could have drawn`);
          for (const t of drawn) if (!take(e.seat, t)) return fail(`seat ${e.seat} does not hold a card it drew`);
          break;
        }
        case 'play':
        case 'discard':
          give(e.seat, e.card);
          break;
        case 'excuse':
          give(e.seat, EXCUSE_ME);
          break;
        case 'shot_choice':
          if (e.card !== undefined) give(e.seat, e.card);
          break;
        case 'pick_up':
          if (!take(e.seat, e.card)) return fail(`seat ${e.seat} picked up a card it does not hold`);
          break;
        case 'x':
          // Undone in the reverse of the engine's order (effects.ts applyReaction).
          if (e.card === MIXED_UP) {
            give(e.seat, e.give!);
            if (!take(e.seat, e.target)) return fail(`seat ${e.seat} took a card with Mixed-up it does not hold`);
            give(e.seat, MIXED_UP);
          } else if (e.card === WARM_BEER) {
            give(e.seat, WARM_BEER);
            if (!take(step.active[i], e.target)) return fail(`seat ${step.active[i]} got back a beer it does not hold`);
          } else if (e.card === SHOT_INTO_BEER) {
            if (e.fromHand) give(e.seat, e.target);
            give(e.seat, SHOT_INTO_BEER);
          } else if (e.card === KNOCKED_OVER) {
            give(e.seat, KNOCKED_OVER);
          }
          break;
        case 'take': {
          if (e.from === viewer || e.to === viewer) {
            // The viewer was one of the two: it saw the card.
            if (!take(e.to, e.card)) return fail(`seat ${e.to} does not hold the card it took`);
            give(e.from, e.card);
            break;
          }
          if (!tracked[e.to]) {
            // Only the taker's hand could say which card left the other's: that hand is no longer followed.
            tracked[e.from] = false;
            h.fill(0, e.from * T, (e.from + 1) * T);
            break;
          }
          const known = before[i];
          for (let t = 0; t < T; t++) free[t] = Math.max(0, h[e.to * T + t] - known[e.to * T + t]);
          const card = choose(e.to, 1, free, null, e, rng);
          if (!card) return fail(`seat ${e.to} holds no card it could have taken`);
          if (!take(e.to, card[0])) return fail(`seat ${e.to} does not hold the card it took`);
          give(e.from, card[0]);
          break;
        }
        case 'out':
          // A seat in the game now never went out; one that did is not followed.
          tracked[e.seat] = false;
          break;
        default:
          break;
      }
    }
    for (let p = 0; p < n; p++) {
      if (!tracked[p]) continue;
      for (let t = 0; t < T; t++) if (h[p * T + t] < step.known[p * T + t]) return fail(`seat ${p} holds fewer cards of type ${t} than the viewer knew of`);
    }
    if (keep.has(k)) {
      out.hands.set(k, h.slice());
      out.tracked.set(k, tracked.slice());
    }
  }
  return out;
}

/**
 * The viewer's lower bounds on every hand just before each event of `step`, from those at its
 * start: the engine's bookkeeping of the viewer's row of state.known (engine/context.ts),
 * replayed over the events the viewer saw (only the events that draw or take unseen need them), and
 * those at its end.
 */
export function knowledgeBefore(step: StepRecord, n: number, viewer: number, lower = new Int32Array(n * T)): { before: Int32Array[]; after: Int32Array } {
  const out: Int32Array[] = [];
  lower.set(step.known);
  const lose = (p: number, t: number) => {
    if (lower[p * T + t] > 0) lower[p * T + t]--;
  };
  const gain = (p: number, t: number) => {
    if (p !== viewer) lower[p * T + t]++;
  };
  for (let i = 0; i < step.events.length; i++) {
    const e = step.events[i];
    if (e.k === 'draw' || e.k === 'take') out[i] = lower.slice();
    switch (e.k) {
      case 'play':
      case 'discard':
        lose(e.seat, e.card);
        break;
      case 'excuse':
        lose(e.seat, EXCUSE_ME);
        break;
      case 'shot_choice':
        if (e.card !== undefined) lose(e.seat, e.card);
        break;
      case 'pick_up':
        gain(e.seat, e.card);
        break;
      case 'x':
        if (e.card === MIXED_UP) {
          lose(e.seat, MIXED_UP);
          gain(e.seat, e.target);
          lose(e.seat, e.give!);
        } else if (e.card === WARM_BEER) {
          gain(step.active[i], e.target);
          lose(e.seat, WARM_BEER);
        } else if (e.card === SHOT_INTO_BEER) {
          lose(e.seat, SHOT_INTO_BEER);
          if (e.fromHand) lose(e.seat, e.target);
        } else if (e.card === KNOCKED_OVER) {
          lose(e.seat, KNOCKED_OVER);
        }
        break;
      case 'take':
        if (e.from === viewer) gain(e.to, e.card);
        else if (e.to === viewer) lose(e.from, e.card);
        else for (let t = 0; t < T; t++) lose(e.from, t);
        break;
      case 'out':
        lower.fill(0, e.seat * T, (e.seat + 1) * T);
        break;
      default:
        break;
    }
  }
  return { before: out, after: lower };
}

