/** Legal actions of the player deciding now, written into a caller's buffer (no allocation). */
import * as A from '../actions.ts';
import {
  BEER, BRAWL, DONT_WANT_IT, EXCUSE_ME, FLATTERY, HAND_TYPES, INSULTED_BARTENDER, KNOCKED_OVER,
  LETS_DO_A_SHOT, MIXED_UP, ORDER_TYPES, RUM, SAME, SHOT_INTO_BEER, SHOT_TYPES, SHOTS_EVERYONE,
  SMALL_BEER, THATS_MY_ORDER, WARM_BEER, isShot,
} from '../cards.ts';
import {
  entryFlags, entryType, F_ADDED, F_COUNTED, F_GIVEN, F_MARKER, F_POURED, PHASE_DISCARD, PHASE_PLAY,
  PHASE_REACTION, PHASE_RESPONSE, type GameState,
} from '../state.ts';
import { isEligible, nextInGame, type Ctx } from './context.ts';

/** What the cards in front of a player allow; filled by `summarizeFront`. */
export interface FrontSummary {
  /** Bitmask over order types present (any origin). */
  orders: number;
  /** Bitmask over shot indices of shot orders not yet poured into a beer. */
  pourable: number;
  /**
   * A shot order the player played themselves this turn: not given by Mixed-up, not poured in
   * from someone's hand (Flattery is no order, so it never counts either).
   */
  playedShot: boolean;
  beers: number;
  /** Beers (regular or small) the player played themselves: not given by Mixed-up. */
  playedBeers: number;
  countedBeers: number;
  countedSmall: number;
  countedShots: number;
  insulted: boolean;
}

const scratch: FrontSummary = {
  orders: 0, pourable: 0, playedShot: false, beers: 0, playedBeers: 0, countedBeers: 0, countedSmall: 0, countedShots: 0, insulted: false,
};

/** Summarises a front into a shared scratch object (valid until the next call). */
export function summarizeFront(front: number[]): FrontSummary {
  const f = scratch;
  f.orders = 0;
  f.pourable = 0;
  f.playedShot = false;
  f.beers = 0;
  f.playedBeers = 0;
  f.countedBeers = 0;
  f.countedSmall = 0;
  f.countedShots = 0;
  f.insulted = false;
  for (let i = 0; i < front.length; i++) {
    const e = front[i];
    const t = entryType(e);
    const fl = entryFlags(e);
    if (t === INSULTED_BARTENDER && fl & F_MARKER) f.insulted = true;
    if (t >= ORDER_TYPES) continue;
    f.orders |= 1 << t;
    if (t === BEER || t === SMALL_BEER) {
      f.beers++;
      if (!(fl & F_GIVEN)) f.playedBeers++;
      if (fl & F_COUNTED) {
        f.countedBeers++;
        if (t === SMALL_BEER) f.countedSmall++;
      }
    } else if (isShot(t)) {
      if (!(fl & F_POURED)) f.pourable |= 1 << (t - RUM);
      if (!(fl & (F_ADDED | F_GIVEN))) f.playedShot = true;
      if (fl & F_COUNTED) f.countedShots++;
    }
  }
  return f;
}

function pushTargets(s: GameState, out: Int32Array, n: number, base: number): number {
  const a = s.active;
  for (let off = 1; off < s.players; off++) {
    if (isEligible(s, (a + off) % s.players)) out[n++] = base + off - 1;
  }
  return n;
}

function canPlay(s: GameState, cost: Int32Array, h: number, left: number, t: number): boolean {
  return s.hand[h + t] > 0 && cost[t] <= left;
}

function legalPlay(c: Ctx, out: Int32Array): number {
  const s = c.s;
  const a = s.active;
  let n = 0;
  if (s.playedSame) {
    out[0] = A.A_DONE;
    return 1;
  }
  const lim = c.r.ruleset.limits;
  const cost = c.r.cost;
  const left = lim.actionsPerTurn - s.actionsUsed;
  const h = a * HAND_TYPES;
  const f = summarizeFront(s.front[a]);
  if (!f.insulted) {
    for (let t = 0; t < ORDER_TYPES; t++) {
      let have = s.hand[h + t];
      if (t === BEER) have -= s.blockedBeer;
      else if (t === SMALL_BEER) have -= s.blockedSmall;
      if (have <= 0 || cost[t] > left) continue;
      if (t === BEER) {
        if (f.countedBeers >= lim.beers) continue;
      } else if (t === SMALL_BEER) {
        if (f.countedBeers >= lim.beers || f.countedSmall >= lim.smallBeers) continue;
      } else if (isShot(t)) {
        if (f.countedShots >= lim.shots + s.extraShots) continue;
      }
      out[n++] = A.A_ORDER + t;
    }
  }
  if (s.played === 0 && canPlay(s, cost, h, left, SAME)) n = pushTargets(s, out, n, A.A_SAME);
  if (canPlay(s, cost, h, left, FLATTERY)) for (let i = 0; i < SHOT_TYPES; i++) out[n++] = A.A_FLATTERY + i;
  // "BEER or SMALL BEER and one shot already played" (English); "zahrát též alespoň jedno
  // PIVO … a alespoň jeden panák" (Czech): both played by the player, not given by Mixed-up.
  if (canPlay(s, cost, h, left, SHOT_INTO_BEER) && f.playedBeers > 0 && f.playedShot) out[n++] = A.A_SIB;
  if (canPlay(s, cost, h, left, LETS_DO_A_SHOT)) n = pushTargets(s, out, n, A.A_LDAS);
  if (canPlay(s, cost, h, left, SHOTS_EVERYONE)) out[n++] = A.A_SHOTS_EVERYONE;
  if (canPlay(s, cost, h, left, BRAWL)) out[n++] = A.A_BRAWL;
  if (canPlay(s, cost, h, left, DONT_WANT_IT) && s.discard.length > 0) out[n++] = A.A_DONT_WANT;
  if (canPlay(s, cost, h, left, INSULTED_BARTENDER)) n = pushTargets(s, out, n, A.A_INSULT);
  if (canPlay(s, cost, h, left, THATS_MY_ORDER)) n = pushTargets(s, out, n, A.A_THATS_MY);
  out[n++] = A.A_DONE;
  if (s.played === 0) {
    for (let t = 0; t < HAND_TYPES; t++) if (s.hand[h + t] > 0) out[n++] = A.A_DISCARD + t;
  }
  return n;
}

