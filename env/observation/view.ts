/**
 * A seat's view: a typed object holding exactly what that seat may know (RULES.md section 9):
 * every public fact, its own hand, and the cards it knows to be in other hands. It is the
 * seat's facts (visible.ts, which alone decides what a seat may see) as plain data, and
 * `factsOfView` reads those facts back, so the encoder, the text renderer, the server and
 * the LLM adapter all start from the same facts.
 */
import { CARD_IDS, HAND_TYPES, SHOT_TYPES, shotType, type CardId } from '../cards.ts';
import type { CompiledRules } from '../ruleset.ts';
import {
  CLOSING_ASIDE, CLOSING_DRAWN, CLOSING_IN_DECK, entryBy, entryFlags, entryShot, entryType, F_ADDED, F_GIVEN,
  F_MARKER, F_POURED, IN_GAME, packEntry, PHASE_NAMES, PHASE_OVER, PHASE_REACTION, PHASE_RESPONSE, THROWN_OUT,
  WASTED, type GameState, type PhaseName,
} from '../state.ts';
import { addCards, type CardList, publicFacts, type PublicFacts, SeatFacts, seatFacts } from './visible.ts';

export { closingDepth } from './visible.ts';

export type ShotId = 'rum' | 'fernet' | 'becherovka' | 'peppermint' | 'vodka';

export interface FrontCardView {
  card: CardId;
  /** Flattery: the shot it counts as. */
  as?: ShotId;
  /** Put there by another player's Mixed-up (ignores limits and costs). */
  given?: boolean;
  /** A shot poured into a beer by an X Shot into a beer (no points). */
  poured?: boolean;
  /** That poured shot came from another player's hand. */
  fromHand?: boolean;
  /**
   * A pub card another player put here as a marker (Insulted bartender, I'll get the same,
   * X Shot into a beer): not an order of this player's.
   */
  marker?: boolean;
  /** Placed in front of this player by another (a marker, a Mixed-up order, a shot poured in from a hand). */
  placedBy?: number;
}

export interface PlayerPublicView {
  seat: number;
  /** Seats to the viewer's left: 0 is the viewer. */
  offset: number;
  points: number;
  /** Points plus the shot-type bonus: the score if the game ended now. */
  score: number;
  /** Drunkenness level, 1-based as in the rulebook. */
  level: number;
  /** Index of the space in the level's row, and the number printed on it. */
  space: number;
  spaceValue: number;
  handSize: number;
  shotTokens: ShotId[];
  abstinence: 0 | 1 | 2;
  paused: boolean;
  out: null | 'wasted' | 'thrown_out';
  titles: string[];
  front: FrontCardView[];
  insulted: boolean;
  /** Seat this player will copy with I'll get the same, or null. */
  copying: number | null;
  /** Took their last turn since CLOSING TIME was drawn. */
  finalTurnTaken: boolean;
  /** Cards the viewer knows are in this player's hand (empty for the viewer). */
  known: Partial<Record<CardId, number>>;
}

export interface DecisionView {
  kind: PhaseName;
  /** The seat deciding now (the actor), or -1 when the game is over. */
  actor: number;
  /** Reaction: the card that opened the window (null after "done"). Response: the card aimed. */
  card: CardId | null;
  /** Response: who played the card, and who already avoided it with Excuse me. */
  playedBy?: number;
  avoided?: number[];
}

export interface TurnView {
  active: number;
  actionsLeft: number;
  beers: number;
  smallBeers: number;
  shots: number;
  shotLimit: number;
  cardsPlayed: number;
  /** I'll get the same was played: nothing else may be played this turn. */
  playedSame: boolean;
  /** Beers sent back by That beer is warm, unplayable this turn. */
  blocked: { beer: number; small_beer: number };
  /** The window now open follows "done". */
  afterDone: boolean;
  /** A card was taken from in front of the active player since "done": they may play again. */
  cardRemoved: boolean;
}

