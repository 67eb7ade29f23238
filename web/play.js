/**
 * Live play from a seat (or watching, with the watch token). Bots move on the server as soon
 * as it is their turn, so each answer may be several steps ahead of what the page has shown;
 * the page walks through the steps in between one at a time (GET view?at=K), at the chosen
 * pace, and turns the action buttons on only at the current step. Other people's moves arrive
 * through the event stream (live.js). At each of the person's decisions the preview (GET
 * preview) says what each choice would do and what digesting would give; a choice that may end
 * their game is sent only once they confirm it; a click, Enter or Space on a hand card plays it
 * (a finger's first tap shows its help, a second plays it: help.js). Each new decision is
 * scrolled into view once. The person's turn, a card they may react to and the end are said in the live region.
 *
 * A page opened on a game already under way (a reload, a link) first fills its log from step 0
 * (GET history: the seat's own events, a few hundred steps a request). When the server cannot
 * be reached the page keeps trying (api.js, live.js) and, once back, shows the game as it
 * stands; a move whose request got no answer is not sent again: the view says whether it was made.
 */
import { disableActions, renderActions, showChoices } from './actions.js';
import { api, isDecisionChanged, isGone, Unreachable } from './api.js';
import { countedCards } from './cards.js';
import { promptContent } from './centre.js';
import { confirmRisk } from './confirm.js';
import { byId, el, fill } from './dom.js';
import { endPanel } from './end.js';
import { doneToYou, renderDoneToYou } from './done-to-you.js';
import { makeFrame, seatName, seatPresence, setTableMeta } from './frame.js';
import { dropHoverHelp, setCardHooks } from './help.js';
import { hintControl } from './hint.js';
import { follow } from './live.js';
import { appendEntry, stepEntry } from './log.js';
import { choicePreview, riskWords } from './preview.js';
import { markHand, PEOPLE_DEFAULT, renderSeatSettings } from './seat-settings.js';
import { renderTable } from './table.js';
import { announce, clearError, keepClear, paceMs, setState, showError, waitPace } from './ui.js';

/** @typedef {{ step: number, lastAction: import('./frame.js').TakenAction | null, events: import('./frame.js').NarratedEvent[] }} HistoryEntry  a step as the seat saw it (GET history) */
/** @typedef {{ id: string, token: string, you: number | null, seats: string[] }} PlayGame  `you`: the person's seat, null when watching */
/** @typedef {import('./frame.js').SeatState & { openSeats?: number[], legalActions: (import('./frame.js').NamedAction & { note?: string, plays?: string })[] }} SeatState */
/** @typedef {import('./preview.js').PreviewAnswer} PreviewAnswer */

/** Whether the person's last press was a key: only then does focus follow the turn (a focused card shows its help). */
let viaKeys = false;
document.addEventListener('keydown', () => { viaKeys = true; }, true);
document.addEventListener('pointerdown', () => { viaKeys = false; }, true);

/** When the last press began; the game being played, whose decision's buttons a press may be for. */
let pressedAt = 0;
/** @type {Play | null} */
let playing = null;
document.addEventListener('pointerdown', () => { pressedAt = performance.now(); }, true);
// A press begun before the decision's buttons came was meant for the decision before (it was
// asked again after an X card, or moved on): its click is dropped, not played on the new one.
// Keys are not held back: a key's click (detail 0) comes from a button the person had focused.
document.addEventListener('click', (e) => {
  if (!playing || e.detail === 0 || pressedAt >= playing.askedAt) return;
  const t = /** @type {Element | null} */ (e.target);
  if (t?.closest('#actions button.action, #hand .card')) {
    e.preventDefault();
    e.stopImmediatePropagation();
  }
}, true);

