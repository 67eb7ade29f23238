/**
 * Cards as page elements. Display names come from /v1/ruleset (`cards`); the kind (beer,
 * shot, non-alcoholic, pub card, X card) only picks a colour.
 */
import { el } from './dom.js';

/** The five shot types, in the order of the shot tokens. */
export const SHOTS = ['rum', 'fernet', 'becherovka', 'zelena', 'vodka'];

/** @type {Record<string, string>} */
const KIND = {
  beer: 'beer', small_beer: 'beer', tea: 'soft', coffee: 'soft', utopenec: 'soft',
  excuse_me: 'x', mixed_up: 'x', knocked_over: 'x', warm_beer: 'x', closing_time: 'closing',
};
for (const s of SHOTS) KIND[s] = 'shot';

/** @type {Record<string, string>} */
const names = { closing_time: 'CLOSING TIME' };
/** @type {string[]} */
let order = [];

/** @param {{ id: string, name: string }[]} cards */
export function setCards(cards) {
  for (const c of cards) names[c.id] = c.name;
  order = cards.map((c) => c.id);
}

/** @param {string} id */
export const cardName = (id) => names[id] ?? id;

/**
 * @param {string} id
 * @param {{ note?: string, mini?: boolean, title?: string }} [o]
 */
export function cardEl(id, o = {}) {
  return el(`span.card.k-${KIND[id] ?? 'pub'}`, { dataset: { card: id }, title: o.title ?? cardName(id), class: o.mini ? 'mini' : null },
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
