/**
 * The "start a game" form: the person's name, player count, who sits in each seat (the person,
 * a friend who gets a join link, anyone from the lobby, or a bot from the server's catalogue:
 * those with a strength first, by the names players know them by, weakest first), and folded
 * under "Advanced" what research needs: the seed, each bot's catalogue name and description,
 * and the options it lets a client set. At most one seat is the person's; with no person and
 * no friend or lobby seat, the bots play it out and the page shows the game as a replay.
 */
import { el, fill } from './dom.js';
import { REMOTE } from './frame.js';
const DEFAULT_BOT = 'ppo';
/** A seat for someone the person invites: played through the API like the person's own. */
export const FRIEND = 'friend';
/** A seat anyone may take from the lobby (the server's 'open' seat). */
export const OPEN = 'open';

/**
 * What GET /v1/bots says a client may set on a bot: a number range, or a list of values.
 * @typedef {{ min: number, max: number, integer?: boolean } | { values: (string | number | boolean)[] }} BotOption
 */
/** A catalogue entry, as the form needs it. @typedef {{ name: string, displayName: string, strength: string | null, description: string, options: Record<string, BotOption> }} Bot */
/** A seat: REMOTE or a bot's name, and the options set on it, as a spec writes them. @typedef {{ who: string, set: Record<string, string> }} Seat */
/** @typedef {{ seats: string[], seed: string, you: number | null, name: string }} GameChoice  `you`: the person's seat, if they took one; `name`: what they are called (blank: "Player N") */

/** Characters of a display name, at most (the server's limit, server/names.ts). */
export const MAX_NAME = 24;

/** How a bot is offered: "Strong (Hard)", or its display name alone. @param {Bot} b */
const botTitle = (b) => (b.strength ? `${b.displayName} (${b.strength})` : b.displayName);

/**
 * @param {HTMLFormElement} form
 * @param {{ min: number, max: number }} players
 * @param {Bot[]} bots
 * @param {(choice: GameChoice) => void} onStart
 */
