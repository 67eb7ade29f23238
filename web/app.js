/**
 * The page: loads the ruleset and the bots, shows the setup form and the lobby, and hands a
 * game to live play (a seat's token, or the watch token to look on) or to a replay (watch
 * mode, "Replay this game", a tournament game). Where the page is lives in the fragment:
 *
 *   #game=<id>&seat=<token>    a seat (a reload, or a friend's join link, returns to it)
 *   #game=<id>&watch=<token>   looking on
 *   #replay=<link>             a tournament game (a report's link)
 *
 * The last seat taken is also kept in localStorage, so the setup screen offers to go back.
 */
import { api, isGone } from './api.js';
import { byId, el, fill } from './dom.js';
import { setTableMeta } from './frame.js';
import { Guide, GUIDE_SEATS, GUIDE_SEED, renderGuideOffer } from './guide.js';
import { bindCardHelp, bindRulesPanel, renderRules } from './help.js';
import { Play } from './play.js';
import { Replay } from './replay.js';
import { lineOfGame } from './replay-file.js';
import { setRules } from './rules.js';
import { renderSetup } from './setup.js';
import { keepLinks, renderLinks, renderLobby } from './tables.js';
import { bindPace, bindSheet, clearError, expose, setState, showError } from './ui.js';

/** @type {Play | Replay | null} */
let current = null;
/**
 * The game on the table: its seats' specs, the person's seat and token (null when only
 * watching), and the watch token when the page has it.
 * @type {{ id: string, seats: string[], you: number | null, token: string | null, watchToken: string | null } | null}
 */
let game = null;

const LAST = 'czech-pub:last';

/** @param {'setup' | 'game'} screen */
function showScreen(screen) {
  byId('setup-screen').hidden = screen !== 'setup';
  byId('game-screen').hidden = screen !== 'game';
  byId('new-game').hidden = screen !== 'game';
}

function clearBoard() {
  for (const id of ['table', 'prompt', 'actions', 'log', 'replay-controls']) byId(id).replaceChildren();
  byId('skip').hidden = true;
  byId('links').hidden = true;
}

/** @param {Play | Replay | null} next */
function switchTo(next) {
  current?.stop();
  current = next;
  clearBoard();
}

/** Sets the fragment without a new history entry or a hashchange of our own making. @param {string} hash */
function setHash(hash) {
  history.replaceState(null, '', hash ? `#${hash}` : location.pathname);
}

/**
 * @param {import('./setup.js').GameChoice} choice
 * @param {Guide | null} [guide]  the guided first game's coach
 */
async function startGame(choice, guide = null) {
  clearError();
  setState('waiting');
  const start = /** @type {HTMLButtonElement} */ (byId(guide ? 'guide-start' : 'start'));
  start.disabled = true;
  let created;
  try {
    const names = choice.name && choice.you !== null ? choice.seats.map((_, seat) => (seat === choice.you ? choice.name : null)) : undefined;
    created = await api.createGame(choice.seats, choice.seed || undefined, names);
  } catch (e) {
    showError(e);
    setState('setup');
    return;
  } finally {
    start.disabled = false;
  }
  /** @type {{ seat: number, token: string }[]} */
  const tokens = created.tokens;
  const mine = tokens.find((t) => t.seat === choice.you) ?? null;
  const friends = tokens.filter((t) => t !== mine);
  const people = friends.length > 0 || choice.seats.includes('open');
  if (people) keepLinks(created.id, friends, created.watchToken);
  if (mine) return enter(created.id, mine.token, created.watchToken, true, guide);
  if (people) return enter(created.id, created.watchToken, created.watchToken, true);
  game = { id: created.id, seats: created.seats, you: null, token: null, watchToken: created.watchToken };
  setTableMeta({ names: created.names });
  expose({ gameId: game.id, token: null, watchToken: game.watchToken, mode: 'watch' });
  showScreen('game');
  watch(true);
}

/**
 * Opens a game with a token: a seat's (play) or the watch token (look on live). The token's
 * seat comes from the server, so a link says nothing the token does not.
 * @param {string} id @param {string} token @param {string | null} [watchToken]
 * @param {boolean} [fresh]  just made here: walk through its first steps
 * @param {Guide | null} [guide]  the guided first game's coach
 */
async function enter(id, token, watchToken = null, fresh = false, guide = null) {
  clearError();
  let view;
  try {
    view = await api.view(id, token);
  } catch (e) {
    if (isGone(e)) return gameGone(id);
    showError(e);
    backToSetup();
    return;
  }
  const you = view.seat;
  game = { id, seats: view.seats, you, token: you === null ? null : token, watchToken: you === null ? token : watchToken };
  setTableMeta(view);
  setHash(new URLSearchParams(you === null ? { game: id, watch: token } : { game: id, seat: token }).toString());
  if (you !== null) {
    try {
      localStorage.setItem(LAST, JSON.stringify({ id, token }));
    } catch {
      // No storage: the fragment still brings the seat back on a reload.
    }
  }
  expose({ gameId: id, token: game.token, watchToken: game.watchToken, mode: you === null ? 'watch' : 'play' });
  showScreen('game');
  const play = new Play({ id, token, you, seats: view.seats }, replayGame, fresh, () => gameGone(id), guide);
  switchTo(play);
  renderLinks(id);
  await play.start();
}

