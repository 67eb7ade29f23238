/**
 * Legal actions as buttons, grouped by what they do: the groups are the action space's ranges
 * as the ruleset lists them (they cover every action id). A button whose consequence its name
 * does not say (points lost, an abstinence) carries the server's note; a group whose buttons
 * share one note shows it once. With a preview, the choice of what to play opens with what
 * saying done now would give, and pointing at an order's button shows what it would give.
 */
import { el, fill } from './dom.js';
import { previewLine } from './preview.js';
import { actionGroups } from './rules.js';

/** @typedef {import('./frame.js').NamedAction & { note?: string }} NotedAction */

/**
 * @param {HTMLElement} root
 * @param {NotedAction[]} legal
 * @param {{ onAct?: (id: number) => void, chosen?: number | null, preview?: import('./preview.js').PreviewAnswer | null }} o
 *   With `onAct` the buttons are live; without, they only show the choices (`chosen` highlighted).
 */
export function renderActions(root, legal, o) {
  const { onAct, chosen, preview } = o;
  const byAction = new Map((preview?.actions ?? []).map((p) => [p.id, p]));
  const hover = el('p.preview-hover', { id: 'preview-hover' });
  const groups = actionGroups()
    .map((g) => ({ heading: g.kind, actions: legal.filter((a) => a.id >= g.first && a.id <= g.last) }))
    .filter((g) => g.actions.length > 0);
  const shared = (/** @type {NotedAction[]} */ acts) => {
    const notes = new Set(acts.map((a) => a.note ?? ''));
    return notes.size === 1 && acts.length > 1 ? [...notes][0] : '';
  };
  fill(root,
    preview?.now ? el('div.preview', { id: 'preview' }, el('p', {}, previewLine('Say done now:', preview.now, { role: 'now' })), hover) : null,
    groups.map((g) => {
      const note = shared(g.actions);
      return el('div.action-group', {},
        el('h3', {}, g.heading),
        note ? el('p.group-note', {}, note) : null,
        el('div.buttons', {}, g.actions.map((a) => {
          const p = byAction.get(a.id);
          const show = p ? () => fill(hover, previewLine(`${a.name}, then done:`, p, { role: 'action', action: a.id })) : null;
          return el('button.action', {
            type: 'button',
            dataset: { action: a.id },
            class: a.id === chosen ? 'chosen' : null,
            disabled: !onAct,
            'aria-pressed': chosen === undefined ? null : String(a.id === chosen),
            onclick: onAct ? () => onAct(a.id) : null,
            onpointerenter: show,
            onfocus: show,
          }, a.name, a.note && !note ? el('small.note', {}, a.note) : null);
        })));
    }));
}

/** Turns every live button off (a request is in flight). @param {HTMLElement} root */
export function disableActions(root) {
  for (const b of root.querySelectorAll('button.action')) /** @type {HTMLButtonElement} */ (b).disabled = true;
}
