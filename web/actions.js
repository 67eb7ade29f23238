/**
 * Legal actions as buttons, grouped by what they do. The groups follow the action-space table
 * (env/actions.ts): ids are stable, so ranges of them are a public fact of the API.
 */
import { el, fill } from './dom.js';

/** [first id, last id, heading] */
const GROUPS = /** @type {const} */ ([
  [0, 9, 'Orders'],
  [10, 38, 'Pub cards'],
  [39, 39, 'End of playing'],
  [40, 63, 'Discard'],
  [64, 64, 'Pass'],
  [65, 186, 'X cards'],
  [187, 189, 'Excuse me'],
  [190, 197, 'Shot choice'],
]);

/** @typedef {import('./frame.js').NamedAction} NamedAction */

/**
 * @param {HTMLElement} root
 * @param {NamedAction[]} legal
 * @param {{ onAct?: (id: number) => void, chosen?: number | null }} o
 *   With `onAct` the buttons are live; without, they only show the choices (`chosen` highlighted).
 */
export function renderActions(root, legal, o) {
  const groups = GROUPS.map(([lo, hi, heading]) => ({ heading, actions: legal.filter((a) => a.id >= lo && a.id <= hi) }))
    .filter((g) => g.actions.length > 0);
  fill(root, groups.map((g) => el('div.action-group', {},
    el('h3', {}, g.heading),
    el('div.buttons', {}, g.actions.map((a) => el('button.action', {
      type: 'button',
      dataset: { action: a.id },
      class: a.id === o.chosen ? 'chosen' : null,
      disabled: !o.onAct,
      'aria-pressed': o.chosen === undefined ? null : String(a.id === o.chosen),
      onclick: o.onAct ? () => o.onAct?.(a.id) : null,
    }, a.name))))));
}

/** Turns every live button off (a request is in flight). @param {HTMLElement} root */
export function disableActions(root) {
  for (const b of root.querySelectorAll('button.action')) /** @type {HTMLButtonElement} */ (b).disabled = true;
}
