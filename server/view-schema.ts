/**
 * A seat's view as a client posts it (POST /v1/bots/:spec/act), parsed strictly at the edge.
 * The bots read a view as trusted data: they loop over counts, index the chart by level and
 * the table by seat. So every count, size and seat is bounded by the ruleset here, every card
 * id and enum is checked, unknown card ids are refused, and the cross-field facts every real
 * view holds (hand adds up to handSize, offsets, the chart space, the discard pile, cards in
 * sight no more than the deck has) are checked once the shape is right.
 *
 * | field                                   | bound                                             |
 * |-----------------------------------------|---------------------------------------------------|
 * | players                                 | ruleset.players.min..max                          |
 * | every seat (seat, active, playedBy, …)  | 0..players−1; decision.actor −1 once the game is over |
 * | table, finalScores                      | exactly `players` entries, table[i].seat = i      |
 * | hand, deck.mayHold, discard.counts      | every card id, 0..that card's count in the deck   |
 * | known                                   | some card ids, 0..that card's count               |
 * | handSize, deck/discard size, depth      | 0..deck size (sum of the ruleset's card counts)   |
 * | front                                   | at most deck size cards                           |
 * | level, space, spaceValue                | the ruleset's chart                               |
 * | titles, titlesLeft                      | the ruleset's title names; left 0..that title's tokens |
 * | turnState                               | the ruleset's limits and card counts              |
 * | turn, reshuffles, points, scores        | no ruleset number bounds them: ±MAX_TALLY         |
 * | strings                                 | 1..MAX_TEXT characters (a surrogate pair is one)  |
 *
 * Card-count records are strict (an unknown card id is an error); other objects drop keys
 * they do not declare. The parsed view is a fresh object built field by field: only declared
 * names are read from the input (by name, as zod read them) or written to the result, so a
 * `__proto__` or `constructor` key never reaches it or any prototype.
 *
 * Hand-written, not zod: it runs on every bot request, where a zod parse cost more than all
 * the rest of the request. Bounds are computed once per ruleset and player count. A refusal
 * names the first problem in document order, `players` first (it picks the bounds); a list of
 * the wrong length is refused before its entries are read, an unknown key after known ones.
 */
import {
  CARD_IDS, compileRuleset, DEFAULT_RULESET, PHASE_NAMES, SHOT_TYPES, shotType, type CardId, type DecisionView, type FrontCardView,
  type PlayerPublicView, type PlayerView, type Ruleset, type ShotId, type TurnView,
} from '../env/index.ts';

/** Turns, reshuffles and points have no bound in the rules; real games stay under a hundred. */
export const MAX_TALLY = 1_000_000;
/** Ruleset and title names. */
export const MAX_TEXT = 100;
/** An error line is never longer than this, whatever was posted. */
const MAX_ERROR = 200;

/** Allowed strings, and the message refusing anything else. */
interface Choice<T extends string> { readonly values: ReadonlySet<T>; readonly message: string }
const choice = <T extends string>(values: readonly T[], message = `must be one of: ${values.join(', ')}`): Choice<T> => ({ values: new Set(values), message });
const CARD = choice(CARD_IDS, 'must be a card id (GET /v1/ruleset lists them)');
const CARD_TYPE = new Map(CARD_IDS.map((id, t) => [id, t]));
const SHOT_IDS = Array.from({ length: SHOT_TYPES }, (_, i) => CARD_IDS[shotType(i)] as ShotId);
const SHOT = choice(SHOT_IDS);
const PHASE = choice(PHASE_NAMES);
const OUT = choice(['wasted', 'thrown_out'], 'must be null or one of: wasted, thrown_out');
const CLOSING_WHERE = choice(['aside', 'in_deck', 'drawn']);

/** What the checks read, computed once per ruleset and player count. */
type Bounds = ReturnType<typeof boundsFor>;