export class Play {
  stopped = false;
  skipping = false;
  /** The last step shown (its events are in the log). */
  shown = -1;
  /** What the current step was settled with, so a stream event that changed nothing redraws nothing. */
  settledKey = '';
  /** Syncs and actions, one at a time. @type {Promise<unknown>} */
  queue = Promise.resolve();
  syncQueued = false;
  /** @type {{ stop: () => void } | null} */
  stream = null;
  /** The line last said in the live region, and the step of the decision it was said for. */
  said = '';
  saidStep = -1;
  /** What others did to the person since their last decision (done-to-you.js). @type {import('./done-to-you.js').DoneToYou[]} */
  doneToYou = [];
  /** Whose turn it was at the last step shown (-1: none shown yet). */
  active = -1;
  /** The step whose decision was last scrolled into view. */
  broughtStep = -1;
  /** The step of the decision the buttons answer now (-1: none); a move is sent as the answer to it. */
  askedStep = -1;
  /** The person's last decision: its step, kind and card, to tell a decision asked again after an X card. */
  lastAsked = { step: -1, kind: '', card: /** @type {string | null} */ (null) };
  /** The X cards played since the person's last decision, in words (the steps shown since). @type {string[]} */
  xSince = [];
  /** When the current decision's buttons came (performance.now()): a press begun before is for the one before. */
  askedAt = 0;
  /** The line saying the decision was asked again, kept for a redraw of the same decision. @type {HTMLElement | null} */
  againLine = null;

  /**
   * @param {PlayGame} game @param {() => void} onReplay
   * @param {boolean} [fresh]  a game just made: its first steps are walked through; a game
   *   rejoined (a reload, a link) opens at the present, its log filled from step 0.
   * @param {() => void} [onGone]  the server no longer holds the game
   * @param {import('./guide.js').Guide | null} [guide]  the guided first game's coach: each step
   *   shown waits while its notes are open
   */
  constructor(game, onReplay, fresh = false, onGone = () => {}, guide = null) {
    playing = this;
    this.game = game;
    this.onReplay = onReplay;
    this.fresh = fresh;
    this.onGone = onGone;
    this.guide = guide;
  }

  stop() {
    this.stopped = true;
    this.guide?.close(false);
    this.stream?.stop();
    setCardHooks(null);
  }

  skip() {
    this.skipping = true;
  }

  async start() {
    if (!this.fresh) await this.guard(() => this.history());
    if (this.game.you !== null) void renderSeatSettings(this.game.id, this.game.token, this.guide ? PEOPLE_DEFAULT : null);
    await this.sync();
    this.listen();
  }

  /** Follows the event stream; when it gives up on the server, says so and offers to try again. */
  listen() {
    if (this.stopped) return;
    this.stream = follow(this.game.id, this.game.token, 0, () => this.sync(), () => {
      if (this.stopped) return;
      this.failed(new Unreachable('Cannot reach the server: it stopped answering. Check your connection, then press "Show the game as it stands".'));
      this.stream = null;
    });
  }

  /**
   * The log from step 0 up to the present as the seat saw it, as if the page had been there:
   * every step but the last (the present, which the sync shows) at once, no pace.
   */
  async history() {
    const log = byId('log');
    /** @type {HistoryEntry[]} */
    const entries = [];
    for (let from = 0; ;) {
      const page = await api.history(this.game.id, this.game.token, from);
      if (this.stopped) return;
      entries.push(...page.entries);
      if (page.next === null) break;
      from = page.next;
    }
    const last = entries.length - 1;
    const shown = entries.slice(0, last).map((e) => stepEntry(e.step, e.lastAction, e.events, this.game.you));
    log.append(...shown);
    log.scrollTop = log.scrollHeight;
    this.shown = last - 1;
  }

  /**
   * Catches up with the game as it stands now. Syncs and actions run one at a time, in order
   * (an older answer drawn after a newer one would show a stale turn); syncs asked for while
   * one waits its turn are one sync.
   */
  sync() {
    if (this.syncQueued) return this.queue;
    this.syncQueued = true;
    return this.enqueue(async () => {
      this.syncQueued = false;
      await this.guard(async () => this.walk(await api.view(this.game.id, this.game.token)));
    });
  }

