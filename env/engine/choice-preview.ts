/**
 * What each legal choice of the seat to act would do, before it commits: a preview for every
 * decision (what to play, discarding, an X card in a reaction window, an answer to a card
 * aimed at the seat), not only for the orders.
 *
 * Like the digestion preview (preview.ts), it is made from the seat's facts alone: the
 * engine's own card code (effects.ts) plays the choice on the game those facts make
 * (`factsState`), and what changed at once is read back: the seat's hand, anyone's points,
 * anyone's front. Where that change draws from what the seat cannot see (a card taken at
 * random from a hand, the brawl, drawing up), the preview lists only what is certain and says
 * `certain: false`. The seat's digestion that would follow (after done, or at once for done
 * and the end of discarding) is the digestion preview's, over every die face, and a choice
 * after which that digestion may waste the seat or throw it out carries a `risk`.
 */
import { decodeAction, type DecodedAction } from '../action-codec.ts';
import { BRAWL, CARD_IDS, EXCUSE_ME, HAND_TYPES, shotType, THATS_MY_ORDER } from '../cards.ts';
import type { SeatFacts } from '../observation/visible.ts';
import type { CompiledRules } from '../ruleset.ts';
import {
  cloneState, entryFlags, entryShot, entryType, F_ADDED, F_GIVEN, F_MARKER, F_POURED, PHASE_PLAY, PHASE_REACTION, PHASE_RESPONSE, type GameState,
} from '../state.ts';
import { handLosePublic, type Ctx } from './context.ts';
import { applyPlay, applyReaction, applyResponse } from './effects.ts';
import { digestionOf, factsState, type DigestPreview } from './preview.ts';

/** A front after the choice, one label a card: `beer`, `flattery:rum`, `rum+poured`, `insulted_bartender+placed`. */
export interface FrontChange {
  seat: number;
  after: string[];
}

/** Points a seat gains (or loses, negative) at once. */
export interface PointsChange {
  seat: number;
  change: number;
}

/** The seat's leaving the game that a choice risks: `out` thrown out (a third abstinence), `wasted` past the chart's end. */
export interface ChoiceRisk {
  kind: 'out' | 'wasted';
  chance: number;
}

export interface ChoicePreview {
  /** Cards leaving and entering the seat's own hand at once, by card id (one entry a card). */
  handLoses: string[];
  handGains: string[];
  /** Fronts the choice changes at once, as they would be after it. */
  fronts: FrontChange[];
  /** Points changed at once (a shot choice's loss); a digestion's points are in `digest`. */
  points: PointsChange[];
  /** The seat asked next, when the choice sends a card on to another (Excuse me's redirect); else -1. */
  passesTo: number;
  /**
   * False where the choice also does something the seat cannot foresee (a card taken at
   * random, a brawl, drawing up): the lists above then hold only what is certain.
   */
  certain: boolean;
  /**
   * The seat's own digestion this turn: `after_done` what saying done right after the choice
   * would give (no one reacting), `now` what the choice itself starts (done, the end of
   * discarding, both with no one reacting); null when the seat does not digest (not its turn).
   */
  digest: DigestPreview | null;
  digestWhen: 'now' | 'after_done' | 'after_discarding' | null;
  /**
   * An X card: the digestion of the player whose order it hits, if they said done right after,
   * before and after the card (drunkenness and points moved).
   */
  target: { seat: number; before: DigestPreview; after: DigestPreview } | null;
  /** That digestion may waste the seat or throw it out, with its chance; null when it cannot. */
  risk: ChoiceRisk | null;
}

/** Whether the seat whose facts these are decides now: every legal choice then has a preview. */
export function canPreviewChoices(f: Readonly<SeatFacts>): boolean {
  return !f.over && f.actor === f.seat;
}

/** How a front card reads in a preview (see FrontChange). */
export function frontLabel(e: number): string {
  const fl = entryFlags(e);
  const shot = entryShot(e);
  let label = CARD_IDS[entryType(e)] + (shot >= 0 ? `:${CARD_IDS[shotType(shot)]}` : '');
  if (fl & F_POURED) label += '+poured';
  if (fl & F_ADDED) label += '+added';
  if (fl & F_GIVEN) label += '+given';
  if (fl & F_MARKER) label += '+placed';
  return label;
}

