/**
 * The encoding slot by slot on hand-worked positions (an encoder writing zeros, or the right
 * numbers in the wrong slots, fails), the layout pinned to OBSERVATION_VERSION, and the
 * ruleset's numbers flowing into the encoding.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BEER, BRAWL, EXCUSE_ME, FLATTERY, HAND_TYPES, INSULTED_BARTENDER, RUM, TEA } from '../cards.ts';
import { createState } from '../engine/index.ts';
import { compileRuleset, DEFAULT_RULESET, parseRuleset, type CompiledRules } from '../ruleset.ts';
import {
  CLOSING_IN_DECK, F_COUNTED, F_GIVEN, F_MARKER, F_PAID, F_POURED, packEntry, PHASE_OVER, PHASE_REACTION, PHASE_RESPONSE,
  type GameState,
} from '../state.ts';
import { encodeObservation, encodeView, OBS_LAYOUT, OBS_SIZE, OBSERVATION_VERSION, PLAYER_FEATURES, PLAYER_LAYOUT, TURN_LAYOUT } from './encode.ts';
import { makeView } from './view.ts';

const FERNET = RUM + 1;
const COFFEE = TEA + 1;

/** The encoding of `seat`, checked to be what its view encodes to as well. */
function encode(r: CompiledRules, s: GameState, seat: number): Float32Array {
  const out = new Float32Array(OBS_SIZE);
  encodeObservation(r, s, seat, out);
  const viaView = new Float32Array(OBS_SIZE);
  encodeView(r, JSON.parse(JSON.stringify(makeView(r, s, seat))), viaView);
  expect(viaView).toEqual(out);
  return out;
}

/** Reads slots by name: `at(o, 'pile', 1)`, `player(o, slot, 'points')`, `turn(o, 'actions_left')`. */
const at = (o: Float32Array, slice: string, i = 0) => o[OBS_LAYOUT[slice].offset + i];
const player = (o: Float32Array, slot: number, feature: string, i = 0) =>
  o[OBS_LAYOUT.players.offset + slot * PLAYER_FEATURES + PLAYER_LAYOUT[feature].offset + i];
const turn = (o: Float32Array, field: string) => o[OBS_LAYOUT.turn.offset + TURN_LAYOUT[field].offset];
/** The one set index of a one-hot slice (or of a player's one-hot feature), -1 if none. */
const hot = (values: ArrayLike<number>) => Array.prototype.findIndex.call(values, (x: number) => x === 1);
const slice = (o: Float32Array, name: string) => o.subarray(OBS_LAYOUT[name].offset, OBS_LAYOUT[name].offset + OBS_LAYOUT[name].size);
const feature = (o: Float32Array, slot: number, name: string) => {
  const b = OBS_LAYOUT.players.offset + slot * PLAYER_FEATURES + PLAYER_LAYOUT[name].offset;
  return o.subarray(b, b + PLAYER_LAYOUT[name].size);
};

function setHand(s: GameState, seat: number, cards: Partial<Record<number, number>>): void {
  s.hand.fill(0, seat * HAND_TYPES, (seat + 1) * HAND_TYPES);
  let size = 0;
  for (const [t, k] of Object.entries(cards)) {
    s.hand[seat * HAND_TYPES + Number(t)] = k!;
    size += k!;
  }
  s.handSize[seat] = size;
}

/** Three players; seat 1 observes; seat 2 is playing its turn. */
function playPosition(): { r: CompiledRules; s: GameState } {
  const { rules: r, state: s } = createState({ players: 3, seed: 'slots' });
  setHand(s, 1, { [BEER]: 2, [RUM]: 1, [EXCUSE_ME]: 1 });
  s.points = [12, 30, 5];
  s.tokens = [0, 0, (1 << 0) | (1 << 1)]; // rum and fernet tokens: score 5 + shotBonus[1] = 8
  s.level = [2, 0, 0];
  s.space = [1, 0, 0]; // level 3, row [1, 2, 3, 4]: the space printed 2, second of four
  s.known.fill(0);
  s.known[(1 * 3 + 2) * HAND_TYPES + COFFEE] = 1; // seat 1 knows seat 2 holds a Coffee
  s.known[(0 * 3 + 2) * HAND_TYPES + TEA] = 2; // what seat 0 knows is not seat 1's to see
  s.active = 2;
  s.actor = 2;
  s.actionsUsed = 1;
  s.discard = [BEER, BEER, TEA];
  s.titlesLeft = [6, 2, 1];
  s.turn = 7;
  return { r, s };
}

