/**
 * The guided first game: a real game against two bots on a seed chosen so it meets, early,
 * each thing a newcomer must learn (guide-moments.js). At each such moment live play waits
 * while a coach note says what is happening, in the server's own words (the glossary and the
 * card texts, rules.js), and points at the part of the table it is about. "Got it" or Escape
 * closes a note; "Skip the guide" ends the notes and the game plays on as any game. Offered on
 * the first screen until played to its end or declined (remembered in localStorage).
 */
import { cardName } from './cards.js';
import { byId, el, fill } from './dom.js';
import { GUIDE_SEATS, GUIDE_SEED, MOMENTS, momentsIn, xOnYou } from './guide-moments.js';
import { cardIds, cardInfo, termText } from './rules.js';

export { GUIDE_SEATS, GUIDE_SEED };

const DONE = 'czech-pub:guide-done';

/** Whether this browser has played the guided game through, or declined it. */
function guideDone() {
  try {
    return localStorage.getItem(DONE) === '1';
  } catch {
    return false;
  }
}

function markDone() {
  try {
    localStorage.setItem(DONE, '1');
  } catch {
    // No storage: the offer comes back next time, which does no harm.
  }
}

/**
 * The offer on the first screen: a newcomer's invitation, or, once done, a quiet way back in.
 * @param {() => void} onStart
 */
export function renderGuideOffer(onStart) {
  const box = byId('guide-offer');
  const start = el('button.primary', { type: 'button', id: 'guide-start', onclick: onStart }, 'Play a guided first game');
  if (guideDone()) {
    fill(box, el('p.small', {}, 'Want the walk-through again? ', el('button', { type: 'button', id: 'guide-start', onclick: onStart }, 'Guided first game')));
  } else {
    fill(box,
      el('p', {}, el('b', {}, 'New here? '), 'Play a guided first game: a real game against two bots, with a short note each time something new happens.'),
      el('div.guide-buttons', {}, start,
        el('button', { type: 'button', id: 'guide-decline', onclick: () => { markDone(); renderGuideOffer(onStart); } }, 'No thanks')));
  }
  box.hidden = false;
}

/**
 * A note: its title, what it says (lines of the server's texts), and where on the table it points.
 * @typedef {{ moment: string, title: string, lines: string[], target: string }} Note
 */

/** @typedef {import('./frame.js').SeatState & { legalActions: (import('./frame.js').NamedAction & { plays?: string })[] }} SeatState */

export class Guide {
  /** Moments already explained: each gets one note. @type {Set<string>} */
  met = new Set();
  on = true;
  /** Closes the note on screen: true goes on with the guide, false ends it. @type {((goOn: boolean) => void) | null} */
  closing = null;
  /** Whose turn it was at the last step seen (X cards hit the player whose turn it is). @type {number | null} */
  active = null;

  /** @param {number} you  the person's seat */
  constructor(you) {
    this.you = you;
    // Escape closes the note on screen (listened to only while one is).
    this.onKey = (/** @type {KeyboardEvent} */ e) => {
      if (e.key === 'Escape' && this.closing) this.closing(true);
    };
  }

  /**
   * Called by live play for each step it shows: the notes of the moments this step is the
   * first of, one after another. Resolves once the person has closed them (or left the guide).
   * @param {SeatState} data
   */
  async at(data) {
    if (!this.on) return;
    /** @type {Note[]} */
    const notes = [];
    if (data.step === 0 && !this.met.has('goal')) notes.push(this.goalNote());
    const before = this.active;
    this.active = data.view.turnState.active;
    for (const m of momentsIn(data, this.you, before)) {
      const note = this.met.has(m) ? null : this.noteFor(m, data, before);
      if (note) notes.push(note);
    }
    for (const note of notes) {
      this.met.add(note.moment);
      if (!(await this.show(note))) return this.close();
    }
    if (data.done && data.step === data.steps) this.close();
  }

  /** Whether a note may still come: the guide is on and a moment (the goal, or one of MOMENTS) is still unexplained. */
  get expecting() {
    return this.on && this.met.size < 1 + MOMENTS.length;
  }

  /**
   * Ends the guide: no more notes. Played through or skipped, the first screen stops offering
   * it; left with "New game" (`done` false), it is offered again.
   */
  close(done = true) {
    this.on = false;
    this.closing?.(false);
    if (done) markDone();
  }

  /** @returns {Note} */
  goalNote() {
    return { moment: 'goal', title: 'Your first game', target: '.home .player', lines: [
      termText('Goal'),
      'You are Player 0, at the bottom; two bots hold the other seats. A note like this one explains each new thing as it comes up.',
    ] };
  }