function legalDiscard(s: GameState, out: Int32Array): number {
  let n = 0;
  const h = s.active * HAND_TYPES;
  for (let t = 0; t < HAND_TYPES; t++) if (s.hand[h + t] > 0) out[n++] = A.A_DISCARD + t;
  out[n++] = A.A_STOP_DISCARD;
  return n;
}

function legalReaction(s: GameState, out: Int32Array): number {
  let n = 0;
  out[n++] = A.A_PASS;
  const h = s.actor * HAND_TYPES;
  const hasKnock = s.hand[h + KNOCKED_OVER] > 0;
  const hasMixed = s.hand[h + MIXED_UP] > 0;
  const hasWarm = s.hand[h + WARM_BEER] > 0;
  const hasSib = s.hand[h + SHOT_INTO_BEER] > 0;
  if (!(hasKnock || hasMixed || hasWarm || hasSib)) return n;
  const f = summarizeFront(s.front[s.active]);
  if (f.orders === 0) return n;
  if (hasKnock) for (let t = 0; t < ORDER_TYPES; t++) if (f.orders & (1 << t)) out[n++] = A.A_KNOCK + t;
  if (hasMixed) {
    for (let x = 0; x < ORDER_TYPES; x++) {
      if (!(f.orders & (1 << x))) continue;
      for (let y = 0; y < ORDER_TYPES; y++) if (s.hand[h + y] > 0) out[n++] = A.A_MIXED + x * ORDER_TYPES + y;
    }
  }
  if (hasWarm) {
    if (f.orders & (1 << BEER)) out[n++] = A.A_WARM;
    if (f.orders & (1 << SMALL_BEER)) out[n++] = A.A_WARM + 1;
  }
  if (hasSib && f.beers > 0) {
    for (let i = 0; i < SHOT_TYPES; i++) if (f.pourable & (1 << i)) out[n++] = A.A_SIBX_FRONT + i;
    // The Czech rulebook: a shot may be added from one's hand only "if he lacks a shot".
    if (f.pourable === 0) for (let i = 0; i < SHOT_TYPES; i++) if (s.hand[h + RUM + i] > 0) out[n++] = A.A_SIBX_HAND + i;
  }
  return n;
}

/** The seat an Excuse me would redirect to (left = +1, right = -1), or -1 if it may not. */
export function redirectTarget(s: GameState, dir: 1 | -1): number {
  const e = s.effect!;
  const x = s.actor;
  const seat = dir === 1 ? nextInGame(s, x) : prevInGame(s, x);
  if (seat < 0 || seat === x || seat === e.by || e.avoided & (1 << seat) || s.paused[seat]) return -1;
  return seat;
}

function prevInGame(s: GameState, from: number): number {
  const n = s.players;
  for (let k = 1; k <= n; k++) {
    const seat = (from - k + n) % n;
    if (s.out[seat] === 0) return seat;
  }
  return -1;
}

function legalResponse(s: GameState, out: Int32Array): number {
  let n = 0;
  const e = s.effect!;
  const h = s.actor * HAND_TYPES;
  const excuse = s.hand[h + EXCUSE_ME] > 0;
  const shotChoice = e.card === LETS_DO_A_SHOT || e.card === SHOTS_EVERYONE;
  // Written in ascending order (pass < Excuse me < shot choices), as legalActions promises.
  if (!shotChoice) out[n++] = A.A_PASS;
  if (excuse) {
    out[n++] = A.A_EXCUSE_CANCEL;
    if (e.card === SAME || e.card === LETS_DO_A_SHOT || e.card === INSULTED_BARTENDER || e.card === THATS_MY_ORDER) {
      if (redirectTarget(s, 1) >= 0) out[n++] = A.A_EXCUSE_LEFT;
      if (redirectTarget(s, -1) >= 0) out[n++] = A.A_EXCUSE_RIGHT;
    }
  }
  if (shotChoice) {
    for (let i = 0; i < SHOT_TYPES; i++) if (s.hand[h + RUM + i] > 0) out[n++] = A.A_SHOT_DISCARD + i;
    if (s.hand[h + BEER] > 0) out[n++] = A.A_SHOT_BEER;
    if (s.hand[h + SMALL_BEER] > 0) out[n++] = A.A_SHOT_SMALL;
    out[n++] = A.A_SHOT_NOTHING;
  }
  return n;
}

/** Writes the legal actions of `state.actor` into `out` (length ≥ NUM_ACTIONS); returns the count. */
export function legalActionsInto(c: Ctx, out: Int32Array): number {
  switch (c.s.phase) {
    case PHASE_PLAY:
      return legalPlay(c, out);
    case PHASE_DISCARD:
      return legalDiscard(c.s, out);
    case PHASE_REACTION:
      return legalReaction(c.s, out);
    case PHASE_RESPONSE:
      return legalResponse(c.s, out);
    default:
      return 0;
  }
}
