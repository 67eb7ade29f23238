/**
 * Live play from a seat (or watching, with the watch token). Bots move on the server as soon
 * as it is their turn, so each answer may be several steps ahead of what the page has shown;
 * the page walks through the steps in between one at a time (GET view?at=K), at the chosen
 * pace, and turns the action buttons on only at the current step. Other people's moves arrive
 * through the event stream (live.js). At the person's turn the preview (GET preview) says what
 * digesting would give, now and with each order; a click on a hand card plays it.
 */
import { disableActions, renderActions } from './actions.js';
import { api } from './api.js';
import { countedCards } from './cards.js';
import { promptContent } from './centre.js';
import { byId, el, fill } from './dom.js';
import { endPanel } from './end.js';
import { makeFrame, seatName } from './frame.js';
import { dropHoverHelp, setCardHooks } from './help.js';
import { follow } from './live.js';
import { appendEntry, stepEntry } from './log.js';
import { previewLine } from './preview.js';
import { renderTable } from './table.js';
import { clearError, setState, showError, waitPace } from './ui.js';

/** @typedef {{ id: string, token: string, you: number | null, seats: string[] }} PlayGame  `you`: the person's seat, null when watching */
/** @typedef {import('./frame.js').SeatState & { openSeats?: number[], legalActions: (import('./frame.js').NamedAction & { note?: string, plays?: string })[] }} SeatState */
/** @typedef {import('./preview.js').PreviewAnswer} PreviewAnswer */

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

  /**
   * @param {PlayGame} game @param {() => void} onReplay
   * @param {boolean} [fresh]  a game just made: its first steps are walked through; a game
   *   rejoined (a reload, a link) opens at the present, with a log from there on.
   * @param {import('./guide.js').Guide | null} [guide]  the guided first game's coach: each step
   *   shown waits while its notes are open
   */
  constructor(game, onReplay, fresh = false, guide = null) {
    this.game = game;
    this.onReplay = onReplay;
    this.fresh = fresh;
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
    if (!this.fresh) {
      await this.guard(async () => {
        const now = await api.view(this.game.id, this.game.token);
        this.shown = now.step - 1;
        if (now.step > 0) appendEntry(byId('log'), el('li.step', {}, el('div.step-head', {}, `Joined at step ${now.step}`)));
      });
    }
    await this.sync();
    if (!this.stopped) this.stream = follow(this.game.id, this.game.token, 0, () => this.sync());
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
    clearError();
    setCardHooks(null);
    disableActions(byId('actions'));
    setState('waiting');
    return this.enqueue(() => this.guard(async () => this.walk(await api.act(this.game.id, this.game.token, action))));
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
      showError(e);
      setState('playing');
      this.settledKey = '';
      fill(byId('actions'), this.resyncButton());
    }
  }

  resyncButton() {
    return el('button.primary', { type: 'button', id: 'resync', onclick: () => this.sync() }, 'Show the game as it stands');
  }

  /** Shows every step after the last one shown, up to `now` (the current state). @param {SeatState} now */
  async walk(now) {
    if (this.stopped) return;
    const key = `${now.step}/${(now.openSeats ?? []).join(',')}`;
    if (key === this.settledKey) return;
    setState('waiting');
    byId('skip').hidden = false;
    for (let k = this.shown + 1; k < now.step; k++) {
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

  /** The table from the person's seat (seat 0's side when watching). @param {import('./frame.js').PlayerView} view */
  frame(view) {
    return makeFrame(this.game, this.game.you ?? 0, view);
  }

  /** @param {SeatState} data */
  show(data) {
    const f = this.frame(data.view);
    const hand = this.game.you === null || data.done ? null : el('section.hand-area', { 'aria-label': 'your hand' },
      el('h2', {}, `Your hand (${data.view.handSize})`),
      el('div.hand', { id: 'hand' }, countedCards(data.view.hand)));
    renderTable(byId('table'), f, hand);
    dropHoverHelp();
    const yours = this.game.you !== null && data.view.decision.actor === this.game.you;
    fill(byId('prompt'), yours || this.game.you === null ? promptContent(data.view, f) : data.done ? null : el('span.waiting', {}, this.waitingFor(data)));
    byId('actions').replaceChildren();
    if (data.step > this.shown) {
      appendEntry(byId('log'), stepEntry(data.step, data.lastAction, data.events));
      this.shown = data.step;
    }
  }

  /** "Waiting for Player 2 to join", "Player 1 is deciding…". @param {SeatState} data */
  waitingFor(data) {
    const open = data.openSeats ?? [];
    if (open.length > 0) return `Waiting for ${open.map(seatName).join(', ')} to join (lobby)…`;
    const d = data.view.decision.actor;
    return this.game.seats[d] === 'remote' ? `${seatName(d)} is deciding…` : 'The bots are playing…';
  }

  /** At the current step: the end screen, the person's buttons and preview, or waiting. @param {SeatState} now */
  async settle(now) {
    const actions = byId('actions');
    if (now.done) {
      fill(actions, endPanel(now.scores ?? [], now.view.winners ?? [], this.frame(now.view), this.onReplay));
      setState('over');
      this.stream?.stop();
    } else if (now.yourTurn) {
      const preview = now.view.decision.kind === 'play' ? await api.preview(this.game.id, this.game.token).catch(() => null) : null;
      if (this.stopped) return;
      const fresh = preview && preview.step === now.step ? preview : null;
      renderActions(actions, now.legalActions, { onAct: (id) => this.act(id), preview: fresh });
      this.handHooks(now, fresh);
      setState('your-turn');
      // On a narrow screen the bar is fixed at the bottom; elsewhere bring it into view.
      byId('prompt').scrollIntoView?.({ block: 'nearest' });
    } else {
      setCardHooks(null);
      setState('playing');
    }
  }

  /**
   * A hand card plays when one legal action plays it; with several (targets, Flattery's shot),
   * its buttons are picked out for the person to choose.
   * @param {SeatState} now @param {PreviewAnswer | null} preview
   */
  handHooks(now, preview) {
    const playing = (/** @type {string} */ card) => now.legalActions.filter((a) => a.plays === card);
    setCardHooks({
      lines: (card) => {
        const acts = playing(card);
        if (acts.length === 0) return [el('span.help-cannot', {}, 'Not playable now.')];
        const previews = (preview?.actions ?? []).filter((p) => acts.some((a) => a.id === p.id));
        const out = /** @type {(string | HTMLElement)[]} */ (previews.map((p) => previewLine(acts.length > 1 ? `${p.name}, then done:` : 'Played, then done:', p, { action: p.id })));
        out.push(el('span.help-click', {}, acts.length === 1 ? 'Click to play it.' : 'Click, then choose below.'));
        return out;
      },
      play: (card) => {
        const acts = playing(card);
        if (acts.length === 1) this.act(acts[0].id);
        else if (acts.length > 1) {
          const buttons = acts.map((a) => byId('actions').querySelector(`button[data-action="${a.id}"]`)).filter(Boolean);
          for (const b of buttons) b?.classList.add('picked');
          buttons[0]?.scrollIntoView({ block: 'nearest' });
        }
        return acts.length > 0;
      },
    });
  }
}