/** The game on the table as a replay, drawn from the person's seat if they had one. @param {boolean} autoplay */
async function watch(autoplay) {
  if (!game) return;
  const token = game.token ?? game.watchToken;
  if (!token) return;
  const replay = new Replay({ id: game.id, token, seats: game.seats, you: game.you });
  switchTo(replay);
  setState('replay');
  await replay.start(autoplay);
}

function replayGame() {
  clearError();
  expose({ mode: 'replay' });
  return watch(false);
}

/**
 * A tournament game: the server replays and checks it, then serves its frames.
 * @param {{ link: string } | { line: string }} what
 */
async function openTournamentGame(what) {
  clearError();
  let opened;
  try {
    opened = await api.openReplay(what);
  } catch (e) {
    showError(e);
    return;
  }
  game = { id: opened.id, seats: opened.seats, you: null, token: null, watchToken: opened.watchToken };
  // The seats' names (the agents' catalogue names) as the server narrates them.
  setTableMeta(await api.view(opened.id, opened.watchToken).catch(() => ({})));
  expose({ gameId: game.id, token: null, watchToken: game.watchToken, mode: 'replay' });
  showScreen('game');
  await watch(false);
}

async function openFromFile() {
  const file = /** @type {HTMLInputElement} */ (byId('replay-file')).files?.[0];
  if (!file) return showError(new Error('choose a games.jsonl file first'));
  try {
    await openTournamentGame({ line: lineOfGame(await file.text(), Number(/** @type {HTMLInputElement} */ (byId('replay-number')).value)) });
  } catch (e) {
    showError(e);
  }
}

function backToSetup() {
  switchTo(null);
  game = null;
  setTableMeta({});
  setHash('');
  expose({ gameId: null, token: null, watchToken: null, mode: 'setup' });
  showScreen('setup');
  setState('setup');
  offerReturn();
  renderGuideOffer(startGuided);
  renderLobby((id, token) => enter(id, token));
}

/**
 * The server no longer holds game `id` (a link to it, "Back to your last game", or mid-game):
 * said plainly, and the seat saved for it forgotten, so it is not offered again.
 * @param {string} id
 */
function gameGone(id) {
  try {
    if (JSON.parse(localStorage.getItem(LAST) ?? 'null')?.id === id) localStorage.removeItem(LAST);
  } catch {
    // No storage: nothing was saved.
  }
  backToSetup();
  showError(new Error('That game is gone: the server no longer holds it (it was finished and cleared, left idle too long, or the server restarted without keeping games). Start a new game, or join an open table.'));
}

/** The guided first game: the person in seat 0 against the guide's bots, on the guide's seed. */
function startGuided() {
  // The name typed on the setup form, if any, is theirs here too.
  const name = /** @type {HTMLInputElement | null} */ (document.getElementById('your-name'))?.value.trim() ?? '';
  return startGame({ seats: GUIDE_SEATS, seed: GUIDE_SEED, you: 0, name }, new Guide(0));
}

/** "Back to your game": the seat last taken on this browser, if it is still held. */
function offerReturn() {
  /** @type {{ id: string, token: string } | null} */
  let last = null;
  try {
    last = JSON.parse(localStorage.getItem(LAST) ?? 'null');
  } catch {
    last = null;
  }
  const box = byId('resume');
  box.hidden = !last;
  if (last) {
    const { id, token } = last;
    fill(box, el('button', { type: 'button', id: 'resume-game', onclick: () => enter(id, token) }, 'Back to your last game'));
  }
}

/** Where the fragment points: a seat, a watch, a tournament game, or the setup screen. */
async function route() {
  const h = new URLSearchParams(location.hash.slice(1));
  const id = h.get('game');
  const link = h.get('replay');
  if (id && (h.get('seat') || h.get('watch'))) return enter(id, /** @type {string} */ (h.get('seat') ?? h.get('watch')));
  if (link) return openTournamentGame({ link });
  backToSetup();
}

async function boot() {
  bindPace();
  bindSheet();
  bindCardHelp();
  bindRulesPanel();
  expose({ mode: 'setup' });
  setState('setup');
  byId('new-game').addEventListener('click', () => { clearError(); backToSetup(); });
  byId('skip').addEventListener('click', () => { if (current instanceof Play) current.skip(); });
  byId('lobby-refresh').addEventListener('click', () => renderLobby((id, token) => enter(id, token)));
  byId('replay-open').addEventListener('click', openFromFile);
  document.addEventListener('keydown', (e) => {
    const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.target instanceof HTMLTextAreaElement;
    if (current instanceof Replay && !typing) current.key(e);
  });
  window.addEventListener('unhandledrejection', (e) => showError(e.reason));
  window.addEventListener('hashchange', route);
  try {
    const [rules, bots] = await Promise.all([api.ruleset(), api.bots()]);
    setRules(rules);
    renderRules();
    // Only bots that can fill a seat of a live game are offered.
    const listed = bots.bots.filter((/** @type {{ seatsLiveGames: boolean }} */ b) => b.seatsLiveGames)
      .map((/** @type {import('./setup.js').Bot} */ b) => ({ name: b.name, displayName: b.displayName, strength: b.strength, description: b.description, options: b.options }));
    renderSetup(/** @type {HTMLFormElement} */ (byId('setup-form')), rules.players, listed, startGame);
  } catch (e) {
    showError(e);
    return;
  }
  await route();
}

boot();
