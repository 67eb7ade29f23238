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
 *
 * `seats` says what the choice gives every seat it touches, the seat itself included: shot
 * tokens and the end-of-game bonus they change, points, cards moved in and out of hands and
 * fronts, the active player's turn limits freed or used; and, for a seat the choice asks to
 * answer a card, what it may answer with the chances of holding the cards for it, counted
 * from what the deciding seat cannot see (see `holdChance` for what that count assumes).
 */
import { decodeAction, type DecodedAction } from '../action-codec.ts';
import {
  BEER, BRAWL, CARD_IDS, EXCUSE_ME, HAND_TYPES, LETS_DO_A_SHOT, RUM, SHOT_TYPES, SHOTS_EVERYONE, shotType, SMALL_BEER, THATS_MY_ORDER,
} from '../cards.ts';
import type { SeatFacts } from '../observation/visible.ts';
import type { CompiledRules } from '../ruleset.ts';
import {
  cloneState, entryFlags, entryShot, entryType, F_ADDED, F_GIVEN, F_MARKER, F_POURED, PHASE_PLAY, PHASE_REACTION, PHASE_RESPONSE,
  type GameState, type PendingEffect,
} from '../state.ts';
import { handLosePublic, type Ctx } from './context.ts';
import { applyPlay, applyReaction, applyResponse } from './effects.ts';
import { summarizeFront } from './legal.ts';
import { holdChance, unseenOf, type Unseen } from './hold-chance.ts';
import { bonusOf, bonusWith, digestionOf, factsState, tokenIds, type DigestPreview } from './preview.ts';

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
  /** What the choice gives each seat it touches, the seat itself included, in seat order. */
  seats: SeatEffect[];
}

/** What a choice gives one seat at once, and, when it asks the seat to answer a card, what the seat may answer. */
export interface SeatEffect {
  seat: number;
  /** Shot tokens the seat takes at once, by shot card id (a shot choice's discarded shot it lacked). */
  newTokens: string[];
  /** Its end-of-game shot-type bonus (ruleset `shotBonus`) before the choice and after it. */
  bonusBefore: number;
  bonusAfter: number;
  /** Points changed at once. */
  points: number;
  /** Cards leaving and entering its hand at once where the table sees which (played, discarded, handed over, sent back), by card id. */
  handLoses: string[];
  handGains: string[];
  /** The change in its hand's size at once, a card moving unseen included (That's my order). */
  handSize: number;
  /** Cards leaving and joining its front at once, labelled as in FrontChange. */
  frontLoses: string[];
  frontGains: string[];
  /** The active player's room left this turn, after the choice less before; null for other seats and when nothing changes. */
  limits: LimitChange | null;
  /** The card the choice asks the seat to answer next, and what it may answer; null when it is not asked. */
  answer: AnswerChances | null;
}

/**
 * Room left in the active player's turn, after a choice less before: positive is freed (a
 * knocked-over order's actions and its place in the limits, a poured shot that no longer
 * counts), negative is used.
 */
export interface LimitChange {
  actions: number;
  /** Shot orders still allowed this turn. */
  shots: number;
  /** Beers still allowed, small ones included, and small beers (no more than beers). */
  beers: number;
  smallBeers: number;
}

/** What a seat asked to answer a card may do, with the chances that it holds the cards for it. */
export interface AnswerChances {
  /** The card it answers, by id, and the seat that played it. */
  card: string;
  by: number;
  /** The chance it holds Excuse me: it may cancel the card for itself (or send a card aimed at one player on to a neighbour). */
  excuseMe: number;
  /** Let's do a shot and Shots, everyone!: its shot choice; null for other cards. */
  shotChoice: ShotChoiceChances | null;
}

/** A shot choice to come (RULES.md section 5): each way out, with the chance the seat holds the card it needs. */
export interface ShotChoiceChances {
  /** The chance it holds a shot card whose token it lacks: discarding that takes the token. */
  newToken: number;
  /** Its end-of-game shot-type bonus now, and with one shot type more. */
  bonusBefore: number;
  bonusWithToken: number;
  /** The chances it holds any shot card (discarded for no points), a beer, a small beer. */
  shot: number;
  beer: number;
  smallBeer: number;
  /** The chance it holds none of those: then it loses `losses.nothing` points, unless it holds Excuse me and uses it. */
  noCard: number;
  /** Points each way costs (ruleset `shotChoice`): discarding a beer, a small beer, nothing. */
  losses: { beer: number; smallBeer: number; nothing: number };
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
  } else if (d.kind === 'pass' && s.effect?.card === THATS_MY_ORDER && s.handSize[f.seat] > 0) {
    // That's my order accepted: one card, which nobody can foresee, goes to the seat that played it.
    s.handSize[f.seat]--;
    s.handSize[f.playedBy]++;
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
    seats: seatEffects(r, f, before, s),
  };
}

