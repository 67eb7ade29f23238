/**
 * A seat's observation as a flat Float32Array with a fixed, named slice layout, the same
 * size for every player count and ruleset. Seats are relative to the observer: player slot k
 * is the seat k places to its left (slot 0 is the observer); slots past the player count are
 * zero. It is written from the seat's facts (visible.ts) and nothing else, by one function,
 * `encodeFacts`: `encodeObservation` takes the facts from a state (the fast path, reusing one
 * SeatFacts), `encodeView` from a view (a posted one), so both give the same numbers.
 *
 * | slice           | size | contents                                                            |
 * |-----------------|------|---------------------------------------------------------------------|
 * | hand            | 23   | own hand: count of each card type / 4                               |
 * | hand_size       | 1    | own hand size / the ruleset's largest hand size                     |
 * | players         | 6×58 | per player slot (58 each, see PLAYER_LAYOUT below)                  |
 * | turn            | 11   | the active player's turn (TURN_LAYOUT below)                        |
 * | front_own       | 23   | cards in front of the active player that they played, by type       |
 * | front_given     | 10   | orders put there by Mixed-up, by type                               |
 * | front_poured    | 5    | their own shot orders poured into a beer, by shot                   |
 * | front_added     | 5    | shots poured in from another player's hand, by shot                 |
 * | front_flattery  | 5    | Flattery cards in front, by the shot they count as                  |
 * | decision        | 5    | one-hot: play, discard, reaction, response, over                    |
 * | my_decision     | 1    | 1 if the observer is the one deciding                               |
 * | decision_card   | 24   | one-hot: the card that opened the window / is aimed (23 = "done")   |
 * | decision_by     | 6    | one-hot player slot that played the card being responded to        |
 * | decision_target | 6    | one-hot player slot deciding now                                    |
 * | avoided         | 6    | player slots that already avoided the card with Excuse me           |
 * | pile            | 3    | draw pile size/100, discard pile size/100, reshuffles/3             |
 * | discard_counts  | 23   | cards of each type in the discard pile / ruleset count              |
 * | discard_top     | 24   | one-hot top card of the discard pile (23 = empty)                   |
 * | pile_may_hold   | 23   | cards of each type the draw pile may still hold, as far as the      |
 * |                 |      | observer knows (the pile laid at the last reshuffle less its own    |
 * |                 |      | draws) / ruleset count                                              |
 * | closing         | 5    | one-hot aside / in deck / drawn, depth range lo/100, hi/100         |
 * | end             | 2    | the observer still has a last turn to take, solo last turn pending  |
 * | titles_left     | 4    | tokens left of each title / their ruleset count                     |
 * | player_count    | 5    | one-hot 2..6 players                                                |
 * | progress        | 1    | turn number / 100                                                   |
 *
 * Sizes of 6 players, 4 chart levels and 4 titles are the encoding's capacity (MAX_PLAYERS,
 * MAX_CHART_LEVELS, MAX_TITLES in ruleset.ts; parseRuleset refuses a ruleset beyond them).
 * Bounded quantities are divided by their ruleset bound (hand size, actions, beers, shot
 * limit, card counts, chart values); unbounded ones by a fixed scale (named below).
 */
import { HAND_TYPES, ORDER_TYPES, RUM, SHOT_TYPES, isShot } from '../cards.ts';
import { MAX_CHART_LEVELS, MAX_PLAYERS, MAX_TITLES, type CompiledRules, type Ruleset } from '../ruleset.ts';
import {
  CLOSING_DRAWN, CLOSING_IN_DECK, entryFlags, entryShot, entryType, F_ADDED, F_GIVEN, F_MARKER, F_POURED,
  PHASE_NAMES, PHASE_REACTION, PHASE_RESPONSE, popcount, THROWN_OUT, WASTED, type GameState,
} from '../state.ts';
import { factsOfView, type PlayerView } from './view.ts';
import { SeatFacts, seatFacts } from './visible.ts';

/** Bump on any change to the layout or to what a slot means; a checkpoint records it. */
export const OBSERVATION_VERSION = 1;

