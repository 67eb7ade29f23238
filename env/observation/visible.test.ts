/**
 * What a seat may see is one function of its own facts: over random games at every player
 * count (reaction and response windows included), the encoding of the state equals the
 * encoding of the seat's view (through JSON, as a client would post it), and dealing the
 * hidden cards anew, reordering the deck, reseeding the generator or changing what the other
 * seats know changes neither the view nor the encoding.
 */
import { describe, expect, it } from 'vitest';
import { NUM_ACTIONS } from '../actions.ts';
import { CLOSING_TIME, HAND_TYPES } from '../cards.ts';
import { applyStep, createState, legalActionsFast } from '../engine/index.ts';
import { randInt, seedRng, shuffle, type RngState } from '../rng.ts';
import { cloneState, PHASE_NAMES, PHASE_REACTION, PHASE_RESPONSE, type GameState } from '../state.ts';
import type { GameEvent } from '../events.ts';
import { encodeObservation, encodeView, OBS_SIZE } from './encode.ts';
import { factsOfView, makeView } from './view.ts';
import { eventForSeat, HIDDEN, SeatFacts, seatFacts } from './visible.ts';
import { firstDifference } from '../../test/helpers/arrays.ts';

function encodeState(s: GameState, seat: number): Float32Array {
  const { rules } = createState({ players: s.players, seed: 0 });
  const out = new Float32Array(OBS_SIZE);
  encodeObservation(rules, s, seat, out);
  return out;
}

/** The same game with everything `seat` cannot see changed, hand sizes and public facts kept. */
function perturbHidden(s: GameState, seat: number, rng: RngState): GameState {
  const t = cloneState(s);
  const n = t.players;
  // Swap cards between the other hands and the draw pile, type for type.
  for (let k = 0; k < 20; k++) {
    const q = randInt(rng, n);
    const i = t.deck.length > 0 ? randInt(rng, t.deck.length) : -1;
    if (q === seat || i < 0 || t.deck[i] === CLOSING_TIME || t.handSize[q] === 0) continue;
    const held: number[] = [];
    for (let u = 0; u < HAND_TYPES; u++) if (t.hand[q * HAND_TYPES + u] > 0) held.push(u);
    const a = held[randInt(rng, held.length)];
    t.hand[q * HAND_TYPES + a]--;
    t.hand[q * HAND_TYPES + t.deck[i]]++;
    t.deck[i] = a;
  }
  shuffle(rng, t.deck);
  t.rng = [randInt(rng, 1 << 30), 7, 11, 13];
  // What the other seats know of hands and of the pile.
  for (let o = 0; o < n; o++) {
    if (o === seat) continue;
    for (let i = 0; i < n * HAND_TYPES; i++) t.known[o * n * HAND_TYPES + i] += randInt(rng, 2);
    for (let u = 0; u < HAND_TYPES; u++) t.pileKnown[o * HAND_TYPES + u] = randInt(rng, 2);
  }
  return t;
}

describe('the encoding is a function of the seat view alone', () => {
  it.each([2, 3, 4, 5, 6])('%i players: encodeObservation = encodeView(makeView), blind to hidden changes', (players) => {
    const rng = seedRng(`visible/${players}`);
    const legal = new Int32Array(NUM_ACTIONS);
    const phases = new Set<string>();
    let compared = 0;
    for (let g = 0; g < (players <= 3 ? 4 : 2); g++) {
      const { rules, state } = createState({ players, seed: `visible/${players}/${g}`, askForced: g % 2 === 1 });
      while (true) {
        // Every response (they are rare), every third reaction, every eighth decision besides.
        const every = state.phase === PHASE_RESPONSE ? 1 : state.phase === PHASE_REACTION ? 3 : 8;
        if (state.decisions % every === 0 || state.over) {
          phases.add(PHASE_NAMES[state.phase]);
          for (let seat = 0; seat < players; seat++) {
            const direct = encodeState(state, seat);
            const view = makeView(rules, state, seat);
            const viaView = new Float32Array(OBS_SIZE);
            encodeView(rules, JSON.parse(JSON.stringify(view)), viaView);
            expect(firstDifference(viaView, direct)).toBe(-1);
            const other = perturbHidden(state, seat, rng);
            expect(firstDifference(encodeState(other, seat), direct)).toBe(-1);
            expect(makeView(rules, other, seat)).toEqual(view);
            compared++;
          }
        }
        if (state.over) break;
        applyStep(rules, state, legal[randInt(rng, legalActionsFast(rules, state, legal))], null, true);
      }
    }
    expect(compared).toBeGreaterThan(50);
    for (const kind of ['play', 'reaction', 'response', 'over']) expect(phases).toContain(kind);
  });

  it('reads the facts back out of a view exactly: factsOfView(makeView) = seatFacts', () => {
    const rng = seedRng('facts');
    const legal = new Int32Array(NUM_ACTIONS);
    const { rules, state } = createState({ players: 5, seed: 'facts', askForced: true });
    for (let i = 0; i < 400 && !state.over; i++) {
      const seat = randInt(rng, 5);
      const a = seatFacts(rules, state, seat);
      const b = factsOfView(rules, JSON.parse(JSON.stringify(makeView(rules, state, seat))));
      expect(b).toEqual(a);
      applyStep(rules, state, legal[randInt(rng, legalActionsFast(rules, state, legal))], null, true);
    }
  });
});

describe('seatFacts', () => {
  it("holds none of the state's arrays or objects: later moves leave a copy untouched", () => {
    const { rules, state } = createState({ players: 4, seed: 'alias' });
    const facts = seatFacts(rules, state, 2);
    const stateParts = new Set<unknown>(Object.values(state).filter((v) => typeof v === 'object' && v !== null));
    for (const f of state.front) stateParts.add(f);
    const seen: unknown[] = [facts];
    for (let i = 0; i < seen.length; i++) {
      for (const v of Object.values(seen[i] as object)) {
        if (typeof v !== 'object' || v === null) continue;
        expect(stateParts.has(v)).toBe(false);
        seen.push(v);
      }
    }
    const before = JSON.stringify(facts);
    const legal = new Int32Array(NUM_ACTIONS);
    for (let i = 0; i < 30 && !state.over; i++) {
      legalActionsFast(rules, state, legal);
      applyStep(rules, state, legal[0], null, true);
    }
    expect(JSON.stringify(facts)).toBe(before);
    expect(facts).toBeInstanceOf(SeatFacts);
  });
});

describe('eventForSeat', () => {
  it('shows drawn cards only to the drawer and a taken card only to the two hands involved; an onlooker (null) sees neither', () => {
    const draw: GameEvent = { k: 'draw', seat: 1, count: 2, cards: [0, 3] };
    const take: GameEvent = { k: 'take', from: 0, to: 2, card: 8, by: 'brawl' };
    expect(eventForSeat(draw, 1)).toBe(draw);
    expect(eventForSeat(draw, 0)).toEqual({ ...draw, cards: [] });
    expect(eventForSeat(draw, null)).toEqual({ ...draw, cards: [] });
    expect(eventForSeat(take, 0)).toBe(take);
    expect(eventForSeat(take, 2)).toBe(take);
    expect(eventForSeat(take, 1)).toEqual({ ...take, card: HIDDEN });
    expect(eventForSeat(take, null)).toEqual({ ...take, card: HIDDEN });
  });
});
