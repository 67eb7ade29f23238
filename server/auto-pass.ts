/**
 * Auto-pass: the server passes for a person's seat in a reaction window (or a response) when
 * passing is all the person would want to do there, so they are asked only what matters. The
 * seat's own legal actions (from its seat channel) decide it: it passes when every legal
 * action besides pass is an X card reaction of a type the person chose not to watch for. By
 * default every X type is watched, so it passes exactly when pass is the only legal action
 * (a window the seat holds no usable X card in, a card aimed at it with no Excuse me in hand).
 * It is on for every person's seat and never applies to bots; an auto-pass is an ordinary
 * action in the game's record.
 *
 * The server cannot tell a person from a program at a 'remote' seat, so its default changes
 * nothing a client sees. The web page, a client for people, sets its people's default when it
 * takes a seat: no X card watched (web/seat-settings.js), so a person is asked at their own
 * turn and at a card aimed at them they can answer. Measured over 20 games of a person who
 * always passes against the Strong, Regular and Beginner bots: 1,522 decisions asked watching
 * every X card, 1,051 of them windows where only pass or an X card could be played; 471
 * watching none.
 */
import { A_PASS, cardPlayed, decodeAction } from '../env/index.ts';

/** The X cards a person can watch for, as the ruleset names their cards. */
export const X_WATCHABLE = ['knocked_over', 'mixed_up', 'warm_beer', 'shot_into_beer'] as const;
export type Watchable = (typeof X_WATCHABLE)[number];

export interface AutoPass {
  /** Pass for the seat at all. */
  on: boolean;
  /** X card types the seat is not asked about: it passes even holding them. */
  unwatched: Watchable[];
}

export const DEFAULT_AUTO_PASS: Readonly<AutoPass> = Object.freeze({ on: true, unwatched: [] });

/** The X card an action plays as a reaction, or null for any other action. */
export function reactionCard(action: number): Watchable | null {
  return decodeAction(action).group === 'x' ? (cardPlayed(action) as Watchable) : null;
}

/** Whether auto-pass passes for a seat whose legal actions are `legal`. */
export function autoPasses(s: Readonly<AutoPass>, legal: readonly number[]): boolean {
  if (!s.on || !legal.includes(A_PASS)) return false;
  return legal.every((a) => {
    if (a === A_PASS) return true;
    const x = reactionCard(a);
    return x !== null && s.unwatched.includes(x);
  });
}