/** What changed for each seat from state `a` to `b` (`b` the choice played on `a`), and the answers `b` asks for. */
function seatEffects(r: CompiledRules, f: Readonly<SeatFacts>, a: GameState, b: GameState): SeatEffect[] {
  const answers = new Map<number, AnswerChances>();
  if (b.phase === PHASE_RESPONSE && b.effect && b.actor !== f.seat) {
    const unseen = unseenOf(r, f);
    for (const seat of [b.actor, ...b.effect.queue]) answers.set(seat, answerOf(r, f, unseen, a, seat, b.effect));
  }
  const limits = limitChange(r, a, b);
  const out: SeatEffect[] = [];
  for (let p = 0; p < a.players; p++) {
    // Most choices touch one or two seats: the others are passed over before anything is built.
    if (!(p === a.active && limits) && !answers.has(p) && !differs(a, b, p)) continue;
    const front = frontDiff(a.front[p], b.front[p]);
    const e: SeatEffect = {
      seat: p,
      newTokens: tokenIds(b.tokens[p] & ~a.tokens[p]),
      bonusBefore: bonusOf(r, a, p),
      bonusAfter: bonusOf(r, b, p),
      points: b.points[p] - a.points[p],
      ...handChange(a, b, p),
      handSize: b.handSize[p] - a.handSize[p],
      frontLoses: front.loses,
      frontGains: front.gains,
      limits: p === a.active ? limits : null,
      answer: answers.get(p) ?? null,
    };
    const touched = e.newTokens.length > 0 || e.points !== 0 || e.handLoses.length + e.handGains.length > 0 || e.handSize !== 0 ||
      e.frontLoses.length + e.frontGains.length > 0 || e.limits !== null || e.answer !== null;
    if (touched) out.push(e);
  }
  return out;
}

/** Whether anything of `seat`'s that a SeatEffect reports differs between `a` and `b`. */
function differs(a: GameState, b: GameState, seat: number): boolean {
  if (a.tokens[seat] !== b.tokens[seat] || a.points[seat] !== b.points[seat] || a.handSize[seat] !== b.handSize[seat]) return true;
  for (let t = seat * HAND_TYPES; t < (seat + 1) * HAND_TYPES; t++) if (a.hand[t] !== b.hand[t]) return true;
  const [x, y] = [a.front[seat], b.front[seat]];
  return x.length !== y.length || x.some((e, i) => e !== y[i]);
}

/** The cards that left front `a` and joined it in `b`, by label, each card matched once. */
function frontDiff(a: number[], b: number[]): { loses: string[]; gains: string[] } {
  const gains = b.map(frontLabel);
  const loses: string[] = [];
  for (const label of a.map(frontLabel)) {
    const i = gains.indexOf(label);
    if (i >= 0) gains.splice(i, 1);
    else loses.push(label);
  }
  return { loses, gains };
}

/** The active player's room left this turn, as the limits count it (legal.ts reads the same). */
function roomOf(r: CompiledRules, s: GameState): LimitChange {
  const lim = r.ruleset.limits;
  const front = summarizeFront(s.front[s.active]);
  const beers = lim.beers - front.countedBeers;
  return {
    actions: lim.actionsPerTurn - s.actionsUsed,
    shots: lim.shots + s.extraShots - front.countedShots,
    beers,
    smallBeers: Math.min(beers, lim.smallBeers - front.countedSmall),
  };
}

function limitChange(r: CompiledRules, a: GameState, b: GameState): LimitChange | null {
  const x = roomOf(r, a);
  const y = roomOf(r, b);
  const d = { actions: y.actions - x.actions, shots: y.shots - x.shots, beers: y.beers - x.beers, smallBeers: y.smallBeers - x.smallBeers };
  return d.actions === 0 && d.shots === 0 && d.beers === 0 && d.smallBeers === 0 ? null : d;
}

const SHOT_CARDS = Array.from({ length: SHOT_TYPES }, (_, i) => shotType(i));

/** What `seat` may answer the card `effect` aims at it with, seen from the deciding seat's facts; `s` is the game before the choice. */
function answerOf(r: CompiledRules, f: Readonly<SeatFacts>, unseen: Unseen, s: GameState, seat: number, effect: PendingEffect): AnswerChances {
  const card = effect.card;
  const holds = (types: number[]) => holdChance(unseen, f, seat, types);
  let shotChoice: ShotChoiceChances | null = null;
  if (card === LETS_DO_A_SHOT || card === SHOTS_EVERYONE) {
    const lacked = SHOT_CARDS.filter((t) => !(s.tokens[seat] & (1 << (t - RUM))));
    const oneMore = lacked.length > 0 ? s.tokens[seat] | (1 << (lacked[0] - RUM)) : s.tokens[seat];
    const loss = r.ruleset.shotChoice;
    shotChoice = {
      newToken: holds(lacked),
      bonusBefore: bonusOf(r, s, seat),
      bonusWithToken: bonusWith(r, s, seat, oneMore),
      shot: holds(SHOT_CARDS),
      beer: holds([BEER]),
      smallBeer: holds([SMALL_BEER]),
      noCard: 1 - holds([...SHOT_CARDS, BEER, SMALL_BEER]),
      losses: { beer: loss.beerLoss, smallBeer: loss.smallBeerLoss, nothing: loss.nothingLoss },
    };
  }
  return { card: CARD_IDS[card], by: effect.by, excuseMe: holds([EXCUSE_ME]), shotChoice };
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
