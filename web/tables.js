/**
 * Tables for people: the links a table's creator hands out (one per friend's seat, its token in
 * the fragment, and one for onlookers), and the lobby's list of games with an open seat.
 * Links are kept in localStorage per game, so the creator finds them again after a reload.
 */
import { api } from './api.js';
import { byId, el, fill } from './dom.js';
import { seatName } from './frame.js';
import { PRESENCE_TEXT } from './players.js';
import { MAX_NAME } from './setup.js';

/** @typedef {{ seat: number, token: string }} SeatToken */

/** The page's address with a fragment. @param {Record<string, string>} params */
export const linkTo = (params) => `${location.origin}${location.pathname}#${new URLSearchParams(params)}`;

/** @param {string} id */
const linksKey = (id) => `czech-pub:links:${id}`;

/** @param {string} id @param {SeatToken[]} friends @param {string} watchToken */
export function keepLinks(id, friends, watchToken) {
  try {
    localStorage.setItem(linksKey(id), JSON.stringify({ friends, watchToken }));
  } catch {
    // Storage full or refused: the links are still on the screen.
  }
}

/** @param {string} id @returns {{ friends: SeatToken[], watchToken: string } | null} */
export function keptLinks(id) {
  try {
    return JSON.parse(localStorage.getItem(linksKey(id)) ?? 'null');
  } catch {
    return null;
  }
}

/** @param {string} label @param {string} url @param {Record<string, string>} data */
function linkRow(label, url, data) {
  const input = /** @type {HTMLInputElement} */ (el('input.link', { readonly: true, value: url, 'aria-label': label, dataset: data }));
  return el('li', {}, el('span.link-label', {}, label), input,
    el('button', { type: 'button', onclick: () => { input.select(); navigator.clipboard?.writeText(url).catch(() => undefined); } }, 'Copy'));
}

/** Shows a table's links above the board (nothing when there are none). @param {string} id */
export function renderLinks(id) {
  const kept = keptLinks(id);
  const box = byId('links');
  if (!kept) {
    box.hidden = true;
    return;
  }
  fill(box,
    el('h2', {}, 'Links for this table'),
    el('ul', {},
      kept.friends.map((f) => linkRow(`${seatName(f.seat)} joins with`, linkTo({ game: id, seat: f.token }), { seat: String(f.seat) })),
      linkRow('Onlookers watch with', linkTo({ game: id, watch: kept.watchToken }), { watch: '' })));
  box.hidden = false;
}

/**
 * A lobby seat in words: "Player 1 free", "Alice (person, away)", "Regular (heuristic)".
 * @param {{ seat: number, who: string, open: boolean, name: string, presence: string }} s
 */
function lobbySeat(s) {
  if (s.open) return `${s.name} free`;
  return s.presence === 'bot' ? `${s.name} (${s.who})` : `${s.name} (person, ${PRESENCE_TEXT[/** @type {'connected' | 'away'} */ (s.presence)]})`;
}

/**
 * The lobby: every game with an open seat, each with a Join button (joining as the name typed, if any).
 * @param {(id: string, token: string) => void} onJoined
 */
export async function renderLobby(onJoined) {
  const list = byId('lobby-list');
  /** @type {HTMLInputElement} */ (byId('join-name')).maxLength = MAX_NAME;
  /** @type {{ games: { id: string, players: number, turn: number, seats: { seat: number, who: string, open: boolean, name: string, presence: string }[] }[] }} */
  let lobby;
  try {
    lobby = await api.lobby();
  } catch (e) {
    fill(list, el('li.small', {}, /** @type {Error} */ (e).message));
    return;
  }
  if (lobby.games.length === 0) {
    fill(list, el('li.small', {}, 'No table has a free seat right now. Start one with an "Anyone (lobby)" seat.'));
    return;
  }
  fill(list, lobby.games.map((g) => el('li.lobby-game', { dataset: { game: g.id } },
    el('span', {}, `${g.players} players, turn ${g.turn}: `,
      g.seats.map((s) => el('span.lobby-seat', { class: s.open ? 'open' : null, dataset: { presence: s.presence } }, lobbySeat(s)))),
    el('button.primary', {
      type: 'button',
      onclick: async () => {
        try {
          const { token } = await api.join(g.id, undefined, /** @type {HTMLInputElement} */ (byId('join-name')).value.trim());
          onJoined(g.id, token);
        } catch (e) {
          fill(list, el('li.small', {}, /** @type {Error} */ (e).message));
        }
      },
    }, 'Join'))));
}