  /** @param {import('./guide-moments.js').Moment} m @param {SeatState} data @param {number | null} before @returns {Note | null} */
  noteFor(m, data, before) {
    const mine = data.events.filter((e) => /** @type {{ seat?: number }} */ (e).seat === this.you);
    const said = (/** @type {string} */ k) => mine.filter((e) => e.k === k && e.text).map((e) => `On the table: ${e.text}`);
    switch (m) {
      case 'turn':
        return { moment: m, title: 'Your turn', target: '#hand', lines: [termText('Turn'), 'Each card says in short what it does. Point at it for the whole text and what playing it would give; a click plays it. On a touch screen, tap it once for the text and again to play it.', 'Not sure? Press Hint under the choices: it says what the Strong bot would play here, and what that choice gives you and the others.'] };
      case 'digest':
        return { moment: m, title: 'Digestion', target: '.home .player .stats', lines: [termText('Digestion and the roll'), ...said('digest')] };
      case 'chart':
        return { moment: m, title: 'The drunkenness chart', target: '.home .player table.chart', lines: [termText('Drunkenness chart'), ...said('level_up')] };
      case 'x':
        return this.xNote(data, before);
      default:
        return null;
    }
  }

  /**
   * An X card played on the person, or one they may play now: the held card whose name opens
   * a legal action's ("Knocked-over glass: discard their Beer").
   * @param {SeatState} data @param {number | null} before @returns {Note}
   */
  xNote(data, before) {
    const [onYou] = /** @type {{ card?: number, text?: string | null }[]} */ (xOnYou(data, this.you, before));
    if (onYou) {
      const card = onYou.card === undefined ? undefined : cardIds()[onYou.card];
      return { moment: 'x', title: 'An X card, played on you', target: '.home .player .front',
        lines: [onYou.text ? `On the table: ${onYou.text}` : '', card ? `${cardName(card)}: ${cardInfo(card)?.text ?? ''}` : ''] };
    }
    const held = Object.entries(/** @type {Record<string, number>} */ (data.view.hand)).filter(([, n]) => n > 0).map(([id]) => id);
    const card = held.find((id) => data.legalActions.some((a) => a.plays === id));
    return { moment: 'x', title: 'An X card: your move in their turn', target: card ? `#hand .card[data-card="${card}"]` : '#actions',
      lines: [card ? `${cardName(card)}: ${cardInfo(card)?.text ?? ''}` : '', 'Play it with one of its buttons below, or pass. Hint says whether the Strong bot would.'] };
  }

  /**
   * Shows one note beside its target; resolves true on "Got it" (or Escape), false on "Skip the guide".
   * @param {Note} note @returns {Promise<boolean>}
   */
  show(note) {
    const box = byId('guide-note');
    const target = /** @type {HTMLElement | null} */ (document.querySelector(note.target));
    return new Promise((resolve) => {
      const back = /** @type {HTMLElement | null} */ (document.activeElement instanceof HTMLElement ? document.activeElement : null);
      // A window made smaller (a phone turned, a laptop's window resized) keeps the note inside it.
      const replace = () => place(box, target);
      this.closing = (goOn) => {
        this.closing = null;
        document.removeEventListener('keydown', this.onKey);
        window.removeEventListener('resize', replace);
        box.hidden = true;
        box.replaceChildren();
        target?.classList.remove('guide-target');
        if (back?.isConnected) back.focus();
        resolve(goOn);
      };
      const close = (/** @type {boolean} */ goOn) => () => this.closing?.(goOn);
      fill(box,
        el('h2', { id: 'guide-note-title' }, note.title),
        note.lines.filter(Boolean).map((line) => el('p', {}, line)),
        el('div.guide-buttons', {},
          el('button.primary', { type: 'button', id: 'guide-ok', onclick: close(true) }, 'Got it'),
          el('button', { type: 'button', id: 'guide-skip', onclick: close(false) }, 'Skip the guide')));
      box.dataset.moment = note.moment;
      box.hidden = false;
      document.addEventListener('keydown', this.onKey);
      target?.classList.add('guide-target');
      target?.scrollIntoView?.({ block: 'nearest' });
      place(box, target);
      window.addEventListener('resize', replace);
      box.focus();
    });
  }
}

/**
 * Beside the target on a wide screen (below it, or above when it sits low), always whole inside
 * the window: the note is fixed, so the page cannot scroll to a part of it outside the window.
 * A note taller than the window scrolls inside itself. A phone shows it as a sheet (style.css).
 * @param {HTMLElement} box @param {HTMLElement | null} target
 */
function place(box, target) {
  const margin = 8;
  box.style.maxHeight = `${window.innerHeight - 2 * margin}px`;
  box.style.overflowY = 'auto';
  box.style.bottom = '';
  const height = Math.min(box.offsetHeight, window.innerHeight - 2 * margin);
  const width = Math.min(380, window.innerWidth - 2 * margin);
  const r = target?.getBoundingClientRect() ?? null;
  box.style.left = `${r ? Math.max(margin, Math.min(window.innerWidth - width - margin, r.left)) : margin}px`;
  const wanted = !r ? (window.innerHeight - height) / 2 : r.top > window.innerHeight / 2 ? r.top - margin - height : r.bottom + margin;
  box.style.top = `${Math.max(margin, Math.min(window.innerHeight - height - margin, wanted))}px`;
}
