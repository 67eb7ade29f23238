/**
 * Determinization for search bots: deal anew everything `seat` cannot see (the other
 * hands, the draw pile's order, where CLOSING TIME lies in it, the dice to come), keeping
 * everything it knows: its own hand, all public cards, hand sizes, the cards it knows to be
 * in other hands (state.known), what the draw pile may still hold (state.pileKnown: the pile
 * as laid at the last reshuffle less its own draws), and CLOSING TIME's possible depth given
 * the cards drawn since it went in.
 *
 * It is a consistent deal, not an exact draw from the seat's posterior: which of the pile's
 * cards each opponent drew since the reshuffle is not weighed. Nothing the seat may not know
 * survives in the copy: other seats' private knowledge is replaced by what is public, so a
 * search bot reading the copy learns nothing it could not see.
 */
import { CLOSING_TIME, HAND_TYPES } from './cards.ts';
import type { CompiledRules } from './ruleset.ts';
import { randInt, seedRng, shuffle, type RngState } from './rng.ts';
import { cloneState, CLOSING_IN_DECK, type GameState } from './state.ts';
import { closingDepth } from './observation/view.ts';


export function resampleState(_r: CompiledRules, state: GameState, seat: number, seed: number | string): GameState {
  const s = cloneState(state);
  const n = s.players;
  const rng = seedRng(seed);
  const closingInDeck = s.closing.where === CLOSING_IN_DECK;
  const depth = closingDepth(s);

  // The unseen pool: other players' hands and the draw pile.
  const pool = new Array<number>(HAND_TYPES).fill(0);
  for (const t of s.deck) if (t !== CLOSING_TIME) pool[t]++;
  for (let p = 0; p < n; p++) {
    if (p === seat) continue;
    for (let t = 0; t < HAND_TYPES; t++) {
      pool[t] += s.hand[p * HAND_TYPES + t];
      s.hand[p * HAND_TYPES + t] = 0;
    }
  }
  // Cards the seat knows about go back to their holders first.
  for (let p = 0; p < n; p++) {
    if (p === seat) continue;
    const kb = (seat * n + p) * HAND_TYPES;
    for (let t = 0; t < HAND_TYPES; t++) {
      const k = s.known[kb + t];
      if (k > pool[t]) throw new Error(`resample: seat ${seat} knows of ${k} cards of type ${t} in seat ${p}'s hand, but only ${pool[t]} are unseen`);
      s.hand[p * HAND_TYPES + t] = k;
      pool[t] -= k;
    }
  }
  // The draw pile first, from what the seat knows it may hold; the other hands get the rest.
  const deckSize = s.deck.length - (closingInDeck ? 1 : 0);
  const candidates: number[] = [];
  for (let t = 0; t < HAND_TYPES; t++) {
    for (let k = Math.min(pool[t], s.pileKnown[seat * HAND_TYPES + t]); k > 0; k--) candidates.push(t);
  }
  if (candidates.length < deckSize) throw new Error(`resample: seat ${seat} rules out too many cards for the draw pile`);
  shuffle(rng, candidates);
  const deck = candidates.slice(0, deckSize);
  for (const t of deck) pool[t]--;
  const rest: number[] = [];
  for (let t = 0; t < HAND_TYPES; t++) for (let k = 0; k < pool[t]; k++) rest.push(t);
  shuffle(rng, rest);
  for (let p = 0; p < n; p++) {
    if (p === seat) continue;
    let have = 0;
    for (let t = 0; t < HAND_TYPES; t++) have += s.hand[p * HAND_TYPES + t];
    for (; have < s.handSize[p]; have++) s.hand[p * HAND_TYPES + rest.pop()!]++;
  }
  if (rest.length !== 0) throw new Error('resample: cards left over after dealing');
  s.deck = deck;
  if (closingInDeck && depth) {
    const d = depth[0] + randInt(rng, depth[1] - depth[0] + 1);
    s.deck.splice(s.deck.length - Math.min(d, s.deck.length), 0, CLOSING_TIME);
  }
  // Other seats' private knowledge (what they drew, what passed between two of them) is not
  // the seat's to know: in the copy they know the public part of each hand, and the pile
  // bound the seat itself has (true of the new pile, which was dealt from it). What they know
  // of the seat's own hand follows from events the seat saw, so it stays.
  for (let o = 0; o < n; o++) {
    if (o === seat) continue;
    for (let t = 0; t < HAND_TYPES; t++) s.pileKnown[o * HAND_TYPES + t] = s.pileKnown[seat * HAND_TYPES + t];
    for (let p = 0; p < n; p++) {
      if (p === seat || p === o) continue;
      const kb = (o * n + p) * HAND_TYPES;
      for (let t = 0; t < HAND_TYPES; t++) s.known[kb + t] = s.knownPublic[p * HAND_TYPES + t];
    }
  }
  s.rng = seedRng(`${seed}:dice`);
  return s;
}

/**
 * A copy of a dealt state with the draw pile's order, CLOSING TIME's place in it and the dice
 * to come drawn anew from `seed`, the hands and the pile's cards kept: for a world a belief
 * picks more than once (agents/beliefs), so that each pick meets its own pile and dice. The
 * order of the pile is hidden from every seat, so any order is as likely as the one dealt.
 */
export function reshufflePile(state: GameState, seed: number | string): GameState {
  const s = cloneState(state);
  const rng = seedRng(`${seed}:pile`);
  const depth = closingDepth(s);
  const closingInDeck = s.closing.where === CLOSING_IN_DECK;
  const deck = s.deck.filter((t) => t !== CLOSING_TIME);
  shuffle(rng, deck);
  s.deck = deck;
  if (closingInDeck) placeClosing(s, depth, rng);
  s.rng = seedRng(`${seed}:dice`);
  return s;
}

/** Lays CLOSING TIME back into `s.deck` at a depth drawn from its possible range (at the bottom without one). */
function placeClosing(s: GameState, depth: [number, number] | null, rng: RngState): void {
  const d = depth ? depth[0] + randInt(rng, depth[1] - depth[0] + 1) : s.deck.length;
  s.deck.splice(s.deck.length - Math.min(d, s.deck.length), 0, CLOSING_TIME);
}
