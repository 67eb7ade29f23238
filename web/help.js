/**
 * Help where the newcomer looks: a box that says what a card does when the pointer rests on it
 * (or the keyboard focuses it, or a finger presses it long), with what playing it would give
 * right now when the live game can say; and the rules panel (every term of the table, then every card). All texts are the
 * server's (rules.js); the numbers of a preview are the engine's (GET preview).
 */
import { cardName } from './cards.js';
import { byId, el, fill } from './dom.js';
import { cardIds, cardInfo, glossaryTerms, termText } from './rules.js';

/** The kinds' names as printed on a card. */
const KIND = /** @type {Record<string, string>} */ ({ beer: 'order: beer', shot: 'order: shot', non_alcoholic: 'order: non-alcoholic', pub: 'pub card', x: 'X card', closing: 'special' });

/**
 * What the live game adds to a card's help: lines about playing it now, and whether a click
 * on it in the hand plays it. Set by live play while it is the person's turn.
 * @typedef {{ lines: (card: string) => (string | HTMLElement)[], play: (card: string) => boolean }} CardHooks
 */
/** @type {CardHooks | null} */
let hooks = null;
/** @param {CardHooks | null} h */
export function setCardHooks(h) {
  hooks = h;
}

/** @type {HTMLElement | null} */
let pinned = null;
/** The last press was a finger's: its focus shows no help (a tap plays, a long press explains). */
let lastTouch = false;
/** A finger held on a card this long shows its help; the click that may follow does nothing. */
const LONG_PRESS_MS = 450;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let pressTimer;
let longPressed = false;
/** Where the finger went down: moving it further than a few pixels is a scroll, not a press. */
let pressAt = { x: 0, y: 0 };
/** Focus going back to a card as its help closes: that focus opens no help. */
let returning = false;

/** @param {string} id @param {HTMLElement} anchor */
function show(id, anchor) {
  const info = cardInfo(id);
  if (!info) return;
  const box = byId('card-help');
  const extra = hooks && anchor.closest('#hand') ? hooks.lines(id) : [];
  // Pinned (a click, a long press), the box says how to close it: a finger has no Escape key.
  const close = pinned === anchor ? el('button.help-close', { type: 'button', id: 'card-help-close', 'aria-label': 'Close the card help', onclick: hide }, '×') : null;
  fill(box,
    el('div.help-head', {}, el('b', {}, cardName(id)), el('span.help-kind', {}, KIND[info.kind] ?? info.kind), close),
    el('p.help-text', { id: 'card-help-text' }, info.text),
    extra.length > 0 ? el('div.help-now', {}, extra) : null);
  box.dataset.card = id;
  box.classList.toggle('pinned', pinned === anchor);
  box.hidden = false;
  // Beside the card on a wide screen; a narrow one shows it as a sheet (style.css).
  const r = anchor.getBoundingClientRect();
  const width = Math.min(320, window.innerWidth - 16);
  box.style.left = `${Math.max(8, Math.min(window.innerWidth - width - 8, r.left))}px`;
  // Above a card in the lower half, below one in the upper half, never over it.
  const above = r.top > window.innerHeight / 2;
  box.style.top = above ? '' : `${r.bottom + 6}px`;
  box.style.bottom = above ? `${window.innerHeight - r.top + 6}px` : '';
  box.style.maxHeight = `${Math.max(80, (above ? r.top : window.innerHeight - r.bottom) - 14)}px`;
}

function hide() {
  const box = byId('card-help');
  // Focus inside the box (its close button) goes back to the card it explained.
  const back = box.contains(document.activeElement) ? pinned : null;
  pinned = null;
  box.hidden = true;
  returning = true;
  if (back?.isConnected) back.focus();
  returning = false;
}

/**
 * A click, a tap, Enter or Space on a card: a playable hand card plays (several ways: its
 * choices are picked out); any other card pins its help, or unpins it.
 * @param {HTMLElement} c
 */
function activate(c) {
  const id = String(c.dataset.card);
  if (c.closest('#hand') !== null && hooks && hooks.play(id)) {
    hide();
    return;
  }
  pinned = pinned === c ? null : c;
  if (pinned) show(id, c);
  else byId('card-help').hidden = true;
}

