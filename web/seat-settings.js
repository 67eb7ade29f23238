/**
 * The person's auto-pass settings beside the table (GET/PUT /v1/games/{id}/settings): on by
 * default, the server passes for them when passing is all they could do, or all they want to;
 * a box per X card says whether to be asked when they could play it.
 */
import { api } from './api.js';
import { cardName } from './cards.js';
import { byId, el, fill } from './dom.js';
import { showError } from './ui.js';

/** The X cards one can watch for, as the server names them (server/auto-pass.ts). */
const WATCHABLE = ['knocked_over', 'mixed_up', 'warm_beer', 'shot_into_beer'];

/** @typedef {{ autoPass: boolean, unwatched: string[] }} SeatSettings */

/** Shows the settings of the token's seat; hidden when watching. @param {string} id @param {string | null} token */
export async function renderSeatSettings(id, token) {
  const box = byId('seat-settings');
  box.hidden = true;
  if (!token) return;
  /** @type {SeatSettings} */
  let now;
  try {
    now = await api.settings(id, token);
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
        draw(await api.setSettings(id, /** @type {string} */ (token), change));
      } catch (e) {
        showError(e);
        draw(s);
      }
    };
    on.addEventListener('change', save);
    for (const w of watches) w.addEventListener('change', save);
    fill(box,
      el('summary', {}, `Auto-pass: ${s.autoPass ? 'on' : 'off'}`),
      el('label.setting', {}, on, ' Pass for me when passing is all I can do'),
      el('p.small', {}, 'Ask me when I could play:'),
      watches.map((w, i) => el('label.setting.watch', {}, w, ` ${cardName(WATCHABLE[i])}`)),
      el('p.small', {}, 'Unticked cards are passed for you even when you hold them.'));
    box.hidden = false;
  };
  draw(now);
}
