/**
 * Cards as page elements. Display names and kinds (beer, shot, non-alcoholic, pub card, X card)
 * come from /v1/ruleset (`cards`); the kind picks a colour.
 */
import { el } from './dom.js';

/** @type {Record<string, string>} */
const names = { closing_time: 'CLOSING TIME' };
/** @type {Record<string, string>} */
const kinds = { closing_time: 'closing' };
/** @type {string[]} */
let order = [];

/** @param {{ id: string, name: string, kind: string }[]} cards */
export function setCards(cards) {
  for (const c of cards) {
    names[c.id] = c.name;
    kinds[c.id] = c.kind;
  }
  order = cards.map((c) => c.id);
}

/** The shot types, in card order (the order of the shot tokens). */
export const shotIds = () => order.filter((id) => kinds[id] === 'shot');

/** @param {string} id */
export const cardName = (id) => names[id] ?? id;

/**
 * @param {string} id
 * @param {{ note?: string, mini?: boolean, title?: string }} [o]
 */
export function cardEl(id, o = {}) {
  return el(`span.card.k-${kinds[id] ?? 'pub'}`, { dataset: { card: id }, title: o.title ?? cardName(id), class: o.mini ? 'mini' : null },
    el('span.card-name', {}, cardName(id)),
    o.note ? el('span.card-note', {}, o.note) : null);
}

/**
 * One element per card of a count-by-id hand, in the deck's card order.
 * @param {Record<string, number>} counts
 * @param {{ mini?: boolean }} [o]
 */
export function countedCards(counts, o = {}) {
  const ids = order.length > 0 ? order : Object.keys(counts);
  return ids.flatMap((id) => Array.from({ length: counts[id] ?? 0 }, () => cardEl(id, o)));
}
