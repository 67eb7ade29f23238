/**
 * A finished game frame by frame (GET replay/{step}): every seat's hand, who decided, their
 * legal actions with the one taken highlighted, and that step's events. Step with the buttons,
 * the slider or ← →; play runs forward at the pace. Frames already seen are kept.
 */
import { renderActions } from './actions.js';
import { api } from './api.js';
import { byId, el, fill } from './dom.js';
import { endPanel } from './end.js';
import { makeFrame, seatName } from './frame.js';
import { showEntry, stepEntry } from './log.js';
import { renderTable } from './table.js';
import { showError, waitPace } from './ui.js';

/** @typedef {{ id: string, token: string, seats: string[], you: number | null }} ReplayGame */

export class Replay {
  stopped = false;
  playing = false;
  at = 0;
  steps = 0;
  /** @type {Map<number, import('./frame.js').ReplayFrame>} */
  frames = new Map();

  /** @param {ReplayGame} game */
  constructor(game) {
    this.game = game;
    this.bottom = game.you ?? 0;
  }

  /** @param {boolean} autoplay */
  async start(autoplay) {
    try {
      // Every frame says how many steps the game has; frame 0 is kept for go(0).
      this.steps = (await this.frame(0)).steps;
    } catch (e) {
      showError(e);
      return;
    }
    if (this.stopped) return;
    this.controls();
    await this.go(0);
    if (autoplay) this.play();
  }

  stop() {
    this.stopped = true;
    this.playing = false;
  }

  controls() {
    const button = (/** @type {string} */ id, /** @type {string} */ label, /** @type {() => void} */ f) =>
      el('button', { id, type: 'button', onclick: f }, label);
    fill(byId('replay-controls'),
      button('replay-first', '|◀ First', () => this.manual(0)),
      button('replay-back', '◀ Back', () => this.manual(this.at - 1)),
      button('replay-play', 'Play ▶', () => (this.playing ? this.pause() : this.play())),
      button('replay-forward', 'Forward ▶', () => this.manual(this.at + 1)),
      button('replay-last', 'Last ▶|', () => this.manual(this.steps)),
      el('input', {
        id: 'replay-slider', type: 'range', min: 0, max: this.steps, value: 0, 'aria-label': 'step',
        oninput: (/** @type {Event} */ e) => this.manual(Number(/** @type {HTMLInputElement} */ (e.target).value)),
      }),
      el('span', { id: 'replay-step' }));
  }

  /** A step chosen by hand stops playback. @param {number} k */
  manual(k) {
    this.pause();
    return this.go(k);
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    if (e.key === 'ArrowLeft') this.manual(this.at - 1);
    else if (e.key === 'ArrowRight') this.manual(this.at + 1);
    else return;
    e.preventDefault();
  }

  async play() {
    if (this.playing) return;
    this.playing = true;
    this.playButton();
    if (this.at >= this.steps) await this.go(0);
    while (this.playing && this.at < this.steps) {
      await waitPace(() => !this.playing);
      if (!this.playing) break;
      await this.go(this.at + 1);
    }
    this.playing = false;
    this.playButton();
  }

  pause() {
    this.playing = false;
    this.playButton();
  }

  playButton() {
    const b = document.getElementById('replay-play');
    if (b) b.textContent = this.playing ? 'Pause ❚❚' : 'Play ▶';
  }

  /** @param {number} k @returns {Promise<import('./frame.js').ReplayFrame>} */
  async frame(k) {
    const cached = this.frames.get(k);
    if (cached) return cached;
    const fr = await api.replayStep(this.game.id, this.game.token, k);
    this.frames.set(k, fr);
    return fr;
  }

  /** @param {number} k */
  async go(k) {
    k = Math.max(0, Math.min(this.steps, k));
    this.at = k;
    /** @type {HTMLInputElement} */ (byId('replay-slider')).value = String(k);
    byId('replay-step').textContent = `Step ${k} / ${this.steps}`;
    const fr = await this.frame(k).catch((e) => {
      this.pause();
      showError(e);
      return null;
    });
    if (fr && this.at === k && !this.stopped) this.render(k, fr);
  }

  /** @param {number} k @param {import('./frame.js').ReplayFrame} fr */
  render(k, fr) {
    const view = fr.views[this.bottom];
    const f = makeFrame(this.game, this.bottom, view, fr.views.map((v) => v.hand));
    renderTable(byId('table'), f);
    showEntry(byId('log'), stepEntry(k, this.frames.get(k - 1)?.next ?? null, fr.events));
    fill(byId('prompt'), fr.next ? [`${seatName(fr.next.seat)} chose: `, el('b.chose', {}, fr.next.name)] : 'The game is over.');
    const actions = byId('actions');
    renderActions(actions, fr.legalActions, { chosen: fr.next?.id ?? null });
    if (k === this.steps) actions.append(endPanel(fr.scores, view.winners ?? [], f, null));
  }
}
