/**
 * What each card does when played: orders and pub cards in the active player's turn,
 * responses of the players aimed at (Excuse me, the shot choice), and X cards in a
 * reaction window. Flow between decisions (windows, turn end) is in flow.ts.
 */
import type { DecodedAction } from '../actions.ts';
import {
  BEER, BRAWL, DONT_WANT_IT, EXCUSE_ME, FLATTERY, INSULTED_BARTENDER, KNOCKED_OVER, LETS_DO_A_SHOT,
  MIXED_UP, SAME, SHOT_INTO_BEER, SHOTS_EVERYONE, THATS_MY_ORDER, WARM_BEER,
} from '../cards.ts';
import {
  entryFlags, entryType, F_ADDED, F_COUNTED, F_GIVEN, F_MARKER, F_PAID, F_POURED, packEntry,
  PHASE_RESPONSE, withFlags, type GameState,
} from '../state.ts';
import {
  handGainPublic, handLosePublic, handMovePrivate, isEligible, randomTypeInHand, type Ctx,
} from './context.ts';
import { redirectTarget } from './legal.ts';

/** Where play goes after an effect: on to a reaction window opened by `card`. */
export type AfterEffect = (c: Ctx, card: number) => void;

function playFromHand(c: Ctx, t: number, flags: number, shot = -1): void {
  const s = c.s;
  const a = s.active;
  handLosePublic(s, a, t);
  s.front[a].push(packEntry(t, flags, shot, a));
  s.actionsUsed += c.r.cost[t];
  s.played++;
}

function askResponse(c: Ctx, seat: number): void {
  c.s.phase = PHASE_RESPONSE;
  c.s.actor = seat;
  c.s.effect!.target = seat;
}

function startEffect(c: Ctx, card: number, target: number, queue: number[]): void {
  const s = c.s;
  s.effect = { card, by: s.active, target, avoided: 0, queue, excused: 0 };
}

/** Everyone the active player's card affects, in clockwise order from their left. */
function othersInPlay(s: GameState): number[] {
  const q: number[] = [];
  for (let k = 1; k < s.players; k++) {
    const seat = (s.active + k) % s.players;
    if (isEligible(s, seat)) q.push(seat);
  }
  return q;
}

/** Plays a card aimed at the player `offset` seats to the left and asks them to respond. */
function playTargeted(c: Ctx, card: number, offset: number): void {
  const s = c.s;
  const target = (s.active + offset) % s.players;
  playFromHand(c, card, F_PAID);
  if (card === SAME) s.playedSame = 1;
  if (c.log) c.log.push({ k: 'play', seat: s.active, card, target });
  startEffect(c, card, target, []);
  askResponse(c, target);
}

/** Applies a play-phase action; pub cards aimed at players wait for their responses. */
export function applyPlay(c: Ctx, d: DecodedAction, then: AfterEffect): void {
  const s = c.s;
  const card = d.card;
  switch (d.kind) {
    case 'order':
      playFromHand(c, card, F_PAID | F_COUNTED);
      if (c.log) c.log.push({ k: 'play', seat: s.active, card });
      return then(c, card);
    case 'same':
    case 'lets_do_a_shot':
    case 'insult':
    case 'thats_my':
      return playTargeted(c, card, d.target);
    case 'flattery':
      playFromHand(c, FLATTERY, F_PAID, d.shot);
      if (c.log) c.log.push({ k: 'play', seat: s.active, card: FLATTERY, shot: d.shot });
      return then(c, FLATTERY);
    case 'sib':
      playFromHand(c, SHOT_INTO_BEER, F_PAID);
      s.extraShots++;
      if (c.log) c.log.push({ k: 'play', seat: s.active, card: SHOT_INTO_BEER });
      return then(c, SHOT_INTO_BEER);
    case 'shots_everyone':
    case 'brawl': {
      playFromHand(c, card, F_PAID);
      if (c.log) c.log.push({ k: 'play', seat: s.active, card });
      const q = othersInPlay(s);
      startEffect(c, card, -1, q);
      return nextInQueue(c, then);
    }
    case 'dont_want': {
      playFromHand(c, DONT_WANT_IT, F_PAID);
      if (c.log) c.log.push({ k: 'play', seat: s.active, card: DONT_WANT_IT });
      const t = s.discard.pop()!;
      handGainPublic(s, s.active, t);
      if (c.log) c.log.push({ k: 'pick_up', seat: s.active, card: t });
      return then(c, DONT_WANT_IT);
    }
    default:
      throw new Error(`engine error: ${d.kind} is not a play`);
  }
}

