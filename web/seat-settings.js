/**
 * The person's auto-pass settings beside the table (GET/PUT /v1/games/{id}/settings): the
 * server passes for them when passing is all they could do, or all they want to. A box per X
 * card says whether to be asked when they could play it (all ticked at first), and one whether
 * to be asked only when it answers the card just played (ticked at first). The hand says the
 * same on each X card (`markHand`), with a button that opens these settings.
 */
import { api } from './api.js';
import { cardName } from './cards.js';
import { byId, el, fill } from './dom.js';
import { showError } from './ui.js';

/** The X cards one can watch for, as the server names them (server/auto-pass.ts). */
const WATCHABLE = ['knocked_over', 'mixed_up', 'warm_beer', 'shot_into_beer'];

/** @typedef {{ autoPass: boolean, unwatched: string[], windows: 'all' | 'answering' }} SeatSettings */

/**
 * What this page asks for a person: the server's own default asks a seat at every window it
 * could play an X card in (it cannot tell a person from a program); a person is asked at their
 * own turn, at a card aimed at them, and when an X card they hold answers the card just played
 * (docs/results/2026-12-05-x-card-asks.md measured the asks). Their choice is kept in this
 * browser for their next games; the key is new with that default, so a choice made under the
 * old one (no X card asked) is not read back as theirs.
 */
const KEPT = 'czech-pub:auto-pass:answering';
/** @type {SeatSettings} */
const SERVER_DEFAULT = { autoPass: true, unwatched: [], windows: 'all' };
/** @type {SeatSettings} */
export const PEOPLE_DEFAULT = { autoPass: true, unwatched: [], windows: 'answering' };

/** The settings shown now (null: none, watching or a bot's seat), which the hand's notes follow. @type {SeatSettings | null} */
let shown = null;

/** The person's choice kept in this browser, or the people's default. @returns {SeatSettings} */
function kept() {
  try {
    const s = JSON.parse(localStorage.getItem(KEPT) ?? 'null');
    if (s && typeof s.autoPass === 'boolean' && Array.isArray(s.unwatched)) {
      return { autoPass: s.autoPass, unwatched: WATCHABLE.filter((x) => s.unwatched.includes(x)), windows: s.windows === 'all' ? 'all' : 'answering' };
    }
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

const same = (/** @type {SeatSettings} */ a, /** @type {SeatSettings} */ b) => a.autoPass === b.autoPass && a.unwatched.join() === b.unwatched.join() && a.windows === b.windows;

/**
 * Shows the settings of the token's seat (hidden when watching). A seat still at the server's
 * default gets `wanted` first: the person's kept choice, or what the caller asks (the guide).
 * The hand's notes (`markHand`) follow every change.
 * @param {string} id @param {string | null} token @param {SeatSettings | null} [wanted]
 */
export async function renderSeatSettings(id, token, wanted = null) {
  const box = byId('seat-settings');
  box.hidden = true;
  shown = null;
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
    const answering = /** @type {HTMLInputElement} */ (el('input', { type: 'checkbox', id: 'ask-answering', checked: s.windows === 'answering', disabled: !s.autoPass }));
    const save = async () => {
      /** @type {SeatSettings} */
      const change = { autoPass: on.checked, unwatched: WATCHABLE.filter((_, i) => !watches[i].checked), windows: answering.checked ? 'answering' : 'all' };
      for (const c of [on, answering, ...watches]) c.disabled = true;
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
    answering.addEventListener('change', save);
    for (const w of watches) w.addEventListener('change', save);
    fill(box,
      el('summary', {}, `Auto-pass: ${s.autoPass ? 'on' : 'off'}`),
      el('label.setting', {}, on, ' Pass for me at other players\' cards, unless I could play a card ticked below'),
      el('p.small', {}, 'Ask me when I could play:'),
      watches.map((w, i) => el('label.setting.watch', {}, w, ` ${cardName(WATCHABLE[i])}`)),
      el('label.setting', {}, answering, ' only when it answers the card just played (not after "done", nor at an order played earlier)'),
      el('p.small', {}, 'Unticked cards are passed for you even when you hold them.'));
    box.hidden = false;
    shown = s;
    markHand();
  };
  draw(now);
}

/** When auto-pass asks the person about X card `id`, in words; null for a card that is not an X card one watches for. @param {string} id */
export function askedAbout(id) {
  if (!WATCHABLE.includes(id) || !shown) return null;
  if (!shown.autoPass) return { held: false, words: 'auto-pass is off: you are asked at every card you could answer' };
  if (shown.unwatched.includes(id)) return { held: true, words: 'held back: auto-pass passes for you even when you could play it' };
  return { held: false, words: shown.windows === 'answering' ? 'you are asked when it can answer the card just played' : 'you are asked whenever you could play it' };
}

/**
 * Marks each X card of the person's hand (#hand) with what auto-pass does with it (data-held,
 * a note on the card), and puts a line under the hand saying so, with a button that opens the
 * settings; none when the hand holds no X card one can watch for. Marks made before go first.
 */
export function markHand() {
  const hand = document.getElementById('hand');
  document.getElementById('held-note')?.remove();
  if (!hand) return;
  for (const n of hand.querySelectorAll('.card-held')) n.remove();
  let any = false;
  const held = new Set();
  for (const c of /** @type {NodeListOf<HTMLElement>} */ (hand.querySelectorAll('.card[data-card]'))) {
    const a = askedAbout(String(c.dataset.card));
    if (!a) continue;
    any = true;
    c.dataset.held = String(a.held);
    c.title = `${cardName(String(c.dataset.card))}: ${a.words}`;
    c.append(el('span.card-held', {}, a.held ? 'held back' : 'asked'));
    if (a.held) held.add(cardName(String(c.dataset.card)));
  }
  if (!any) return;
  const open = el('button.linkish', { type: 'button' }, 'Change');
  open.addEventListener('click', () => {
    const box = /** @type {HTMLDetailsElement} */ (byId('seat-settings'));
    box.open = true;
    box.scrollIntoView({ block: 'nearest' });
    box.querySelector('input')?.focus();
  });
  const words = held.size > 0
    ? `Auto-pass holds back ${[...held].join(', ')}: you are not asked about ${held.size === 1 ? 'it' : 'them'}.`
    : shown?.windows === 'answering' && shown.autoPass
      ? 'You are asked about your X cards when one can answer the card just played.'
      : 'You are asked about your X cards whenever you could play one.';
  hand.after(el('p.small.held-note', { id: 'held-note' }, words, ' ', open));
}
