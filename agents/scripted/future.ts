/**
 * What a figure's place on the drunkenness chart is worth for the rest of the game: V[T](place,
 * abstinence) is the expected points of T more turns from there, by dynamic programming over
 * a menu of typical turns (a weak, a fair or a strong hand; abstaining is always possible).
 * Leaving a row costs the next turn (PAUSE); leaving the last row, or a third abstinence,
 * ends the player's game. Built once per ruleset; the heuristic agent reads it to price the
 * roll of a planned turn against the turns it expects to have left.
 */
import { SHOT_TYPES, type Ruleset } from '../../env/index.ts';
import { beerTable, moveDist, numbers, type Numbers } from './drink.ts';

/** Longest horizon tabled, in turns of the player. */
export const MAX_TURNS = 48;

export interface FutureTable {
  n: Numbers;
  /** First place index of each level; places are numbered level by level. */
  levelStart: number[];
  places: number;
  /** Abstinence states (0 .. pointLoss.length). */
  abst: number;
  /** cum[T][place * abst + a]: sum of V[0..T] (prefix sums, so mixtures over T are O(1)). */
  cum: Float64Array[];
}

const cache = new WeakMap<Ruleset, FutureTable>();

/** Typical turns (points, drunkenness) for a weak, a fair and a strong hand, and how often each comes. */
function menus(r: Ruleset): { weight: number; options: [number, number][] }[] {
  const b = (k: number): [number, number] => {
    const t = beerTable(r, k, false);
    return [t.points, t.drunk];
  };
  const shotDrunk = r.shotDrunkenness[Math.min(2, SHOT_TYPES - 1)];
  const add = (x: [number, number], shots: number): [number, number] => [x[0] + shots * r.shotPoints, x[1] + shots * shotDrunk];
  return [
    { weight: 0.3, options: [b(1), b(2)] },
    { weight: 0.4, options: [b(1), b(2), b(3), add(b(1), 1), add(b(2), 1)] },
    { weight: 0.3, options: [b(1), b(2), b(3), add(b(2), 1), add(b(3), 1), add(b(3), 2)] },
  ];
}

export function futureTable(ruleset: Ruleset): FutureTable {
  let f = cache.get(ruleset);
  if (f) return f;
  const n = numbers(ruleset);
  const rows = n.rows;
  const levelStart: number[] = [];
  let places = 0;
  for (const row of rows) {
    levelStart.push(places);
    places += row.length;
  }
  const losses = ruleset.abstinence.pointLoss;
  const abst = losses.length + 1;
  const back = ruleset.abstinence.moveBack;
  const menu = menus(ruleset);
  const V: Float64Array[] = [new Float64Array(places * abst)];
  for (let T = 1; T <= MAX_TURNS; T++) {
    const prev = V[T - 1];
    const prev2 = T >= 2 ? V[T - 2] : null;
    const cur = new Float64Array(places * abst);
    for (let level = 0; level < rows.length; level++) {
      const row = rows[level];
      for (let space = 0; space < row.length; space++) {
        const place = levelStart[level] + space;
        // Value of drinking (points, drunk) from here, before adding the points.
        const drinkNext = (drunk: number): number => {
          const p = moveDist(n, drunk + row[space]);
          let v = 0;
          for (let m = 0; m < p.length; m++) {
            if (p[m] === 0) continue;
            const to = space + m;
            if (to < row.length) v += p[m] * prev[(levelStart[level] + to) * abst];
            else if (level + 1 < rows.length && prev2) v += p[m] * prev2[levelStart[level + 1] * abst];
          }
          return v;
        };
        const drinkValues = menu.map((c) => c.options.map(([pts, drunk]) => pts + drinkNext(drunk)));
        for (let a = 0; a < abst; a++) {
          const abstain = a < losses.length ? -losses[a] + prev[(levelStart[level] + Math.max(0, space - back)) * abst + a + 1] : 0;
          let v = 0;
          for (let c = 0; c < menu.length; c++) v += menu[c].weight * Math.max(abstain, ...drinkValues[c]);
          cur[place * abst + a] = v;
        }
      }
    }
    V.push(cur);
  }
  const cum: Float64Array[] = [];
  let run = new Float64Array(places * abst);
  for (const v of V) {
    const next = new Float64Array(run.length);
    for (let i = 0; i < run.length; i++) next[i] = run[i] + v[i];
    cum.push(next);
    run = next;
  }
  f = { n, levelStart, places, abst, cum };
  cache.set(ruleset, f);
  return f;
}

/** Mean of V[T] over T in [lo, hi] (clipped to the table), per place and abstinence. */
export function meanFuture(f: FutureTable, lo: number, hi: number, out: Float64Array): Float64Array {
  const a = Math.max(0, Math.min(MAX_TURNS, Math.round(lo)));
  const b = Math.max(a, Math.min(MAX_TURNS, Math.round(hi)));
  const top = f.cum[b];
  const below = a > 0 ? f.cum[a - 1] : null;
  const k = b - a + 1;
  for (let i = 0; i < out.length; i++) out[i] = (top[i] - (below ? below[i] : 0)) / k;
  return out;
}

/**
 * Expected future value after digesting `drunk` (or abstaining, moving `back` spaces) from a
 * place: `stay` is the mean future for the turns left after this one, `paused` the same one
 * turn shorter (the PAUSE turn after leaving a row).
 */
export function afterRoll(
  f: FutureTable, stay: Float64Array, paused: Float64Array, level: number, space: number, drunk: number,
): number {
  const row = f.n.rows[level];
  const p = moveDist(f.n, drunk + row[space]);
  let v = 0;
  for (let m = 0; m < p.length; m++) {
    if (p[m] === 0) continue;
    const to = space + m;
    if (to < row.length) v += p[m] * stay[(f.levelStart[level] + to) * f.abst];
    else if (level + 1 < f.n.rows.length) v += p[m] * paused[f.levelStart[level + 1] * f.abst];
  }
  return v;
}

/**
 * Future value after an abstinence (abstinence state `a` before it), or 0 if it throws the
 * player out (an insulted player is not thrown out).
 */
export function afterAbstaining(
  f: FutureTable, stay: Float64Array, level: number, space: number, a: number, back: number, insulted: boolean,
): number {
  if (a + 1 >= f.abst && !insulted) return 0;
  return stay[(f.levelStart[level] + Math.max(0, space - back)) * f.abst + Math.min(a + 1, f.abst - 1)];
}
