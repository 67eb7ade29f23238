/** Drawing, reshuffling the discard pile, and where CLOSING TIME goes into the deck. */
import { CLOSING_TIME, HAND_TYPES } from '../cards.ts';
import { shuffle } from '../rng.ts';
import { CLOSING_ASIDE, CLOSING_DRAWN, CLOSING_IN_DECK } from '../state.ts';
import { handGainPrivate, uniform, type Ctx } from './context.ts';

function reshuffle(c: Ctx): void {
  const s = c.s;
  const deck = s.discard;
  s.discard = [];
  // Under a chance source the pile's order means nothing (each draw is a chance node).
  if (!c.chance) shuffle(s.rng, deck);
  s.deck = deck;
  s.reshuffles++;
  // Everyone saw the discard pile that became the draw pile.
  s.pileKnown.fill(0);
  for (let i = 0; i < deck.length; i++) {
    for (let seat = 0; seat < s.players; seat++) s.pileKnown[seat * HAND_TYPES + deck[i]]++;
  }
  let placed = false;
  const rule = c.r.ruleset.closingTime[String(s.players) as '2'];
  if (s.closing.where === CLOSING_ASIDE && s.reshuffles === rule.reshuffle) {
    const size = deck.length;
    const lo = Math.floor(rule.from * size);
    const hi = Math.floor(rule.to * size);
    const depth = lo + uniform(c, hi - lo + 1);
    deck.splice(size - depth, 0, CLOSING_TIME);
    s.closing = { where: CLOSING_IN_DECK, drawnBy: -1, lo, hi, pileSize: deck.length };
    placed = true;
  }
  if (c.log) c.log.push({ k: 'reshuffle', size: deck.length, closingPlaced: placed });
}

/**
 * Takes the top card of the draw pile (non-empty). Under a chance source, a card of each type
 * in proportion to the pile's counts, CLOSING TIME only once the cards above it are gone: the
 * cards above it are a uniform choice of the pile, so this is the shuffled pile's distribution.
 */
export function takeTop(c: Ctx): number {
  const deck = c.s.deck;
  const closingAt = c.chance ? deck.lastIndexOf(CLOSING_TIME) : -1;
  if (!c.chance || closingAt === deck.length - 1) return deck.pop()!;
  const counts = new Array<number>(HAND_TYPES).fill(0);
  for (const t of deck) if (t !== CLOSING_TIME) counts[t]++;
  const t = c.chance.pick(counts);
  const i = deck.lastIndexOf(t);
  deck.splice(i, 1);
  if (i < closingAt) {
    // A card from below: lift CLOSING TIME by one, so one card fewer lies above it.
    deck.splice(closingAt - 1, 1);
    deck.splice(closingAt, 0, CLOSING_TIME);
  }
  return t;
}

/**
 * Draws one card for `seat`; -1 when both piles are empty. CLOSING TIME is revealed and replaced.
 * "When the draw deck runs out, shuffle the discard pile" ("Jakmile dojdou karty v balíčku"):
 * the discard pile becomes the new draw pile as soon as the last card is drawn, so it is no
 * longer there to take from and cards discarded after go to a fresh pile. If the discard pile
 * is empty at that moment too, the reshuffle waits for the next draw that finds cards in it.
 */
function drawOne(c: Ctx, seat: number): number {
  const s = c.s;
  for (;;) {
    if (s.deck.length === 0) {
      if (s.discard.length === 0) return -1;
      reshuffle(c);
    }
    const t = takeTop(c);
    // What the seat knew of the old pile, before a reshuffle lays a new one.
    if (t !== CLOSING_TIME) s.pileKnown[seat * HAND_TYPES + t]--;
    if (s.deck.length === 0 && s.discard.length > 0) reshuffle(c);
    if (t !== CLOSING_TIME) return t;
    s.closing.where = CLOSING_DRAWN;
    s.closing.drawnBy = seat;
    if (c.log) c.log.push({ k: 'closing', seat });
  }
}

/** Draws up to the hand size of the seat's level (never discards down). */
export function drawUp(c: Ctx, seat: number): void {
  const s = c.s;
  const target = c.r.ruleset.chart[s.level[seat]].handSize;
  const cards: number[] | null = c.log ? [] : null;
  let count = 0;
  while (s.handSize[seat] < target) {
    const t = drawOne(c, seat);
    if (t < 0) break;
    handGainPrivate(s, seat, t);
    count++;
    if (cards) cards.push(t);
  }
  if (count > 0 && cards) c.log!.push({ k: 'draw', seat, count, cards });
}
