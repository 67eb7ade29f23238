/**
 * What a seat may see (RULES.md section 9), decided here and nowhere else.
 *
 * `seatFacts` is the only code that reads a GameState on a seat's behalf, and `publicFacts`
 * on an onlooker's. The first copies into a SeatFacts every public fact (publicFacts), the
 * seat's own hand, and what that seat knows of the other hands and of the draw pile. A SeatFacts holds no reference to the state, and the other
 * hands, the deck's order, the random generator and the other seats' knowledge are never
 * copied into it, so nothing made from it can reach them. The view (view.ts) is these facts
 * as a typed object, the encoder (encode.ts) writes them as numbers, and `factsOfView`
 * (view.ts) reads them back out of a view, so a posted view encodes as its seat's state does.
 * Which part of an event a seat may see is decided here too (`eventForSeat`).
 */
import { HAND_TYPES } from '../cards.ts';
import { scoreOf, winners } from '../engine/flow.ts';
import { summarizeFront } from '../engine/legal.ts';
import type { GameEvent } from '../events.ts';
import { MAX_PLAYERS, MAX_TITLES, type CompiledRules } from '../ruleset.ts';
import {
  CLOSING_ASIDE, CLOSING_IN_DECK, entryBy, entryFlags, entryShot, entryType, F_ADDED, F_GIVEN, F_MARKER, F_POURED,
  packEntry, PHASE_REACTION, PHASE_RESPONSE, type GameState,
} from '../state.ts';

/** Front-card flags anyone at the table can see; the rest (paid, counted) is bookkeeping. */
export const PUBLIC_FRONT_FLAGS = F_GIVEN | F_POURED | F_ADDED | F_MARKER;
/** Flags of a card another seat put in front of a player: only then is the placer kept. */
const PLACED_FLAGS = F_MARKER | F_GIVEN | F_ADDED;

/**
 * A front card as the table sees it: the packed entry (state.ts, packEntry) with only the
 * public flags, and its placer only if another seat put it there (else the owner).
 */
export function publicEntry(e: number, owner: number): number {
  const fl = entryFlags(e) & PUBLIC_FRONT_FLAGS;
  const by = entryBy(e);
  return packEntry(entryType(e), fl, entryShot(e), fl & PLACED_FLAGS && by !== owner ? by : owner);
}

/**
 * Card counts above zero, by type in ascending order: the cards a seat knows of in another
 * hand are few or none, so these lists are short (and cheap to encode, which the encoder's
 * speed depends on).
 */
export class CardList {
  length = 0;
  readonly types = new Int32Array(HAND_TYPES);
  readonly counts = new Int32Array(HAND_TYPES);
}

/** Appends `count` cards of `type` (nothing for zero); types must come in ascending order. */
export function addCards(list: CardList, type: number, count: number): void {
  if (count <= 0) return;
  list.types[list.length] = type;
  list.counts[list.length++] = count;
}

/**
 * The public facts of a game: what everyone at the table, onlookers included, may know. This
 * is the list of what is public; a seat's facts (SeatFacts) add to it what that seat alone
 * knows. Per-seat arrays have room for MAX_PLAYERS (entries past `players` are stale when an
 * instance is reused); flags are 0 or 1 so the encoder writes them as they are.
 */
export class PublicFacts {
  players = 0;
  turn = 0;
  over = false;
  /** PHASE_* of the decision now, and the seat making it (-1 once the game is over). */
  phase = 0;
  actor = -1;
  /** Reaction: the card that opened the window (-1: "done"). Response: the card aimed (-1: none). */
  decisionCard = -1;
  /** Response: the seat that played the aimed card (-1: none), and those that avoided it with Excuse me (bitmask). */
  playedBy = -1;
  avoided = 0;