/** Asks the next player in a Shots, everyone! / Brawl queue, or resolves the card. */
function nextInQueue(c: Ctx, then: AfterEffect): void {
  const s = c.s;
  const e = s.effect!;
  if (e.queue.length > 0) return askResponse(c, e.queue.shift()!);
  if (e.card === BRAWL) brawl(c, e.excused);
  s.effect = null;
  then(c, e.card);
}

function discardFromHand(c: Ctx, seat: number, t: number): void {
  handLosePublic(c.s, seat, t);
  c.s.discard.push(t);
}

/** The shot choice of Let's do a shot / Shots, everyone! */
function shotChoice(c: Ctx, seat: number, d: DecodedAction): void {
  const s = c.s;
  const rs = c.r.ruleset.shotChoice;
  if (d.kind === 'shot_nothing') {
    s.points[seat] -= rs.nothingLoss;
    if (c.log) c.log.push({ k: 'shot_choice', seat, choice: 'nothing', points: -rs.nothingLoss });
    return;
  }
  s.abstinence[seat] = 0;
  if (d.kind === 'shot_beer' || d.kind === 'shot_small') {
    const t = d.card;
    const loss = t === BEER ? rs.beerLoss : rs.smallBeerLoss;
    discardFromHand(c, seat, t);
    s.points[seat] -= loss;
    if (c.log) c.log.push({ k: 'shot_choice', seat, choice: t === BEER ? 'beer' : 'small_beer', card: t, points: -loss });
    return;
  }
  discardFromHand(c, seat, d.card);
  s.tokens[seat] |= 1 << d.shot;
  if (c.log) c.log.push({ k: 'shot_choice', seat, choice: 'shot', card: d.card, points: 0 });
}

/** Moves the active player's pub card to lie in front of its target (I'll get the same, Insulted bartender). */
function placeInFront(s: GameState, card: number, target: number): void {
  const front = s.front[s.active];
  for (let i = front.length - 1; i >= 0; i--) {
    if (entryType(front[i]) === card && !(entryFlags(front[i]) & F_MARKER)) {
      front.splice(i, 1);
      break;
    }
  }
  s.front[target].push(packEntry(card, F_MARKER, -1, s.active));
}

function resolveOnTarget(c: Ctx, target: number): void {
  const s = c.s;
  const e = s.effect!;
  if (c.log) c.log.push({ k: 'resolve', seat: e.by, card: e.card, target });
  if (e.card === SAME) {
    placeInFront(s, SAME, target);
    s.copying[e.by] = target;
  } else if (e.card === INSULTED_BARTENDER) {
    placeInFront(s, INSULTED_BARTENDER, target);
  } else if (e.card === THATS_MY_ORDER && s.handSize[target] > 0) {
    const t = randomTypeInHand(c, target);
    handMovePrivate(s, target, e.by, t);
    if (c.log) c.log.push({ k: 'take', from: target, to: e.by, card: t, by: 'thats_my_order' });
  }
}

/** Applies a response of the player aimed at. */
export function applyResponse(c: Ctx, d: DecodedAction, then: AfterEffect): void {
  const s = c.s;
  const e = s.effect!;
  const seat = s.actor;
  const multi = e.card === SHOTS_EVERYONE || e.card === BRAWL;
  if (d.group === 'excuse') {
    discardFromHand(c, seat, EXCUSE_ME);
    if (d.kind !== 'excuse_cancel') {
      const to = redirectTarget(s, d.target as 1 | -1);
      if (c.log) c.log.push({ k: 'excuse', seat, card: e.card, redirect: to });
      e.avoided |= 1 << seat;
      return askResponse(c, to);
    }
    if (c.log) c.log.push({ k: 'excuse', seat, card: e.card });
    if (multi) {
      e.excused |= 1 << seat;
      return nextInQueue(c, then);
    }
    s.effect = null;
    return then(c, e.card);
  }
  if (multi) {
    if (d.kind !== 'pass') shotChoice(c, seat, d);
    return nextInQueue(c, then);
  }
  if (e.card === LETS_DO_A_SHOT) {
    if (c.log) c.log.push({ k: 'resolve', seat: e.by, card: e.card, target: seat });
    shotChoice(c, seat, d);
  } else {
    resolveOnTarget(c, seat);
  }
  s.effect = null;
  then(c, e.card);
}

