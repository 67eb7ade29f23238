/**
 * The drinking arithmetic the scripted agents plan with, all read from a ruleset: points and
 * drunkenness of a set of orders (beer table, shots, tokens, non-alcoholic orders), the die
 * roll's moves, and the chances of failing the roll, leaving a row (PAUSE) or being wasted.
 */
import {
  BEER, beerScore, CARD_IDS, DEFAULT_RULESET, FLATTERY, HAND_TYPES, isNonAlcoholic, isShot, ORDER_TYPES, rollMove, SHOT_TYPES, shotIndex,
  SMALL_BEER, type FrontCardView, type Ruleset,
} from '../../env/index.ts';
import { popcount, typeOf } from './common.ts';

/** A ruleset's numbers in flat arrays (built once per ruleset). */
export interface Numbers {
  ruleset: Ruleset;
  /** Action cost by card type. */
  cost: number[];
  /** Printed drunkenness of non-alcoholic orders by type (0 elsewhere). */
  nonAlc: number[];
  /** Spaces of each level's row, and the hand size of each level. */
  rows: number[][];
  handSize: number[];
  /** moveProb[total + OFFSET][m]: chance the roll moves m spaces forward at that total. */
  moveProb: Float64Array[];
  maxMove: number;
}

const OFFSET = 20;
const cache = new WeakMap<Ruleset, Numbers>();

export function numbers(ruleset: Ruleset = DEFAULT_RULESET): Numbers {
  let n = cache.get(ruleset);
  if (n) return n;
  const roll = ruleset.roll;
  const cost = new Array<number>(HAND_TYPES).fill(0);
  const nonAlc = new Array<number>(HAND_TYPES).fill(0);
  CARD_IDS.forEach((id, t) => {
    cost[t] = ruleset.cards[id].cost;
    if (t < ORDER_TYPES && isNonAlcoholic(t)) nonAlc[t] = ruleset.cards[id].drunkenness ?? 0;
  });
  const move = (total: number, die: number): number => rollMove(ruleset, total, die);
  const maxMove = move(2 * OFFSET, 1);
  const moveProb: Float64Array[] = [];
  for (let total = -OFFSET; total <= OFFSET; total++) {
    const p = new Float64Array(maxMove + 1);
    for (let die = 1; die <= roll.dieSides; die++) p[move(total, die)] += 1 / roll.dieSides;
    moveProb.push(p);
  }
  n = {
    ruleset,
    cost,
    nonAlc,
    rows: ruleset.chart.map((r) => r.spaces),
    handSize: ruleset.chart.map((r) => r.handSize),
    moveProb,
    maxMove,
  };
  cache.set(ruleset, n);
  return n;
}

/** Move distribution of a roll at this total (drunkenness + space value). */
export function moveDist(n: Numbers, total: number): Float64Array {
  return n.moveProb[Math.max(-OFFSET, Math.min(OFFSET, total)) + OFFSET];
}

/** Points and drunkenness of the beer table for `beers` beers (one of them small or not): the engine's own (engine/drinking.ts). */
export function beerTable(r: Ruleset, beers: number, small: boolean): { points: number; drunk: number } {
  const b = beerScore(r, beers, small);
  return { points: b.points, drunk: b.drunkenness };
}

/** Final-score bonus for a token mask. */
export function tokenBonus(r: Ruleset, mask: number): number {
  const k = popcount(mask);
  return k > 0 ? r.shotBonus[k - 1] : 0;
}

/** What lies in front of a player, as digestion will count it. */
export interface Drinks {
  beers: number;
  small: boolean;
  /** Shots drunk (orders, Flattery, poured), their token mask, and how many score points. */
  shots: number;
  shotMask: number;
  scoring: number;
  /** Sum of the non-alcoholic orders' drunkenness (negative), and how many there are. */
  nonAlc: number;
  nonAlcCount: number;
}

export function emptyDrinks(): Drinks {
  return { beers: 0, small: false, shots: 0, shotMask: 0, scoring: 0, nonAlc: 0, nonAlcCount: 0 };
}

/** The drinks of a front (a view's `front` list), following digestion's counting. */
export function frontDrinks(n: Numbers, front: readonly FrontCardView[]): Drinks {
  const dr = emptyDrinks();
  for (const c of front) if (c.card === 'beer' || c.card === 'small_beer') dr.beers++;
  for (const c of front) {
    const t = typeOf(c.card);
    if (t === BEER) continue;
    if (t === SMALL_BEER) dr.small = true;
    else if (t < ORDER_TYPES && isShot(t)) {
      if (c.fromHand && dr.beers === 0) continue;
      dr.shots++;
      dr.shotMask |= 1 << shotIndex(t);
      if (!c.poured || dr.beers === 0) dr.scoring++;
    } else if (t === FLATTERY && c.as) {
      dr.shots++;
      dr.shotMask |= 1 << shotIndex(typeOf(c.as));
      dr.scoring++;
    } else if (t < ORDER_TYPES && isNonAlcoholic(t)) {
      dr.nonAlc += n.nonAlc[t];
      dr.nonAlcCount++;
    }
  }
  return dr;
}

export interface Digestion {
  /** False: an abstinence. */
  drinks: boolean;
  points: number;
  drunk: number;
  /** Token mask after taking this turn's tokens. */
  tokens: number;
}

/** Points, drunkenness and tokens of digesting `dr` for a player owning `tokens`. */
export function digest(n: Numbers, dr: Drinks, tokens: number): Digestion {
  const r = n.ruleset;
  if (dr.beers === 0 && dr.shots === 0) return { drinks: false, points: 0, drunk: 0, tokens };
  const b = beerTable(r, dr.beers, dr.small);
  const mask = tokens | dr.shotMask;
  const k = popcount(mask);
  const shotDrunk = dr.shots > 0 ? dr.shots * r.shotDrunkenness[Math.min(k, SHOT_TYPES) - 1] : 0;
  return {
    drinks: true,
    points: b.points + dr.scoring * r.shotPoints,
    drunk: b.drunk + shotDrunk + dr.nonAlc,
    tokens: mask,
  };
}

/** Where a roll at some total leaves a figure: chances of each outcome. */
export interface Risk {
  /** Chance the roll is failed (die below the total). */
  fail: number;
  /** Chance of leaving the row to the next level (a PAUSE turn). */
  levelUp: number;
  /** Chance of leaving the last row: wasted. */
  wasted: number;
  /** Expected spaces moved. */
  move: number;
}

/** Risk of digesting `drunk` drunkenness on level `level` (0-based), space index `space`. */
export function risk(n: Numbers, level: number, space: number, drunk: number): Risk {
  const row = n.rows[level];
  const total = drunk + row[space];
  const p = moveDist(n, total);
  const out: Risk = { fail: 0, levelUp: 0, wasted: 0, move: 0 };
  const sides = n.ruleset.roll.dieSides;
  out.fail = Math.min(sides, Math.max(0, total - 1)) / sides;
  const last = level === n.rows.length - 1;
  for (let m = 0; m < p.length; m++) {
    if (p[m] === 0) continue;
    out.move += m * p[m];
    if (space + m >= row.length) {
      if (last) out.wasted += p[m];
      else out.levelUp += p[m];
    }
  }
  return out;
}