function boundsFor(rs: Ruleset, n: number) {
  const { deckSize, count } = compileRuleset(rs);
  const spaces = rs.chart.flatMap((row) => row.spaces);
  return {
    rs,
    n,
    deckSize,
    /** Each card's number in the deck, by type (CARD_IDS order). */
    count,
    shots: SHOT_IDS.reduce((a, id) => a + rs.cards[id].count, 0),
    maxSpace: Math.max(...rs.chart.map((row) => row.spaces.length)) - 1,
    minValue: Math.min(...spaces),
    maxValue: Math.max(...spaces),
    title: choice(rs.titles.map((t) => t.name), `must be one of the ruleset's titles: ${rs.titles.map((t) => t.name).join(', ')}`),
    seatMessage: `must be a seat from 0 to ${n - 1}`,
    actorMessage: `must be -1 (game over) or a seat from 0 to ${n - 1}`,
    /** `view.table.<seat>`, the path of each seat's public view. */
    seatAt: Array.from({ length: n }, (_, i) => `view.table.${i}`),
  } as const;
}

// ---- Reading fields ----------------------------------------------------------------------
// Each helper checks the value `x` found at `${at}.${key}` (an object's field or a list's
// entry) and returns it; the path is only built on failure, so a good view costs no strings.

/** The first problem found. Not an Error: throwing it captures no stack. */
class Refusal {
  constructor(readonly path: string, readonly message: string) {}
}
function refuse(path: string, message: string): never {
  throw new Refusal(path, message);
}

type Key = string | number;
/** A posted JSON object. */
type Json = { readonly [key: string]: unknown };
/** Checks one entry of a list. */
type Entry<T> = (at: string, i: number, x: unknown, b: Bounds) => T;

function bad(at: string, key: Key, x: unknown, message: string): never {
  return refuse(`${at}.${key}`, x === undefined ? 'is missing' : message);
}

function int(at: string, key: Key, x: unknown, lo: number, hi: number, message?: string): number {
  if (typeof x === 'number' && Number.isInteger(x) && x >= lo && x <= hi) return x;
  return bad(at, key, x, message ?? `must be an integer from ${lo} to ${hi}`);
}
const tally = (at: string, key: Key, x: unknown) => int(at, key, x, -MAX_TALLY, MAX_TALLY);
const seat = (at: string, key: Key, x: unknown, b: Bounds) => int(at, key, x, 0, b.n - 1, b.seatMessage);

function bool(at: string, key: Key, x: unknown): boolean {
  return typeof x === 'boolean' ? x : bad(at, key, x, 'must be true or false');
}

/** Counted in characters as zod counted them (a surrogate pair is one); over 2 × MAX_TEXT units is too long anyway. */
function text(at: string, key: Key, x: unknown): string {
  if (typeof x === 'string' && x.length >= 1 && (x.length <= MAX_TEXT || (x.length <= 2 * MAX_TEXT && codePoints(x) <= MAX_TEXT))) return x;
  return bad(at, key, x, `must be a string of 1 to ${MAX_TEXT} characters`);
}
function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    if ((s.charCodeAt(i) & 0xfc00) === 0xd800 && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n--;
      i++;
    }
  }
  return n;
}

function oneOf<T extends string>(at: string, key: Key, x: unknown, c: Choice<T>): T {
  return (c.values as ReadonlySet<unknown>).has(x) ? (x as T) : bad(at, key, x, c.message);
}

function object(at: string, key: Key, x: unknown, message = 'must be an object'): Json {
  return typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as Json) : bad(at, key, x, message);
}

/** At most `max` entries; `what` names them in the message. */
function list<T>(at: string, key: Key, x: unknown, max: number, b: Bounds, entry: Entry<T>, what = ''): T[] {
  if (!Array.isArray(x) || x.length > max) return bad(at, key, x, `must be a list of at most ${max}${what}`);
  return entries(`${at}.${key}`, x, b, entry);
}
/** At most `max` entries, none repeated (short lists: seats, shot tokens, titles). */
function distinct<T>(at: string, key: Key, x: unknown, max: number, b: Bounds, entry: Entry<T>): T[] {
  const a = list(at, key, x, max, b, entry);
  for (let i = 1; i < a.length; i++) if (a.indexOf(a[i]) !== i) refuse(`${at}.${key}`, 'must not repeat an entry');
  return a;
}
/** Exactly `length` entries. */
function tuple<T>(at: string, key: Key, x: unknown, length: number, message: string, b: Bounds, entry: Entry<T>): T[] {
  if (!Array.isArray(x) || x.length !== length) return bad(at, key, x, message);
  return entries(`${at}.${key}`, x, b, entry);
}
function entries<T>(at: string, a: unknown[], b: Bounds, entry: Entry<T>): T[] {
  const out: T[] = [];
  for (let i = 0; i < a.length; i++) out.push(entry(at, i, a[i], b));
  return out;
}

