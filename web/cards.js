/**
 * Cards as page elements. Display names, kinds (beer, shot, non-alcoholic, pub card, X card)
 * and what each card does come from the ruleset; the kind picks a colour. A full-size card
 * shows its effect in a few words on its face (the server's short text); every card carries
 * data-card, which the help box (help.js) reads on hover and tap for the full text.
 */
import { el } from './dom.js';
import { cardIds, cardInfo } from './rules.js';

/** The shot types, in card order (the order of the shot tokens). */
export const shotIds = () => cardIds().filter((id) => cardInfo(id)?.kind === 'shot');

/** @param {string} id */
export const cardName = (id) => cardInfo(id)?.name ?? id;

/**
 * @param {string} id
 * @param {{ note?: string, mini?: boolean }} [o]
 */
export function cardEl(id, o = {}) {
  const face = o.mini ? '' : cardInfo(id)?.short ?? '';
  // Named by what it shows (axe: the visible text is the accessible name), the parts apart.
  return el(`span.card.k-${cardInfo(id)?.kind ?? 'pub'}`, { dataset: { card: id }, tabindex: 0, class: o.mini ? 'mini' : null },
    el('span.card-name', {}, cardName(id)),
    face ? el('span.visually-hidden', {}, ': ') : null,
    face ? el('span.card-effect', {}, face) : null,
    o.note ? el('span.card-note', {}, o.note) : null);
}

/**
 * One element per card of a count-by-id hand, in card order.
 * @param {Record<string, number>} counts
 * @param {{ mini?: boolean }} [o]
 */
export function countedCards(counts, o = {}) {
  return cardIds().flatMap((id) => Array.from({ length: counts[id] ?? 0 }, () => cardEl(id, o)));
}
