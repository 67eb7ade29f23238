/**
 * Shared plumbing of the scripted agents: the kind of decision, the seat's view turned into
 * flat arrays, and small helpers on the table (who leads, who is still in).
 * Everything here reads the observation only; no engine state.
 */
import {
  CARD_IDS, decodeAction, HAND_TYPES, randInt, seedRng, shotType, type PlayerPublicView, type PlayerView, type RngState,
} from '../../env/index.ts';
import type { Agent, AgentObservation, GameStart } from '../agent.ts';

/**
 * The kind of decision a list of legal actions belongs to, without building the view: play
 * always offers "done", discard "stop discarding", a response Excuse me or a shot choice.
 */
export function decisionKind(legal: readonly number[]): 'play' | 'discard' | 'reaction' | 'response' {
  let response = false;
  for (const a of legal) {
    const d = decodeAction(a);
    if (d.kind === 'done') return 'play';
    if (d.kind === 'stop_discard') return 'discard';
    if (d.group === 'excuse' || d.group === 'shot_choice') response = true;
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

export { popcount } from '../../env/index.ts';

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
