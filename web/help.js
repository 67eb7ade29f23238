/**
 * Help where the newcomer looks: a box that says what a card does when the pointer rests on it
 * (or a finger taps it), with what playing it would give right now when the live game can
 * say; and the rules panel (every term of the table, then every card). All texts are the
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
/** A finger's first tap on a hand card shows its help; a second one plays it. */
let lastTouch = false;

/** @param {string} id @param {HTMLElement} anchor */
function show(id, anchor) {
  const info = cardInfo(id);
  if (!info) return;
  const box = byId('card-help');
  const extra = hooks && anchor.closest('#hand') ? hooks.lines(id) : [];
  fill(box,
    el('div.help-head', {}, el('b', {}, cardName(id)), el('span.help-kind', {}, KIND[info.kind] ?? info.kind)),
    el('p.help-text', { id: 'card-help-text' }, info.text),
    extra.length > 0 ? el('div.help-now', {}, extra) : null);
  box.dataset.card = id;
  box.classList.toggle('pinned', pinned === anchor);
  box.hidden = false;
  // Beside the card on a wide screen; a narrow one shows it as a sheet (style.css).
  const r = anchor.getBoundingClientRect();
  const width = Math.min(320, window.innerWidth - 16);
  box.style.left = `${Math.max(8, Math.min(window.innerWidth - width - 8, r.left))}px`;
  box.style.top = r.top > window.innerHeight / 2 ? '' : `${r.bottom + 6}px`;
  box.style.bottom = r.top > window.innerHeight / 2 ? `${window.innerHeight - r.top + 6}px` : '';
}

function hide() {
  pinned = null;
  byId('card-help').hidden = true;
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
  document.addEventListener('pointerdown', (e) => { lastTouch = e.pointerType === 'touch'; });
  document.addEventListener('focusin', (e) => {
    const c = cardAt(e.target);
    if (c && !pinned) show(String(c.dataset.card), c);
  });
  document.addEventListener('click', (e) => {
    const c = cardAt(e.target);
    if (!c) {
      if (!(e.target instanceof Element && e.target.closest('#card-help'))) hide();
      return;
    }
    const id = String(c.dataset.card);
    const inHand = c.closest('#hand') !== null;
    // A mouse click plays a playable hand card at once; a tap shows its help first.
    if (inHand && hooks && !(lastTouch && pinned !== c) && hooks.play(id)) {
      hide();
      return;
    }
    pinned = pinned === c ? null : c;
    if (pinned) show(id, c);
    else byId('card-help').hidden = true;
  });
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape') hide(); });
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
