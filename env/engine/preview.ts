/**
 * What a digestion would give the seat to act, before it commits: now, or after one more
 * order or Flattery played.
 *
 * A preview is made from the seat's facts (observation/visible.ts) and nothing else, so it
 * cannot tell the seat anything it does not know. The engine's own digestion (digestion.ts)
 * runs on a game built from those facts, in which what the seat cannot see (other hands, the
 * draw pile, other seats' knowledge, the generator) is simply absent, once for every face of
 * the die; the outcomes are weighed by their chances. A chance of 1 is a certainty: every
 * face gives it. The die's face is given to the digestion (Ctx.die), never drawn.
 *
 * Besides points and the roll, a preview says which shot tokens the digestion gives and what
 * that does to the end-of-game shot-type bonus, and what the copies drunk right after it
 * (I'll get the same) give their copiers.
 */
import { decodeAction } from '../action-codec.ts';
import { CARD_IDS, HAND_TYPES, ORDER_TYPES, SHOT_TYPES, shotType } from '../cards.ts';
import type { GameEvent } from '../events.ts';
import type { SeatFacts } from '../observation/visible.ts';
import type { CompiledRules } from '../ruleset.ts';
import {
  cloneState, entryFlags, entryType, F_ADDED, F_COUNTED, F_GIVEN, F_MARKER, F_PAID, F_POURED, PHASE_PLAY, withFlags,
  PHASE_REACTION, PHASE_RESPONSE, type GameState,
} from '../state.ts';
import type { Ctx } from './context.ts';
import { digestionStep, digestOwn } from './digestion.ts';
import { applyPlay } from './effects.ts';
import { scoreOf } from './flow.ts';

/** Spaces a digestion moves the figure, and the chance of that. */
export interface MoveChance {
  spaces: number;
  chance: number;
}

export interface DigestPreview {
  /** The seat skips this digestion (it played I'll get the same): nothing happens, every chance is 0. */
  skips: boolean;
  /** No card giving drunkenness is in front: an abstinence, no roll. */
  abstinence: boolean;
  /** Points the digestion adds (negative for an abstinence); the die never changes them. */
  points: number;
  /** Drunkenness of the cards in front (0 for an abstinence). */
  drunkenness: number;
  /** Drunkenness plus the chart space's number: the die must reach it; null without a roll. */
  total: number | null;
  /** The chance the die reaches the total (the usual one space forward); null without a roll. */
  passChance: number | null;
  /**
   * The spaces the digestion sends the figure, with their chances, fewest first: forward
   * after a roll, back (negative) after an abstinence. A row's end turns the rest of a move
   * into leaving the row (levelUpChance, wastedChance), a row's start stops a move back.
   * Empty when the seat skips or is thrown out.
   */
  moves: MoveChance[];
  /** The chance of moving past the row's last space onto the next level (then a PAUSE turn). */
  levelUpChance: number;
  /** The chance of moving past the last space of the chart's last row: wasted, out of the game, keeping the points. */
  wastedChance: number;
  /** Thrown out whatever the die shows (a third abstinence in a row, unless insulted). */
  thrownOut: boolean;
  /** The chance of leaving the game this digestion, wasted or thrown out. */
  outChance: number;
  /** Shot tokens the digestion gives, by shot card id: the types drunk that the seat did not own (the die never changes them). */
  newTokens: string[];
  /** The end-of-game shot-type bonus (ruleset `shotBonus`, by the number of types owned) before the digestion and after it. */
  bonusBefore: number;
  bonusAfter: number;
  /** The seats copying this one with I'll get the same, who drink their copy right after it. */
  copiers: CopyPreview[];
}

/** What a copy (I'll get the same) drunk right after the digestion gives its copier; the die never changes it. */
export interface CopyPreview {
  seat: number;
  /** Points the copy adds (negative for an abstinence: nothing to copy). */
  points: number;
  newTokens: string[];
  bonusBefore: number;
  bonusAfter: number;
}