  /** @param {number} action */
  act(action) {
    this.doneToYou = [];
    renderDoneToYou([]);
    clearError();
    setCardHooks(null);
    disableActions(byId('actions'));
    setState('waiting');
    const step = this.askedStep;
    this.askedStep = -1;
    return this.enqueue(() => this.guard(async () => {
      let now;
      try {
        now = await api.act(this.game.id, this.game.token, action, step >= 0 ? step : undefined);
      } catch (e) {
        // The game moved on before the move arrived (an X card asked again): nothing was played; the page shows the new decision.
        if (isDecisionChanged(e)) {
          this.settledKey = '';
          await this.walk(await api.view(this.game.id, this.game.token));
          return;
        }
        if (!(e instanceof Unreachable)) throw e;
        // No answer: the move may or may not have been made. It is not sent again; the view says which.
        this.settledKey = '';
        now = await api.view(this.game.id, this.game.token);
      }
      await this.walk(now);
    }));
  }

  /**
   * Sends a choice, after asking when its preview says it may end the person's game.
   * @param {number} action @param {PreviewAnswer | null} preview
   */
  async choose(action, preview) {
    const p = preview?.actions.find((a) => a.id === action);
    if (p?.risk && !(await confirmRisk(p.name, riskWords(p.risk)))) return;
    if (!this.stopped) await this.act(action);
  }

