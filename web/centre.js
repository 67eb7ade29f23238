/** The middle of the table: piles, CLOSING TIME, turn, titles, and who decides what now. */
import { cardEl, cardName } from './cards.js';
import { el } from './dom.js';
import { seatName, whom, whose } from './frame.js';

/** @typedef {import('./frame.js').Frame} Frame @typedef {import('./frame.js').PlayerView} PlayerView */

/** "1 card", "3 cards". @param {number} n @param {string} word */
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** @param {PlayerView} view @param {Frame} f */
function closingText(view, f) {
  const c = view.closingTime;
  if (c.where === 'aside') return 'set aside (goes into the pile at a reshuffle)';
  if (c.where === 'in_deck') return c.depth ? `in the draw pile, ${c.depth[0]}–${c.depth[1]} cards down` : 'in the draw pile';
  return c.drawnBy === null ? 'drawn: last round' : `drawn by ${whom(c.drawnBy, f)}: last round`;
}

/**
 * "Player 2 decides: reaction to Player 1's Beer", "You must respond to Let's do a shot played by Player 1".
 * @param {PlayerView} view @param {Frame} f
 */
function decisionText(view, f) {
  const d = view.decision;
  if (view.over || d.actor < 0) return 'Game over.';
  const mine = d.actor === f.you;
  const active = view.turnState.active;
  const lead = mine ? 'You decide' : `${seatName(d.actor)} decides`;
  switch (d.kind) {
    case 'play':
      return mine ? 'Your turn: play a card, or say you are done.' : `${lead}: what to play.`;
    case 'discard':
      return `${lead}: which cards to discard.`;
    case 'reaction': {
      const what = d.card ? `${whose(active, f)} ${cardName(d.card)}` : `${whom(active, f)} being done`;
      return mine ? `You may react to ${what}.` : `${lead}: reaction to ${what}.`;
    }
    case 'response': {
      const avoided = d.avoided?.length ? ` (already avoided by ${d.avoided.map((s) => whom(s, f)).join(', ')})` : '';
      const what = `${d.card ? cardName(d.card) : 'a card'} played by ${whom(d.playedBy ?? active, f)}${avoided}`;
      return mine ? `You must respond to ${what}.` : `${lead}: response to ${what}.`;
    }
    default:
      return `${lead}: ${d.kind}.`;
  }
}

/** @param {PlayerView} view @param {Frame} f */
function turnText(view, f) {
  const t = view.turnState;
  const parts = [
    `${plural(t.actionsLeft, 'action')} left`,
    `beers ${t.beers}${t.smallBeers > 0 ? ` (${t.smallBeers} small)` : ''}`,
    `shots ${t.shots}/${t.shotLimit}`,
  ];
  if (t.playedSame) parts.push("played I'll get the same");
  return `${whose(t.active, f, true)} turn: ${parts.join(' · ')}`;
}

/** @param {Frame} f */
export function centre(f) {
  const v = f.view;
  return el('div.centre', {},
    el('div.piles', {},
      el('div.pile.deck', { title: 'draw pile' },
        el('span.pile-label', {}, 'Draw pile'),
        el('b.deck-size', {}, v.deck.size),
        el('span.small', {}, plural(v.deck.reshuffles, 'reshuffle'))),
      el('div.pile.discard', { title: 'discard pile' },
        el('span.pile-label', {}, 'Discard'),
        v.discard.top ? cardEl(v.discard.top) : el('span.empty', {}, 'empty'),
        el('span.small', {}, plural(v.discard.size, 'card'))),
      el('div.closing', { dataset: { where: v.closingTime.where } },
        el('span.pile-label', {}, 'CLOSING TIME'),
        el('span', {}, closingText(v, f)))),
    el('div.info', {},
      el('span.turn', {}, `Turn ${v.turn}`),
      el('span.titles-left', {}, 'Titles left: ', v.titlesLeft.map((t) => `${t.name} ${t.left} (${t.points} pts)`).join(', '))),
    el('div.now', {},
      el('p.decision', { id: 'decision' }, decisionText(v, f)),
      v.over ? null : el('p.turn-state', {}, turnText(v, f))));
}

/** The decision in words, with the card being reacted or responded to. @param {PlayerView} view @param {Frame} f */
export function promptContent(view, f) {
  const d = view.decision;
  const card = !view.over && (d.kind === 'reaction' || d.kind === 'response') && d.card ? cardEl(d.card) : null;
  return [el('span', {}, decisionText(view, f)), card];
}