export function renderSetup(form, players, bots, onStart) {
  // A server refuses to start with an empty catalogue; without bots no seat could be filled.
  if (bots.length === 0) {
    fill(form, el('p.hint', {}, 'This server lists no bots, so there is no one to play against.'));
    return;
  }
  const fallback = bots.some((b) => b.name === DEFAULT_BOT) ? DEFAULT_BOT : bots[0].name;
  const count = el('select', { id: 'players', name: 'players' },
    range(players.min, players.max).map((n) => el('option', { value: n, selected: n === clamp(4, players) }, n)));
  const seats = el('div.seats', { id: 'seats' });
  // Blank: the server draws a seed nobody can guess (and shows it in the replay once the game is over).
  const seed = el('input', { id: 'seed', name: 'seed', value: '', placeholder: 'random', autocomplete: 'off' });
  const name = /** @type {HTMLInputElement} */ (el('input', { id: 'your-name', name: 'name', maxlength: MAX_NAME, placeholder: 'Player 0', autocomplete: 'nickname' }));
  // Each seat's research details (catalogue name, description, options), under "Advanced".
  const extras = el('div.seat-extras', { id: 'seat-extras' });
  const start = el('button.primary', { id: 'start', type: 'submit' });
  const hint = el('p.hint');

  const rows = () => /** @type {HTMLElement[]} */ ([...seats.children]);
  const refresh = () => {
    const people = rows().map((r) => seatSelect(r).value).filter((v) => v === REMOTE || v === FRIEND || v === OPEN);
    const watching = people.length === 0;
    start.textContent = watching ? 'Watch the bots play' : people.includes(REMOTE) ? 'Start game' : 'Open the table';
    hint.textContent = watching ? 'No seat is yours: the bots play the game out, and you watch it as a replay.'
      : people.some((v) => v !== REMOTE) ? 'Each friend\'s seat gets its own join link; lobby seats are listed for anyone to take. The game waits for them.' : '';
  };
  const layOut = () => {
    const kept = rows().map((r) => readSeat(r, extras));
    const n = Number(/** @type {HTMLSelectElement} */ (count).value);
    fill(extras);
    fill(seats, range(0, n - 1).map((seat) => seatRow(seat, kept[seat] ?? { who: seat === 0 ? REMOTE : fallback, set: {} }, bots, extras, (row) => {
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
    el('label.field', {}, 'Your name ', name),
    el('label.field', {}, 'Players ', count),
    el('fieldset', {}, el('legend', {}, 'Seats (play goes clockwise from Player 0)'), seats),
    el('details.advanced', { id: 'advanced' },
      el('summary', {}, 'Advanced'),
      el('p.small', {}, 'For research: the bots as the server names them, their options, and the seed that deals the cards.'),
      el('label.field', {}, 'Seed ', seed),
      extras),
    hint,
    start);
  form.onsubmit = (e) => {
    e.preventDefault();
    const chosen = rows().map((r) => readSeat(r, extras));
    const you = chosen.findIndex((c) => c.who === REMOTE);
    onStart({ seats: chosen.map(seatSpec), seed: /** @type {HTMLInputElement} */ (seed).value.trim(), you: you < 0 ? null : you, name: name.value.trim() });
  };
}

/**
 * A seat's row: its name and who sits there; under "Advanced" (`extras`), the bot's catalogue
 * name, its description and a control for each of its options.
 * @param {number} seat
 * @param {Seat} choice
 * @param {Bot[]} bots
 * @param {HTMLElement} extras
 * @param {(row: HTMLElement) => void} onChange
 */
function seatRow(seat, choice, bots, extras, onChange) {
  const rated = bots.filter((b) => b.strength);
  const others = bots.filter((b) => !b.strength);
  const option = (/** @type {Bot} */ b) => el('option', { value: b.name }, botTitle(b));
  const select = /** @type {HTMLSelectElement} */ (el('select.seat-agent', { dataset: { seat }, 'aria-label': `Player ${seat}` },
    el('option', { value: REMOTE }, 'You'),
    el('option', { value: FRIEND, title: 'a person you send a join link to' }, 'A friend (join link)'),
    el('option', { value: OPEN, title: 'listed in the lobby: the first person to join takes it' }, 'Anyone (lobby)'),
    rated.length > 0 ? el('optgroup', { label: 'Opponents, easiest first' }, rated.map(option)) : null,
    others.length > 0 ? el('optgroup', { label: rated.length > 0 ? 'More bots (research)' : 'Bots' }, others.map(option)) : null));
  select.value = choice.who;
  const options = el('span.seat-options');
  const desc = el('span.bot-desc');
  const spec = el('code.bot-name');
  const extra = el('div.seat-advanced', { dataset: { seat } }, el('span.seat-name', {}, `Player ${seat}`), spec, options, desc);
  extras.append(extra);
  const row = el('div.seat-row', { dataset: { seat } }, el('span.seat-name', {}, `Player ${seat}`), select);
  /** @param {Record<string, string>} set */
  const sync = (set) => {
    const bot = bots.find((b) => b.name === select.value);
    fill(options, Object.entries(bot?.options ?? {}).map(([key, o]) => optionControl(seat, key, o, set[key] ?? '')));
    options.hidden = options.childElementCount === 0;
    spec.textContent = bot?.name ?? '';
    desc.textContent = bot?.description ?? '';
    select.title = bot?.description ?? '';
    extra.hidden = !bot;
  };
  select.addEventListener('change', () => {
    onChange(row);
    sync({});
  });
  sync(choice.set);
  return row;
}

/**
 * One option's control; blank ("default") leaves it to the bot. Ranges get the browser's own
 * checks (min, max, whole numbers), so an out-of-range value stops the form before it is sent.
 * @param {number} seat @param {string} key @param {BotOption} o @param {string} value
 */
function optionControl(seat, key, o, value) {
  const props = { dataset: { option: key }, 'aria-label': `Player ${seat} ${key}` };
  const control = /** @type {HTMLInputElement | HTMLSelectElement} */ ('values' in o
    ? el('select', props, el('option', { value: '' }, 'default'), o.values.map((v) => el('option', { value: String(v) }, String(v))))
    : el('input', { ...props, type: 'number', min: o.min, max: o.max, step: o.integer ? 1 : 'any', placeholder: 'default',
      title: `${o.integer ? 'a whole number' : 'a number'} from ${o.min} to ${o.max}; blank for the bot's default` }));
  control.value = value;
  return el('label.seat-option', {}, key, control);
}

/** @param {HTMLElement} row */
const seatSelect = (row) => /** @type {HTMLSelectElement} */ (row.querySelector('select.seat-agent'));

/**
 * Who sits in the row and the options set under "Advanced" (blank controls are left out).
 * @param {HTMLElement} row @param {HTMLElement} extras @returns {Seat}
 */
function readSeat(row, extras) {
  /** @type {Record<string, string>} */
  const set = {};
  const extra = extras.querySelector(`.seat-advanced[data-seat="${row.dataset.seat}"]`);
  for (const control of /** @type {NodeListOf<HTMLInputElement | HTMLSelectElement>} */ (extra?.querySelectorAll('[data-option]') ?? [])) {
    // A number as the server reads it: "1e3" and "020" are typed forms of 1000 and 20.
    const number = control instanceof HTMLInputElement ? control.valueAsNumber : NaN;
    const value = Number.isNaN(number) ? control.value.trim() : String(number);
    if (value !== '') set[String(control.dataset.option)] = value;
  }
  return { who: seatSelect(row).value, set };
}

/** The seat's spec: REMOTE for the person and a friend, 'open' for the lobby, else `name` and `:key=value` per option set. @param {Seat} s */
const seatSpec = (s) => (s.who === FRIEND ? REMOTE : s.who) + Object.entries(s.set).map(([key, value]) => `:${key}=${value}`).join('');

/** @param {number} n @param {{ min: number, max: number }} p */
const clamp = (n, p) => Math.min(p.max, Math.max(p.min, n));

/** @param {number} lo @param {number} hi */
const range = (lo, hi) => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
