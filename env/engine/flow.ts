/**
 * The flow of a game between decisions: setup, turns (PAUSE turns, drawing, playing,
 * reaction windows, digestion, cleanup), the end of the game, and `step`, which applies one
 * legal action and then runs on until somebody has a real choice to make.
 */
import { decodeAction, NUM_ACTIONS } from '../actions.ts';
import { HAND_TYPES } from '../cards.ts';
import { seedRng, shuffle } from '../rng.ts';
import type { CompiledRules } from '../ruleset.ts';
import {
  CLOSING_ASIDE, CLOSING_DRAWN, entryType, PHASE_DISCARD, PHASE_OVER, PHASE_PLAY, PHASE_REACTION,
  PHASE_RESPONSE, popcount, type GameState,
} from '../state.ts';
import { handLosePublic, isEligible, nextInGame, type Chance, type Ctx } from './context.ts';
import { drawUp, takeTop } from './deck.ts';
import { digestionStep } from './digestion.ts';
import { applyPlay, applyReaction, applyResponse } from './effects.ts';
import { legalActionsInto } from './legal.ts';

export interface NewGameOptions {
  players: number;
  seed: number | string;
  askForced?: boolean;
  /** Every random outcome named by this source instead of drawn from the seed (context.ts, Chance). */
  chance?: Chance;
}

/** Sets up a game (shuffle, deal) and runs to the first decision. */
export function newGame(r: CompiledRules, opts: NewGameOptions, log: Ctx['log'] = null): GameState {
  const rs = r.ruleset;
  const n = opts.players;
  if (!Number.isInteger(n) || n < rs.players.min || n > rs.players.max) {
    throw new RangeError(`players must be an integer from ${rs.players.min} to ${rs.players.max}, got ${n}`);
  }
  const rng = seedRng(opts.seed);
  const deck: number[] = [];
  for (let t = 0; t < HAND_TYPES; t++) for (let k = 0; k < r.count[t]; k++) deck.push(t);
  if (!opts.chance) shuffle(rng, deck);
  const zeros = () => new Array<number>(n).fill(0);
  const s: GameState = {
    players: n,
    askForced: opts.askForced ?? false,
    rng,
    deck,
    discard: [],
    hand: new Array<number>(n * HAND_TYPES).fill(0),
    handSize: zeros(),
    front: Array.from({ length: n }, () => []),
    points: zeros(),
    level: new Array<number>(n).fill(rs.start.level),
    space: new Array<number>(n).fill(rs.start.space),
    tokens: zeros(),
    abstinence: zeros(),
    paused: zeros(),
    out: zeros(),
    titles: zeros(),
    copying: new Array<number>(n).fill(-1),
    titlesLeft: rs.titles.map((t) => t.tokens),
    known: new Array<number>(n * n * HAND_TYPES).fill(0),
    knownPublic: new Array<number>(n * HAND_TYPES).fill(0),
    pileKnown: new Array<number>(n * HAND_TYPES).fill(0),
    active: 0,
    turn: 0,
    phase: PHASE_PLAY,
    actor: 0,
    actionsUsed: 0,
    played: 0,
    extraShots: 0,
    blockedBeer: 0,
    blockedSmall: 0,
    playedSame: 0,
    removed: 0,
    doneWindow: 0,
    windowPasses: 0,
    windowCard: -1,
    effect: null,
    reshuffles: 0,
    closing: { where: CLOSING_ASIDE, drawnBy: -1, lo: 0, hi: 0, pileSize: 0 },
    finalDone: 0,
    soloLast: 0,
    decisions: 0,
    over: false,
  };
  const c: Ctx = { r, s, log, ...(opts.chance ? { chance: opts.chance } : {}) };
  for (let seat = 0; seat < n; seat++) {
    for (let k = 0; k < rs.initialHandSize; k++) {
      const t = takeTop(c);
      s.hand[seat * HAND_TYPES + t]++;
      s.handSize[seat]++;
    }
    for (let t = 0; t < HAND_TYPES; t++) s.pileKnown[seat * HAND_TYPES + t] = r.count[t] - s.hand[seat * HAND_TYPES + t];
  }
  startTurn(c, 0);
  advance(c);
  return s;
}