type Slices = readonly (readonly [name: string, size: number])[];
export type Layout = Readonly<Record<string, { offset: number; size: number }>>;

function layoutOf(slices: Slices): Layout {
  const out: Record<string, { offset: number; size: number }> = {};
  let offset = 0;
  for (const [name, size] of slices) {
    out[name] = { offset, size };
    offset += size;
  }
  return out;
}
const sizeOf = (slices: Slices): number => slices.reduce((n, [, size]) => n + size, 0);

/** Inside a player slot: offsets from the slot's start. */
const PLAYER_SLICES: Slices = [
  ['present', 1],
  ['active', 1],
  ['deciding', 1],
  ['wasted', 1],
  ['thrown_out', 1],
  ['paused', 1],
  ['points', 1], // /POINTS_SCALE
  ['score', 1], // points plus the shot-type bonus, /POINTS_SCALE
  ['level', MAX_CHART_LEVELS], // one-hot
  ['space_value', 1], // the number printed on the space / the chart's largest
  ['row_position', 1], // space index / (row length - 1)
  ['shot_tokens', SHOT_TYPES],
  ['token_count', 1], // / SHOT_TYPES
  ['abstinence', 2], // one-stripe side, two-stripe side
  ['titles', MAX_TITLES],
  ['hand_size', 1], // / the ruleset's largest hand size
  ['insulted', 1],
  ['copying', MAX_PLAYERS], // one-hot slot of the player copied
  ['last_turn_taken', 1],
  ['known', HAND_TYPES], // cards the observer knows are in this hand, by type / HAND_COUNT_SCALE
];
export const PLAYER_LAYOUT = layoutOf(PLAYER_SLICES);
export const PLAYER_FEATURES = sizeOf(PLAYER_SLICES);

/** Inside the turn slice. */
const TURN_SLICES: Slices = [
  ['actions_left', 1], // / limits.actionsPerTurn
  ['beers', 1], // counted beers / limits.beers
  ['small_beers', 1], // / limits.smallBeers
  ['shots', 1], // counted shots / limits.shots
  ['shot_limit', 1], // / (limits.shots + 1)
  ['cards_played', 1], // / CARDS_PLAYED_SCALE
  ['played_same', 1],
  ['after_done', 1],
  ['card_removed', 1],
  ['blocked_beer', 1],
  ['blocked_small', 1],
];
export const TURN_LAYOUT = layoutOf(TURN_SLICES);

const SLICES: Slices = [
  ['hand', HAND_TYPES],
  ['hand_size', 1],
  ['players', MAX_PLAYERS * PLAYER_FEATURES],
  ['turn', sizeOf(TURN_SLICES)],
  ['front_own', HAND_TYPES],
  ['front_given', ORDER_TYPES],
  ['front_poured', SHOT_TYPES],
  ['front_added', SHOT_TYPES],
  ['front_flattery', SHOT_TYPES],
  ['decision', PHASE_NAMES.length],
  ['my_decision', 1],
  ['decision_card', HAND_TYPES + 1],
  ['decision_by', MAX_PLAYERS],
  ['decision_target', MAX_PLAYERS],
  ['avoided', MAX_PLAYERS],
  ['pile', 3],
  ['discard_counts', HAND_TYPES],
  ['discard_top', HAND_TYPES + 1],
  ['pile_may_hold', HAND_TYPES],
  ['closing', 5],
  ['end', 2],
  ['titles_left', MAX_TITLES],
  ['player_count', MAX_PLAYERS - 1], // one-hot 2..MAX_PLAYERS: a game needs two
  ['progress', 1],
];

/** Named slices of the observation: offset and size of each. */
export const OBS_LAYOUT = layoutOf(SLICES);
export const OBS_SIZE = sizeOf(SLICES);

