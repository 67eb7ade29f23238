/** The event log beside the table: one entry per step, each with that step's narrated events. */
import { el, fill } from './dom.js';
import { seatName } from './frame.js';

/** @typedef {import('./frame.js').NarratedEvent} NarratedEvent @typedef {import('./frame.js').TakenAction} TakenAction */

/**
 * "Step 0: the deal", "Step 4: Player 1: play Beer", or just "Step 4" when the action is not known.
 * @param {number} step
 * @param {TakenAction | null} action  the action that led to this step
 * @param {NarratedEvent[]} events  events without a line (text null) are left out
 */
export function stepEntry(step, action, events) {
  const heading = step === 0 ? 'Step 0: the deal' : action ? `Step ${step}: ${seatName(action.seat)}: ${action.name}` : `Step ${step}`;
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
