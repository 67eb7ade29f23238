/** The event log beside the table: one entry per step, each with that step's narrated events. */
import { el, fill } from './dom.js';

/** @typedef {import('./frame.js').NarratedEvent} NarratedEvent */

/**
 * @param {number} step
 * @param {string} heading
 * @param {NarratedEvent[]} events  events without a line (text null) are left out
 */
export function stepEntry(step, heading, events) {
  const lines = events.filter((e) => e.text);
  return el('li.step', { dataset: { step } },
    el('div.step-head', {}, heading),
    lines.length > 0 ? el('ul.events', {}, lines.map((e) => el('li.event', { dataset: { kind: e.k } }, e.text))) : null);
}

/** @param {HTMLElement} root @param {HTMLElement} entry */
export function appendEntry(root, entry) {
  root.append(entry);
  root.scrollTop = root.scrollHeight;
}

/** @param {HTMLElement} root @param {HTMLElement} entry */
export function showEntry(root, entry) {
  fill(root, entry);
}