/**
 * Card counts, each 0..that card's number in the deck: every card id (or only those present
 * when `some`), in CARD_IDS order, and no other key. `byType` receives the counts by type.
 */
function cardCounts(at: string, key: Key, x: unknown, b: Bounds, some: boolean, byType?: number[]): Partial<Record<CardId, number>> {
  const r = object(at, key, x, 'must be an object of card counts');
  // A record that passes holds card-id keys only, in CARD_IDS order: its copy is the result.
  if (countsInOrder(r, b, some, byType)) return { ...r };
  const here = `${at}.${key}`;
  const counts: Partial<Record<CardId, number>> = {};
  for (let t = 0; t < CARD_IDS.length; t++) {
    const id = CARD_IDS[t];
    if (some && r[id] === undefined) continue;
    counts[id] = int(here, id, r[id], 0, b.count[t]);
    if (byType) byType[t] = counts[id];
  }
  for (const k in r) if (!CARD.values.has(k as CardId)) refuse(here, `unknown key ${JSON.stringify(clip(k))}`);
  return counts;
}
/** The usual record, in one pass over its keys (for-in reads them fastest); false sends it to the careful path. */
function countsInOrder(r: Json, b: Bounds, some: boolean, byType?: number[]): boolean {
  let t = 0;
  for (const k in r) {
    while (some && t < CARD_IDS.length && CARD_IDS[t] !== k) t++;
    const x = r[k];
    if (k !== CARD_IDS[t] || !(typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= b.count[t])) return false;
    if (byType) byType[t] = x;
    t++;
  }
  return some || t === CARD_IDS.length;
}
const allCounts = (at: string, key: Key, x: unknown, b: Bounds, byType?: number[]) => cardCounts(at, key, x, b, false, byType) as Record<CardId, number>;

/** The cards of each type in the viewer's hand and in the discard pile, noted for `crossCheck`. */
type InSight = { readonly hand: number[]; readonly discard: number[] };

// ---- The view, one function per kind of object, fields in document order ------------------

function view(v: Json, b: Bounds, sight: InSight): PlayerView {
  const { n, rs } = b;
  return {
    seat: seat('view', 'seat', v.seat, b),
    players: n,
    ruleset: text('view', 'ruleset', v.ruleset),
    turn: int('view', 'turn', v.turn, 0, MAX_TALLY),
    decision: decision(object('view', 'decision', v.decision), b),
    hand: allCounts('view', 'hand', v.hand, b, sight.hand),
    handSize: int('view', 'handSize', v.handSize, 0, b.deckSize),
    turnState: turnState(object('view', 'turnState', v.turnState), b),
    table: tuple('view', 'table', v.table, n, `must list the ${n} seats' public views, in seat order`, b, player),
    deck: deck(object('view', 'deck', v.deck), b),
    discard: discard(object('view', 'discard', v.discard), b, sight.discard),
    closingTime: closingTime(object('view', 'closingTime', v.closingTime), b),
    soloLast: bool('view', 'soloLast', v.soloLast),
    titlesLeft: tuple('view', 'titlesLeft', v.titlesLeft, rs.titles.length, `must list the ruleset's ${rs.titles.length} titles`, b, titleLeft),
    over: bool('view', 'over', v.over),
    finalScores: v.finalScores === null ? null : tuple('view', 'finalScores', v.finalScores, n, `must list the ${n} seats' scores, in seat order`, b, tally),
    winners: v.winners === null ? null : winners(v.winners, b),
  };
}

