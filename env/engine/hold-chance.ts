/**
 * How likely a hand holds a card, counted from what a seat may see (choice-preview.ts asks
 * it for the seats a choice makes answer): the cards it cannot see, and the chance that
 * another seat's hand holds one of some types.
 */
import { HAND_TYPES } from '../cards.ts';
import type { SeatFacts } from '../observation/visible.ts';
import type { CompiledRules } from '../ruleset.ts';
import { entryType } from '../state.ts';

/**
 * The cards the deciding seat cannot see, by type, as it can count them: every card of the
 * type less those in its hand, on the discard pile, in any front and known to be in another
 * hand. `pileMay` is how many of them the draw pile may hold (SeatFacts.pileMayHold, capped by
 * the pool), `deck` the draw pile's size.
 */
export interface Unseen {
  pool: number[];
  pileMay: number[];
  deck: number;
}

export function unseenOf(r: CompiledRules, f: Readonly<SeatFacts>): Unseen {
  const pool = Array.from(r.count, (n, t) => n - f.hand[t] - f.discardCounts[t]);
  for (let p = 0; p < f.players; p++) {
    for (const e of f.fronts[p]) pool[entryType(e)]--;
    const known = f.known[p];
    for (let i = 0; i < known.length; i++) pool[known.types[i]] -= known.counts[i];
  }
  return { pool, pileMay: pool.map((n, t) => Math.min(n, f.pileMayHold[t])), deck: f.deckSize };
}

/**
 * The chance that `seat`'s hand holds at least one card of `types`, from the deciding seat's
 * facts. Cards it knows in that hand decide at once; for the rest of the hand it assumes
 * every deal of the unseen cards consistent with its facts is equally likely, dealt the way
 * resample.ts deals a world: the draw pile first, a uniform draw of its size from the cards
 * it may hold, then the other cards spread uniformly over the other hands' unknown places.
 * So the chance is a hypergeometric over what the pile left, averaged over how many of
 * `types` the pile took (itself hypergeometric). What the seat's past choices hint at (a
 * player who could have played a shot and did not) is not weighed.
 */
export function holdChance(u: Unseen, f: Readonly<SeatFacts>, seat: number, types: readonly number[]): number {
  const known = f.known[seat];
  let knownCards = 0;
  for (let i = 0; i < known.length; i++) {
    if (types.includes(known.types[i])) return 1;
    knownCards += known.counts[i];
  }
  const places = f.handSize[seat] - knownCards;
  let wanted = 0;
  let all = 0;
  let pileWanted = 0;
  let pileAll = 0;
  for (let t = 0; t < HAND_TYPES; t++) {
    all += u.pool[t];
    pileAll += u.pileMay[t];
    if (types.includes(t)) {
      wanted += u.pool[t];
      pileWanted += u.pileMay[t];
    }
  }
  // The fewest of `types` the pile can take: what it must hold beyond its other cards.
  const least = Math.max(0, u.deck - (pileAll - pileWanted));
  if (places <= 0 || least >= wanted) return 0;
  const rest = all - u.deck;
  let miss = 0;
  for (let k = least; k <= Math.min(u.deck, pileWanted); k++) {
    miss += (choose(pileWanted, k) * choose(pileAll - pileWanted, u.deck - k) / choose(pileAll, u.deck)) * noneOf(rest, wanted - k, places);
  }
  return Math.max(0, 1 - miss);
}

/** The chance that `places` cards dealt from `total` miss all `marked` of them (0 exactly when they cannot). */
function noneOf(total: number, marked: number, places: number): number {
  if (total - marked < places) return 0;
  let p = 1;
  for (let i = 0; i < places; i++) p *= (total - marked - i) / (total - i);
  return p;
}

function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}