describe('slots of hand-worked positions', () => {
  it("a turn in play, seen from the seat to the active player's right", () => {
    const { r, s } = playPosition();
    const o = encode(r, s, 1);
    expect(at(o, 'hand', BEER)).toBe(0.5);
    expect(at(o, 'hand', RUM)).toBe(0.25);
    expect(at(o, 'hand', EXCUSE_ME)).toBe(0.25);
    expect(slice(o, 'hand').reduce((a, b) => a + b, 0)).toBe(1);
    expect(at(o, 'hand_size')).toBe(Math.fround(4 / 7));
    // Slot 0 is the observer (seat 1), slot 1 the seat to its left (2), slot 2 seat 0; slots 3-5 are empty.
    expect([0, 1, 2, 3, 4, 5].map((k) => player(o, k, 'present'))).toEqual([1, 1, 1, 0, 0, 0]);
    expect(player(o, 0, 'points')).toBe(Math.fround(30 / 50));
    expect(player(o, 2, 'points')).toBe(Math.fround(12 / 50));
    expect(player(o, 1, 'score')).toBe(Math.fround(8 / 50));
    expect(hot(feature(o, 1, 'shot_tokens'))).toBe(0);
    expect(player(o, 1, 'shot_tokens', 1)).toBe(1);
    expect(player(o, 1, 'token_count')).toBe(Math.fround(2 / 5));
    expect(player(o, 1, 'active')).toBe(1);
    expect(player(o, 1, 'deciding')).toBe(1);
    expect(player(o, 0, 'active') + player(o, 0, 'deciding')).toBe(0);
    expect(hot(feature(o, 2, 'level'))).toBe(2);
    expect(hot(feature(o, 0, 'level'))).toBe(0);
    expect(player(o, 2, 'space_value')).toBe(0.5);
    expect(player(o, 2, 'row_position')).toBe(Math.fround(1 / 3));
    expect(player(o, 0, 'hand_size')).toBe(Math.fround(4 / 7));
    expect(player(o, 1, 'known', COFFEE)).toBe(0.25);
    expect(feature(o, 1, 'known').reduce((a, b) => a + b, 0)).toBe(0.25);
    expect(feature(o, 2, 'known').every((x) => x === 0)).toBe(true);
    expect(turn(o, 'actions_left')).toBe(Math.fround(2 / 3));
    expect(turn(o, 'shot_limit')).toBe(0.5);
    expect(hot(slice(o, 'decision'))).toBe(0);
    expect(at(o, 'my_decision')).toBe(0);
    expect(hot(slice(o, 'decision_target'))).toBe(1);
    expect(hot(slice(o, 'discard_top'))).toBe(TEA);
    expect(at(o, 'discard_counts', TEA)).toBe(Math.fround(1 / 3));
    expect(at(o, 'discard_counts', BEER)).toBeCloseTo(2 / 27, 6);
    expect(at(o, 'pile', 1)).toBe(Math.fround(3 / 100));
    expect(hot(slice(o, 'closing'))).toBe(0);
    expect(Array.from(slice(o, 'titles_left'))).toEqual([1, Math.fround(2 / 3), 1, 0]);
    expect(hot(slice(o, 'player_count'))).toBe(1);
    expect(at(o, 'progress')).toBe(Math.fround(7 / 100));
    // The active player's view of the same position turns the table round.
    const a = encode(r, s, 2);
    expect(player(a, 0, 'active')).toBe(1);
    expect(at(a, 'my_decision')).toBe(1);
    expect(player(a, 2, 'points')).toBe(Math.fround(30 / 50));
  });

  it('a response window with cards in front, CLOSING TIME in the deck', () => {
    const { r, s } = playPosition();
    s.active = 0;
    s.actor = 2;
    s.phase = PHASE_RESPONSE;
    s.effect = { card: BRAWL, by: 0, target: 2, avoided: 1 << 1, queue: [], excused: 0 };
    s.front[0] = [
      packEntry(BEER, F_PAID | F_COUNTED, -1, 0),
      packEntry(RUM, F_PAID | F_POURED, -1, 0),
      packEntry(TEA, F_GIVEN, -1, 1),
      packEntry(FLATTERY, F_PAID, 1, 0),
    ];
    s.front[1] = [packEntry(INSULTED_BARTENDER, F_MARKER, -1, 0)];
    s.closing = { where: CLOSING_IN_DECK, drawnBy: -1, lo: 10, hi: 20, pileSize: s.deck.length };
    const o = encode(r, s, 2);
    expect(hot(slice(o, 'decision'))).toBe(PHASE_RESPONSE);
    expect(at(o, 'my_decision')).toBe(1);
    expect(hot(slice(o, 'decision_card'))).toBe(BRAWL);
    expect(hot(slice(o, 'decision_by'))).toBe(1); // seat 0, one place to seat 2's left
    expect(hot(slice(o, 'avoided'))).toBe(2); // seat 1
    expect(at(o, 'front_own', BEER)).toBe(1);
    expect(at(o, 'front_own', RUM)).toBe(1);
    expect(at(o, 'front_poured', 0)).toBe(1);
    expect(at(o, 'front_given', TEA)).toBe(1);
    expect(at(o, 'front_own', TEA)).toBe(0);
    expect(at(o, 'front_flattery', 1)).toBe(1);
    expect(turn(o, 'beers')).toBe(Math.fround(1 / 3));
    expect(player(o, 2, 'insulted')).toBe(1);
    expect(player(o, 1, 'insulted')).toBe(0);
    expect(hot(slice(o, 'closing'))).toBe(1);
    expect(at(o, 'closing', 3)).toBe(Math.fround(0.1));
    expect(at(o, 'closing', 4)).toBe(Math.fround(0.2));
    expect(at(o, 'pile')).toBe(Math.fround((s.deck.length - 1) / 100));
  });

  it('the reaction window after "done", and the game over', () => {
    const { r, s } = playPosition();
    s.phase = PHASE_REACTION;
    s.windowCard = -1;
    s.doneWindow = 1;
    s.removed = 1;
    s.actor = 0;
    const o = encode(r, s, 0);
    expect(hot(slice(o, 'decision'))).toBe(PHASE_REACTION);
    expect(hot(slice(o, 'decision_card'))).toBe(HAND_TYPES);
    expect(turn(o, 'after_done')).toBe(1);
    expect(turn(o, 'card_removed')).toBe(1);
    s.phase = PHASE_OVER;
    s.over = true;
    s.actor = -1;
    s.soloLast = 1;
    const end = encode(r, s, 0);
    expect(hot(slice(end, 'decision'))).toBe(PHASE_OVER);
    expect(at(end, 'my_decision') + slice(end, 'decision_target').reduce((a, b) => a + b, 0)).toBe(0);
    expect(at(end, 'end', 1)).toBe(1);
  });
});