function startTurn(c: Ctx, seat: number): void {
  const s = c.s;
  s.active = seat;
  s.turn++;
  s.actionsUsed = 0;
  s.played = 0;
  s.extraShots = 0;
  s.blockedBeer = 0;
  s.blockedSmall = 0;
  s.playedSame = 0;
  s.removed = 0;
  s.doneWindow = 0;
  s.effect = null;
  if (c.log) c.log.push({ k: 'turn', seat, turn: s.turn });
  if (s.paused[seat]) {
    s.paused[seat] = 0;
    if (c.log) c.log.push({ k: 'pause', seat });
    // Nobody digests in a PAUSE turn, so a copy aimed at it is lost.
    for (let o = 0; o < s.players; o++) {
      if (s.copying[o] === seat) {
        s.copying[o] = -1;
        if (c.log) c.log.push({ k: 'copy_lost', seat: o, target: seat });
      }
    }
    drawUp(c, seat);
    return endTurn(c);
  }
  drawUp(c, seat);
  s.phase = PHASE_PLAY;
  s.actor = seat;
}

function cleanup(c: Ctx): void {
  const s = c.s;
  const a = s.active;
  const front = s.front[a];
  for (let i = 0; i < front.length; i++) s.discard.push(entryType(front[i]));
  s.front[a] = [];
  if (c.log) c.log.push({ k: 'cleanup', seat: a });
  if (s.out[a] === 0) drawUp(c, a);
}

function endTurn(c: Ctx): void {
  const s = c.s;
  const a = s.active;
  const front = s.front[a];
  if (front.length > 0) {
    for (let i = 0; i < front.length; i++) s.discard.push(entryType(front[i]));
    s.front[a] = [];
  }
  if (s.closing.where === CLOSING_DRAWN) s.finalDone |= 1 << a;
  let alive = 0;
  let aliveMask = 0;
  for (let seat = 0; seat < s.players; seat++) {
    if (s.out[seat] === 0) {
      alive++;
      aliveMask |= 1 << seat;
    }
  }
  if (alive === 0) return finish(c);
  if (s.closing.where === CLOSING_DRAWN && (s.finalDone & aliveMask) === aliveMask) return finish(c);
  if (alive === 1) {
    if (s.soloLast) return finish(c);
    s.soloLast = 1;
  }
  startTurn(c, nextInGame(s, a));
}

/** A seat's final score: points plus the shot-type bonus. */
export function scoreOf(r: CompiledRules, s: GameState, seat: number): number {
  const k = popcount(s.tokens[seat]);
  return s.points[seat] + (k > 0 ? r.ruleset.shotBonus[k - 1] : 0);
}

/** Final scores, by seat. */
export function finalScores(r: CompiledRules, s: GameState): number[] {
  return s.points.map((_, seat) => scoreOf(r, s, seat));
}

/** Seats with the highest final score (they share the win). */
export function winners(r: CompiledRules, s: GameState): number[] {
  const scores = finalScores(r, s);
  const best = Math.max(...scores);
  return scores.flatMap((v, seat) => (v === best ? [seat] : []));
}

/**
 * Why a game ended, read off its final state: the pub closed (CLOSING TIME drawn and every
 * player still in has had a last turn), one player was left and has had their last turn, or
 * everyone went out. A game cut off at the decision cap is the env's to say (`decision-limit`).
 */
export const END_REASONS = ['closing-time', 'one-left', 'all-out', 'decision-limit'] as const;
export type EndReason = (typeof END_REASONS)[number];

/** The reason endTurn finished `s` for (the same tests in the same order), or null while it is not over. */
export function endReason(s: GameState): Exclude<EndReason, 'decision-limit'> | null {
  if (!s.over) return null;
  let aliveMask = 0;
  for (let seat = 0; seat < s.players; seat++) if (s.out[seat] === 0) aliveMask |= 1 << seat;
  if (aliveMask === 0) return 'all-out';
  if (s.closing.where === CLOSING_DRAWN && (s.finalDone & aliveMask) === aliveMask) return 'closing-time';
  return 'one-left';
}