export interface PlayerView {
  seat: number;
  players: number;
  ruleset: string;
  turn: number;
  decision: DecisionView;
  hand: Record<CardId, number>;
  handSize: number;
  turnState: TurnView;
  table: PlayerPublicView[];
  /** `mayHold`: what the draw pile may still hold, as far as this seat knows (state.pileKnown). */
  deck: { size: number; reshuffles: number; mayHold: Record<CardId, number> };
  discard: { size: number; top: CardId | null; counts: Record<CardId, number> };
  closingTime: {
    where: 'aside' | 'in_deck' | 'drawn';
    drawnBy: number | null;
    /** While in the deck: how many cards may lie above it (inclusive range). */
    depth: [number, number] | null;
  };
  /** Only one player is left in the game: their next turn is the last. */
  soloLast: boolean;
  titlesLeft: { name: string; points: number; left: number }[];
  over: boolean;
  finalScores: number[] | null;
  winners: number[] | null;
}

const SHOT_IDS = Array.from({ length: SHOT_TYPES }, (_, i) => CARD_IDS[shotType(i)] as ShotId);
const CARD_TYPE: ReadonlyMap<string, number> = new Map(CARD_IDS.map((id, t) => [id, t]));
const PHASE_OF: ReadonlyMap<string, number> = new Map(PHASE_NAMES.map((k, i) => [k, i]));
const OUT_NAMES = [null, 'wasted', 'thrown_out'] as const;
const CLOSING_NAMES = ['aside', 'in_deck', 'drawn'] as const;

function counts(a: Int32Array): Record<CardId, number> {
  const out = {} as Record<CardId, number>;
  for (let t = 0; t < HAND_TYPES; t++) out[CARD_IDS[t]] = a[t];
  return out;
}

/** The card ids a list holds, with their counts. */
function listed(list: CardList): Partial<Record<CardId, number>> {
  const out: Partial<Record<CardId, number>> = {};
  for (let i = 0; i < list.length; i++) out[CARD_IDS[list.types[i]]] = list.counts[i];
  return out;
}

function frontCard(e: number, owner: number): FrontCardView {
  const fl = entryFlags(e);
  const v: FrontCardView = { card: CARD_IDS[entryType(e)] };
  if (entryShot(e) >= 0) v.as = SHOT_IDS[entryShot(e)];
  if (fl & F_GIVEN) v.given = true;
  if (fl & F_POURED) v.poured = true;
  if (fl & F_ADDED) v.fromHand = true;
  if (fl & F_MARKER) v.marker = true;
  if (entryBy(e) !== owner) v.placedBy = entryBy(e);
  return v;
}

/** What a view says of the table, from public facts alone; `origin` is the seat offsets count from. */
function publicTable(r: CompiledRules, f: PublicFacts, origin: number): PlayerPublicView[] {
  const n = f.players;
  const rs = r.ruleset;
  const table: PlayerPublicView[] = [];
  for (let p = 0; p < n; p++) {
    table.push({
      seat: p,
      offset: (p - origin + n) % n,
      points: f.points[p],
      score: f.score[p],
      level: f.level[p] + 1,
      space: f.space[p],
      spaceValue: rs.chart[f.level[p]].spaces[f.space[p]],
      handSize: f.handSize[p],
      shotTokens: SHOT_IDS.filter((_, i) => f.tokens[p] & (1 << i)),
      abstinence: f.abstinence[p] as 0 | 1 | 2,
      paused: f.paused[p] === 1,
      out: OUT_NAMES[f.out[p]],
      titles: rs.titles.filter((_, i) => f.titles[p] & (1 << i)).map((t) => t.name),
      front: f.fronts[p].map((e) => frontCard(e, p)),
      insulted: f.insulted[p] === 1,
      copying: f.copying[p] >= 0 ? f.copying[p] : null,
      finalTurnTaken: (f.finalDone & (1 << p)) !== 0,
      known: {},
    });
  }
  return table;
}

function decisionOf(f: PublicFacts): DecisionView {
  const decision: DecisionView = { kind: PHASE_NAMES[f.phase], actor: f.actor, card: null };
  if (f.phase === PHASE_REACTION && f.decisionCard >= 0) decision.card = CARD_IDS[f.decisionCard];
  if (f.phase === PHASE_RESPONSE && f.playedBy >= 0) {
    decision.card = CARD_IDS[f.decisionCard];
    decision.playedBy = f.playedBy;
    decision.avoided = Array.from({ length: f.players }, (_, p) => p).filter((p) => f.avoided & (1 << p));
  }
  return decision;
}

