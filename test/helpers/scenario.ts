/**
 * Builds a game in a chosen situation for rules tests: a real game is created, then the plain
 * state is edited (hands, deck, figures, tokens) and driven on with real actions. Cards are
 * named by their ids ('beer', 'rum', ...) and actions by their keys ('play:beer', 'done', ...)
 * so a test reads like the rulebook.
 */
import { actionFromKey, actionKey } from '../../env/actions.ts';
import { CARD_IDS, HAND_TYPES, type CardId } from '../../env/cards.ts';
import type { GameEvent } from '../../env/events.ts';
import { applyStep, createState, legalActions } from '../../env/engine/index.ts';
import { randInt, seedRng, type RngState } from '../../env/rng.ts';
import type { CompiledRules } from '../../env/ruleset.ts';
import { entryType, PHASE_PLAY, type GameState } from '../../env/state.ts';

export interface Game {
  rules: CompiledRules;
  s: GameState;
  /** Every event since the scenario was built. */
  log: GameEvent[];
}

/** Card type number of a card id. */
export const C = Object.fromEntries(CARD_IDS.map((id, t) => [id, t])) as Record<CardId, number>;

export interface ScenarioOptions {
  players?: number;
  seed?: number;
  /**
   * Ask every decision, even a single-option one (a window's 'pass', a forced 'done'). With
   * false (default) those are taken automatically, as the engine does for agents.
   */
  askForced?: boolean;
  /** Draw pile, top card last; by default 60 beers, which ask nobody anything in a reaction window. */
  deck?: CardId[];
  /** Seat whose turn it is, at the start of playing (default 0). */
  active?: number;
}

/**
 * A game at the active player's first play decision with every hand, front and the discard
 * pile empty, the chosen draw pile, and everyone on level 1, space −2, 0 points, no tokens.
 */
export function scenario(o: ScenarioOptions = {}): Game {
  const { rules, state: s } = createState({ players: o.players ?? 3, seed: o.seed ?? 1, askForced: o.askForced ?? false });
  s.hand.fill(0);
  s.handSize.fill(0);
  s.known.fill(0);
  s.front = s.front.map(() => []);
  s.discard = [];
  s.deck = (o.deck ?? new Array<CardId>(60).fill('beer')).map((id) => C[id]);
  s.active = s.actor = o.active ?? 0;
  s.phase = PHASE_PLAY;
  return { rules, s, log: [] };
}

/** Replaces a seat's hand with these cards. */
export function setHand(g: Game, seat: number, cards: CardId[]): void {
  for (let t = 0; t < HAND_TYPES; t++) g.s.hand[seat * HAND_TYPES + t] = 0;
  for (const id of cards) g.s.hand[seat * HAND_TYPES + C[id]]++;
  g.s.handSize[seat] = cards.length;
}

/** A seat's hand as sorted card ids. */
export function handOf(g: Game, seat: number): CardId[] {
  const out: CardId[] = [];
  for (let t = 0; t < HAND_TYPES; t++) for (let k = g.s.hand[seat * HAND_TYPES + t]; k > 0; k--) out.push(CARD_IDS[t]);
  return out;
}

/** The cards in front of a seat, in the order they were placed. */
export function frontOf(g: Game, seat: number): CardId[] {
  return g.s.front[seat].map((e) => CARD_IDS[entryType(e)]);
}

/** Applies actions for whoever is to decide, each by key or number; throws on an illegal one. */
export function act(g: Game, ...moves: (string | number)[]): void {
  for (const m of moves) {
    const a = typeof m === 'number' ? m : actionFromKey(m);
    if (a < 0) throw new Error(`no action with key ${m}`);
    applyStep(g.rules, g.s, a, g.log);
  }
}

/**
 * The active player's turn: these moves (theirs, and other players' reactions and responses),
 * then 'done', unless the engine already took it for them because it was their only option
 * (with askForced false, a player with nothing left to play is done at once).
 */
export function playTurn(g: Game, ...moves: (string | number)[]): void {
  const turn = g.s.turn;
  act(g, ...moves);
  if (g.s.turn === turn && !g.s.over && g.s.phase === PHASE_PLAY && g.s.actor === g.s.active) act(g, 'done');
}

/** Legal actions of the player to decide, as keys. */
export function legal(g: Game): string[] {
  return legalActions(g.rules, g.s).map(actionKey);
}

/** Events of one kind from the log. */
export function events<K extends GameEvent['k']>(g: Game, k: K): Extract<GameEvent, { k: K }>[] {
  return g.log.filter((e): e is Extract<GameEvent, { k: K }> => e.k === k);
}

/**
 * Makes the next die rolls come out as given (the die is the next draws of the game's
 * generator), by searching for a generator state that draws them.
 */
export function forceDice(g: Game, ...dice: number[]): void {
  const sides = g.rules.ruleset.roll.dieSides;
  for (let seed = 0; seed < 1_000_000; seed++) {
    const start = seedRng(seed);
    const probe: RngState = [start[0], start[1], start[2], start[3]];
    if (dice.every((d) => 1 + randInt(probe, sides) === d)) {
      g.s.rng = start;
      return;
    }
  }
  throw new Error(`no generator state found for dice ${dice.join(', ')}`);
}

/** Puts a seat's figure on the chart: level 1..4 and the printed number of a space of that row. */
export function placeFigure(g: Game, seat: number, level: number, spaceValue: number): void {
  const row = g.rules.ruleset.chart[level - 1].spaces;
  const i = row.indexOf(spaceValue);
  if (i < 0) throw new Error(`level ${level} has no space ${spaceValue}`);
  g.s.level[seat] = level - 1;
  g.s.space[seat] = i;
}

/** The printed number of the space a seat's figure is on, and its level 1..4. */
export function figure(g: Game, seat: number): { level: number; space: number } {
  return { level: g.s.level[seat] + 1, space: g.rules.ruleset.chart[g.s.level[seat]].spaces[g.s.space[seat]] };
}

/** Shot-token bitmask of the given shot ids. */
export function tokens(...shots: CardId[]): number {
  return shots.reduce((m, id) => m | (1 << (C[id] - C.rum)), 0);
}
