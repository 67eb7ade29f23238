/**
 * Auto-pass: the server passes for a person's seat in a reaction window (or a response) when
 * passing is all the person would want to do there, so they are asked only what matters. The
 * seat's own legal actions (from its seat channel) and the card the window is about (public)
 * decide it: it passes when every legal action besides pass is an X card reaction the person
 * does not want to be asked about, because
 * - its X card type is unwatched (the person ticked it off), or
 * - the seat asks only at `answering` windows and the reaction does not answer the card just
 *   played (`answers` below): a window after "done" or after a pub card, or an X card aimed at
 *   an order played earlier, which the seat was asked about when that order was played.
 * The server's default watches every type at every window, so it passes exactly when pass is
 * the only legal action (a window the seat holds no usable X card in, a card aimed at it with no
 * Excuse me in hand). It is on for every person's seat and never applies to bots; an auto-pass
 * is an ordinary action in the game's record.
 *
 * The server cannot tell a person from a program at a 'remote' seat, so its default changes
 * nothing a client sees. The web page, a client for people, sets its people's default when it
 * takes a seat: every X card watched, at answering windows only (web/seat-settings.js).
 * `npm run measure:asks` measures what each setting asks of a person who always passes
 * (docs/results/2026-12-05-x-card-asks.md).
 */
import { A_PASS, CARD_IDS, cardPlayed, decodeAction, isBeer, SHOT_INTO_BEER, shotType, type CardId } from '../env/index.ts';

/** The X cards a person can watch for, as the ruleset names their cards. */
export const X_WATCHABLE = ['knocked_over', 'mixed_up', 'warm_beer', 'shot_into_beer'] as const;
export type Watchable = (typeof X_WATCHABLE)[number];

export interface AutoPass {
  /** Pass for the seat at all. */
  on: boolean;
  /** X card types the seat is not asked about: it passes even holding them. */
  unwatched: Watchable[];
  /** The windows the seat is asked at: `all` where it can play a watched X card, `answering` only where one answers the card just played. */
  windows: AskWindows;
}

export const ASK_WINDOWS = ['all', 'answering'] as const;
export type AskWindows = (typeof ASK_WINDOWS)[number];

export const DEFAULT_AUTO_PASS: Readonly<AutoPass> = Object.freeze({ on: true, unwatched: [], windows: 'all' });

/** The X card an action plays as a reaction, or null for any other action. */
export function reactionCard(action: number): Watchable | null {
  return decodeAction(action).group === 'x' ? (cardPlayed(action) as Watchable) : null;
}

/**
 * Whether reaction `action` answers `played`, the card whose window is open (-1 after "done"):
 * it knocks over, swaps or warms that very order, pours that shot, or pours into that beer; or
 * the card was Shot into a beer, which any X card on the beer or the shot may undo.
 */
export function answers(action: number, played: number): boolean {
  const d = decodeAction(action);
  if (d.group !== 'x' || played < 0) return false;
  if (played === SHOT_INTO_BEER) return true;
  switch (d.kind) {
    case 'knock':
    case 'mixed':
    case 'warm':
      return d.card === played;
    case 'pour_front':
      return isBeer(played) || shotType(d.shot) === played;
    case 'pour_hand':
      return isBeer(played);
    default:
      return false;
  }
}

/** The card a decision is about when it is a reaction window (its view's `decision`, public), else -1: what `autoPasses` reads. */
export function windowCard(decision: { kind: string; card: string | null }): number {
  return decision.kind === 'reaction' && decision.card !== null ? CARD_IDS.indexOf(decision.card as CardId) : -1;
}

/**
 * Whether auto-pass passes for a seat whose legal actions are `legal`, at a decision about
 * card `played` (the reaction window's card, public; -1 when there is none).
 */
export function autoPasses(s: Readonly<AutoPass>, legal: readonly number[], played = -1): boolean {
  if (!s.on || !legal.includes(A_PASS)) return false;
  return legal.every((a) => {
    if (a === A_PASS) return true;
    const x = reactionCard(a);
    return x !== null && (s.unwatched.includes(x) || (s.windows === 'answering' && !answers(a, played)));
  });
}
