/**
 * Digestion (RULES.md section 7): points from the beer table and shots, shot tokens, the
 * drunkenness roll, abstinence, leaving a row (PAUSE), being wasted or thrown out, titles.
 */
import {
  BEER, FLATTERY, INSULTED_BARTENDER, isNonAlcoholic, isShot, ORDER_TYPES, RUM, SMALL_BEER,
} from '../cards.ts';
import {
  entryFlags, entryShot, entryType, F_ADDED, F_COUNTED, F_GIVEN, F_MARKER, F_POURED, popcount, THROWN_OUT,
  WASTED,
} from '../state.ts';
import type { GameEvent } from '../events.ts';
import { handDiscardAll, uniform, type Ctx } from './context.ts';
import { beerScore, rollMove } from './drinking.ts';

/** What one player drinks at a digestion. */
interface Drinks {
  beers: number;
  small: boolean;
  /** Shot indices drunk, and how many of them score points. */
  shots: number[];
  scoringShots: number;
  nonAlc: number[];
}

function emptyDrinks(): Drinks {
  return { beers: 0, small: false, shots: [], scoringShots: 0, nonAlc: [] };
}

/**
 * Whether a shot in front counts towards the shot limit when no beer is left: a shot ordered
 * as usual, or the player's own shot poured into a beer by an X Shot into a beer (the card
 * then has no effect). Not a shot given by Mixed-up, nor one poured in from someone's hand.
 */
function countsWithoutBeer(fl: number): boolean {
  return (fl & F_COUNTED) !== 0 || (fl & (F_POURED | F_ADDED | F_GIVEN)) === F_POURED;
}

/**
 * The drinks of the cards in front of `seat` at digestion. The extra shot of an own-turn
 * Shot into a beer is dropped if no beer remains, and so is a shot poured in from another
 * player's hand; a poured own shot without a beer scores again and counts towards the limit.
 * With `copy`, returns what a player copying `seat` drinks: the orders `seat` played (the
 * rulebooks: "the orders he played"), so no Flattery, no order given by Mixed-up and no shot
 * poured in from someone's hand.
 */
function drinksInFront(c: Ctx, seat: number, copy: boolean): Drinks {
  const s = c.s;
  const front = s.front[seat];
  const d = emptyDrinks();
  let beers = 0;
  let counted = 0;
  for (const e of front) {
    const t = entryType(e);
    if (t === BEER || t === SMALL_BEER) beers++;
    else if (isShot(t) && countsWithoutBeer(entryFlags(e))) counted++;
  }
  // Without a beer, the shots beyond the limit go, the last ordered first: the extra shot an
  // own-turn Shot into a beer allowed, or one ordered after an X Shot into a beer poured an
  // own shot (which is an ordinary order again, so it counts towards the limit).
  let dropExcess = beers === 0 ? Math.max(0, counted - c.r.ruleset.limits.shots) : 0;
  for (let i = front.length - 1; i >= 0; i--) {
    const e = front[i];
    const t = entryType(e);
    const fl = entryFlags(e);
    if (copy && fl & (F_GIVEN | F_ADDED | F_MARKER)) continue;
    if (t === BEER || t === SMALL_BEER) {
      d.beers++;
      if (t === SMALL_BEER) d.small = true;
    } else if (isShot(t)) {
      if (dropExcess > 0 && countsWithoutBeer(fl)) {
        dropExcess--;
        continue;
      }
      if (fl & F_ADDED && beers === 0) continue;
      d.shots.push(t - RUM);
      if (copy || !(fl & F_POURED) || beers === 0) d.scoringShots++;
    } else if (t === FLATTERY && !copy && !(fl & F_MARKER)) {
      d.shots.push(entryShot(e));
      d.scoringShots++;
    } else if (t < ORDER_TYPES && isNonAlcoholic(t)) {
      d.nonAlc.push(t);
    }
  }
  return d;
}

/** Moves a figure back, stopping at the first space of its level. */
function moveBack(c: Ctx, seat: number, spaces: number): void {
  c.s.space[seat] = Math.max(0, c.s.space[seat] - spaces);
}

/** Moves a figure forward; past the row's end it goes to the next level and pauses, or is wasted. */
function moveForward(c: Ctx, seat: number, spaces: number): void {
  const s = c.s;
  const chart = c.r.ruleset.chart;
  const to = s.space[seat] + spaces;
  if (to < chart[s.level[seat]].spaces.length) {
    s.space[seat] = to;
  } else if (s.level[seat] + 1 < chart.length) {
    s.level[seat]++;
    s.space[seat] = 0;
    s.paused[seat] = 1;
    if (c.log) c.log.push({ k: 'level_up', seat, level: s.level[seat] });
  } else {
    knockOut(c, seat, WASTED);
  }
}

/** A player leaves the game: hand and cards in front to the discard pile, copies on them lost. */
export function knockOut(c: Ctx, seat: number, how: number): void {
  const s = c.s;
  s.out[seat] = how;
  s.paused[seat] = 0;
  s.copying[seat] = -1;
  handDiscardAll(s, seat);
  // The active player leaves at their own digestion, after drinking: whoever copies them still
  // drinks the same (digestionStep), so only a copy of a player out before their turn is lost.
  if (seat === s.active) return emitOut(c, seat, how);
  for (const e of s.front[seat]) s.discard.push(entryType(e));
  s.front[seat] = [];
  for (let o = 0; o < s.players; o++) {
    if (s.copying[o] === seat) {
      s.copying[o] = -1;
      if (c.log) c.log.push({ k: 'copy_lost', seat: o, target: seat });
    }
  }
  emitOut(c, seat, how);
}

