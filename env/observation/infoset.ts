/**
 * Information-state keys: a short string naming everything a seat has come to know, so that two
 * histories the seat cannot tell apart get the same key and any two it can get different ones
 * (perfect recall). A key is a fold, in order, over what the seat was shown and did:
 *
 *   - every event as the seat may see it (`eventForSeat`: the seat channel's own filter);
 *   - at each of its decisions, its hand then (which, with the events, fixes the hand it was dealt);
 *   - the action it took.
 *
 * The fold is the same whoever makes it: the exact game-tree walker (eval/exact), which steps
 * every seat at once, and the `tabular` agent, which sees its events in batches at its own
 * decisions. A key is a pair of 53-bit string hashes (cyrb53) in hex: 106 bits, so over the
 * million keys of the largest tree walked a collision has a chance of about 1 in 10^19.
 */
import { HAND_TYPES } from '../cards.ts';
import type { GameEvent } from '../events.ts';
import { eventForSeat } from './visible.ts';

/** cyrb53 (bryc, public domain): a fast 53-bit string hash, as a number. */
function cyrb53(text: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

function fold(key: string, item: string): string {
  const text = `${key}|${item}`;
  return cyrb53(text, 1).toString(16).padStart(14, '0') + cyrb53(text, 2).toString(16).padStart(14, '0');
}

/** The key of `seat` before anything happened. */
export function infoKeyStart(seat: number): string {
  return fold('czech-pub/infoset/1', `seat ${seat}`);
}

/** `key` after the seat saw `events` (unfiltered: each is filtered for the seat here). */
export function foldEvents(key: string, seat: number, events: readonly GameEvent[]): string {
  for (const ev of events) key = fold(key, `e${JSON.stringify(eventForSeat(ev, seat))}`);
  return key;
}

/** `key` at a decision of the seat holding `hand` (counts per card type): the information state's key. */
export function foldDecision(key: string, hand: ArrayLike<number>): string {
  let text = 'd';
  for (let t = 0; t < HAND_TYPES; t++) text += `${hand[t]},`;
  return fold(key, text);
}

/** `key` after the seat took `action` at that decision. */
export function foldAction(key: string, action: number): string {
  return fold(key, `a${action}`);
}