function decision(d: Json, b: Bounds): DecisionView {
  const at = 'view.decision';
  const out: DecisionView = {
    kind: oneOf(at, 'kind', d.kind, PHASE),
    actor: int(at, 'actor', d.actor, -1, b.n - 1, b.actorMessage),
    card: d.card === null ? null : oneOf(at, 'card', d.card, CARD),
  };
  if (d.playedBy !== undefined) out.playedBy = seat(at, 'playedBy', d.playedBy, b);
  if (d.avoided !== undefined) out.avoided = distinct(at, 'avoided', d.avoided, b.n, b, seat);
  return out;
}

function turnState(s: Json, b: Bounds): TurnView {
  const at = 'view.turnState';
  const { cards, limits } = b.rs;
  return {
    active: seat(at, 'active', s.active, b),
    actionsLeft: int(at, 'actionsLeft', s.actionsLeft, 0, limits.actionsPerTurn),
    beers: int(at, 'beers', s.beers, 0, cards.beer.count + cards.small_beer.count),
    smallBeers: int(at, 'smallBeers', s.smallBeers, 0, cards.small_beer.count),
    shots: int(at, 'shots', s.shots, 0, b.shots),
    // Only Shot into a beer raises the limit, once per card.
    shotLimit: int(at, 'shotLimit', s.shotLimit, limits.shots, limits.shots + cards.shot_into_beer.count),
    cardsPlayed: int(at, 'cardsPlayed', s.cardsPlayed, 0, b.deckSize),
    playedSame: bool(at, 'playedSame', s.playedSame),
    blocked: blocked(object(at, 'blocked', s.blocked), b.rs),
    afterDone: bool(at, 'afterDone', s.afterDone),
    cardRemoved: bool(at, 'cardRemoved', s.cardRemoved),
  };
}

function blocked(x: Json, rs: Ruleset): TurnView['blocked'] {
  const at = 'view.turnState.blocked';
  return { beer: int(at, 'beer', x.beer, 0, rs.cards.beer.count), small_beer: int(at, 'small_beer', x.small_beer, 0, rs.cards.small_beer.count) };
}

function player(tableAt: string, i: number, x: unknown, b: Bounds): PlayerPublicView {
  const p = object(tableAt, i, x);
  const at = b.seatAt[i];
  const { rs, deckSize } = b;
  if (p.seat !== i) bad(at, 'seat', p.seat, `must be ${i}: the table lists seats in order`);
  return {
    seat: p.seat,
    offset: seat(at, 'offset', p.offset, b),
    points: tally(at, 'points', p.points),
    score: tally(at, 'score', p.score),
    level: int(at, 'level', p.level, 1, rs.chart.length),
    space: int(at, 'space', p.space, 0, b.maxSpace),
    spaceValue: int(at, 'spaceValue', p.spaceValue, b.minValue, b.maxValue),
    handSize: int(at, 'handSize', p.handSize, 0, deckSize),
    shotTokens: distinct(at, 'shotTokens', p.shotTokens, SHOT_TYPES, b, shot),
    abstinence: int(at, 'abstinence', p.abstinence, 0, rs.abstinence.pointLoss.length) as PlayerPublicView['abstinence'],
    paused: bool(at, 'paused', p.paused),
    out: p.out === null ? null : oneOf(at, 'out', p.out, OUT),
    titles: distinct(at, 'titles', p.titles, rs.titles.length, b, title),
    front: list(at, 'front', p.front, deckSize, b, frontCard, ' cards'),
    insulted: bool(at, 'insulted', p.insulted),
    copying: p.copying === null ? null : seat(at, 'copying', p.copying, b),
    finalTurnTaken: bool(at, 'finalTurnTaken', p.finalTurnTaken),
    known: cardCounts(at, 'known', p.known, b, true),
  };
}
const shot = (at: string, i: number, x: unknown): ShotId => oneOf(at, i, x, SHOT);
const title = (at: string, i: number, x: unknown, b: Bounds): string => oneOf(at, i, x, b.title);