function finish(c: Ctx): void {
  const s = c.s;
  s.over = true;
  s.phase = PHASE_OVER;
  s.actor = -1;
  s.effect = null;
  if (c.log) c.log.push({ k: 'end', scores: finalScores(c.r, s), winners: winners(c.r, s) });
}

/** Players asked in a reaction window: everyone else neither out nor paused. */
function windowSize(s: GameState): number {
  let e = 0;
  for (let seat = 0; seat < s.players; seat++) if (seat !== s.active && isEligible(s, seat)) e++;
  return e;
}

function nextInWindow(s: GameState, from: number): number {
  for (let k = 1; k <= s.players; k++) {
    const seat = (from + k) % s.players;
    if (seat !== s.active && isEligible(s, seat)) return seat;
  }
  return -1;
}

/** Opens the reaction window after a card (or after "done", card -1). */
function openWindow(c: Ctx, card: number): void {
  const s = c.s;
  s.windowCard = card;
  s.windowPasses = 0;
  const first = nextInWindow(s, s.active);
  if (first < 0) return closeWindow(c);
  s.phase = PHASE_REACTION;
  s.actor = first;
}

function closeWindow(c: Ctx): void {
  const s = c.s;
  s.phase = PHASE_PLAY;
  s.actor = s.active;
  if (!s.doneWindow) return;
  if (s.removed) {
    // A card was taken away after "done": the active player may play again.
    s.doneWindow = 0;
    return;
  }
  endPlaying(c);
}

/** Digestion, cleanup and the end of the turn. */
function endPlaying(c: Ctx): void {
  digestionStep(c);
  cleanup(c);
  endTurn(c);
}

const afterEffect = (c: Ctx, card: number): void => openWindow(c, card);

/** Applies one action, assumed legal, for `state.actor`. */
export function applyAction(c: Ctx, a: number): void {
  const s = c.s;
  const d = decodeAction(a);
  switch (s.phase) {
    case PHASE_PLAY:
      if (d.kind === 'done') {
        if (c.log) c.log.push({ k: 'done', seat: s.active });
        s.doneWindow = 1;
        s.removed = 0;
        return openWindow(c, -1);
      }
      if (d.kind === 'discard') {
        s.phase = PHASE_DISCARD;
        return discardOne(c, d.card);
      }
      return applyPlay(c, d, afterEffect);
    case PHASE_DISCARD:
      if (d.kind === 'stop_discard') {
        drawUp(c, s.active);
        return endPlaying(c);
      }
      return discardOne(c, d.card);
    case PHASE_REACTION:
      if (d.kind === 'pass') {
        s.windowPasses++;
        if (s.windowPasses >= windowSize(s)) return closeWindow(c);
        s.actor = nextInWindow(s, s.actor);
        return;
      }
      applyReaction(c, d);
      s.windowPasses = 0;
      s.actor = nextInWindow(s, s.actor);
      return;
    case PHASE_RESPONSE:
      return applyResponse(c, d, afterEffect);
    default:
      throw new Error('the game is over');
  }
}

function discardOne(c: Ctx, t: number): void {
  handLosePublic(c.s, c.s.active, t);
  c.s.discard.push(t);
  if (c.log) c.log.push({ k: 'discard', seat: c.s.active, card: t });
}

const autoBuf = new Int32Array(NUM_ACTIONS);

/**
 * Runs on from the current state while the player to decide has only one legal action
 * (unless the game asks everybody), applying it for them.
 */
export function advance(c: Ctx): void {
  const s = c.s;
  while (!s.over && !s.askForced) {
    const n = legalActionsInto(c, autoBuf);
    if (n > 1) return;
    if (n === 0) throw new Error(`engine error: no legal action in phase ${s.phase}`);
    applyAction(c, autoBuf[0]);
  }
}

