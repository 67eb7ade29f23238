/**
 * The ruleset: every number of the game in one validated object (RULES.md, "Assumed" values
 * included), so that a user who owns the printed game can correct a count or a table without
 * touching rule code. `parseRuleset` rejects a bad ruleset with a message naming the field;
 * `compileRuleset` turns a valid one into flat arrays the engine reads on its hot path.
 */
import { z } from 'zod';
import { CARD_IDS, HAND_TYPES, ORDER_TYPES, SHOT_TYPES, type CardId } from './cards.ts';

/**
 * Version 2 renamed the card `zelena` to `peppermint`, the name it is shown by; a version 1
 * ruleset is read as version 2 (`parseRuleset`).
 */
export const RULESET_SCHEMA_VERSION = 2;
/** The action space and the observation encoding are fixed for up to this many seats; rulesets cannot go beyond it. */
export const MAX_PLAYERS = 6;
/** The observation encoding's room for drunkenness levels (a one-hot per player) and titles: rulesets cannot go beyond it. */
export const MAX_CHART_LEVELS = 4;
export const MAX_TITLES = 4;

const int = () => z.number().int();
const nonNeg = () => z.number().int().min(0);

const card = z.strictObject({
  count: nonNeg(),
  cost: nonNeg(),
  /** Printed drunkenness of a non-alcoholic order (negative); unused elsewhere. */
  drunkenness: int().optional(),
});

const cards = z.strictObject(
  Object.fromEntries(CARD_IDS.map((id) => [id, card])) as Record<CardId, typeof card>,
);

const pointsDrunk = z.strictObject({ points: int(), drunkenness: int() });

const closingPlacement = z
  .strictObject({
    /** Which reshuffle (1 = the first) the CLOSING TIME card is shuffled into. */
    reshuffle: z.number().int().min(1),
    /** Depth range as fractions of the new pile: 0 = top (drawn first), 1 = bottom. */
    from: z.number().min(0).max(1),
    to: z.number().min(0).max(1),
  })
  .refine((p) => p.from <= p.to, { message: 'from must not exceed to', path: ['to'] });

export const RulesetSchema = z
  .strictObject({
    version: z.literal(RULESET_SCHEMA_VERSION),
    name: z.string().min(1),
    players: z.strictObject({ min: z.number().int().min(2), max: z.number().int().max(MAX_PLAYERS) }),
    cards,
    initialHandSize: z.number().int().min(1),
    limits: z.strictObject({
      actionsPerTurn: nonNeg(),
      beers: nonNeg(),
      smallBeers: nonNeg(),
      shots: nonNeg(),
    }),
    beerTable: z.strictObject({
      regular: z.array(pointsDrunk).length(3),
      withSmall: z.array(pointsDrunk).length(3),
      perExtraBeer: pointsDrunk,
    }),
    shotPoints: int(),
    /** Drunkenness of each shot drunk, by the number of shot types owned (1..5). */
    shotDrunkenness: z.array(int()).length(SHOT_TYPES),
    /** End-of-game bonus by the number of shot types owned (1..5). */
    shotBonus: z.array(int()).length(SHOT_TYPES),
    chart: z
      .array(z.strictObject({ spaces: z.array(int()).min(1), handSize: z.number().int().min(1) }))
      .min(1),
    start: z.strictObject({ level: nonNeg(), space: nonNeg() }),
    roll: z.strictObject({
      dieSides: z.number().int().min(1),
      /** Spaces moved forward when the roll is at least the total. */
      okMove: nonNeg(),
      /** Spaces moved when the roll falls short by 1..failStep. */
      failMove: nonNeg(),
      /** Every further `failStep` of shortfall adds one more space. */
      failStep: z.number().int().min(1),
    }),
    abstinence: z.strictObject({
      /** Points lost on the first and on the second abstinence in a row; the third throws out. */
      pointLoss: z.array(int()).length(2),
      moveBack: nonNeg(),
      moveBackPerNonAlcoholic: nonNeg(),
    }),
    shotChoice: z.strictObject({ beerLoss: int(), smallBeerLoss: int(), nothingLoss: int() }),
    titles: z.array(z.strictObject({ name: z.string().min(1), points: int(), tokens: nonNeg() })),
    closingTime: z.strictObject({
      '2': closingPlacement,
      '3': closingPlacement,
      '4': closingPlacement,
      '5': closingPlacement,
      '6': closingPlacement,
    }),
  })
  .superRefine((r, ctx) => {
    if (r.players.min > r.players.max) {
      ctx.addIssue({ code: 'custom', path: ['players', 'min'], message: 'min must not exceed max' });
    }
    // Zod runs this even when fields above failed, so look before reaching into them.
    const startRow = Array.isArray(r.chart) ? r.chart[r.start?.level] : undefined;
    if (!startRow) {
      ctx.addIssue({ code: 'custom', path: ['start', 'level'], message: `no chart level ${r.start?.level}` });
    } else if (!Array.isArray(startRow.spaces) || !(r.start.space < startRow.spaces.length)) {
      ctx.addIssue({ code: 'custom', path: ['start', 'space'], message: 'start space is off its row' });
    }
    const deck = CARD_IDS.reduce((n, id) => n + (r.cards?.[id]?.count ?? 0), 0);
    if (deck < r.players.max * r.initialHandSize) {
      ctx.addIssue({
        code: 'custom',
        path: ['cards'],
        message: `${deck} cards cannot deal ${r.initialHandSize} to ${r.players.max} players`,
      });
    }
    const room = (path: 'chart' | 'titles', what: string, n: number, max: number) => {
      if (n > max) ctx.addIssue({ code: 'custom', path: [path], message: `${n} ${what}; the observation encoding holds at most ${max}` });
    };
    if (Array.isArray(r.chart)) room('chart', 'levels', r.chart.length, MAX_CHART_LEVELS);
    if (Array.isArray(r.titles)) room('titles', 'titles', r.titles.length, MAX_TITLES);
    for (let i = 1; Array.isArray(r.titles) && i < r.titles.length; i++) {
      if (r.titles[i]?.points < r.titles[i - 1]?.points) {
        ctx.addIssue({ code: 'custom', path: ['titles', i, 'points'], message: 'titles must be in ascending order' });
      }
    }
  });

