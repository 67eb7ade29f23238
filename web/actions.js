/**
 * Legal actions as buttons, grouped by what they do: the groups are the action space's ranges
 * as /v1/ruleset lists them (`actionGroups`).
 */
import { el, fill } from './dom.js';

/** @typedef {{ first: number, last: number, kind: string }} ActionGroup */

/** @type {ActionGroup[]} */
let groupsOfIds = [];

/** @param {ActionGroup[]} groups */
export function setActionGroups(groups) {
  groupsOfIds = groups;
}

/** @typedef {import('./frame.js').NamedAction} NamedAction */

/**
 * @param {HTMLElement} root
 * @param {NamedAction[]} legal
 * @param {{ onAct?: (id: number) => void, chosen?: number | null }} o
 *   With `onAct` the buttons are live; without, they only show the choices (`chosen` highlighted).
 */
export function renderActions(root, legal, o) {
  const grouped = groupsOfIds.map((g) => ({ heading: g.kind, actions: legal.filter((a) => a.id >= g.first && a.id <= g.last) }));
  const rest = legal.filter((a) => !groupsOfIds.some((g) => a.id >= g.first && a.id <= g.last));
  const groups = [...grouped, { heading: 'Other', actions: rest }].filter((g) => g.actions.length > 0);
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
