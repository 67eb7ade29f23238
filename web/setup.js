/**
 * The "start a game" form: player count, who sits in each seat (the person, a listed bot, or
 * any agent spec typed in), seed. At most one seat is the person's; with none, the bots play
 * it out and the page shows the game as a replay (watch mode).
 */
import { el, fill } from './dom.js';
import { REMOTE } from './frame.js';
const CUSTOM = '';
const DEFAULT_BOT = 'ppo';

/** @typedef {{ spec: string, description: string }} Bot */
/** @typedef {{ seats: string[], seed: string }} GameChoice */

/**
 * @param {HTMLFormElement} form
 * @param {{ min: number, max: number }} players
 * @param {Bot[]} bots
 * @param {(choice: GameChoice) => void} onStart
 */
export function renderSetup(form, players, bots, onStart) {
  const fallback = bots.some((b) => b.spec === DEFAULT_BOT) ? DEFAULT_BOT : bots[0]?.spec ?? CUSTOM;
  const count = el('select', { id: 'players', name: 'players' },
    range(players.min, players.max).map((n) => el('option', { value: n, selected: n === clamp(4, players) }, n)));
  const seats = el('div.seats', { id: 'seats' });
  const seed = el('input', { id: 'seed', name: 'seed', value: String(Date.now() % 1_000_000_000), autocomplete: 'off' });
  const start = el('button.primary', { id: 'start', type: 'submit' });
  const hint = el('p.hint');

  const rows = () => /** @type {HTMLElement[]} */ ([...seats.children]);
  const refresh = () => {
    const watching = !rows().some((r) => seatSelect(r).value === REMOTE);
    start.textContent = watching ? 'Watch the bots play' : 'Start game';
    hint.textContent = watching ? 'No seat is yours: the bots play the game out, and you watch it as a replay.' : '';
  };
  const layOut = () => {
    const kept = rows().map(seatValue);
    const n = Number(/** @type {HTMLSelectElement} */ (count).value);
    fill(seats, range(0, n - 1).map((seat) => seatRow(seat, kept[seat] ?? (seat === 0 ? REMOTE : fallback), bots, (row) => {
      if (seatSelect(row).value === REMOTE) {
        for (const other of rows().filter((r) => r !== row && seatSelect(r).value === REMOTE)) {
          seatSelect(other).value = fallback;
          seatSelect(other).dispatchEvent(new Event('change'));
        }
      }
      refresh();
    })));
    refresh();
  };
  count.addEventListener('change', layOut);
  layOut();

  fill(form,
    el('h2', {}, 'Sit down at the pub table'),
    el('label.field', {}, 'Players ', count),
    el('fieldset', {}, el('legend', {}, 'Seats (play goes clockwise from Player 0)'), seats),
    el('label.field', {}, 'Seed ', seed),
    hint,
    start);
  form.onsubmit = (e) => {
    e.preventDefault();
    onStart({ seats: rows().map(seatValue), seed: /** @type {HTMLInputElement} */ (seed).value.trim() });
  };
}

/**
 * @param {number} seat
 * @param {string} value
 * @param {Bot[]} bots
 * @param {(row: HTMLElement) => void} onChange
 */
function seatRow(seat, value, bots, onChange) {
  const listed = value === REMOTE || bots.some((b) => b.spec === value);
  const custom = el('input.seat-custom', {
    type: 'text', placeholder: 'agent spec, e.g. heuristic or ismcts:iterations=200', 'aria-label': `Player ${seat} agent spec`,
    value: listed ? '' : value, hidden: listed,
  });
  const select = el('select.seat-agent', { dataset: { seat }, 'aria-label': `Player ${seat}` },
    el('option', { value: REMOTE }, 'You'),
    bots.map((b) => el('option', { value: b.spec, title: b.description }, b.spec)),
    el('option', { value: CUSTOM }, 'Other spec…'));
  /** @type {HTMLSelectElement} */ (select).value = listed ? value : CUSTOM;
  const desc = el('span.bot-desc');
  const row = el('div.seat-row', { dataset: { seat } }, el('span.seat-name', {}, `Player ${seat}`), select, custom, desc);
  const sync = () => {
    const v = /** @type {HTMLSelectElement} */ (select).value;
    custom.hidden = v !== CUSTOM;
    desc.textContent = bots.find((b) => b.spec === v)?.description ?? '';
  };
  select.addEventListener('change', () => {
    onChange(row);
    sync();
  });
  sync();
  return row;
}

/** @param {HTMLElement} row */
const seatSelect = (row) => /** @type {HTMLSelectElement} */ (row.querySelector('select'));

/** The seat's spec: REMOTE for the person, else the listed or typed agent spec. @param {HTMLElement} row */
function seatValue(row) {
  const v = seatSelect(row).value;
  return v === CUSTOM ? /** @type {HTMLInputElement} */ (row.querySelector('input')).value.trim() : v;
}

/** @param {number} n @param {{ min: number, max: number }} p */
const clamp = (n, p) => Math.min(p.max, Math.max(p.min, n));

/** @param {number} lo @param {number} hi */
const range = (lo, hi) => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
