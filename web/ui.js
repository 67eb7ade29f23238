/**
 * Page-wide status: the state tests and styles key on (body[data-state]), `window.czechPub`,
 * the message area for API errors, and the pace at which bot moves are shown.
 */
import { byId, el, fill } from './dom.js';

/** @typedef {'setup' | 'playing' | 'waiting' | 'your-turn' | 'over' | 'replay'} PageState */
/** @typedef {'setup' | 'play' | 'watch' | 'replay'} Mode */

/** @type {{ gameId: string | null, token: string | null, watchToken: string | null, mode: Mode }} */
const czechPub = { gameId: null, token: null, watchToken: null, mode: 'setup' };
Object.assign(window, { czechPub });

/** @param {PageState} state */
export function setState(state) {
  document.body.dataset.state = state;
}

/** @param {Partial<typeof czechPub>} patch */
export function expose(patch) {
  Object.assign(czechPub, patch);
  document.body.dataset.mode = czechPub.mode;
}

/** Shows an error (a failed API call's message is the server's `error`). @param {unknown} err */
export function showError(err) {
  const text = err instanceof Error ? err.message : String(err);
  const box = byId('message');
  fill(box, el('span', {}, text), el('button.dismiss', { type: 'button', 'aria-label': 'Dismiss', onclick: clearError }, '×'));
  box.hidden = false;
}

export function clearError() {
  const box = byId('message');
  box.hidden = true;
  box.replaceChildren();
}

/** Calls and streams trying to reach the server again. */
let trying = 0;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let backTimer;

/**
 * One more (+1) or one fewer (-1) call trying to reach the server again: while any is, the
 * status line says "Reconnecting…" (body[data-connection=reconnecting]); when the last gets
 * through it says so for a moment. The line is a polite live region, so screen readers hear both.
 * @param {1 | -1} delta
 */
export function reconnecting(delta) {
  const was = trying;
  trying = Math.max(0, trying + delta);
  const box = byId('connection');
  clearTimeout(backTimer);
  if (trying > 0) {
    document.body.dataset.connection = 'reconnecting';
    if (was === 0) box.textContent = 'Lost the connection to the server: reconnecting…';
    box.hidden = false;
  } else if (was > 0) {
    document.body.dataset.connection = 'ok';
    box.textContent = 'Connected again.';
    backTimer = setTimeout(() => { box.hidden = true; box.textContent = ''; }, 3000);
  }
}

/** Milliseconds per bot move, read live from the pace control. */
export function paceMs() {
  return Number(/** @type {HTMLInputElement} */ (byId('pace')).value);
}

const PACE = 'czech-pub:pace';

/** The pace control, kept across reloads. */
export function bindPace() {
  const input = /** @type {HTMLInputElement} */ (byId('pace'));
  try {
    const kept = localStorage.getItem(PACE);
    if (kept !== null) input.value = kept;
  } catch {
    // No storage: the default pace.
  }
  const show = () => {
    byId('pace-value').textContent = `${input.value} ms`;
    try {
      localStorage.setItem(PACE, input.value);
    } catch {
      // No storage: the pace holds until the page is left.
    }
  };
  input.addEventListener('input', show);
  show();
}

/**
 * Waits one pace. The pace is read again as time passes, so moving the control takes effect
 * at once; `cut()` returning true ends the wait early (skip, pause, a new game).
 * @param {() => boolean} cut
 */
export async function waitPace(cut) {
  const start = performance.now();
  while (!cut() && performance.now() - start < paceMs()) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Says a line to a screen reader through the polite live region (#announce): the person's
 * turn, a card they may react to, the end of the game. Bots' moves are not announced; the
 * log holds them. A line said again is cleared first, so it is read again.
 * @param {string} text
 */
export function announce(text) {
  const box = byId('announce');
  box.textContent = '';
  setTimeout(() => { box.textContent = text; }, 50);
}

/** The phone's action sheet folds down to its prompt and back (the button's aria-expanded says which). */
export function bindSheet() {
  const toggle = byId('sheet-toggle');
  const area = /** @type {HTMLElement} */ (toggle.closest('.action-area'));
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    toggle.textContent = open ? 'Hide choices' : 'Show choices';
    area.classList.toggle('collapsed', !open);
    keepClear();
  });
}

/**
 * On a phone the decision is a sheet fixed at the bottom: the page scrolls so `target` (the
 * hand) sits above it, and scrolling a card into view (a tab, a tap) stops above it too.
 * @param {Element | null} [target]
 */
export function keepClear(target = document.getElementById('hand')) {
  const area = document.querySelector('.action-area');
  const fixed = area instanceof HTMLElement && getComputedStyle(area).position === 'fixed';
  const sheet = fixed ? area.getBoundingClientRect().height : 0;
  document.documentElement.style.scrollPaddingBottom = `${sheet + 8}px`;
  if (!fixed || !target) return;
  const r = target.getBoundingClientRect();
  const room = window.innerHeight - sheet - 8;
  if (r.bottom > room) window.scrollBy(0, Math.min(r.bottom - room, r.top - 8));
  else if (r.top < 0) window.scrollBy(0, r.top - 8);
}