  // Per seat.
  readonly handSize = new Int32Array(MAX_PLAYERS);
  readonly points = new Int32Array(MAX_PLAYERS);
  /** Points plus the shot-type bonus: the score if the game ended now. */
  readonly score = new Int32Array(MAX_PLAYERS);
  /** Drunkenness level (0-based: a row of the ruleset's chart) and space on that row. */
  readonly level = new Int32Array(MAX_PLAYERS);
  readonly space = new Int32Array(MAX_PLAYERS);
  /** Shot tokens held, a bitmask over the shot types. */
  readonly tokens = new Int32Array(MAX_PLAYERS);
  /** Abstinence token side: 0 none, 1 one stripe, 2 two stripes. */
  readonly abstinence = new Int32Array(MAX_PLAYERS);
  readonly paused = new Int32Array(MAX_PLAYERS);
  /** IN_GAME, WASTED or THROWN_OUT (state.ts). */
  readonly out = new Int32Array(MAX_PLAYERS);
  /** Titles held, a bitmask over the ruleset's titles. */
  readonly titles = new Int32Array(MAX_PLAYERS);
  /** The seat each will copy with I'll get the same, or -1. */
  readonly copying = new Int32Array(MAX_PLAYERS);
  readonly insulted = new Int32Array(MAX_PLAYERS);
  /** Cards in front of each seat, as `publicEntry` gives them. */
  readonly fronts: number[][] = Array.from({ length: MAX_PLAYERS }, () => []);
  /** Seats that took their last turn since CLOSING TIME was drawn (bitmask). */
  finalDone = 0;
  /** Only one player is left in the game: their next turn is the last. */
  soloLast = 0;

  // The active player's turn.
  active = 0;
  actionsLeft = 0;
  /** Beers, small beers and shots counted towards this turn's limits, and the shot limit now. */
  beers = 0;
  smallBeers = 0;
  shots = 0;
  shotLimit = 0;
  cardsPlayed = 0;
  /** I'll get the same was played: nothing else may be played this turn. */
  playedSame = 0;
  /** The window now open follows "done". */
  afterDone = 0;
  /** A card was taken from in front of the active player since "done" (they may then play again). */
  cardRemoved = 0;
  /** Beers and small beers sent back by That beer is warm: unplayable this turn. */
  blockedBeer = 0;
  blockedSmall = 0;

  // Piles and CLOSING TIME.
  /** Cards in the draw pile, CLOSING TIME not counted. */
  deckSize = 0;
  reshuffles = 0;
  discardSize = 0;
  /** The discard pile's top card, or -1 when it is empty. */
  discardTop = -1;
  readonly discardCounts = new Int32Array(HAND_TYPES);
  /** CLOSING_ASIDE, CLOSING_IN_DECK or CLOSING_DRAWN (state.ts); the seat that drew it, or -1. */
  closing = CLOSING_ASIDE;
  drawnBy = -1;
  /** While CLOSING TIME is in the draw pile: how many cards may lie above it (else -1, -1). */
  depthLo = -1;
  depthHi = -1;
  /** Tokens left of each of the ruleset's titles. */
  readonly titlesLeft = new Int32Array(MAX_TITLES);
  /** Once the game is over, its winners (else null). */
  winners: number[] | null = null;
}

/** One seat's facts: the public ones, and what this seat alone knows. */
export class SeatFacts extends PublicFacts {
  seat = 0;
  /** The seat's own hand: cards of each type. */
  readonly hand = new Int32Array(HAND_TYPES);
  /** What this seat knows is in each seat's hand, by seat (empty for itself). */
  readonly known: CardList[] = Array.from({ length: MAX_PLAYERS }, () => new CardList());
  /** What this seat knows the draw pile may still hold, by type (an upper bound). */
  readonly pileMayHold = new Int32Array(HAND_TYPES);
}

/** The current depth range of CLOSING TIME in the deck, as every player can work it out. */
export function closingDepth(s: GameState): [number, number] | null {
  if (s.closing.where !== CLOSING_IN_DECK) return null;
  const drawn = s.closing.pileSize - s.deck.length;
  return [Math.max(0, s.closing.lo - drawn), s.closing.hi - drawn];
}

/**
 * What `seat` may know of `s`, written into `into` (a fresh SeatFacts unless given: the
 * encoder reuses one, so the hot path allocates nothing): the public facts, its own hand,
 * its own row of the knowledge table and what it knows of the draw pile.
 */
export function seatFacts(r: CompiledRules, s: GameState, seat: number, into?: SeatFacts): SeatFacts {
  const f = publicFacts(r, s, into ?? new SeatFacts());
  const n = s.players;
  f.seat = seat;
  const h = seat * HAND_TYPES;
  for (let t = 0; t < HAND_TYPES; t++) {
    f.hand[t] = s.hand[h + t];
    f.pileMayHold[t] = s.pileKnown[h + t];
  }
  for (let p = 0; p < n; p++) {
    // Only this seat's own row of the knowledge table: what the others know stays behind.
    const known = f.known[p];
    known.length = 0;
    if (p === seat) continue;
    const kb = (seat * n + p) * HAND_TYPES;
    for (let t = 0; t < HAND_TYPES; t++) addCards(known, t, s.known[kb + t]);
  }
  return f;
}