/** Shot card ids of the tokens in a bitmask over the shot types. */
export function tokenIds(mask: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < SHOT_TYPES; i++) if (mask & (1 << i)) out.push(CARD_IDS[shotType(i)]);
  return out;
}

/**
 * The end-of-game shot-type bonus `seat` has: its final score (flow.ts `scoreOf`) less its
 * points, so the bonus table is read in one place only.
 */
export const bonusOf = (r: CompiledRules, s: GameState, seat: number): number => scoreOf(r, s, seat) - s.points[seat];

/** The bonus `seat` would have owning `tokens` instead. */
export function bonusWith(r: CompiledRules, s: GameState, seat: number, tokens: number): number {
  const held = s.tokens.slice();
  held[seat] = tokens;
  return bonusOf(r, { ...s, tokens: held }, seat);
}

/** Whether the seat whose facts these are chooses what to play: the only time a preview means anything. */
export function canPreview(f: Readonly<SeatFacts>): boolean {
  return !f.over && f.phase === PHASE_PLAY && f.active === f.seat && f.actor === f.seat;
}

/** Action kinds a preview plays before digesting: those that put a drink in front. */
const DRINKS = new Set(['order', 'flattery']);

/** Whether the action changes what the player would digest (an order or Flattery). */
export const previewsAction = (action: number): boolean => DRINKS.has(decodeAction(action).kind);

/**
 * The digestion of the seat whose facts these are, now (no action) or after playing
 * `action` (an order or Flattery; assumed legal, which the server's list of legal actions
 * ensures). The seat must be choosing what to play (canPreview).
 */
export function previewDigestion(r: CompiledRules, f: Readonly<SeatFacts>, action?: number): DigestPreview {
  if (!canPreview(f)) throw new Error(`seat ${f.seat} is not choosing what to play`);
  const base = factsState(r, f);
  if (action !== undefined) {
    const d = decodeAction(action);
    if (!DRINKS.has(d.kind)) throw new Error(`action ${action} puts no drink in front`);
    if (f.hand[d.card] <= 0) throw new Error(`seat ${f.seat} holds no ${CARD_IDS[d.card]} to play`);
    // The reaction window the play would open is left unopened: only the digestion is wanted.
    applyPlay({ r, s: base, log: null }, d, () => undefined);
  }
  return digestionOf(r, base);
}

/**
 * The digestion of the active player of `state`, a game made by `factsState` (or one played on
 * from it), for every face of the die; `state` is left untouched.
 */
export function digestionOf(r: CompiledRules, state: GameState): DigestPreview {
  const seat = state.active;
  return weigh(r, state, everyFace((die) => digestOnce(r, state, seat, die)), copiesOf(r, state));
}

/** What one digestion did, read from its events, and the seat's tokens and bonus after it. */
interface Outcome {
  digest: Extract<GameEvent, { k: 'digest' }>;
  levelUp: boolean;
  out: 'wasted' | 'thrown_out' | null;
  tokens: number;
  bonus: number;
}

/** The seat's own digestion on a copy of `base` with the die's faces given; null when it skips. */
function digestOnce(r: CompiledRules, base: GameState, seat: number, die: Ctx['die']): Outcome | null {
  const log: GameEvent[] = [];
  const s = cloneState(base);
  if (!digestOwn({ r, s, log, die })) return null;
  const digest = log.find((e): e is Outcome['digest'] => e.k === 'digest' && e.seat === seat);
  if (!digest) throw new Error('engine error: a digestion without its event');
  const out = log.find((e): e is Extract<GameEvent, { k: 'out' }> => e.k === 'out' && e.seat === seat);
  const levelUp = log.some((e) => e.k === 'level_up' && e.seat === seat);
  return { digest, levelUp, out: out ? out.how : null, tokens: s.tokens[seat], bonus: bonusOf(r, s, seat) };
}

/**
 * The copies drunk right after the active player's digestion, read from one run of the
 * engine's digestion step: what a copy gives (points, tokens) is settled before its roll,
 * so any face of the die will do.
 */