function emitOut(c: Ctx, seat: number, how: number): void {
  if (c.log) c.log.push({ k: 'out', seat, how: how === WASTED ? 'wasted' : 'thrown_out' });
}

function takeTitles(c: Ctx, seat: number): void {
  const s = c.s;
  const titles = c.r.ruleset.titles;
  for (let i = 0; i < titles.length; i++) {
    if (s.titles[seat] & (1 << i) || s.titlesLeft[i] <= 0 || s.points[seat] < titles[i].points) continue;
    s.titles[seat] |= 1 << i;
    s.titlesLeft[i]--;
    if (c.log) c.log.push({ k: 'title', seat, title: i });
  }
}

function insulted(c: Ctx, seat: number): boolean {
  for (const e of c.s.front[seat]) if (entryType(e) === INSULTED_BARTENDER && entryFlags(e) & F_MARKER) return true;
  return false;
}

function digestDrinks(c: Ctx, seat: number, d: Drinks, copyOf: number): void {
  const s = c.s;
  const rs = c.r.ruleset;
  let points = 0;
  let drunk = 0;
  let move = 0;
  let total: number | undefined;
  let die: number | undefined;
  if (d.beers === 0 && d.shots.length === 0) {
    const level = s.abstinence[seat];
    if (level >= rs.abstinence.pointLoss.length) {
      if (copyOf < 0 && insulted(c, seat)) {
        points -= rs.abstinence.pointLoss[level - 1];
      } else {
        emitDigest(c, seat, copyOf, 0, 0, undefined, undefined, 0);
        knockOut(c, seat, THROWN_OUT);
        return;
      }
    } else {
      points -= rs.abstinence.pointLoss[level];
      s.abstinence[seat] = level + 1;
    }
    move = -(rs.abstinence.moveBack + rs.abstinence.moveBackPerNonAlcoholic * d.nonAlc.length);
    s.points[seat] += points;
    moveBack(c, seat, -move);
    emitDigest(c, seat, copyOf, points, 0, undefined, undefined, move);
    return;
  }
  const beers = beerScore(rs, d.beers, d.small);
  points += beers.points;
  drunk += beers.drunkenness;
  for (const i of d.shots) s.tokens[seat] |= 1 << i;
  const kinds = popcount(s.tokens[seat]);
  if (d.shots.length > 0) drunk += d.shots.length * rs.shotDrunkenness[kinds - 1];
  points += d.scoringShots * rs.shotPoints;
  for (const t of d.nonAlc) drunk += c.r.nonAlcDrunk[t];
  s.abstinence[seat] = 0;
  s.points[seat] += points;
  takeTitles(c, seat);
  total = drunk + rs.chart[s.level[seat]].spaces[s.space[seat]];
  die = c.die ? c.die(rs.roll.dieSides) : 1 + uniform(c, rs.roll.dieSides);
  move = rollMove(rs, total, die);
  const ev = emitDigest(c, seat, copyOf, points, drunk, total, die, move);
  moveForward(c, seat, move);
  // The event goes before any level_up / out it causes, but reports where the figure ended
  // up, as it does for an abstinence.
  if (ev) {
    ev.level = s.level[seat];
    ev.space = s.space[seat];
  }
}

type DigestEvent = Extract<GameEvent, { k: 'digest' }>;

function emitDigest(
  c: Ctx, seat: number, copyOf: number, points: number, drunkenness: number,
  total: number | undefined, die: number | undefined, move: number,
): DigestEvent | null {
  if (!c.log) return null;
  const s = c.s;
  const ev: DigestEvent = {
    k: 'digest', seat, ...(copyOf >= 0 ? { copyOf } : {}), points, drunkenness,
    ...(total !== undefined ? { total, die } : {}), move, abstinence: s.abstinence[seat],
    level: s.level[seat], space: s.space[seat],
  };
  c.log.push(ev);
  return ev;
}

/**
 * The digestion step of the active player's turn: their own digestion (unless they are
 * waiting to copy someone with I'll get the same), then that of every player copying them.
 */
export function digestionStep(c: Ctx): void {
  const s = c.s;
  const a = s.active;
  digestOwn(c);
  for (let k = 1; k < s.players; k++) {
    const o = (a + k) % s.players;
    if (s.copying[o] !== a) continue;
    s.copying[o] = -1;
    if (s.out[o] === 0) digestDrinks(c, o, drinksInFront(c, a, true), a);
  }
}

/**
 * The active player's own digestion, unless they played I'll get the same and wait to copy
 * someone; whether they digested. Nothing it does depends on who copies them.
 */
export function digestOwn(c: Ctx): boolean {
  const s = c.s;
  const a = s.active;
  if (s.playedSame && s.copying[a] >= 0) return false;
  digestDrinks(c, a, drinksInFront(c, a, false), -1);
  return true;
}