export type Ruleset = z.infer<typeof RulesetSchema>;

export class RulesetError extends Error {
  override name = 'RulesetError';
}

/** The rulesets parseRuleset made: frozen, so they stay valid, and taken back as they are. */
const validated = new WeakSet<object>();

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

/**
 * Validates a ruleset; throws a RulesetError naming every bad field. The result is frozen;
 * passing it again returns it at once (so the engine's compiled-rules cache, keyed by the
 * object, holds for every game played under one parsed ruleset).
 */
export function parseRuleset(input: unknown): Ruleset {
  if (typeof input === 'object' && input !== null && validated.has(input)) return input as Ruleset;
  const result = RulesetSchema.safeParse(fromVersion1(input));
  if (result.success) {
    const ruleset = deepFreeze(result.data);
    validated.add(ruleset);
    return ruleset;
  }
  const problems = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  throw new RulesetError(`Invalid ruleset: ${problems.join('; ')}`);
}

/** A version 1 ruleset as version 2 (the card `zelena` is `peppermint`); anything else as it is. */
function fromVersion1(input: unknown): unknown {
  const r = input as { version?: unknown; cards?: Record<string, unknown> } | null;
  if (r?.version !== 1 || typeof r.cards !== 'object' || r.cards === null || !('zelena' in r.cards)) return input;
  const { zelena, ...cards } = r.cards;
  return { ...r, version: 2, cards: { ...cards, peppermint: zelena } };
}

const placement = (reshuffle: number, from: number, to: number) => ({ reshuffle, from, to });

/** The default ruleset: RULES.md, with its Assumed numbers. */
export const DEFAULT_RULESET: Ruleset = parseRuleset({
  version: RULESET_SCHEMA_VERSION,
  name: 'czech-pub-standard',
  players: { min: 2, max: 6 },
  cards: {
    beer: { count: 27, cost: 0 },
    small_beer: { count: 8, cost: 1 },
    rum: { count: 4, cost: 1 },
    fernet: { count: 4, cost: 1 },
    becherovka: { count: 4, cost: 1 },
    peppermint: { count: 4, cost: 1 },
    vodka: { count: 4, cost: 1 },
    tea: { count: 3, cost: 1, drunkenness: -2 },
    coffee: { count: 3, cost: 1, drunkenness: -1 },
    utopenec: { count: 2, cost: 2, drunkenness: -3 },
    same: { count: 2, cost: 1 },
    flattery: { count: 3, cost: 2 },
    shot_into_beer: { count: 3, cost: 1 },
    lets_do_a_shot: { count: 3, cost: 1 },
    shots_everyone: { count: 2, cost: 2 },
    brawl: { count: 2, cost: 2 },
    dont_want_it: { count: 3, cost: 1 },
    insulted_bartender: { count: 2, cost: 1 },
    thats_my_order: { count: 3, cost: 1 },
    excuse_me: { count: 4, cost: 0 },
    mixed_up: { count: 3, cost: 0 },
    knocked_over: { count: 4, cost: 0 },
    warm_beer: { count: 3, cost: 0 },
  },
  initialHandSize: 7,
  limits: { actionsPerTurn: 3, beers: 3, smallBeers: 1, shots: 1 },
  beerTable: {
    regular: [
      { points: 1, drunkenness: 0 },
      { points: 3, drunkenness: 1 },
      { points: 6, drunkenness: 3 },
    ],
    withSmall: [
      { points: 0, drunkenness: 0 },
      { points: 2, drunkenness: 0 },
      { points: 5, drunkenness: 1 },
    ],
    perExtraBeer: { points: 1, drunkenness: 1 },
  },
  shotPoints: 5,
  shotDrunkenness: [1, 2, 2, 3, 4],
  shotBonus: [1, 3, 6, 10, 15],
  chart: [
    { spaces: [-2, -1, 0, 1, 2, 3], handSize: 7 },
    { spaces: [0, 1, 2, 3, 4], handSize: 6 },
    { spaces: [1, 2, 3, 4], handSize: 5 },
    { spaces: [2, 3, 4], handSize: 4 },
  ],
  start: { level: 0, space: 0 },
  roll: { dieSides: 6, okMove: 1, failMove: 3, failStep: 3 },
  abstinence: { pointLoss: [1, 3], moveBack: 1, moveBackPerNonAlcoholic: 1 },
  shotChoice: { beerLoss: 2, smallBeerLoss: 3, nothingLoss: 5 },
  titles: [
    { name: 'Regular', points: 20, tokens: 6 },
    { name: 'Drinker', points: 40, tokens: 3 },
    { name: 'Legend', points: 60, tokens: 1 },
  ],
  closingTime: {
    '2': placement(1, 0, 0.5),
    '3': placement(1, 0, 0.5),
    '4': placement(1, 0.5, 1),
    '5': placement(2, 0, 0.5),
    '6': placement(2, 0.5, 1),
  },
});