function turnOf(f: PublicFacts): TurnView {
  return {
    active: f.active,
    actionsLeft: f.actionsLeft,
    beers: f.beers,
    smallBeers: f.smallBeers,
    shots: f.shots,
    shotLimit: f.shotLimit,
    cardsPlayed: f.cardsPlayed,
    playedSame: f.playedSame === 1,
    blocked: { beer: f.blockedBeer, small_beer: f.blockedSmall },
    afterDone: f.afterDone === 1,
    cardRemoved: f.cardRemoved === 1,
  };
}

/** The public parts of a view that follow the table, in the order views list them. */
function piles(r: CompiledRules, f: PublicFacts) {
  return {
    discard: { size: f.discardSize, top: f.discardTop >= 0 ? CARD_IDS[f.discardTop] : null, counts: counts(f.discardCounts) },
    closingTime: {
      where: CLOSING_NAMES[f.closing],
      drawnBy: f.drawnBy >= 0 ? f.drawnBy : null,
      depth: (f.depthLo >= 0 ? [f.depthLo, f.depthHi] : null) as [number, number] | null,
    },
    soloLast: f.soloLast === 1,
    titlesLeft: r.ruleset.titles.map((t, i) => ({ name: t.name, points: t.points, left: f.titlesLeft[i] })),
    over: f.over,
    finalScores: f.over ? Array.from(f.score.subarray(0, f.players)) : null,
    winners: f.winners && f.winners.slice(),
  };
}

/** The view of a seat's facts (visible.ts): the same facts, as a typed object. */
export function viewOfFacts(r: CompiledRules, f: SeatFacts): PlayerView {
  const seat = f.seat;
  const table = publicTable(r, f, seat);
  for (const p of table) if (p.seat !== seat) p.known = listed(f.known[p.seat]);
  return {
    seat,
    players: f.players,
    ruleset: r.ruleset.name,
    turn: f.turn,
    decision: decisionOf(f),
    hand: counts(f.hand),
    handSize: f.handSize[seat],
    turnState: turnOf(f),
    table,
    deck: { size: f.deckSize, reshuffles: f.reshuffles, mayHold: counts(f.pileMayHold) },
    ...piles(r, f),
  };
}

/**
 * The onlooker's view, made from the public facts alone (visible.ts, publicFacts): no hand,
 * nothing known of any hand, nothing of the draw pile but its size; offsets count from seat 0.
 */
export function viewOfPublicFacts(r: CompiledRules, f: PublicFacts): PublicView {
  return {
    seat: null,
    players: f.players,
    ruleset: r.ruleset.name,
    turn: f.turn,
    decision: decisionOf(f),
    hand: null,
    turnState: turnOf(f),
    table: publicTable(r, f, 0),
    deck: { size: f.deckSize, reshuffles: f.reshuffles },
    ...piles(r, f),
  };
}

/** makeView's scratch facts: viewOfFacts copies out everything it keeps, so one set serves every call. */
const scratch = new SeatFacts();

/** What `seat` may see of `s`. */
export function makeView(r: CompiledRules, s: GameState, seat: number): PlayerView {
  return viewOfFacts(r, seatFacts(r, s, seat, scratch));
}

/** What an onlooker may see of `s`. */
export function makePublicView(r: CompiledRules, s: GameState): PublicView {
  return viewOfPublicFacts(r, publicFacts(r, s, scratch));
}

/**
 * The facts a view states, read back (into `into` if given): the inverse of `viewOfFacts`,
 * so `factsOfView(makeView(s, seat))` holds what `seatFacts(s, seat)` holds. Assumes a
 * well-formed view under `r` (one made here, or a posted one that server/view-schema.ts
 * passed); a title name the ruleset lacks is skipped.
 */
