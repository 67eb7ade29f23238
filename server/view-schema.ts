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
 * | every seat (seat, active, playedBy, …)  | 0..players−1; decision.seat −1 once the game is over |
 * | table, finalScores                      | exactly `players` entries, table[i].seat = i      |
 * | hand, deck.mayHold, discard.counts      | every card id, 0..that card's count in the deck   |
 * | known                                   | some card ids, 0..that card's count               |
 * | handSize, deck/discard size, depth      | 0..deck size (sum of the ruleset's card counts)   |
 * | front                                   | at most deck size cards                           |
 * | level, space, spaceValue                | the ruleset's chart                               |
 * | titles, titlesLeft                      | the ruleset's titles; left 0..that title's tokens |
 * | turnState                               | the ruleset's limits and card counts              |
 * | turn, reshuffles, points, scores        | no ruleset number bounds them: ±MAX_TALLY         |
 * | strings                                 | 1..MAX_TEXT characters                            |
 *
 * Card-count records are strict (an unknown card id is an error); other objects drop keys
 * they do not declare, so a `__proto__` key never reaches the parsed object.
 */
import { z } from 'zod';
import { CARD_IDS, shotType, SHOT_TYPES, type CardId } from '../env/cards.ts';
import type { PlayerView, ShotId } from '../env/observation/view.ts';
import { compileRuleset, DEFAULT_RULESET, type Ruleset } from '../env/ruleset.ts';
import { PHASE_NAMES } from '../env/state.ts';

/** Turns, reshuffles and points have no bound in the rules; real games stay under a hundred. */
export const MAX_TALLY = 1_000_000;
/** Ruleset and title names. */
export const MAX_TEXT = 100;
/** An error line is never longer than this, whatever was posted. */
const MAX_ERROR = 200;

const SHOT_IDS = Array.from({ length: SHOT_TYPES }, (_, i) => CARD_IDS[shotType(i)]) as [ShotId, ...ShotId[]];
const OUTS = ['wasted', 'thrown_out'] as const;
const CLOSING_WHERE = ['aside', 'in_deck', 'drawn'] as const;

/** An error message, or 'is missing' when the field is absent. */
const say = (message: string) => (iss: { input?: unknown }) => (iss.input === undefined ? 'is missing' : message);

const intIn = (lo: number, hi: number, message = `must be an integer from ${lo} to ${hi}`) =>
  z.int({ error: say(message) }).min(lo, { error: message }).max(hi, { error: message });
const tally = () => intIn(-MAX_TALLY, MAX_TALLY);
const bool = () => z.boolean({ error: say('must be true or false') });
const text = () => {
  const message = `must be a string of 1 to ${MAX_TEXT} characters`;
  return z.string({ error: say(message) }).min(1, { error: message }).max(MAX_TEXT, { error: message });
};
const oneOf = <T extends readonly [string, ...string[]]>(values: T, message = `must be one of: ${values.join(', ')}`) =>
  z.enum(values, { error: say(message) });
const cardId = () => oneOf(CARD_IDS, 'must be a card id (GET /v1/ruleset lists them)');
const object = <S extends z.ZodRawShape>(shape: S) => z.object(shape, { error: say('must be an object') });
/** A list of at most `max` distinct entries. */
const distinct = <T extends z.ZodType>(item: T, max: number) =>
  z
    .array(item, { error: say(`must be a list of at most ${max}`) })
    .max(max, { error: `must be a list of at most ${max}` })
    .refine((a) => new Set(a).size === a.length, { error: 'must not repeat an entry' });

/** A record with every card id, each a count of 0..that card's number in the deck (made partial for `known`). */
function cardCounts(rs: Ruleset) {
  const shape = Object.fromEntries(CARD_IDS.map((id) => [id, intIn(0, rs.cards[id].count)]));
  return z.strictObject(shape as Record<CardId, ReturnType<typeof intIn>>, { error: say('must be an object of card counts') });
}

function viewFor(rs: Ruleset, n: number) {
  const { deckSize } = compileRuleset(rs);
  const count = (id: CardId) => rs.cards[id].count;
  const shots = SHOT_IDS.reduce((a, id) => a + count(id), 0);
  const spaces = rs.chart.flatMap((row) => row.spaces);
  const seat = () => intIn(0, n - 1, `must be a seat from 0 to ${n - 1}`);
  const counts = cardCounts(rs);
  const titleLeft = (tokens: number) => object({ name: text(), points: tally(), left: intIn(0, tokens) });

  const frontCard = object({
    card: cardId(),
    as: oneOf(SHOT_IDS).optional(),
    given: bool().optional(),
    poured: bool().optional(),
    fromHand: bool().optional(),
    placedBy: seat().optional(),
  });
  const player = (i: number) =>
    object({
      seat: z.literal(i, { error: say(`must be ${i}: the table lists seats in order`) }),
      offset: seat(),
      points: tally(),
      score: tally(),
      level: intIn(1, rs.chart.length),
      space: intIn(0, Math.max(...rs.chart.map((row) => row.spaces.length)) - 1),
      spaceValue: intIn(Math.min(...spaces), Math.max(...spaces)),
      handSize: intIn(0, deckSize),
      shotTokens: distinct(oneOf(SHOT_IDS), SHOT_TYPES),
      abstinence: intIn(0, rs.abstinence.pointLoss.length),
      paused: bool(),
      out: oneOf(OUTS, `must be null or one of: ${OUTS.join(', ')}`).nullable(),
      titles: distinct(text(), rs.titles.length),
      front: z.array(frontCard, { error: say(`must be a list of at most ${deckSize} cards`) }).max(deckSize, { error: `must be a list of at most ${deckSize} cards` }),
      insulted: bool(),
      copying: seat().nullable(),
      finalTurnTaken: bool(),
      known: counts.partial(),
    });
  const seats = (what: string) => ({ error: say(`must list the ${n} seats' ${what}, in seat order`) });

  return object({
    seat: seat(),
    players: z.literal(n),
    ruleset: text(),
    turn: intIn(0, MAX_TALLY),
    decision: object({
      kind: oneOf(PHASE_NAMES),
      seat: intIn(-1, n - 1, `must be -1 (game over) or a seat from 0 to ${n - 1}`),
      card: cardId().nullable(),
      playedBy: seat().optional(),
      avoided: distinct(seat(), n).optional(),
    }),
    hand: counts,
    handSize: intIn(0, deckSize),
    turnState: object({
      active: seat(),
      actionsLeft: intIn(0, rs.limits.actionsPerTurn),
      beers: intIn(0, count('beer') + count('small_beer')),
      smallBeers: intIn(0, count('small_beer')),
      shots: intIn(0, shots),
      // Only Shot into a beer raises the limit, once per card.
      shotLimit: intIn(rs.limits.shots, rs.limits.shots + count('shot_into_beer')),
      cardsPlayed: intIn(0, deckSize),
      playedSame: bool(),
      blocked: object({ beer: intIn(0, count('beer')), small_beer: intIn(0, count('small_beer')) }),
      afterDone: bool(),
    }),
    table: z.tuple(Array.from({ length: n }, (_, i) => player(i)) as [ReturnType<typeof player>], seats('public views')),
    deck: object({ size: intIn(0, deckSize), reshuffles: intIn(0, MAX_TALLY), mayHold: counts }),
    discard: object({ size: intIn(0, deckSize), top: cardId().nullable(), counts }),
    closingTime: object({
      where: oneOf(CLOSING_WHERE),
      drawnBy: seat().nullable(),
      depth: z.tuple([intIn(0, deckSize), intIn(0, deckSize)], { error: say('must be [from, to] or null') }).nullable(),
    }),
    titlesLeft: z.tuple(
      rs.titles.map((t) => titleLeft(t.tokens)) as [ReturnType<typeof titleLeft>],
      { error: say(`must list the ruleset's ${rs.titles.length} titles`) },
    ),
    over: bool(),
    finalScores: z.tuple(Array.from({ length: n }, tally) as [z.ZodInt], seats('scores')).nullable(),
    winners: distinct(seat(), n).min(1, { error: 'must name at least one seat' }).nullable(),
  }).superRefine((v, ctx) => crossCheck(rs, deckSize, v as unknown as PlayerView, ctx), { when: (p) => p.issues.length === 0 });
}

/** Facts every real view holds between fields; runs only once every field is in range. */
function crossCheck(rs: Ruleset, deckSize: number, v: PlayerView, ctx: z.RefinementCtx): void {
  const fail = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  const sum = (r: Partial<Record<CardId, number>>) => CARD_IDS.reduce((a, id) => a + (r[id] ?? 0), 0);
  if ((v.decision.seat === -1) !== v.over) fail(['decision', 'seat'], 'must be -1 exactly when the game is over');
  if ((v.decision.kind === 'over') !== v.over) fail(['decision', 'kind'], "must be 'over' exactly when the game is over");
  if (sum(v.hand) !== v.handSize) fail(['handSize'], 'must equal the number of cards in hand');
  if (v.table[v.seat].handSize !== v.handSize) fail(['table', v.seat, 'handSize'], 'must equal handSize for the viewer');
  if (Object.keys(v.table[v.seat].known).length > 0) fail(['table', v.seat, 'known'], "must be empty for the viewer's own seat");
  for (const p of v.table) {
    if (p.offset !== (p.seat - v.seat + v.players) % v.players) fail(['table', p.seat, 'offset'], 'must count seats to the left of the viewer');
    const row = rs.chart[p.level - 1].spaces;
    if (p.space >= row.length) fail(['table', p.seat, 'space'], `must be from 0 to ${row.length - 1} on level ${p.level}`);
    else if (p.spaceValue !== row[p.space]) fail(['table', p.seat, 'spaceValue'], 'must be the number printed on that space');
  }
  if (sum(v.discard.counts) !== v.discard.size) fail(['discard', 'size'], 'must equal the sum of discard.counts');
  if (v.discard.top === null ? v.discard.size > 0 : v.discard.counts[v.discard.top] === 0) {
    fail(['discard', 'top'], 'must be a card the discard pile holds (null when it is empty)');
  }
  const ct = v.closingTime;
  if ((ct.where === 'in_deck') !== (ct.depth !== null)) fail(['closingTime', 'depth'], "must be set exactly when where is 'in_deck'");
  else if (ct.depth && !(ct.depth[0] <= ct.depth[1] && ct.depth[1] <= v.deck.size)) fail(['closingTime', 'depth'], 'must be [from, to] with from <= to <= deck.size');
  if ((ct.where === 'drawn') !== (ct.drawnBy !== null)) fail(['closingTime', 'drawnBy'], "must be a seat exactly when where is 'drawn'");
  if ((v.finalScores !== null) !== v.over) fail(['finalScores'], 'must be set exactly when the game is over');
  if ((v.winners !== null) !== v.over) fail(['winners'], 'must be set exactly when the game is over');
  // Cards are never made: what is in sight of one type, and all cards, fit in the deck.
  const seen = { ...v.discard.counts };
  for (const id of CARD_IDS) seen[id] += v.hand[id];
  let total = v.deck.size + v.discard.size;
  for (const p of v.table) {
    total += p.handSize + p.front.length;
    for (const c of p.front) seen[c.card]++;
  }
  const over = CARD_IDS.find((id) => seen[id] > rs.cards[id].count);
  if (over) fail([], `holds more ${over} cards in hand, discard and fronts than the deck's ${rs.cards[over].count}`);
  if (total > deckSize) fail([], `deck, discard, hands and fronts hold more than the deck's ${deckSize} cards`);
}

const schemas = new WeakMap<Ruleset, z.ZodType<PlayerView>>();

/** The posted-view schema for a ruleset: one option per player count, chosen by `players`. */
export function playerViewSchema(ruleset: Ruleset = DEFAULT_RULESET): z.ZodType<PlayerView> {
  let schema = schemas.get(ruleset);
  if (schema) return schema;
  const { min, max } = ruleset.players;
  const options = Array.from({ length: max - min + 1 }, (_, i) => viewFor(ruleset, min + i));
  schema = z.discriminatedUnion('players', options as [ReturnType<typeof viewFor>], {
    error: (iss) => (iss.code === 'invalid_union' ? `must be an integer from ${min} to ${max}` : 'must be an object'),
  }) as unknown as z.ZodType<PlayerView>;
  schemas.set(ruleset, schema);
  return schema;
}

export type ParsedView = { ok: true; view: PlayerView } | { ok: false; error: string };

/** Parses a posted view under the default ruleset; a refusal names the first bad field in one short line. */
export function parsePostedView(input: unknown): ParsedView {
  const result = playerViewSchema().safeParse(input);
  if (result.success) return { ok: true, view: result.data };
  const issue = result.error.issues[0];
  const path = ['view', ...issue.path.map(String)].join('.');
  // Zod names an unrecognized key in full; it is the one part of the input a message repeats.
  const message = issue.code === 'unrecognized_keys' ? `unknown key ${JSON.stringify(clip(issue.keys[0]))}` : issue.message;
  return { ok: false, error: clip(`${path}: ${message}`.replace(/\s+/g, ' '), MAX_ERROR) };
}

function clip(s: string, max = 30): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