// Scales of quantities no ruleset number bounds: each is about the size seen in real games.
/** Cards of one type in a hand: more than 4 alike is rare. */
const HAND_COUNT_SCALE = 4;
/** Points and scores: winning scores are a few dozen. */
const POINTS_SCALE = 50;
/** Cards played in a turn: free cards (cost 0) make it unbounded; usually under 5. */
const CARDS_PLAYED_SCALE = 5;
/** Pile sizes and CLOSING TIME's depth: a deck is about 100 cards. */
const PILE_SCALE = 100;
const RESHUFFLE_SCALE = 3;
/** Turn number: games last up to about a hundred turns. */
const TURN_SCALE = 100;

const offsets = (l: Layout): Record<string, number> => Object.fromEntries(Object.entries(l).map(([k, v]) => [k, v.offset]));
const O = offsets(OBS_LAYOUT);
const P = offsets(PLAYER_LAYOUT);
const T = offsets(TURN_LAYOUT);

/**
 * A ruleset's numbers as the encoder reads them: bounds to divide by (never 0), and bounded
 * quantities already divided, looked up by value (the hot path then divides by nothing;
 * a float32 share copied is the float32 the division would have stored).
 */
interface Tables {
  readonly ruleset: Ruleset;
  readonly actions: number;
  readonly beers: number;
  readonly smallBeers: number;
  readonly shots: number;
  readonly shotLimit: number;
  /** A hand of h cards: h / the ruleset's largest hand size. */
  readonly handShare: Float32Array;
  /** At chartAt[level] + space: the number printed there / the chart's largest, and the space's place in its row (0..1). */
  readonly chartAt: Int32Array;
  readonly spaceValue: Float32Array;
  readonly rowPosition: Float32Array;
  /** By shot-token bitmask: tokens held / SHOT_TYPES. */
  readonly tokenShare: Float32Array;
  /**
   * k cards of a type against that type's number in the deck, at countAt[type] + k: k / count
   * for pile_may_hold; for discard_counts, 1 / count added k times in float32, as version 1
   * summed it card by card (it rounds differently in the last bit, and the shipped model was
   * trained on those numbers).
   */
  readonly countAt: Int32Array;
  readonly countShare: Float32Array;
  readonly discardShare: Float32Array;
}

function tablesFor(r: CompiledRules): Tables {
  const rs = r.ruleset;
  const lim = rs.limits;
  const handSize = Math.max(rs.initialHandSize, ...rs.chart.map((row) => row.handSize));
  const valueScale = Math.max(1, ...rs.chart.flatMap((row) => row.spaces.map(Math.abs)));
  const chartAt = new Int32Array(rs.chart.length);
  const spaces = rs.chart.flatMap((row, level) => {
    chartAt[level] = level === 0 ? 0 : chartAt[level - 1] + rs.chart[level - 1].spaces.length;
    return row.spaces.map((v, i) => [v / valueScale, row.spaces.length > 1 ? i / (row.spaces.length - 1) : 0]);
  });
  const countAt = new Int32Array(HAND_TYPES);
  const size = r.count.reduce((a, c) => a + c + 1, 0);
  const countShare = new Float32Array(size);
  const discardShare = new Float32Array(size);
  for (let t = 0, at = 0; t < HAND_TYPES; at += r.count[t] + 1, t++) {
    countAt[t] = at;
    const whole = Math.max(1, r.count[t]);
    for (let k = 1; k <= r.count[t]; k++) {
      countShare[at + k] = k / whole;
      discardShare[at + k] = discardShare[at + k - 1] + 1 / whole;
    }
  }
  return {
    ruleset: rs,
    actions: Math.max(1, lim.actionsPerTurn),
    beers: Math.max(1, lim.beers),
    smallBeers: Math.max(1, lim.smallBeers),
    shots: Math.max(1, lim.shots),
    // Shot into a beer raises the limit: one above the ruleset's keeps the usual range in 0..1.
    shotLimit: lim.shots + 1,
    handShare: Float32Array.from({ length: r.deckSize + 1 }, (_, h) => h / handSize),
    chartAt,
    spaceValue: Float32Array.from(spaces, ([v]) => v),
    rowPosition: Float32Array.from(spaces, ([, x]) => x),
    tokenShare: Float32Array.from({ length: 1 << SHOT_TYPES }, (_, m) => popcount(m) / SHOT_TYPES),
    countAt,
    countShare,
    discardShare,
  };
}