  /** @param {() => Promise<void>} f */
  enqueue(f) {
    const next = this.queue.then(f, f);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Runs a request; on failure shows the error and offers to catch up again. @param {() => Promise<void>} f */
  async guard(f) {
    try {
      await f();
    } catch (e) {
      if (this.stopped) return;
      if (isGone(e)) {
        this.stop();
        this.onGone();
        return;
      }
      this.failed(e);
    }
  }

  /** Says what went wrong and offers to catch up again (the event stream too, if it gave up). @param {unknown} e */
  failed(e) {
    showError(e);
    setState('playing');
    this.settledKey = '';
    fill(byId('actions'), this.resyncButton());
  }

  resyncButton() {
    return el('button.primary', { type: 'button', id: 'resync', onclick: () => { clearError(); if (!this.stream) this.listen(); this.sync(); } }, 'Show the game as it stands');
  }

  /** Shows every step after the last one shown, up to `now` (the current state). @param {SeatState} now */
  async walk(now) {
    if (this.stopped) return;
    const key = `${now.step}/${(now.openSeats ?? []).join(',')}`;
    if (key === this.settledKey) return;
    setState('waiting');
    byId('skip').hidden = false;
    for (let k = this.shown + 1; k < now.step; k++) {
      if (this.unseen()) {
        await this.pass(now.step);
        break;
      }
      const data = await api.view(this.game.id, this.game.token, k);
      if (this.stopped) return;
      this.show(data);
      await this.guide?.at(data);
      await waitPace(() => this.skipping || this.stopped);
      if (this.stopped) return;
    }
    this.skipping = false;
    byId('skip').hidden = true;
    this.show(now);
    await this.guide?.at(now);
    if (this.stopped) return;
    await this.settle(now);
    this.settledKey = key;
  }

  /**
   * Whether the steps still to show would not be seen: at pace 0, or skipped, a step passed on
   * the way is not on screen long enough; while a coach note may come they are (a note points
   * at the table of its step).
   */
  unseen() {
    return (paceMs() === 0 || this.skipping) && !(this.guide?.expecting ?? false);
  }

  /**
   * Puts every step from the one after the last shown up to `to` (not included) in the log at
   * once, as the seat saw them (history pages, not a view a step), and notes what was done to
   * the person; the table is drawn once, at `to`. Drawing each step on the way costs a page
   * redrawn per step for nothing anyone sees.
   * @param {number} to
   */
  async pass(to) {
    /** @type {HistoryEntry[]} */
    const entries = [];
    for (let from = this.shown + 1; from < to;) {
      const page = await api.history(this.game.id, this.game.token, from);
      if (this.stopped) return;
      entries.push(...page.entries.filter((/** @type {HistoryEntry} */ e) => e.step < to));
      if (page.next === null) break;
      from = page.next;
    }
    const log = byId('log');
    log.append(...entries.map((e) => stepEntry(e.step, e.lastAction, e.events, this.game.you)));
    log.scrollTop = log.scrollHeight;
    for (const e of entries) this.noteDoneToYou(e.events);
    this.shown = Math.max(this.shown, ...entries.map((e) => e.step));
  }

  /** The table from the person's seat (seat 0's side when watching). @param {import('./frame.js').PlayerView} view */
  frame(view) {
    return makeFrame(this.game, this.game.you ?? 0, view);
  }

  /** @param {SeatState} data */
  show(data) {
    setTableMeta(data);
    const f = this.frame(data.view);
    const hand = this.game.you === null || data.done ? null : el('section.hand-area', { 'aria-label': 'your hand' },
      el('h2', {}, `Your hand (${data.view.handSize})`),
      el('p.tap-hint', {}, 'Tap a card to see what it does; tap it again to play it.'),
      el('div.hand', { id: 'hand' }, countedCards(data.view.hand).map((c) => { c.setAttribute('role', 'button'); return c; })));
    renderTable(byId('table'), f, hand);
    markHand();
    dropHoverHelp();
    const yours = this.game.you !== null && data.view.decision.actor === this.game.you;
    fill(byId('prompt'), yours || this.game.you === null ? promptContent(data.view, f) : data.done ? null : el('span.waiting', {}, this.waitingFor(data)));
    byId('actions').replaceChildren();
    if (data.step > this.shown) {
      appendEntry(byId('log'), stepEntry(data.step, data.lastAction, data.events, this.game.you));
      this.shown = data.step;
      this.noteDoneToYou(data.events, data.view.turnState.active);
    }
    renderDoneToYou(data.done ? [] : this.doneToYou);
  }

  /**
   * Adds what others did to the person in a step's events.
   * @param {import('./frame.js').NarratedEvent[]} stepEvents
   * @param {number} [active] whose turn it is after them, when the step's view says (else followed through the events' turns)
   */
  noteDoneToYou(stepEvents, active) {
    const you = this.game.you;
    if (you === null) return;
    const r = doneToYou(stepEvents, you, this.active < 0 ? active ?? -1 : this.active);
    this.doneToYou.push(...r.done);
    const events = /** @type {import('./done-to-you.js').SeatEvent[]} */ (stepEvents);
    this.xSince.push(...events.filter((e) => e.k === 'x' && e.text && e.seat !== you).map((e) => String(e.text)));
    this.active = active ?? r.active;
  }

  /** "Waiting for Player 2 to join", "Player 1 is deciding…". @param {SeatState} data */
  waitingFor(data) {
    const open = data.openSeats ?? [];
    if (open.length > 0) return `Waiting for ${open.map(seatName).join(', ')} to join (lobby)…`;
    const d = data.view.decision.actor;
    if (this.game.seats[d] !== 'remote') return 'The bots are playing…';
    return seatPresence(d) === 'away' ? `${seatName(d)} is away; the game waits for them…` : `${seatName(d)} is deciding…`;
  }

  /** At the current step: the end screen, the person's buttons and preview, or waiting. @param {SeatState} now */
  async settle(now) {
    const actions = byId('actions');
    if (now.done) {
      fill(actions, endPanel(now.scores ?? [], now.view.winners ?? [], this.frame(now.view), this.onReplay));
      setState('over');
      this.bringIntoView(now.step);
      announce(`Game over. ${actions.querySelector('.winners')?.textContent ?? ''}`);
      this.stream?.stop();
    } else if (now.yourTurn) {
      // Asked afresh at every decision: a preview is never a previous step's.
      const preview = await api.preview(this.game.id, this.game.token).catch(() => null);
      if (this.stopped) return;
      const fresh = preview && preview.step === now.step ? preview : null;
      // A redraw of the same decision keeps the time it was asked: a press begun on it still counts.
      if (this.lastAsked.step !== now.step) {
        this.againLine = this.askedAgain(now);
        this.askedAt = performance.now();
      }
      renderActions(actions, now.legalActions, { onAct: (id) => this.choose(id, fresh), preview: fresh, you: this.game.you });
      if (this.againLine) actions.prepend(this.againLine);
      actions.append(hintControl(this.game.id, this.game.token, this.frame(now.view)));
      this.askedStep = now.step;
      this.handHooks(now, fresh);
      setState('your-turn');
      this.tell(byId('decision').textContent ?? '', now.step);
      // On a phone the decision is a sheet fixed at the bottom: the hand is kept above it.
      keepClear();
      this.bringIntoView(now.step);
      this.refocus(now);
    } else {
      setCardHooks(null);
      setState('playing');
    }
  }

  /**
   * A new decision asked again after an X card changed it (the same kind of decision, about the
   * same card, with an X card played since the last): a line saying so, else null. Notes the
   * decision as the person's last.
   * @param {SeatState} now
   */
  askedAgain(now) {
    const d = now.view.decision;
    const again = this.lastAsked.step >= 0 && this.xSince.length > 0 && this.lastAsked.kind === d.kind && (d.kind !== 'reaction' || this.lastAsked.card === d.card);
    this.lastAsked = { step: now.step, kind: d.kind, card: d.card };
    const x = this.xSince;
    this.xSince = [];
    if (!again) return null;
    announce(`Asked again: ${x.join(' ')}`);
    return el('p.asked-again', { role: 'status', dataset: { step: now.step } }, el('b', {}, 'Asked again: '), `${x.join(' ')} Your choices have changed; look again before you choose.`);
  }

  /**
   * Scrolls a new decision (or the end) into view, once: scrolling back to the table while it
   * is asked is the person's to do. @param {number} step
   */
  bringIntoView(step) {
    if (step === this.broughtStep) return;
    this.broughtStep = step;
    showChoices(byId('actions'));
  }

  /**
   * Says the decision, unless it is the same one said a step ago (the person playing on in
   * their turn, nobody else moved in between). @param {string} text @param {number} step
   */
  tell(text, step) {
    const again = text === this.said && step === this.saidStep + 1;
    this.said = text;
    this.saidStep = step;
    if (!again) announce(text);
  }

  /**
   * A keyboard user whose focus went with the redrawn table (or the button they pressed) is
   * put back at the decision: the first playable hand card at a turn, else the first choice.
   * @param {SeatState} now
   */
  refocus(now) {
    if (!viaKeys || (document.activeElement && document.activeElement !== document.body)) return;
    const plays = new Set(now.legalActions.map((a) => a.plays).filter(Boolean));
    const card = [...document.querySelectorAll('#hand .card')].find((c) => plays.has(/** @type {HTMLElement} */ (c).dataset.card));
    const target = now.view.decision.kind === 'play' && card ? card : byId('actions').querySelector('button.action:enabled');
    /** @type {HTMLElement | null} */ (target)?.focus();
  }

  /**
   * A hand card plays when one legal action plays it; with several (targets, Flattery's shot),
   * its buttons are picked out for the person to choose.
   * @param {SeatState} now @param {PreviewAnswer | null} preview
   */
  handHooks(now, preview) {
    const playing = (/** @type {string} */ card) => now.legalActions.filter((a) => a.plays === card);
    setCardHooks({
      ways: (card) => playing(card).length,
      lines: (card) => {
        const acts = playing(card);
        const previews = (preview?.actions ?? []).filter((p) => acts.some((a) => a.id === p.id));
        return previews.map((p) => choicePreview(p, { you: this.game.you }));
      },
      play: (card) => {
        const acts = playing(card);
        if (acts.length === 1) this.choose(acts[0].id, preview);
        else if (acts.length > 1) {
          const buttons = acts.map((a) => byId('actions').querySelector(`button[data-action="${a.id}"]`)).filter(Boolean);
          for (const b of buttons) b?.classList.add('picked');
          buttons[0]?.scrollIntoView({ block: 'nearest' });
          /** @type {HTMLElement | null} */ (buttons[0])?.focus();
        }
        return acts.length > 0;
      },
    });
  }
}