/** The choices whose effect takes a card or cards at random from a hand the seat may not see. */
function unforeseeable(s: GameState, d: DecodedAction): boolean {
  if (d.kind === 'stop_discard') return true;
  if (s.phase !== PHASE_RESPONSE || !s.effect) return false;
  return s.effect.card === BRAWL || (s.effect.card === THATS_MY_ORDER && d.kind === 'pass');
}

/**
 * The preview of `action` (assumed legal for the seat, which the caller's list of legal
 * actions ensures) for the seat whose facts these are; it must be deciding (canPreviewChoices).
 */
export function previewChoice(r: CompiledRules, f: Readonly<SeatFacts>, action: number): ChoicePreview {
  if (!canPreviewChoices(f)) throw new Error(`seat ${f.seat} is not deciding`);
  const d = decodeAction(action);
  const before = factsState(r, f);
  const s = cloneState(before);
  const certain = !unforeseeable(s, d);
  const c: Ctx = { r, s, log: null };
  const noWindow = () => undefined;
  let digestWhen: ChoicePreview['digestWhen'] = null;
  if (certain) {
    if (s.phase === PHASE_PLAY && d.kind !== 'done' && d.kind !== 'discard') {
      applyPlay(c, d, noWindow);
      // The preview of I'll get the same is that of its target accepting: the seat then copies them.
      if (d.kind === 'same') s.copying[s.active] = (s.active + d.target) % s.players;
      digestWhen = 'after_done';
    } else if (d.kind === 'discard') {
      handLosePublic(s, s.active, d.card);
      s.discard.push(d.card);
      digestWhen = 'after_discarding';
    } else if (d.kind === 'done') {
      digestWhen = 'now';
    } else if (s.phase === PHASE_REACTION && d.kind !== 'pass') {
      applyReaction(c, d);
    } else if (s.phase === PHASE_RESPONSE) {
      applyResponse(c, d, noWindow);
    }
  } else if (d.group === 'excuse') {
    handLosePublic(s, f.seat, EXCUSE_ME);
  } else if (d.kind === 'stop_discard') {
    digestWhen = 'now';
  }
  const digest = digestWhen === null ? null : digestionOf(r, s);
  const target = before.phase === PHASE_REACTION && d.kind !== 'pass'
    ? { seat: f.active, before: digestionOf(r, before), after: digestionOf(r, s) }
    : null;
  return {
    ...handChange(before, s, f.seat),
    fronts: frontChanges(before, s),
    points: pointChanges(before, s),
    passesTo: d.kind === 'excuse_left' || d.kind === 'excuse_right' ? s.actor : -1,
    certain,
    digest,
    digestWhen,
    target,
    risk: digest && digest.outChance > 0 ? { kind: digest.abstinence ? 'out' : 'wasted', chance: digest.outChance } : null,
  };
}

/** The cards a seat's hand lost and gained from state `a` to state `b`, one name per card. */
function handChange(a: GameState, b: GameState, seat: number): { handLoses: string[]; handGains: string[] } {
  const handLoses: string[] = [];
  const handGains: string[] = [];
  for (let t = 0; t < HAND_TYPES; t++) {
    const k = seat * HAND_TYPES + t;
    for (let n = b.hand[k] - a.hand[k]; n > 0; n--) handGains.push(CARD_IDS[t]);
    for (let n = a.hand[k] - b.hand[k]; n > 0; n--) handLoses.push(CARD_IDS[t]);
  }
  return { handLoses, handGains };
}

function frontChanges(a: GameState, b: GameState): FrontChange[] {
  const out: FrontChange[] = [];
  for (let p = 0; p < a.players; p++) {
    const after = b.front[p].map(frontLabel);
    if (after.join() !== a.front[p].map(frontLabel).join()) out.push({ seat: p, after });
  }
  return out;
}

function pointChanges(a: GameState, b: GameState): PointsChange[] {
  const out: PointsChange[] = [];
  for (let p = 0; p < a.players; p++) if (b.points[p] !== a.points[p]) out.push({ seat: p, change: b.points[p] - a.points[p] });
  return out;
}
