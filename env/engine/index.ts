/**
 * The engine's public face: create a game, list legal actions, apply one (validated: an
 * illegal action throws and changes nothing), replay a game from its seed and actions.
 */
import { describeAction, NUM_ACTIONS } from '../actions.ts';
import { CARD_IDS, CLOSING_TIME, HAND_TYPES } from '../cards.ts';
import type { GameEvent } from '../events.ts';
import { compileRuleset, DEFAULT_RULESET, parseRuleset, type CompiledRules, type Ruleset } from '../ruleset.ts';
import { CLOSING_IN_DECK, entryType, PHASE_NAMES, type GameState } from '../state.ts';
import type { Chance, Ctx } from './context.ts';
import { advance, applyAction, END_REASONS, endReason, finalScores, newGame, winners, type EndReason } from './flow.ts';
import { legalActionsInto } from './legal.ts';

export { END_REASONS, endReason, finalScores, winners, type EndReason };

export class IllegalActionError extends Error {
  override name = 'IllegalActionError';
}

export interface GameConfig {
  players: number;
  seed: number | string;
  ruleset?: Ruleset;
  /** Ask every eligible player at each decision, so being asked reveals nothing. */
  askForced?: boolean;
}

export type { Chance };

/** Compiles a ruleset, validating it unless parseRuleset already made it. */
export function rulesFor(ruleset: Ruleset = DEFAULT_RULESET): CompiledRules {
  return compileRuleset(parseRuleset(ruleset));
}

/** A new game; with `chance`, its deal and every later random outcome are named by that source (context.ts, Chance). */
export function createState(cfg: GameConfig, log: GameEvent[] | null = null, chance?: Chance): { rules: CompiledRules; state: GameState } {
  const rules = rulesFor(cfg.ruleset);
  const state = newGame(rules, { players: cfg.players, seed: cfg.seed, askForced: cfg.askForced, chance }, log);
  return { rules, state };
}

const buf = new Int32Array(NUM_ACTIONS);

/** Legal actions of the player to decide, ascending. */
export function legalActions(r: CompiledRules, s: GameState): number[] {
  const n = legalActionsInto({ r, s, log: null }, buf);
  return Array.from(buf.subarray(0, n));
}

/** Number of legal actions written into `out` (length ≥ NUM_ACTIONS), without allocating. */
export function legalActionsFast(r: CompiledRules, s: GameState, out: Int32Array): number {
  return legalActionsInto({ r, s, log: null }, out);
}

export function isLegal(r: CompiledRules, s: GameState, a: number): boolean {
  if (s.over || !Number.isInteger(a) || a < 0 || a >= NUM_ACTIONS) return false;
  const n = legalActionsInto({ r, s, log: null }, buf);
  for (let i = 0; i < n; i++) if (buf[i] === a) return true;
  return false;
}

/**
 * Applies `action` for the player to decide and runs on to the next real decision.
 * Throws IllegalActionError, leaving the state untouched, if the action is not legal.
 * With `chance`, the random outcomes on the way are named by that source (context.ts, Chance).
 */
export function applyStep(r: CompiledRules, s: GameState, action: number, log: GameEvent[] | null = null, checked = false, chance?: Chance): void {
  if (!checked && !isLegal(r, s, action)) {
    if (s.over) throw new IllegalActionError('the game is over: no action is legal');
    const legal = legalActions(r, s).map((a) => `${a}`).join(', ');
    throw new IllegalActionError(
      `illegal action ${action} (${describeAction(action)}) for seat ${s.actor} in the ${PHASE_NAMES[s.phase]} ` +
        `phase; legal: ${legal}`,
    );
  }
  const c: Ctx = chance ? { r, s, log, chance } : { r, s, log };
  s.decisions++;
  applyAction(c, action);
  advance(c);
}

/** Replays a game from its configuration and the list of decisions taken. */
export function replay(cfg: GameConfig, actions: readonly number[], log: GameEvent[] | null = null): { rules: CompiledRules; state: GameState } {
  const g = createState(cfg, log);
  for (const a of actions) applyStep(g.rules, g.state, a, log);
  return g;
}

/** Where every card is: counts per type over deck, discard, hands and fronts (for checks). */
export function cardCensus(s: GameState): { counts: number[]; closing: string } {
  const counts = new Array<number>(HAND_TYPES).fill(0);
  let closing = 'aside';
  for (const t of s.deck) {
    if (t === CLOSING_TIME) closing = 'deck';
    else counts[t]++;
  }
  for (const t of s.discard) counts[t]++;
  for (let i = 0; i < s.hand.length; i++) counts[i % HAND_TYPES] += s.hand[i];
  for (const f of s.front) for (const e of f) counts[entryType(e)]++;
  if (s.closing.where === CLOSING_IN_DECK && closing !== 'deck') closing = 'missing';
  if (s.closing.where === 2) closing = closing === 'deck' ? 'duplicated' : 'drawn';
  return { counts, closing };
}

export const CARD_TYPE_IDS = CARD_IDS;
