/** The event log beside the table: one entry per step, each with that step's narrated events. */
import { el, fill } from './dom.js';
import { seatName } from './frame.js';

/** @typedef {import('./frame.js').NarratedEvent} NarratedEvent @typedef {import('./frame.js').TakenAction} TakenAction */

/**
 * "Step 0: the deal", "Step 4: You: play Beer", "Step 5: Strong 1" (its events say what it did),
 * "Step 6: Strong 1: pass" (a move with no event), or just "Step 4" when the action is not known.
 * The server words an action for the viewer (targets by name, "you"), but as the actor would
 * say it ("their beer", "your hand"): so another seat's move is told by the step's events,
 * which name everyone, and its own words only where no event says it.
 * @param {number} step
 * @param {TakenAction | null} action  the action that led to this step
 * @param {NarratedEvent[]} events  events without a line (text null) are left out
 * @param {number | null} [you]  the viewer's seat (null: watching)
 */
export function stepEntry(step, action, events, you = null) {
  const told = events.some((e) => e.text);
  const heading = step === 0 ? 'Step 0: the deal'
    : !action ? `Step ${step}`
      : action.seat === you ? `Step ${step}: You: ${action.name}`
        : told ? `Step ${step}: ${seatName(action.seat)}` : `Step ${step}: ${seatName(action.seat)}: ${action.name}`;
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