/** The table is redrawn: a help box left by hover would float over a card that is gone. */
export function dropHoverHelp() {
  if (pinned && !pinned.isConnected) pinned = null;
  if (!pinned) byId('card-help').hidden = true;
}

/** @param {EventTarget | null} t @returns {HTMLElement | null} */
const cardAt = (t) => (t instanceof Element ? /** @type {HTMLElement | null} */ (t.closest('.card[data-card]')) : null);

/** Hover, focus and tap on any card anywhere on the page, by delegation (the table is redrawn often). */
export function bindCardHelp() {
  document.addEventListener('pointerover', (e) => {
    const c = cardAt(e.target);
    if (c && e.pointerType !== 'touch' && !pinned) show(String(c.dataset.card), c);
  });
  document.addEventListener('pointerout', (e) => {
    const c = cardAt(e.target);
    if (c && !pinned && !(e.relatedTarget instanceof Node && c.contains(e.relatedTarget))) byId('card-help').hidden = true;
  });
  document.addEventListener('pointerdown', (e) => {
    lastTouch = e.pointerType === 'touch';
    longPressed = false;
    clearTimeout(pressTimer);
    const c = cardAt(e.target);
    if (c && lastTouch) {
      pressAt = { x: e.clientX, y: e.clientY };
      pressTimer = setTimeout(() => {
        longPressed = true;
        pinned = c;
        show(String(c.dataset.card), c);
      }, LONG_PRESS_MS);
    }
  });
  document.addEventListener('pointerup', () => clearTimeout(pressTimer));
  document.addEventListener('pointercancel', () => clearTimeout(pressTimer));
  document.addEventListener('pointermove', (e) => {
    if (Math.hypot(e.clientX - pressAt.x, e.clientY - pressAt.y) > 10) clearTimeout(pressTimer);
  });
  // A long press opens the phone's own menu too: the help takes its place on a card.
  document.addEventListener('contextmenu', (e) => { if (cardAt(e.target) && lastTouch) e.preventDefault(); });
  document.addEventListener('focusin', (e) => {
    const c = cardAt(e.target);
    if (c && !pinned && !lastTouch && !returning) show(String(c.dataset.card), c);
  });
  document.addEventListener('keydown', () => { lastTouch = false; }, true);
  document.addEventListener('click', (e) => {
    const c = cardAt(e.target);
    if (!c) {
      if (!(e.target instanceof Element && e.target.closest('#card-help'))) hide();
      return;
    }
    if (longPressed) {
      longPressed = false;
      return;
    }
    activate(c);
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') return hide();
    const c = cardAt(e.target);
    if (c && (e.key === 'Enter' || e.key === ' ') && !e.repeat) {
      e.preventDefault();
      activate(c);
    }
  });
}

/** The rules panel: the glossary (the goal first), then what every card does; and the goal on the first screen. */
export function renderRules() {
  byId('goal').textContent = termText('Goal');
  fill(byId('rules-body'),
    el('dl.glossary', {}, glossaryTerms().map((t) => [el('dt', {}, t.term), el('dd', {}, t.text)])),
    el('h3', {}, 'The cards'),
    el('dl.card-list', {}, [...cardIds(), 'closing_time'].map((id) => [
      el('dt', {}, el(`span.swatch.k-${cardInfo(id)?.kind}`), cardName(id), el('span.help-kind', {}, KIND[cardInfo(id)?.kind ?? ''] ?? '')),
      el('dd', { dataset: { card: id } }, cardInfo(id)?.text ?? ''),
    ])));
}

export function bindRulesPanel() {
  const panel = byId('rules-panel');
  const open = byId('rules-open');
  const close = () => {
    const inside = panel.contains(document.activeElement);
    panel.hidden = true;
    open.setAttribute('aria-expanded', 'false');
    if (inside) open.focus();
  };
  open.setAttribute('aria-expanded', 'false');
  open.addEventListener('click', () => {
    if (!panel.hidden) return close();
    panel.hidden = false;
    open.setAttribute('aria-expanded', 'true');
  });
  byId('rules-close').addEventListener('click', close);
  // Escape closes it, and focus goes back to the button that opened it.
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape' && !panel.hidden) close(); });
}
