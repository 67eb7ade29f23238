/**
 * Live play from the person's seat. Bots move on the server as soon as it is their turn, so
 * each answer may be several steps ahead of what the page has shown; the page walks through
 * the steps in between one at a time (GET view?at=K), at the chosen pace, and turns the
 * action buttons on only at the current step.
 */
import { disableActions, renderActions } from './actions.js';
import { api } from './api.js';
import { countedCards } from './cards.js';
import { promptContent } from './centre.js';
import { byId, el, fill } from './dom.js';
import { endPanel } from './end.js';
import { makeFrame } from './frame.js';
import { appendEntry, stepEntry } from './log.js';
import { renderTable } from './table.js';
import { clearError, setState, showError, waitPace } from './ui.js';

/** @typedef {{ id: string, token: string, you: number, seats: string[] }} PlayGame  `you`: the person's seat */

/** @typedef {import('./frame.js').SeatState} SeatState */

export class Play {
  stopped = false;
  skipping = false;
  /** The last step shown (its events are in the log). */
  shown = -1;

  /** @param {PlayGame} game @param {() => void} onReplay */
  constructor(game, onReplay) {
    this.game = game;
    this.onReplay = onReplay;
  }

  stop() {
    this.stopped = true;
  }

  skip() {
    this.skipping = true;
  }

  start() {
    return this.sync();
  }

  /** Catches up with the game as it stands now. */
  async sync() {
    await this.guard(async () => this.walk(await api.view(this.game.id, this.game.token)));
  }

  /** @param {number} action */
  async act(action) {
    clearError();
    disableActions(byId('actions'));
    setState('waiting');
    await this.guard(async () => this.walk(await api.act(this.game.id, this.game.token, action)));
  }

  /** Runs a request; on failure shows the error and offers to catch up again. @param {() => Promise<void>} f */
  async guard(f) {
    try {
      await f();
    } catch (e) {
      if (this.stopped) return;
      showError(e);
      setState('playing');
      fill(byId('actions'), this.resyncButton());
    }
  }

  resyncButton() {
    return el('button.primary', { type: 'button', id: 'resync', onclick: () => this.sync() }, 'Show the game as it stands');
  }

  /** Shows every step after the last one shown, up to `now` (the current state). @param {SeatState} now */
  async walk(now) {
    if (this.stopped) return;
    setState('waiting');
    byId('skip').hidden = false;
    for (let k = this.shown + 1; k < now.step; k++) {
      const data = await api.view(this.game.id, this.game.token, k);
      if (this.stopped) return;
      this.show(data);
      await waitPace(() => this.skipping || this.stopped);
      if (this.stopped) return;
    }
    this.skipping = false;
    byId('skip').hidden = true;
    this.show(now);
    this.settle(now);
  }

  /** The table from the person's seat. @param {import('./frame.js').PlayerView} view @returns {import('./frame.js').Frame} */
  frame(view) {
    return makeFrame(this.game, this.game.you, view);
  }

  /** @param {SeatState} data */
  show(data) {
    const f = this.frame(data.view);
    const hand = el('section.hand-area', { 'aria-label': 'your hand' },
      el('h2', {}, `Your hand (${data.view.handSize})`),
      el('div.hand', { id: 'hand' }, countedCards(data.view.hand)));
    renderTable(byId('table'), f, hand);
    const yours = data.view.decision.seat === this.game.you;
    fill(byId('prompt'), yours ? promptContent(data.view, f) : data.done ? null : el('span.waiting', {}, 'The bots are playing…'));
    byId('actions').replaceChildren();
    if (data.step > this.shown) {
      appendEntry(byId('log'), stepEntry(data.step, data.lastAction, data.events));
      this.shown = data.step;
    }
  }

  /** At the current step: the end screen, the person's buttons, or (another remote seat's turn) a way to look again. @param {SeatState} now */
  settle(now) {
    const actions = byId('actions');
    if (now.done) {
      fill(actions, endPanel(now.scores ?? [], now.view.winners ?? [], this.frame(now.view), this.onReplay));
      setState('over');
    } else if (now.yourTurn) {
      renderActions(actions, now.legalActions, { onAct: (id) => this.act(id) });
      setState('your-turn');
    } else {
      fill(actions, this.resyncButton());
      setState('playing');
    }
  }
}
