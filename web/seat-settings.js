/**
 * The person's auto-pass settings beside the table (GET/PUT /v1/games/{id}/settings): the
 * server passes for them when passing is all they could do, or all they want to; a box per X
 * card says whether to be asked when they could play it (none ticked at first).
 */
import { api } from './api.js';
import { cardName } from './cards.js';
import { byId, el, fill } from './dom.js';
import { showError } from './ui.js';

/** The X cards one can watch for, as the server names them (server/auto-pass.ts). */
const WATCHABLE = ['knocked_over', 'mixed_up', 'warm_beer', 'shot_into_beer'];

/** @typedef {{ autoPass: boolean, unwatched: string[] }} SeatSettings */

/**
 * What this page asks for a person: the server's own default asks a seat at every window it
 * could play an X card in (it cannot tell a person from a program); a person is asked at their
 * own turn and at a card aimed at them, and at the windows of the X cards they tick. Their
 * choice is kept in this browser for their next games.
 */
const KEPT = 'czech-pub:auto-pass';
/** @type {SeatSettings} */
const SERVER_DEFAULT = { autoPass: true, unwatched: [] };
/** @type {SeatSettings} */
const PEOPLE_DEFAULT = { autoPass: true, unwatched: [...WATCHABLE] };
/** Every X card watched: the guided game shows one at work. @type {SeatSettings} */
export const WATCH_ALL = SERVER_DEFAULT;

/** The person's choice kept in this browser, or the people's default. @returns {SeatSettings} */
function kept() {
  try {
    const s = JSON.parse(localStorage.getItem(KEPT) ?? 'null');
    if (s && typeof s.autoPass === 'boolean' && Array.isArray(s.unwatched)) return { autoPass: s.autoPass, unwatched: WATCHABLE.filter((x) => s.unwatched.includes(x)) };
  } catch {
    // Nothing kept, or not readable: the default.
  }
  return PEOPLE_DEFAULT;
}

/** @param {SeatSettings} s */
function keep(s) {
  try {
    localStorage.setItem(KEPT, JSON.stringify(s));
  } catch {
    // No storage: the choice holds for this game only.
  }
}

const same = (/** @type {SeatSettings} */ a, /** @type {SeatSettings} */ b) => a.autoPass === b.autoPass && a.unwatched.join() === b.unwatched.join();

/**
 * Shows the settings of the token's seat (hidden when watching). A seat still at the server's
 * default gets `wanted` first: the person's kept choice, or what the caller asks (the guide).
 * @param {string} id @param {string | null} token @param {SeatSettings | null} [wanted]
 */
export async function renderSeatSettings(id, token, wanted = null) {
  const box = byId('seat-settings');
  box.hidden = true;
  if (!token) return;
  /** @type {SeatSettings} */
  let now;
  try {
    now = await api.settings(id, token);
    const want = wanted ?? kept();
    if (same(now, SERVER_DEFAULT) && !same(now, want)) now = await api.setSettings(id, token, want);
  } catch {
    // A seat without settings (none for a bot; an old server): nothing to show.
    return;
  }
  const draw = (/** @type {SeatSettings} */ s) => {
    const on = /** @type {HTMLInputElement} */ (el('input', { type: 'checkbox', id: 'auto-pass', checked: s.autoPass }));
    const watches = WATCHABLE.map((x) => /** @type {HTMLInputElement} */ (el('input', { type: 'checkbox', dataset: { watch: x }, checked: !s.unwatched.includes(x), disabled: !s.autoPass })));
    const save = async () => {
      const change = { autoPass: on.checked, unwatched: WATCHABLE.filter((_, i) => !watches[i].checked) };
      for (const c of [on, ...watches]) c.disabled = true;
      try {
        const saved = await api.setSettings(id, /** @type {string} */ (token), change);
        if (!wanted) keep(saved);
        draw(saved);
      } catch (e) {
        showError(e);
        draw(s);
      }
    };
    on.addEventListener('change', save);
    for (const w of watches) w.addEventListener('change', save);
    fill(box,
      el('summary', {}, `Auto-pass: ${s.autoPass ? 'on' : 'off'}`),
      el('label.setting', {}, on, ' Pass for me at other players\' cards, unless I could play a card ticked below'),
      el('p.small', {}, 'Ask me when I could play:'),
      watches.map((w, i) => el('label.setting.watch', {}, w, ` ${cardName(WATCHABLE[i])}`)),
      el('p.small', {}, 'Unticked cards are passed for you even when you hold them.'));
    box.hidden = false;
  };
  draw(now);
}