describe('layout', () => {
  /** Names and sizes of every slice, per observation version: the numbers a trained network was fed. */
  const PINNED: Record<number, string> = { 1: '314bbb8783087aa0' };

  it('is pinned to OBSERVATION_VERSION', () => {
    const layout = JSON.stringify([OBS_LAYOUT, PLAYER_LAYOUT, TURN_LAYOUT]);
    const digest = createHash('sha256').update(layout).digest('hex').slice(0, 16);
    expect(OBS_SIZE).toBe(569);
    expect(PLAYER_FEATURES).toBe(58);
    expect(digest, `the observation layout changed: bump OBSERVATION_VERSION (env/observation/encode.ts, now ${OBSERVATION_VERSION}) and pin ${digest} for it here`)
      .toBe(PINNED[OBSERVATION_VERSION]);
  });
});

describe("the ruleset's numbers", () => {
  it('divide the bounded slots: hand size, actions, beers', () => {
    const rs = structuredClone(DEFAULT_RULESET);
    rs.name = 'big-hands';
    rs.initialHandSize = 8;
    rs.limits.actionsPerTurn = 4;
    rs.limits.beers = 5;
    const r = compileRuleset(parseRuleset(rs));
    const { s } = playPosition();
    const o = encode(r, s, 1);
    expect(at(o, 'hand_size')).toBe(0.5);
    expect(turn(o, 'actions_left')).toBe(0.75);
  });

  it('may not outgrow the encoding: more chart levels or titles than it holds are refused by name', () => {
    const levels = structuredClone(DEFAULT_RULESET);
    levels.chart.push({ spaces: [3, 4], handSize: 3 });
    expect(() => parseRuleset(levels)).toThrow('chart: 5 levels; the observation encoding holds at most 4');
    const titles = structuredClone(DEFAULT_RULESET);
    titles.titles.push({ name: 'Sot', points: 80, tokens: 1 }, { name: 'Myth', points: 99, tokens: 1 });
    expect(() => parseRuleset(titles)).toThrow('titles: 5 titles; the observation encoding holds at most 4');
  });
});
