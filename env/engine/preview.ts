/**
 * What a digestion would give the player to act, before they commit: the engine's own
 * digestion (digestion.ts) run on a copy of the state, as it stands or after one more card
 * played. Only public facts go in (what is in front, tokens, the chart space), and the die is
 * not reported, so a preview tells a seat nothing it could not work out itself.
 */
import { decodeAction } from '../action-codec.ts';
import type { GameEvent } from '../events.ts';
import type { CompiledRules } from '../ruleset.ts';
import { cloneState, PHASE_PLAY, type GameState } from '../state.ts';
import type { Ctx } from './context.ts';
import { digestionStep } from './digestion.ts';
import { applyPlay } from './effects.ts';

export interface DigestPreview {
  /** Points the digestion adds (negative for an abstinence). */
  points: number;
  /** Drunkenness of the cards in front (0 for an abstinence). */
  drunkenness: number;
  /** Drunkenness plus the chart space's number: the die must reach it; null for an abstinence (no roll). */
  total: number | null;
  /** The chance that the die reaches the total (move only the usual one space); null without a roll. */
  passChance: number | null;
  abstinence: boolean;
  /** The digestion throws the player out (a third abstinence in a row). */
  thrownOut: boolean;
  /** The player skips this digestion (they played I'll get the same). */
  skips: boolean;
}

/** Whether `seat` is the active player choosing what to play: the only time a preview means anything. */
export function canPreview(s: GameState, seat: number): boolean {
  return !s.over && s.phase === PHASE_PLAY && s.active === seat && s.actor === seat;
}

/** Action kinds a preview plays before digesting: those that put a drink in front. */
const DRINKS = new Set(['order', 'flattery']);

/** Whether the action changes what the player would digest (an order or Flattery). */
export const previewsAction = (action: number): boolean => DRINKS.has(decodeAction(action).kind);

/**
 * The digestion of the active player `seat` now (no action), or after playing `action` (an
 * order or Flattery, assumed legal). The state is not touched.
 */
export function previewDigestion(r: CompiledRules, state: GameState, seat: number, action?: number): DigestPreview {
  if (!canPreview(state, seat)) throw new Error(`seat ${seat} is not choosing what to play`);
  const s = cloneState(state);
  if (action !== undefined) {
    const d = decodeAction(action);
    if (!DRINKS.has(d.kind)) throw new Error(`action ${action} puts no drink in front`);
    // The reaction window the play would open is left unopened: only the digestion is wanted.
    applyPlay({ r, s, log: null }, d, () => undefined);
  }
  const log: GameEvent[] = [];
  const c: Ctx = { r, s, log };
  digestionStep(c);
  const ev = log.find((e): e is Extract<GameEvent, { k: 'digest' }> => e.k === 'digest' && e.seat === seat && e.copyOf === undefined);
  if (!ev) return { points: 0, drunkenness: 0, total: null, passChance: null, abstinence: false, thrownOut: false, skips: true };
  const thrownOut = log.some((e) => e.k === 'out' && e.seat === seat);
  const total = ev.total ?? null;
  return { points: ev.points, drunkenness: ev.drunkenness, total, passChance: total === null ? null : passChance(r, total), abstinence: total === null, thrownOut, skips: false };
}

/** The chance a fair die reaches `total` (digestion.ts: a roll ≥ the total moves the usual one space). */
function passChance(r: CompiledRules, total: number): number {
  const sides = r.ruleset.roll.dieSides;
  let pass = 0;
  for (let face = 1; face <= sides; face++) if (face >= total) pass++;
  return pass / sides;
}
