/**
 * The whole table for one frame: the other players round the top in clockwise order from the
 * bottom seat's left, the piles in the middle, the bottom seat nearest the viewer.
 */
import { centre } from './centre.js';
import { el, fill } from './dom.js';
import { playerPanel } from './players.js';

/** @typedef {import('./frame.js').Frame} Frame */

/**
 * @param {HTMLElement} root
 * @param {Frame} f
 * @param {HTMLElement | null} [beside]  shown next to the bottom seat (the person's hand)
 */
export function renderTable(root, f, beside = null) {
  const n = f.view.players;
  const panel = (/** @type {number} */ seat) => playerPanel(f.view.table[seat], f);
  const others = Array.from({ length: n - 1 }, (_, k) => (f.bottom + k + 1) % n);
  root.dataset.players = String(n);
  fill(root,
    el('div.opponents', {}, others.map(panel)),
    centre(f),
    el('div.home', {}, panel(f.bottom), beside));
}
