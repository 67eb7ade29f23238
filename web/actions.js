/**
 * Legal actions as buttons, grouped by what they do: the groups are the action space's ranges
 * as the ruleset lists them (they cover every action id).
 */
import { el, fill } from './dom.js';
import { actionGroups } from './rules.js';

/** @typedef {import('./frame.js').NamedAction} NamedAction */

/**
 * @param {HTMLElement} root
 * @param {NamedAction[]} legal
 * @param {{ onAct?: (id: number) => void, chosen?: number | null }} o
 *   With `onAct` the buttons are live; without, they only show the choices (`chosen` highlighted).
 */
export function renderActions(root, legal, o) {
  const { onAct, chosen } = o;
  const groups = actionGroups()
    .map((g) => ({ heading: g.kind, actions: legal.filter((a) => a.id >= g.first && a.id <= g.last) }))
    .filter((g) => g.actions.length > 0);
  fill(root, groups.map((g) => el('div.action-group', {},
    el('h3', {}, g.heading),
    el('div.buttons', {}, g.actions.map((a) => el('button.action', {
      type: 'button',
      dataset: { action: a.id },
      class: a.id === chosen ? 'chosen' : null,
      disabled: !onAct,
      'aria-pressed': chosen === undefined ? null : String(a.id === chosen),
      onclick: onAct ? () => onAct(a.id) : null,
    }, a.name))))));
}

/** Turns every live button off (a request is in flight). @param {HTMLElement} root */
export function disableActions(root) {
  for (const b of root.querySelectorAll('button.action')) /** @type {HTMLButtonElement} */ (b).disabled = true;
}
