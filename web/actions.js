/**
 * Legal actions as buttons, grouped by what they do: the groups are the action space's ranges
 * as the ruleset lists them (they cover every action id). A button whose consequence its name
 * does not say (points lost, an abstinence) carries the server's note; a group whose buttons
 * share one note shows it once. With a preview, the choice of what to play opens with what
 * saying done now would give, and pointing at (or focusing) any button shows that choice's own
 * preview; a choice that may end the game is marked as a warning.
 */
import { el, fill } from './dom.js';
import { choicePreview, previewLine } from './preview.js';
import { actionGroups } from './rules.js';

/** @typedef {import('./frame.js').NamedAction & { note?: string }} NotedAction */

/**
 * @param {HTMLElement} root
 * @param {NotedAction[]} legal
 * @param {{ onAct?: (id: number) => void, chosen?: number | null, preview?: import('./preview.js').PreviewAnswer | null, you?: number | null }} o
 *   With `onAct` the buttons are live; without, they only show the choices (`chosen` highlighted).
 */
export function renderActions(root, legal, o) {
  const { onAct, chosen, preview } = o;
  const f = { you: o.you ?? null };
  const byAction = new Map((preview?.actions ?? []).map((p) => [p.id, p]));
  const hover = el('div.preview-hover', { id: 'preview-hover', 'aria-live': 'polite' });
  const groups = actionGroups()
    .map((g) => ({ heading: g.kind, actions: legal.filter((a) => a.id >= g.first && a.id <= g.last) }))
    .filter((g) => g.actions.length > 0);
  const shared = (/** @type {NotedAction[]} */ acts) => {
    const notes = new Set(acts.map((a) => a.note ?? ''));
    return notes.size === 1 && acts.length > 1 ? [...notes][0] : '';
  };
  fill(root,
    preview?.now ? el('div.preview', { id: 'preview' }, el('p', {}, previewLine('Say done now:', preview.now, { role: 'now' }))) : null,
    groups.map((g) => {
      const note = shared(g.actions);
      return el('div.action-group', {},
        el('h3', {}, g.heading),
        note ? el('p.group-note', {}, note) : null,
        el('div.buttons', {}, g.actions.map((a) => {
          const p = byAction.get(a.id);
          const show = p ? () => fill(hover, choicePreview(p, f)) : () => hover.replaceChildren();
          return el('button.action', {
            type: 'button',
            dataset: p?.risk ? { action: a.id, risk: p.risk.kind } : { action: a.id },
            class: [a.id === chosen ? 'chosen' : '', p?.risk ? 'risky' : ''].join(' '),
            disabled: !onAct,
            'aria-pressed': chosen === undefined ? null : String(a.id === chosen),
            'aria-describedby': p ? 'preview-hover' : null,
            onclick: onAct ? () => onAct(a.id) : null,
            onpointerenter: show,
            onfocus: show,
          }, a.name, a.note && !note ? el('small.note', {}, a.note) : null, p?.risk ? el('small.risk-badge', {}, p.risk.kind === 'out' ? 'may throw you out' : 'may waste you') : null);
        })));
    }),
    // Below the buttons: a preview growing as it is shown never moves the button pointed at (the
    // phone's sheet, which would grow upwards, does not show it: style.css).
    preview ? hover : null);
}

/** Turns every live button off (a request is in flight). @param {HTMLElement} root */
export function disableActions(root) {
  for (const b of root.querySelectorAll('button.action')) /** @type {HTMLButtonElement} */ (b).disabled = true;
}

/**
 * Brings a new decision into view (live play calls it once a decision): as much of it as the
 * window holds, its prompt first, moving the page as little as it can (the hand stays in view
 * above it when there is room). On a phone the decision is a sheet fixed at the bottom, which
 * scrolls within itself instead: to its top, then just far enough that the first choice shows.
 * @param {HTMLElement} root  the actions
 */
export function showChoices(root) {
  const area = /** @type {HTMLElement} */ (root.closest('.action-area') ?? root);
  const margin = 8;
  if (getComputedStyle(area).position === 'fixed') {
    area.scrollTop = 0;
    const first = root.querySelector('button.action:enabled') ?? root.querySelector('button:enabled');
    const below = first ? first.getBoundingClientRect().bottom - (area.getBoundingClientRect().bottom - margin) : 0;
    if (below > 0) area.scrollTop = below;
    return;
  }
  const r = area.getBoundingClientRect();
  if (r.bottom > window.innerHeight - margin) window.scrollBy(0, Math.min(r.bottom - window.innerHeight + margin, r.top - margin));
  else if (r.top < 0) window.scrollBy(0, r.top - margin);
}