/** What everyone may know of `s` (an onlooker's facts), written into `into`. */
export function publicFacts<F extends PublicFacts>(r: CompiledRules, s: GameState, into: F): F {
  const f = into;
  const n = s.players;
  f.players = n;
  f.turn = s.turn;
  f.over = s.over;
  f.phase = s.phase;
  f.actor = s.over ? -1 : s.actor;
  f.decisionCard = -1;
  f.playedBy = -1;
  f.avoided = 0;
  if (s.phase === PHASE_REACTION) f.decisionCard = s.windowCard;
  else if (s.phase === PHASE_RESPONSE && s.effect) {
    f.decisionCard = s.effect.card;
    f.playedBy = s.effect.by;
    f.avoided = s.effect.avoided;
  }

  for (let t = 0; t < HAND_TYPES; t++) f.discardCounts[t] = 0;
  for (let p = 0; p < n; p++) {
    f.handSize[p] = s.handSize[p];
    f.points[p] = s.points[p];
    f.score[p] = scoreOf(r, s, p);
    f.level[p] = s.level[p];
    f.space[p] = s.space[p];
    f.tokens[p] = s.tokens[p];
    f.abstinence[p] = s.abstinence[p];
    f.paused[p] = s.paused[p];
    f.out[p] = s.out[p];
    f.titles[p] = s.titles[p];
    f.copying[p] = s.copying[p];
    const front = s.front[p];
    f.insulted[p] = summarizeFront(front).insulted ? 1 : 0;
    const mine = f.fronts[p];
    // Written over in place: emptying an array with `length = 0` frees its store, and refilling it cost more than the rest.
    for (let i = 0; i < front.length; i++) mine[i] = publicEntry(front[i], p);
    if (mine.length !== front.length) mine.length = front.length;
  }
  f.finalDone = s.finalDone;
  f.soloLast = s.soloLast;

  const lim = r.ruleset.limits;
  const turn = summarizeFront(s.front[s.active]);
  f.active = s.active;
  f.actionsLeft = lim.actionsPerTurn - s.actionsUsed;
  f.beers = turn.countedBeers;
  f.smallBeers = turn.countedSmall;
  f.shots = turn.countedShots;
  f.shotLimit = lim.shots + s.extraShots;
  f.cardsPlayed = s.played;
  f.playedSame = s.playedSame;
  f.afterDone = s.doneWindow;
  f.cardRemoved = s.removed;
  f.blockedBeer = s.blockedBeer;
  f.blockedSmall = s.blockedSmall;

  f.deckSize = s.deck.length - (s.closing.where === CLOSING_IN_DECK ? 1 : 0);
  f.reshuffles = s.reshuffles;
  f.discardSize = s.discard.length;
  f.discardTop = s.discard.length > 0 ? s.discard[s.discard.length - 1] : -1;
  for (let i = 0; i < s.discard.length; i++) f.discardCounts[s.discard[i]]++;
  f.closing = s.closing.where;
  f.drawnBy = s.closing.drawnBy;
  const depth = closingDepth(s);
  f.depthLo = depth ? depth[0] : -1;
  f.depthHi = depth ? depth[1] : -1;
  for (let i = 0; i < r.ruleset.titles.length; i++) f.titlesLeft[i] = s.titlesLeft[i];
  f.winners = s.over ? winners(r, s) : null;
  return f;
}

/** Hidden card value in a filtered event. */
export const HIDDEN = -1;

/**
 * The event as `seat` may see it, or as an onlooker sees it for null (a new object only when
 * something is stripped): drawn cards only for the drawer, a card taken from a hand only for
 * the two hands involved.
 */
export function eventForSeat(ev: GameEvent, seat: number | null): GameEvent {
  if (ev.k === 'draw' && ev.seat !== seat) return { ...ev, cards: [] };
  if (ev.k === 'take' && ev.from !== seat && ev.to !== seat) return { ...ev, card: HIDDEN };
  return ev;
}
