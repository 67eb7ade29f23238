/**
 * Asks before a choice that may end the person's game is sent: a modal dialog that takes the
 * focus (on its confirm button), cancels on Escape or its Cancel button, and confirms on
 * Enter or its confirm button. Nothing is sent until it answers yes.
 */
import { el } from './dom.js';

/**
 * @param {string} title  the choice, e.g. "Done"
 * @param {string} warning  what it risks, in words
 * @returns {Promise<boolean>}
 */
export function confirmRisk(title, warning) {
  return new Promise((resolve) => {
    const before = /** @type {HTMLElement | null} */ (document.activeElement);
    /** @param {boolean} yes */
    const answer = (yes) => {
      dialog.close();
      dialog.remove();
      before?.focus?.();
      resolve(yes);
    };
    const ok = el('button.primary.danger', { type: 'button', id: 'confirm-yes', onclick: () => answer(true) }, 'Do it anyway');
    const cancel = el('button', { type: 'button', id: 'confirm-no', onclick: () => answer(false) }, 'Cancel');
    const dialog = /** @type {HTMLDialogElement} */ (el('dialog.confirm-risk', {
      id: 'confirm-risk', 'aria-labelledby': 'confirm-title', 'aria-describedby': 'confirm-text', role: 'alertdialog',
      oncancel: (/** @type {Event} */ e) => {
        e.preventDefault();
        answer(false);
      },
      onkeydown: (/** @type {KeyboardEvent} */ e) => {
        if (e.key === 'Enter' && e.target !== cancel) {
          e.preventDefault();
          answer(true);
        }
      },
    },
    el('h2', { id: 'confirm-title' }, `${title.charAt(0).toUpperCase()}${title.slice(1)}?`),
    el('p', { id: 'confirm-text' }, el('b', {}, 'Warning: '), warning, '.'),
    el('div.buttons', {}, ok, cancel)));
    document.body.append(dialog);
    dialog.showModal();
    ok.focus();
  });
}
