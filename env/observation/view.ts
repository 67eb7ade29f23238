/**
 * A seat's view of the game: a typed object holding exactly what that seat may know
 * (RULES.md section 9): every public fact, its own hand, and the cards it knows to be in
 * other hands. Nothing else of the state reaches it. The encoder, the text renderer, the
 * server and the LLM adapter all start from this (or, for speed, from the same fields).
 */
import { CARD_IDS, cardId, HAND_TYPES, SHOT_TYPES, shotType, type CardId } from '../cards.ts';
import { finalScores, winners } from '../engine/flow.ts';
import { summarizeFront } from '../engine/legal.ts';
import type { CompiledRules } from '../ruleset.ts';
import {
  CLOSING_ASIDE, CLOSING_IN_DECK, entryBy, entryFlags, entryShot, entryType, F_ADDED, F_GIVEN, F_MARKER,
  F_POURED, PHASE_NAMES, PHASE_REACTION, PHASE_RESPONSE, THROWN_OUT, WASTED,
  type GameState, type PhaseName,
} from '../state.ts';

export type ShotId = 'rum' | 'fernet' | 'becherovka' | 'zelena' | 'vodka';

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
  /** Placed in front of this player by another (Insulted bartender, I'll get the same, X Shot into a beer). */
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
  /** The seat deciding now, or -1 when the game is over. */
  seat: number;
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
  titlesLeft: { name: string; points: number; left: number }[];
  over: boolean;
  finalScores: number[] | null;
  winners: number[] | null;
}

const SHOT_IDS = Array.from({ length: SHOT_TYPES }, (_, i) => CARD_IDS[shotType(i)] as ShotId);

function counts(fill: (t: number) => number): Record<CardId, number> {
  const out = {} as Record<CardId, number>;
  for (let t = 0; t < HAND_TYPES; t++) out[CARD_IDS[t]] = fill(t);
  return out;
}

function frontCard(e: number, owner: number): FrontCardView {
  const fl = entryFlags(e);
  const v: FrontCardView = { card: CARD_IDS[entryType(e)] };
  if (entryShot(e) >= 0) v.as = SHOT_IDS[entryShot(e)];
  if (fl & F_GIVEN) v.given = true;
  if (fl & F_POURED) v.poured = true;
  if (fl & F_ADDED) v.fromHand = true;
  if (fl & (F_MARKER | F_GIVEN | F_ADDED) && entryBy(e) !== owner) v.placedBy = entryBy(e);
  return v;
}

/** The current depth range of CLOSING TIME in the deck, as every player can work it out. */
export function closingDepth(s: GameState): [number, number] | null {
  if (s.closing.where !== CLOSING_IN_DECK) return null;
  const drawn = s.closing.pileSize - s.deck.length;
  return [Math.max(0, s.closing.lo - drawn), s.closing.hi - drawn];
}