function frontCard(frontAt: string, i: number, x: unknown, b: Bounds): FrontCardView {
  const c = object(frontAt, i, x);
  const at = `${frontAt}.${i}`;
  const card: FrontCardView = { card: oneOf(at, 'card', c.card, CARD) };
  if (c.as !== undefined) card.as = oneOf(at, 'as', c.as, SHOT);
  if (c.given !== undefined) card.given = bool(at, 'given', c.given);
  if (c.poured !== undefined) card.poured = bool(at, 'poured', c.poured);
  if (c.fromHand !== undefined) card.fromHand = bool(at, 'fromHand', c.fromHand);
  if (c.marker !== undefined) card.marker = bool(at, 'marker', c.marker);
  if (c.placedBy !== undefined) card.placedBy = seat(at, 'placedBy', c.placedBy, b);
  return card;
}

function deck(d: Json, b: Bounds): PlayerView['deck'] {
  const at = 'view.deck';
  return { size: int(at, 'size', d.size, 0, b.deckSize), reshuffles: int(at, 'reshuffles', d.reshuffles, 0, MAX_TALLY), mayHold: allCounts(at, 'mayHold', d.mayHold, b) };
}

function discard(d: Json, b: Bounds, byType: number[]): PlayerView['discard'] {
  const at = 'view.discard';
  return {
    size: int(at, 'size', d.size, 0, b.deckSize),
    top: d.top === null ? null : oneOf(at, 'top', d.top, CARD),
    counts: allCounts(at, 'counts', d.counts, b, byType),
  };
}

function closingTime(c: Json, b: Bounds): PlayerView['closingTime'] {
  const at = 'view.closingTime';
  return {
    where: oneOf(at, 'where', c.where, CLOSING_WHERE),
    drawnBy: c.drawnBy === null ? null : seat(at, 'drawnBy', c.drawnBy, b),
    depth: c.depth === null ? null : (tuple(at, 'depth', c.depth, 2, 'must be [from, to] or null', b, depthEnd) as [number, number]),
  };
}
const depthEnd = (at: string, i: number, x: unknown, b: Bounds) => int(at, i, x, 0, b.deckSize);

function titleLeft(listAt: string, i: number, x: unknown, b: Bounds): PlayerView['titlesLeft'][number] {
  const t = object(listAt, i, x);
  const at = `${listAt}.${i}`;
  return { name: text(at, 'name', t.name), points: tally(at, 'points', t.points), left: int(at, 'left', t.left, 0, b.rs.titles[i].tokens) };
}

function winners(x: unknown, b: Bounds): number[] {
  const w = distinct('view', 'winners', x, b.n, b, seat);
  if (w.length === 0) refuse('view.winners', 'must name at least one seat');
  return w;
}