function copiesOf(r: CompiledRules, base: GameState): CopyPreview[] {
  if (!base.copying.includes(base.active)) return [];
  const s = cloneState(base);
  const log: GameEvent[] = [];
  digestionStep({ r, s, log, die: () => 1 });
  const out: CopyPreview[] = [];
  for (const e of log) {
    if (e.k !== 'digest' || e.copyOf === undefined) continue;
    out.push({
      seat: e.seat, points: e.points, newTokens: tokenIds(s.tokens[e.seat] & ~base.tokens[e.seat]),
      bonusBefore: bonusOf(r, base, e.seat), bonusAfter: bonusOf(r, s, e.seat),
    });
  }
  return out;
}

/** A run's outcome and its chance, `weight / whole` of the die's sequences. */
interface Weighed<T> {
  outcome: T;
  weight: number;
}

/**
 * Runs `digest` for every sequence of faces its rolls can show: a run that asks for one roll
 * more than it was given faces for is run again with each face in that place. Chances are
 * integer weights over one whole, so they add up exactly.
 */
function everyFace<T>(digest: (die: (sides: number) => number) => T): { runs: Weighed<T>[]; whole: number } {
  const done: { outcome: T; ways: number }[] = [];
  const todo: { faces: number[]; ways: number }[] = [{ faces: [], ways: 1 }];
  while (todo.length > 0) {
    const job = todo.pop()!;
    let rolls = 0;
    let sides = 0;
    const outcome = digest((n) => {
      if (rolls < job.faces.length) return job.faces[rolls++];
      if (rolls++ === job.faces.length) sides = n;
      return 1;
    });
    if (rolls <= job.faces.length) done.push({ outcome, ways: job.ways });
    else for (let face = sides; face >= 1; face--) todo.push({ faces: [...job.faces, face], ways: job.ways * sides });
  }
  const whole = done.reduce((w, d) => lcm(w, d.ways), 1);
  return { runs: done.map((d) => ({ outcome: d.outcome, weight: whole / d.ways })), whole };
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const lcm = (a: number, b: number): number => (a / gcd(a, b)) * b;

/**
 * The preview from every run's outcome (of the active player of `base`) and the copies after
 * it; what the die cannot change must be the same in all of them.
 */
function weigh(
  r: CompiledRules, base: GameState, { runs, whole }: { runs: Weighed<Outcome | null>[]; whole: number }, copiers: CopyPreview[],
): DigestPreview {
  const seat = base.active;
  const first = runs[0].outcome;
  const bonusBefore = bonusOf(r, base, seat);
  if (first === null) {
    return {
      skips: true, abstinence: false, points: 0, drunkenness: 0, total: null, passChance: null, moves: [],
      levelUpChance: 0, wastedChance: 0, thrownOut: false, outChance: 0, newTokens: [], bonusBefore, bonusAfter: bonusBefore, copiers,
    };
  }
  const total = first.digest.total ?? null;
  let pass = 0;
  let levelUp = 0;
  let wasted = 0;
  let thrownOut = 0;
  const moves = new Map<number, number>();
  for (const { outcome: o, weight } of runs) {
    if (!o || o.digest.points !== first.digest.points || o.digest.drunkenness !== first.digest.drunkenness || (o.digest.total ?? null) !== total || o.tokens !== first.tokens) {
      throw new Error(`engine error: seat ${seat}'s digestion before the roll depends on the die`);
    }
    const d = o.digest;
    if (d.total !== undefined && d.die! >= d.total) pass += weight;
    if (o.levelUp) levelUp += weight;
    if (o.out === 'wasted') wasted += weight;
    if (o.out === 'thrown_out') thrownOut += weight;
    else moves.set(d.move, (moves.get(d.move) ?? 0) + weight);
  }
  return {
    skips: false,
    abstinence: total === null,
    points: first.digest.points,
    drunkenness: first.digest.drunkenness,
    total,
    passChance: total === null ? null : pass / whole,
    moves: [...moves].sort((a, b) => a[0] - b[0]).map(([spaces, w]) => ({ spaces, chance: w / whole })),
    levelUpChance: levelUp / whole,
    wastedChance: wasted / whole,
    thrownOut: thrownOut === whole,
    outChance: (wasted + thrownOut) / whole,
    newTokens: tokenIds(first.tokens & ~base.tokens[seat]),
    bonusBefore,
    bonusAfter: first.bonus,
    copiers,
  };
}

/**
 * A front card with the bookkeeping flags `publicEntry` leaves out, which
 * follow from the public ones: the owner paid for every card it played itself (not one
 * placed by another, given by Mixed-up or poured in from a hand), and every order it played
 * counts towards the limits unless an X Shot into a beer has since poured it.
 */
function ownEntry(e: number): number {
  const fl = entryFlags(e);
  if (fl & (F_MARKER | F_GIVEN | F_ADDED)) return e;
  const counted = entryType(e) < ORDER_TYPES && !(fl & F_POURED) ? F_COUNTED : 0;
  return withFlags(e, fl | F_PAID | counted);
}

/**
 * The game as far as the seat's facts go: every public fact and the seat's own hand. What
 * it cannot see is not there: the other hands and the draw pile are empty, the discard pile
 * is its top card, nobody knows anything of a hand, and the generator is a constant (the die
 * is given; choice-preview.ts runs no choice that draws). Enough for the immediate effect of
 * the seat's own choice and for any seat's digestion, which read nothing else; a test checks
 * every front comes back exactly.
 */
export function factsState(r: CompiledRules, f: Readonly<SeatFacts>): GameState {
  const n = f.players;
  const lim = r.ruleset.limits;
  const perSeat = (a: Int32Array): number[] => Array.from(a.subarray(0, n));
  const hand = new Array<number>(n * HAND_TYPES).fill(0);
  for (let t = 0; t < HAND_TYPES; t++) hand[f.seat * HAND_TYPES + t] = f.hand[t];
  return {
    players: n,
    askForced: false,
    rng: [0, 0, 0, 0],
    deck: [],
    // Only the top card of the discard pile is wanted (You don't want it anymore? picks it up).
    discard: f.discardTop >= 0 ? [f.discardTop] : [],
    hand,
    handSize: perSeat(f.handSize),
    front: f.fronts.slice(0, n).map((front) => front.map(ownEntry)),
    points: perSeat(f.points),
    level: perSeat(f.level),
    space: perSeat(f.space),
    tokens: perSeat(f.tokens),
    abstinence: perSeat(f.abstinence),
    paused: perSeat(f.paused),
    out: perSeat(f.out),
    titles: perSeat(f.titles),
    copying: perSeat(f.copying),
    titlesLeft: Array.from(f.titlesLeft.subarray(0, r.ruleset.titles.length)),
    known: new Array<number>(n * n * HAND_TYPES).fill(0),
    knownPublic: new Array<number>(n * HAND_TYPES).fill(0),
    pileKnown: new Array<number>(n * HAND_TYPES).fill(0),
    active: f.active,
    turn: f.turn,
    phase: f.phase,
    actor: f.actor,
    actionsUsed: lim.actionsPerTurn - f.actionsLeft,
    played: f.cardsPlayed,
    extraShots: f.shotLimit - lim.shots,
    blockedBeer: f.blockedBeer,
    blockedSmall: f.blockedSmall,
    playedSame: f.playedSame,
    removed: f.cardRemoved,
    doneWindow: f.afterDone,
    windowPasses: 0,
    windowCard: f.phase === PHASE_REACTION ? f.decisionCard : -1,
    // A card aimed at the seat: who played it and who avoided it are public; whom a Shots,
    // everyone! or a Brawl reaches next is left out (choice-preview.ts does not run on to them).
    effect: f.phase === PHASE_RESPONSE
      ? { card: f.decisionCard, by: f.playedBy, target: f.actor, avoided: f.avoided, queue: [], excused: 0 }
      : null,
    reshuffles: f.reshuffles,
    closing: { where: f.closing, drawnBy: f.drawnBy, lo: 0, hi: 0, pileSize: 0 },
    finalDone: f.finalDone,
    soloLast: f.soloLast,
    decisions: 0,
    over: f.over,
  };
}