export function makeView(r: CompiledRules, s: GameState, seat: number): PlayerView {
  const n = s.players;
  const rs = r.ruleset;
  const scores = finalScores(r, s);
  const table: PlayerPublicView[] = [];
  for (let p = 0; p < n; p++) {
    const known: Partial<Record<CardId, number>> = {};
    if (p !== seat) {
      const base = (seat * n + p) * HAND_TYPES;
      for (let t = 0; t < HAND_TYPES; t++) if (s.known[base + t] > 0) known[CARD_IDS[t]] = s.known[base + t];
    }
    table.push({
      seat: p,
      offset: (p - seat + n) % n,
      points: s.points[p],
      score: scores[p],
      level: s.level[p] + 1,
      space: s.space[p],
      spaceValue: rs.chart[s.level[p]].spaces[s.space[p]],
      handSize: s.handSize[p],
      shotTokens: SHOT_IDS.filter((_, i) => s.tokens[p] & (1 << i)),
      abstinence: s.abstinence[p] as 0 | 1 | 2,
      paused: s.paused[p] === 1,
      out: s.out[p] === WASTED ? 'wasted' : s.out[p] === THROWN_OUT ? 'thrown_out' : null,
      titles: rs.titles.filter((_, i) => s.titles[p] & (1 << i)).map((t) => t.name),
      front: s.front[p].map((e) => frontCard(e, p)),
      insulted: summarizeFront(s.front[p]).insulted,
      copying: s.copying[p] >= 0 ? s.copying[p] : null,
      finalTurnTaken: (s.finalDone & (1 << p)) !== 0,
      known,
    });
  }
  const f = summarizeFront(s.front[s.active]);
  const decision: DecisionView = { kind: PHASE_NAMES[s.phase], seat: s.over ? -1 : s.actor, card: null };
  if (s.phase === PHASE_REACTION && s.windowCard >= 0) decision.card = cardId(s.windowCard) as CardId;
  if (s.phase === PHASE_RESPONSE && s.effect) {
    decision.card = CARD_IDS[s.effect.card];
    decision.playedBy = s.effect.by;
    decision.avoided = Array.from({ length: n }, (_, p) => p).filter((p) => s.effect!.avoided & (1 << p));
  }
  const top = s.discard.length > 0 ? CARD_IDS[s.discard[s.discard.length - 1]] : null;
  const discardCounts = new Array<number>(HAND_TYPES).fill(0);
  for (const t of s.discard) discardCounts[t]++;
  return {
    seat,
    players: n,
    ruleset: rs.name,
    turn: s.turn,
    decision,
    hand: counts((t) => s.hand[seat * HAND_TYPES + t]),
    handSize: s.handSize[seat],
    turnState: {
      active: s.active,
      actionsLeft: rs.limits.actionsPerTurn - s.actionsUsed,
      beers: f.countedBeers,
      smallBeers: f.countedSmall,
      shots: f.countedShots,
      shotLimit: rs.limits.shots + s.extraShots,
      cardsPlayed: s.played,
      playedSame: s.playedSame === 1,
      blocked: { beer: s.blockedBeer, small_beer: s.blockedSmall },
      afterDone: s.doneWindow === 1,
    },
    table,
    deck: {
      size: s.deck.length - (s.closing.where === CLOSING_IN_DECK ? 1 : 0),
      reshuffles: s.reshuffles,
      mayHold: counts((t) => s.pileKnown[seat * HAND_TYPES + t]),
    },
    discard: { size: s.discard.length, top, counts: counts((t) => discardCounts[t]) },
    closingTime: {
      where: s.closing.where === CLOSING_ASIDE ? 'aside' : s.closing.where === CLOSING_IN_DECK ? 'in_deck' : 'drawn',
      drawnBy: s.closing.drawnBy >= 0 ? s.closing.drawnBy : null,
      depth: closingDepth(s),
    },
    titlesLeft: rs.titles.map((t, i) => ({ name: t.name, points: t.points, left: s.titlesLeft[i] })),
    over: s.over,
    finalScores: s.over ? scores : null,
    winners: s.over ? winners(r, s) : null,
  };
}


/**
 * A view with a seat's private knowledge taken out: what an onlooker sees. `hand` is null
 * (hand sizes stay in `table`), `known` is empty, `deck.mayHold` is gone and offsets are counted from seat 0. The result is
 * the same whichever seat's view it is made from (a test checks this).
 */
export interface PublicView extends Omit<PlayerView, 'seat' | 'hand' | 'handSize' | 'deck'> {
  seat: null;
  hand: null;
  deck: { size: number; reshuffles: number };
}

export function publicView(v: PlayerView): PublicView {
  const { handSize: _own, ...rest } = v;
  return {
    ...rest,
    seat: null,
    hand: null,
    deck: { size: v.deck.size, reshuffles: v.deck.reshuffles },
    table: v.table.map((p) => ({ ...p, offset: p.seat, known: {} })),
  };
}