/**
 * Brawl: starting with the fewest cards in hand (ties: nearest clockwise from the active
 * player, who counts as nearest), each brawler in clockwise order takes one random card from
 * every other brawler's hand.
 */
function brawl(c: Ctx, excused: number): void {
  const s = c.s;
  const n = s.players;
  const fighters: number[] = [];
  for (let k = 0; k < n; k++) {
    const seat = (s.active + k) % n;
    if (k === 0 || (isEligible(s, seat) && !(excused & (1 << seat)))) fighters.push(seat);
  }
  let start = 0;
  for (let i = 1; i < fighters.length; i++) {
    if (s.handSize[fighters[i]] < s.handSize[fighters[start]]) start = i;
  }
  for (let i = 0; i < fighters.length; i++) {
    const taker = fighters[(start + i) % fighters.length];
    for (let j = 1; j < fighters.length; j++) {
      const from = fighters[(start + i + j) % fighters.length];
      if (s.handSize[from] === 0) continue;
      const t = randomTypeInHand(c, from);
      handMovePrivate(s, from, taker, t);
      if (c.log) c.log.push({ k: 'take', from, to: taker, card: t, by: 'brawl' });
    }
  }
}

/** Index of the last card of type `t` in front of the active player matching `ok`. */
function lastInFront(s: GameState, t: number, skipFlags = 0): number {
  const front = s.front[s.active];
  for (let i = front.length - 1; i >= 0; i--) {
    if (entryType(front[i]) === t && !(entryFlags(front[i]) & skipFlags)) return i;
  }
  return -1;
}

/** Takes a card away from in front of the active player, refunding its actions. */
function removeFromFront(c: Ctx, i: number): number {
  const s = c.s;
  const [e] = s.front[s.active].splice(i, 1);
  const t = entryType(e);
  if (entryFlags(e) & F_PAID) s.actionsUsed -= c.r.cost[t];
  s.removed = 1;
  return t;
}

/** Applies an X card played in a reaction window. */
export function applyReaction(c: Ctx, d: DecodedAction): void {
  const s = c.s;
  const r = s.actor;
  const act = s.active;
  if (d.kind === 'knock') {
    const t = removeFromFront(c, lastInFront(s, d.card));
    s.discard.push(t);
    discardFromHand(c, r, KNOCKED_OVER);
    if (c.log) c.log.push({ k: 'x', seat: r, card: KNOCKED_OVER, target: t });
  } else if (d.kind === 'mixed') {
    const give = d.give;
    handLosePublic(s, r, MIXED_UP);
    const t = removeFromFront(c, lastInFront(s, d.card));
    handGainPublic(s, r, t);
    handLosePublic(s, r, give);
    s.front[act].push(packEntry(give, F_GIVEN, -1, r));
    s.discard.push(MIXED_UP);
    if (c.log) c.log.push({ k: 'x', seat: r, card: MIXED_UP, target: t, give });
  } else if (d.kind === 'warm') {
    const t = d.card;
    removeFromFront(c, lastInFront(s, t));
    handGainPublic(s, act, t);
    if (t === BEER) s.blockedBeer++;
    else s.blockedSmall++;
    discardFromHand(c, r, WARM_BEER);
    if (c.log) c.log.push({ k: 'x', seat: r, card: WARM_BEER, target: t });
  } else if (d.kind === 'pour_front' || d.kind === 'pour_hand') {
    const fromHand = d.kind === 'pour_hand';
    const t = d.card;
    handLosePublic(s, r, SHOT_INTO_BEER);
    const front = s.front[act];
    if (fromHand) {
      handLosePublic(s, r, t);
      front.push(packEntry(t, F_POURED | F_ADDED, -1, r));
    } else {
      const i = lastInFront(s, t, F_POURED);
      front[i] = withFlags(front[i], (entryFlags(front[i]) | F_POURED) & ~F_COUNTED);
    }
    front.push(packEntry(SHOT_INTO_BEER, F_MARKER, -1, r));
    if (c.log) c.log.push({ k: 'x', seat: r, card: SHOT_INTO_BEER, target: t, fromHand });
  } else {
    throw new Error(`engine error: ${d.kind} is not an X card`);
  }
}