/** Facts every real view holds between fields; checked once every field is in range. */
function crossCheck(v: PlayerView, b: Bounds, sight: InSight): void {
  const { rs, deckSize } = b;
  const me = b.seatAt[v.seat];
  let inHand = 0;
  let inDiscard = 0;
  const seen: number[] = [];
  for (let t = 0; t < CARD_IDS.length; t++) {
    inHand += sight.hand[t];
    inDiscard += sight.discard[t];
    seen.push(sight.hand[t] + sight.discard[t]);
  }
  if ((v.decision.actor === -1) !== v.over) refuse('view.decision.actor', 'must be -1 exactly when the game is over');
  if ((v.decision.kind === 'over') !== v.over) refuse('view.decision.kind', "must be 'over' exactly when the game is over");
  if (inHand !== v.handSize) refuse('view.handSize', 'must equal the number of cards in hand');
  if (v.table[v.seat].handSize !== v.handSize) refuse(`${me}.handSize`, 'must equal handSize for the viewer');
  if (Object.keys(v.table[v.seat].known).length > 0) refuse(`${me}.known`, "must be empty for the viewer's own seat");
  for (const p of v.table) {
    const at = b.seatAt[p.seat];
    if (p.offset !== (p.seat - v.seat + v.players) % v.players) refuse(`${at}.offset`, 'must count seats to the left of the viewer');
    const row = rs.chart[p.level - 1].spaces;
    if (p.space >= row.length) refuse(`${at}.space`, `must be from 0 to ${row.length - 1} on level ${p.level}`);
    if (p.spaceValue !== row[p.space]) refuse(`${at}.spaceValue`, 'must be the number printed on that space');
  }
  if (inDiscard !== v.discard.size) refuse('view.discard.size', 'must equal the sum of discard.counts');
  if (v.discard.top === null ? v.discard.size > 0 : v.discard.counts[v.discard.top] === 0) {
    refuse('view.discard.top', 'must be a card the discard pile holds (null when it is empty)');
  }
  const ct = v.closingTime;
  if ((ct.where === 'in_deck') !== (ct.depth !== null)) refuse('view.closingTime.depth', "must be set exactly when where is 'in_deck'");
  if (ct.depth && !(ct.depth[0] <= ct.depth[1] && ct.depth[1] <= v.deck.size)) refuse('view.closingTime.depth', 'must be [from, to] with from <= to <= deck.size');
  if ((ct.where === 'drawn') !== (ct.drawnBy !== null)) refuse('view.closingTime.drawnBy', "must be a seat exactly when where is 'drawn'");
  if ((v.finalScores !== null) !== v.over) refuse('view.finalScores', 'must be set exactly when the game is over');
  if ((v.winners !== null) !== v.over) refuse('view.winners', 'must be set exactly when the game is over');
  // Cards are never made: what is in sight of one type, and all cards, fit in the deck.
  let total = v.deck.size + v.discard.size;
  for (const p of v.table) {
    total += p.handSize + p.front.length;
    for (const c of p.front) seen[CARD_TYPE.get(c.card)!]++;
  }
  for (let t = 0; t < CARD_IDS.length; t++) {
    if (seen[t] > b.count[t]) refuse('view', `holds more ${CARD_IDS[t]} cards in hand, discard and fronts than the deck's ${b.count[t]}`);
  }
  if (total > deckSize) refuse('view', `deck, discard, hands and fronts hold more than the deck's ${deckSize} cards`);
}

// ---- Entry points ---------------------------------------------------------------------------

export type ParsedView = { ok: true; view: PlayerView } | { ok: false; error: string };

/** Parses posted views under one ruleset; a refusal names the first bad field in one short line. */
export type ViewChecker = { readonly parse: (input: unknown) => ParsedView };

const checkers = new WeakMap<Ruleset, ViewChecker>();

/** The checker for a ruleset, built once: the bounds for each player count, chosen by `players`. */
export function viewChecker(ruleset: Ruleset = DEFAULT_RULESET): ViewChecker {
  let checker = checkers.get(ruleset);
  if (checker) return checker;
  const { min, max } = ruleset.players;
  const byPlayers = new Map<unknown, Bounds>();
  for (let n = min; n <= max; n++) byPlayers.set(n, boundsFor(ruleset, n));
  const playersMessage = `must be an integer from ${min} to ${max}`;
  checker = { parse: (input) => parse(input, byPlayers, playersMessage) };
  checkers.set(ruleset, checker);
  return checker;
}

/** Parses a posted view (under the default ruleset unless told). */
export function parsePostedView(input: unknown, ruleset: Ruleset = DEFAULT_RULESET): ParsedView {
  return viewChecker(ruleset).parse(input);
}

function parse(input: unknown, byPlayers: ReadonlyMap<unknown, Bounds>, playersMessage: string): ParsedView {
  try {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return refuse('view', 'must be an object');
    const b = byPlayers.get((input as Json).players);
    if (!b) return refuse('view.players', playersMessage);
    const sight: InSight = { hand: [], discard: [] };
    const v = view(input as Json, b, sight);
    crossCheck(v, b, sight);
    return { ok: true, view: v };
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    return { ok: false, error: clip(`${e.path}: ${e.message}`.replace(/\s+/g, ' '), MAX_ERROR) };
  }
}

function clip(s: string, max = 30): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