/**
 * The micro ruleset: a game small enough that its whole tree, every deal, draw and die roll
 * included, can be walked at 2 and 3 players (eval/exact: exact best responses and NashConv,
 * and a CFR solver). Four cards, one in each hand: a Beer to order and digest on a two-level
 * chart with a two-sided die; That's my order, a pub card aimed at a player, which Excuse me
 * answers; and Knocked-over glass, an X card played in the reaction windows. CLOSING TIME goes
 * on top of the first new pile, so it is drawn at the first draw after the first reshuffle.
 * Its tree: 28,606 nodes at 2 players, 305,782 at 3 (eval/exact/tree.test.ts).
 */
export const MICRO_RULESET: Ruleset = parseRuleset({
  version: RULESET_SCHEMA_VERSION,
  name: 'czech-pub-micro',
  players: { min: 2, max: 3 },
  cards: {
    ...Object.fromEntries(CARD_IDS.map((id) => [id, { count: 0, cost: DEFAULT_RULESET.cards[id].cost }])),
    beer: { count: 1, cost: 0 },
    thats_my_order: { count: 1, cost: 1 },
    excuse_me: { count: 1, cost: 0 },
    knocked_over: { count: 1, cost: 0 },
  },
  initialHandSize: 1,
  limits: { actionsPerTurn: 2, beers: 2, smallBeers: 1, shots: 1 },
  beerTable: DEFAULT_RULESET.beerTable,
  shotPoints: DEFAULT_RULESET.shotPoints,
  shotDrunkenness: DEFAULT_RULESET.shotDrunkenness,
  shotBonus: DEFAULT_RULESET.shotBonus,
  chart: [
    { spaces: [0, 1, 2], handSize: 1 },
    { spaces: [1, 2], handSize: 1 },
  ],
  start: { level: 0, space: 0 },
  roll: { dieSides: 2, okMove: 1, failMove: 1, failStep: 2 },
  abstinence: DEFAULT_RULESET.abstinence,
  shotChoice: DEFAULT_RULESET.shotChoice,
  titles: [],
  closingTime: {
    '2': placement(1, 0, 0),
    '3': placement(1, 0, 0),
    '4': placement(1, 0, 0),
    '5': placement(1, 0, 0),
    '6': placement(1, 0, 0),
  },
});

/** The rulesets shipped by name (`--ruleset micro`): anything else is read from a file. */
export const NAMED_RULESETS: Readonly<Record<string, Ruleset>> = { standard: DEFAULT_RULESET, micro: MICRO_RULESET };

/** A ruleset flattened into arrays indexed by card type, for the engine's hot path. */
export interface CompiledRules {
  readonly ruleset: Ruleset;
  readonly count: Int32Array;
  readonly cost: Int32Array;
  /** Drunkenness printed on non-alcoholic orders (0 for other types). */
  readonly nonAlcDrunk: Int32Array;
  readonly deckSize: number;
  /** Total number of cards including CLOSING TIME. */
  readonly totalCards: number;
}

const compiled = new WeakMap<Ruleset, CompiledRules>();

export function compileRuleset(ruleset: Ruleset): CompiledRules {
  let c = compiled.get(ruleset);
  if (c) return c;
  const count = new Int32Array(HAND_TYPES);
  const cost = new Int32Array(HAND_TYPES);
  const nonAlcDrunk = new Int32Array(HAND_TYPES);
  CARD_IDS.forEach((id, t) => {
    count[t] = ruleset.cards[id].count;
    cost[t] = ruleset.cards[id].cost;
    if (t < ORDER_TYPES) nonAlcDrunk[t] = ruleset.cards[id].drunkenness ?? 0;
  });
  const deckSize = count.reduce((a, b) => a + b, 0);
  c = { ruleset, count, cost, nonAlcDrunk, deckSize, totalCards: deckSize + 1 };
  compiled.set(ruleset, c);
  return c;
}