export function factsOfView(r: CompiledRules, v: PlayerView, into?: SeatFacts): SeatFacts {
  const f = into ?? new SeatFacts();
  const n = v.players;
  const titles = r.ruleset.titles;
  f.seat = v.seat;
  f.players = n;
  f.turn = v.turn;
  f.over = v.over;
  const d = v.decision;
  f.phase = PHASE_OF.get(d.kind) ?? PHASE_OVER;
  f.actor = d.actor;
  f.decisionCard = d.card === null ? -1 : CARD_TYPE.get(d.card)!;
  f.playedBy = d.playedBy ?? -1;
  f.avoided = 0;
  for (const p of d.avoided ?? []) f.avoided |= 1 << p;
  readCounts(v.hand, f.hand);
  readCounts(v.deck.mayHold, f.pileMayHold);
  f.finalDone = 0;
  for (let p = 0; p < n; p++) {
    const q = v.table[p];
    f.handSize[p] = q.handSize;
    f.points[p] = q.points;
    f.score[p] = q.score;
    f.level[p] = q.level - 1;
    f.space[p] = q.space;
    f.tokens[p] = 0;
    for (const id of q.shotTokens) f.tokens[p] |= 1 << SHOT_IDS.indexOf(id);
    f.abstinence[p] = q.abstinence;
    f.paused[p] = q.paused ? 1 : 0;
    f.out[p] = q.out === 'wasted' ? WASTED : q.out === 'thrown_out' ? THROWN_OUT : IN_GAME;
    // Each name takes the first title of that name not yet taken, so even a repeated name maps back.
    let held = 0;
    for (const name of q.titles) {
      let i = 0;
      while (i < titles.length && (titles[i].name !== name || held & (1 << i))) i++;
      if (i < titles.length) held |= 1 << i;
    }
    f.titles[p] = held;
    f.copying[p] = q.copying ?? -1;
    f.insulted[p] = q.insulted ? 1 : 0;
    const front = f.fronts[p];
    front.length = 0;
    for (const c of q.front) front.push(entryOf(c, p));
    if (q.finalTurnTaken) f.finalDone |= 1 << p;
    f.known[p].length = 0;
    if (p !== v.seat) readList(q.known, f.known[p]);
  }
  f.soloLast = v.soloLast ? 1 : 0;
  const ts = v.turnState;
  f.active = ts.active;
  f.actionsLeft = ts.actionsLeft;
  f.beers = ts.beers;
  f.smallBeers = ts.smallBeers;
  f.shots = ts.shots;
  f.shotLimit = ts.shotLimit;
  f.cardsPlayed = ts.cardsPlayed;
  f.playedSame = ts.playedSame ? 1 : 0;
  f.afterDone = ts.afterDone ? 1 : 0;
  f.cardRemoved = ts.cardRemoved ? 1 : 0;
  f.blockedBeer = ts.blocked.beer;
  f.blockedSmall = ts.blocked.small_beer;
  f.deckSize = v.deck.size;
  f.reshuffles = v.deck.reshuffles;
  f.discardSize = v.discard.size;
  f.discardTop = v.discard.top === null ? -1 : CARD_TYPE.get(v.discard.top)!;
  readCounts(v.discard.counts, f.discardCounts);
  const ct = v.closingTime;
  f.closing = ct.where === 'drawn' ? CLOSING_DRAWN : ct.where === 'in_deck' ? CLOSING_IN_DECK : CLOSING_ASIDE;
  f.drawnBy = ct.drawnBy ?? -1;
  f.depthLo = ct.depth ? ct.depth[0] : -1;
  f.depthHi = ct.depth ? ct.depth[1] : -1;
  for (let i = 0; i < titles.length; i++) f.titlesLeft[i] = v.titlesLeft[i]?.left ?? 0;
  f.winners = v.winners && v.winners.slice();
  return f;
}

function readCounts(c: Partial<Record<CardId, number>>, into: Int32Array): void {
  for (let t = 0; t < HAND_TYPES; t++) into[t] = c[CARD_IDS[t]] ?? 0;
}

function readList(c: Partial<Record<CardId, number>>, into: CardList): void {
  into.length = 0;
  for (let t = 0; t < HAND_TYPES; t++) addCards(into, t, c[CARD_IDS[t]] ?? 0);
}

function entryOf(c: FrontCardView, owner: number): number {
  const flags = (c.given ? F_GIVEN : 0) | (c.poured ? F_POURED : 0) | (c.fromHand ? F_ADDED : 0) | (c.marker ? F_MARKER : 0);
  return packEntry(CARD_TYPE.get(c.card)!, flags, c.as ? SHOT_IDS.indexOf(c.as) : -1, c.placedBy ?? owner);
}

/**
 * What an onlooker sees: the public facts only (viewOfPublicFacts). `hand` is null (hand
 * sizes stay in `table`), `known` is empty, `deck.mayHold` is absent and offsets are counted
 * from seat 0. A test checks that it is every seat's view with its private parts taken out.
 */
export interface PublicView extends Omit<PlayerView, 'seat' | 'hand' | 'handSize' | 'deck'> {
  seat: null;
  hand: null;
  deck: { size: number; reshuffles: number };
}
