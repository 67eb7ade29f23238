/**
 * Help where the newcomer looks: a box that says what a card does when the pointer rests on it
 * (or the keyboard focuses it, or a finger taps it or presses it long), with what playing it
 * would give right now when the live game can say; and the rules panel (every term of the
 * table, then every card). All texts are the server's (rules.js); the numbers of a preview are
 * the engine's (GET preview).
 *
 * A hand card the person may play: a click, Enter or Space plays it at once. A finger has no
 * hover, so its first tap selects the card and shows its help with a "Play" button; a second
 * tap on the card, or that button, plays it.
 */
import { cardName } from './cards.js';
import { byId, el, fill } from './dom.js';
import { cardIds, cardInfo, glossaryTerms, termText } from './rules.js';

/** The kinds' names as printed on a card. */
const KIND = /** @type {Record<string, string>} */ ({ beer: 'order: beer', shot: 'order: shot', non_alcoholic: 'order: non-alcoholic', pub: 'pub card', x: 'X card', closing: 'special' });

/**
 * What the live game adds to a hand card's help, set by live play while it is the person's
 * turn: in how many ways the card can be played now, what each would give (the previews), and
 * playing it (one way: sent; several: their buttons picked out; false when it cannot be played).
 * @typedef {{ ways: (card: string) => number, lines: (card: string) => (string | HTMLElement)[], play: (card: string) => boolean }} CardHooks
 */
/** @type {CardHooks | null} */
let hooks = null;
/** @param {CardHooks | null} h */
export function setCardHooks(h) {
  hooks = h;
}

/** The card whose help stays open (a click, a tap, a long press) until closed. @type {HTMLElement | null} */
let pinned = null;
/** The pinned card was chosen by a finger: a playable hand card is then selected, and its box offers to play it. */
let pinnedByTouch = false;
/** The last press was a finger's: its focus shows no help (a tap selects, a long press explains). */
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
  const live = hooks && anchor.closest('#hand') ? hooks : null;
  const ways = live ? live.ways(id) : 0;
  const held = pinned === anchor;
  // Pinned (a click, a tap, a long press), the box says how to close it: a finger has no Escape key.
  const close = held ? el('button.help-close', { type: 'button', id: 'card-help-close', 'aria-label': 'Close the card help', onclick: hide }, '×') : null;
  // A hand card a finger selected: played from here, or by a second tap on the card.
  const selected = held && pinnedByTouch && ways > 0;
  const play = selected ? el('button.primary.help-play', { type: 'button', id: 'card-help-play', onclick: () => playCard(anchor) }, `Play ${cardName(id)}`) : null;
  const how = selected ? (ways === 1 ? 'Tap it again, or Play, to play it.' : 'Tap it again, or Play, then choose below.')
    : ways === 1 ? 'Click to play it.' : 'Click, then choose below.';
  const now = !live ? [] : ways === 0 ? [el('span.help-cannot', {}, 'Not playable now.')] : [...live.lines(id), el('span.help-click', {}, how)];
  fill(box,
    el('div.help-head', {}, el('b', {}, cardName(id)), el('span.help-kind', {}, KIND[info.kind] ?? info.kind), close),
    // The texts scroll inside the box when the window is short; its head and its Play button stay.
    el('div.help-body', {},
      el('p.help-text', { id: 'card-help-text' }, info.text),
      now.length > 0 ? el('div.help-now', {}, now) : null),
    play);
  box.dataset.card = id;
  box.classList.toggle('pinned', held);
  box.hidden = false;
  // Beside the card on a wide screen; a narrow one shows it full width (style.css).
  const r = anchor.getBoundingClientRect();
  const width = Math.min(320, window.innerWidth - 16);
  box.style.left = `${Math.max(8, Math.min(window.innerWidth - width - 8, r.left))}px`;
  // On the side of the card with more room, never over it, and whole inside the window.
  const above = r.top > window.innerHeight - r.bottom;
  box.style.top = above ? '' : `${Math.max(8, r.bottom + 6)}px`;
  box.style.bottom = above ? `${Math.max(8, window.innerHeight - r.top + 6)}px` : '';
  box.style.maxHeight = `${Math.max(80, (above ? r.top : window.innerHeight - r.bottom) - 14)}px`;
}

/** Plays a hand card (its help closes first, so a confirmation gives the focus back to the card). @param {HTMLElement} c */
function playCard(c) {
  const live = hooks;
  hide();
  live?.play(String(c.dataset.card));
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
 * A click, Enter or Space on a playable hand card plays it (several ways: its choices are
 * picked out); a finger's first tap selects it (its help, with a Play button) and a second
 * plays it. Any other card pins its help, or unpins it.
 * @param {HTMLElement} c @param {boolean} touch
 */
function activate(c, touch) {
  const id = String(c.dataset.card);
  const playable = hooks !== null && c.closest('#hand') !== null && hooks.ways(id) > 0;
  if (playable && (!touch || (pinned === c && pinnedByTouch))) {
    playCard(c);
    return;
  }
  pinned = playable || pinned !== c ? c : null;
  pinnedByTouch = touch;
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
        pinnedByTouch = true;
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
    activate(c, lastTouch);
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') return hide();
    const c = cardAt(e.target);
    if (c && (e.key === 'Enter' || e.key === ' ') && !e.repeat) {
      e.preventDefault();
      activate(c, false);
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
