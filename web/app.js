/**
 * The page: loads the ruleset and the bots, shows the setup form, and hands a started game to
 * live play (a seat is the person's) or to a replay (watch mode, or "Replay this game").
 */
import { api } from './api.js';
import { byId } from './dom.js';
import { Play } from './play.js';
import { Replay } from './replay.js';
import { setRules } from './rules.js';
import { renderSetup } from './setup.js';
import { bindPace, clearError, expose, setState, showError } from './ui.js';

/** @type {Play | Replay | null} */
let current = null;
/**
 * The game on the table: its seats' specs, the person's seat and token (null when only watching),
 * and the watch token.
 * @type {{ id: string, seats: string[], you: number | null, token: string | null, watchToken: string } | null}
 */
let game = null;

/** @param {'setup' | 'game'} screen */
function showScreen(screen) {
  byId('setup-screen').hidden = screen !== 'setup';
  byId('game-screen').hidden = screen !== 'game';
  byId('new-game').hidden = screen !== 'game';
}

function clearBoard() {
  for (const id of ['table', 'prompt', 'actions', 'log', 'replay-controls']) byId(id).replaceChildren();
  byId('skip').hidden = true;
}

/** @param {Play | Replay | null} next */
function switchTo(next) {
  current?.stop();
  current = next;
  clearBoard();
}

/** @param {import('./setup.js').GameChoice} choice */
async function startGame(choice) {
  clearError();
  setState('waiting');
  const start = /** @type {HTMLButtonElement} */ (byId('start'));
  start.disabled = true;
  let created;
  try {
    created = await api.createGame(choice.seats, choice.seed || undefined);
  } catch (e) {
    showError(e);
    setState('setup');
    return;
  } finally {
    start.disabled = false;
  }
  const mine = created.tokens[0] ?? null;
  game = { id: created.id, seats: created.seats, you: mine?.seat ?? null, token: mine?.token ?? null, watchToken: created.watchToken };
  expose({ gameId: game.id, token: game.token, watchToken: game.watchToken, mode: mine ? 'play' : 'watch' });
  showScreen('game');
  if (mine) {
    const play = new Play({ id: game.id, token: mine.token, you: mine.seat, seats: game.seats }, replayGame);
    switchTo(play);
    await play.start();
  } else {
    watch(true);
  }
}

/** The game on the table as a replay, drawn from the person's seat if they had one. @param {boolean} autoplay */
async function watch(autoplay) {
  if (!game) return;
  const replay = new Replay({ id: game.id, token: game.token ?? game.watchToken, seats: game.seats, you: game.you });
  switchTo(replay);
  setState('replay');
  await replay.start(autoplay);
}

function replayGame() {
  clearError();
  expose({ mode: 'replay' });
  return watch(false);
}

function backToSetup() {
  switchTo(null);
  clearError();
  game = null;
  expose({ gameId: null, token: null, watchToken: null, mode: 'setup' });
  showScreen('setup');
  setState('setup');
}

async function boot() {
  bindPace();
  expose({ mode: 'setup' });
  setState('setup');
  byId('new-game').addEventListener('click', backToSetup);
  byId('skip').addEventListener('click', () => { if (current instanceof Play) current.skip(); });
  document.addEventListener('keydown', (e) => {
    const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.target instanceof HTMLTextAreaElement;
    if (current instanceof Replay && !typing) current.key(e);
  });
  window.addEventListener('unhandledrejection', (e) => showError(e.reason));
  try {
    const [rules, bots] = await Promise.all([api.ruleset(), api.bots()]);
    setRules(rules);
    const listed = bots.bots.map((/** @type {import('./setup.js').Bot} */ b) => ({ name: b.name, description: b.description, options: b.options }));
    renderSetup(/** @type {HTMLFormElement} */ (byId('setup-form')), rules.players, listed, startGame);
  } catch (e) {
    showError(e);
  }
}

boot();