/** The last ruleset's tables: one ruleset is encoded over and over, and a Map lookup per call costs. */
let tables: Tables | null = null;

/**
 * Player slot of `p` for the observer `seat`: how many places to its left `p` sits.
 * A module-level function, not a closure made per call: tsx compiles with esbuild's
 * keepNames, which wraps each named closure in a defineProperty call, and that alone took
 * about a third of the encoding time. No `%`: an integer division costs more than the rest.
 */
function slotOf(p: number, seat: number, n: number): number {
  return p >= seat ? p - seat : p - seat + n;
}

/** The one encoder: writes a seat's facts into `out` at `offset` (zeroing that range first). */
export function encodeFacts(r: CompiledRules, f: SeatFacts, out: Float32Array, offset = 0): void {
  out.fill(0, offset, offset + OBS_SIZE);
  const rs = r.ruleset;
  const k = tables !== null && tables.ruleset === rs ? tables : (tables = tablesFor(r));
  const n = f.players;
  const seat = f.seat;
  for (let t = 0; t < HAND_TYPES; t++) out[offset + O.hand + t] = f.hand[t] / HAND_COUNT_SCALE;
  out[offset + O.hand_size] = k.handShare[f.handSize[seat]];

  // Slot by slot (the range is zero, so only ones and values are written).
  for (let slot = 0, p = seat; slot < n; slot++, p = p + 1 === n ? 0 : p + 1) {
    const b = offset + O.players + slot * PLAYER_FEATURES;
    out[b + P.present] = 1;
    if (p === f.active) out[b + P.active] = 1;
    if (p === f.actor) out[b + P.deciding] = 1;
    if (f.out[p] === WASTED) out[b + P.wasted] = 1;
    else if (f.out[p] === THROWN_OUT) out[b + P.thrown_out] = 1;
    if (f.paused[p]) out[b + P.paused] = 1;
    out[b + P.points] = f.points[p] / POINTS_SCALE;
    out[b + P.score] = f.score[p] / POINTS_SCALE;
    out[b + P.level + f.level[p]] = 1;
    const at = k.chartAt[f.level[p]] + f.space[p];
    out[b + P.space_value] = k.spaceValue[at];
    out[b + P.row_position] = k.rowPosition[at];
    for (let bits = f.tokens[p], i = 0; bits !== 0; bits >>= 1, i++) if (bits & 1) out[b + P.shot_tokens + i] = 1;
    out[b + P.token_count] = k.tokenShare[f.tokens[p]];
    if (f.abstinence[p] === 1) out[b + P.abstinence] = 1;
    else if (f.abstinence[p] >= 2) out[b + P.abstinence + 1] = 1;
    for (let bits = f.titles[p], i = 0; bits !== 0; bits >>= 1, i++) if (bits & 1) out[b + P.titles + i] = 1;
    out[b + P.hand_size] = k.handShare[f.handSize[p]];
    if (f.insulted[p]) out[b + P.insulted] = 1;
    if (f.copying[p] >= 0) out[b + P.copying + slotOf(f.copying[p], seat, n)] = 1;
    if (f.finalDone & (1 << p)) out[b + P.last_turn_taken] = 1;
    const known = f.known[p];
    for (let i = 0; i < known.length; i++) out[b + P.known + known.types[i]] = known.counts[i] / HAND_COUNT_SCALE;
  }

  const tb = offset + O.turn;
  out[tb + T.actions_left] = f.actionsLeft / k.actions;
  out[tb + T.beers] = f.beers / k.beers;
  out[tb + T.small_beers] = f.smallBeers / k.smallBeers;
  out[tb + T.shots] = f.shots / k.shots;
  out[tb + T.shot_limit] = f.shotLimit / k.shotLimit;
  out[tb + T.cards_played] = f.cardsPlayed / CARDS_PLAYED_SCALE;
  out[tb + T.played_same] = f.playedSame;
  out[tb + T.after_done] = f.afterDone;
  out[tb + T.card_removed] = f.cardRemoved;
  out[tb + T.blocked_beer] = f.blockedBeer;
  out[tb + T.blocked_small] = f.blockedSmall;

  const front = f.fronts[f.active];
  for (let i = 0; i < front.length; i++) {
    const e = front[i];
    const t = entryType(e);
    const fl = entryFlags(e);
    if (fl & F_MARKER) continue;
    if (fl & F_ADDED) out[offset + O.front_added + t - RUM]++;
    else if (fl & F_GIVEN) out[offset + O.front_given + t]++;
    else {
      out[offset + O.front_own + t]++;
      if (fl & F_POURED && isShot(t)) out[offset + O.front_poured + t - RUM]++;
      if (entryShot(e) >= 0) out[offset + O.front_flattery + entryShot(e)]++;
    }
  }

  out[offset + O.decision + f.phase] = 1;
  if (!f.over) {
    out[offset + O.my_decision] = f.actor === seat ? 1 : 0;
    out[offset + O.decision_target + slotOf(f.actor, seat, n)] = 1;
    if (f.phase === PHASE_REACTION) out[offset + O.decision_card + (f.decisionCard >= 0 ? f.decisionCard : HAND_TYPES)] = 1;
    if (f.phase === PHASE_RESPONSE && f.playedBy >= 0) {
      out[offset + O.decision_card + f.decisionCard] = 1;
      out[offset + O.decision_by + slotOf(f.playedBy, seat, n)] = 1;
      for (let p = 0; p < n; p++) if (f.avoided & (1 << p)) out[offset + O.avoided + slotOf(p, seat, n)] = 1;
    }
  }

  out[offset + O.pile] = f.deckSize / PILE_SCALE;
  out[offset + O.pile + 1] = f.discardSize / PILE_SCALE;
  out[offset + O.pile + 2] = f.reshuffles / RESHUFFLE_SCALE;
  for (let t = 0; t < HAND_TYPES; t++) {
    const at = k.countAt[t];
    out[offset + O.discard_counts + t] = k.discardShare[at + f.discardCounts[t]];
    out[offset + O.pile_may_hold + t] = k.countShare[at + f.pileMayHold[t]];
  }
  out[offset + O.discard_top + (f.discardTop >= 0 ? f.discardTop : HAND_TYPES)] = 1;
  out[offset + O.closing + (f.closing === CLOSING_DRAWN ? 2 : f.closing === CLOSING_IN_DECK ? 1 : 0)] = 1;
  if (f.depthLo >= 0) {
    out[offset + O.closing + 3] = f.depthLo / PILE_SCALE;
    out[offset + O.closing + 4] = f.depthHi / PILE_SCALE;
  }
  if (f.closing === CLOSING_DRAWN && f.out[seat] === 0 && !(f.finalDone & (1 << seat))) out[offset + O.end] = 1;
  out[offset + O.end + 1] = f.soloLast;
  for (let i = 0; i < rs.titles.length; i++) {
    const tokens = rs.titles[i].tokens;
    out[offset + O.titles_left + i] = tokens > 0 ? f.titlesLeft[i] / tokens : 0;
  }
  out[offset + O.player_count + n - 2] = 1;
  out[offset + O.progress] = f.turn / TURN_SCALE;
}

// Reused by the two entry points: encoding is synchronous, and a fresh SeatFacts per call would
// be the hot path's largest allocation.
const fromState = new SeatFacts();
const fromView = new SeatFacts();

/**
 * Writes the observation of `seat` into `out` at `offset`, from the seat's facts only.
 * Allocates nothing, so a vectorised env can write into one big buffer.
 */
export function encodeObservation(r: CompiledRules, s: GameState, seat: number, out: Float32Array, offset = 0): void {
  encodeFacts(r, seatFacts(r, s, seat, fromState), out, offset);
}

/** Writes the observation a view describes (a posted view, say): the same numbers as its seat's state gives. */
export function encodeView(r: CompiledRules, view: PlayerView, out: Float32Array, offset = 0): void {
  encodeFacts(r, factsOfView(r, view, fromView), out, offset);
}
