/**
 * "Regular knocked over your Beer": what other players did to the person since their last
 * decision, said plainly above the decision. Read from the events the seat's own channel
 * gave (each step's `events`), never from anything hidden: a card the seat may not see reads
 * as "a card". X cards hit the cards in front of the player whose turn it is, so the turn is
 * followed through the 'turn' events.
 */
import { cardName } from './cards.js';
import { byId, el, fill } from './dom.js';
import { seatName } from './frame.js';
import { cardIds } from './rules.js';

/** @typedef {import('./frame.js').NarratedEvent & Record<string, any>} SeatEvent */
/** @typedef {{ seat: number, text: string }} DoneToYou */

/** A card of an event by its type number; a hidden one (-1) is "a card". @param {number | undefined} type */
const card = (type) => (type === undefined || type < 0 ? 'a card' : cardName(cardIds()[type] ?? String(type)));

/**
 * What others did to seat `you` in `events`.
 * @param {SeatEvent[]} events  the seat's events, in order
 * @param {number} you
 * @param {number} active  whose turn it was before the first of them
 * @returns {{ done: DoneToYou[], active: number }}  and whose turn it is after them
 */
export function doneToYou(events, you, active) {
  /** @type {DoneToYou[]} */
  const done = [];
  for (const ev of events) {
    if (ev.k === 'turn') active = ev.seat;
    const line = lineFor(ev, you, active);
    if (line) done.push({ seat: line.seat, text: line.text });
  }
  return { done, active };
}

/** @param {SeatEvent} ev @param {number} you @param {number} active @returns {DoneToYou | null} */
function lineFor(ev, you, active) {
  const by = (/** @type {number} */ seat, /** @type {string} */ what) => (seat === you ? null : { seat, text: `${seatName(seat)} ${what}` });
  const id = ev.card === undefined ? '' : cardIds()[ev.card];
  switch (ev.k) {
    case 'x':
      if (active !== you) return null;
      if (id === 'knocked_over') return by(ev.seat, `knocked over your ${card(ev.target)}.`);
      if (id === 'mixed_up') return by(ev.seat, `mixed up your ${card(ev.target)}: took it and put ${card(ev.give)} in its place.`);
      if (id === 'warm_beer') return by(ev.seat, `said your ${card(ev.target)} is warm: it went back to your hand.`);
      if (id === 'shot_into_beer') return by(ev.seat, ev.fromHand ? `poured their ${card(ev.target)} into your beer.` : `poured your ${card(ev.target)} into your beer.`);
      return by(ev.seat, `played ${card(ev.card)} on your ${card(ev.target)}.`);
    case 'play':
      if (id === 'same' && ev.target === you) return by(ev.seat, 'will drink what you drink (I\'ll get the same).');
      // Cards at everyone (Shots, everyone!, Brawl) say what they did to the person in their own events: a shot choice asked, a card taken.
      return ev.target === you ? by(ev.seat, `played ${card(ev.card)} at you.`) : null;
    case 'excuse':
      return ev.redirect === you ? by(ev.seat, `sent ${card(ev.card)} on to you (Excuse me).`) : null;
    case 'take':
      return ev.from === you ? by(ev.to, `took ${card(ev.card)} from your hand (${ev.by === 'brawl' ? 'Brawl' : "That's my order"}).`) : null;
    default:
      return null;
  }
}

/**
 * Shows the lines above the decision (hidden when there are none) and marks the area of each
 * player who did something to the person.
 * @param {DoneToYou[]} done
 */
export function renderDoneToYou(done) {
  const box = byId('done-to-you');
  box.hidden = done.length === 0;
  fill(box, done.length === 0 ? null : el('ul', {}, done.map((d) => el('li.done-to-you-line', { dataset: { seat: d.seat } }, d.text))));
  for (const seat of new Set(done.map((d) => d.seat))) {
    const head = document.querySelector(`#table .player[data-seat="${seat}"] header`);
    if (head && !head.querySelector('.b-did')) head.append(el('span.badge.b-did', { title: done.filter((d) => d.seat === seat).map((d) => d.text).join(' ') }, 'did something to you'));
  }
}
