/**
 * The page: loads the ruleset and the bots, shows the setup form, and hands a started game to
 * live play (a seat is the person's) or to a replay (watch mode, or "Replay this game").
 */
import { setActionGroups } from './actions.js';
import { api } from './api.js';
import { setCards } from './cards.js';
import { byId } from './dom.js';
import { Play } from './play.js';
import { Replay } from './replay.js';
import { renderSetup } from './setup.js';
import { bindPace, clearError, czechPub, expose, setState, showError } from './ui.js';

/** @type {{ spaces: number[] }[]} */
let chart = [];
/** @type {Play | Replay | null} */
let current = null;
/** The person's seat in the game on the table, if any. @type {number | null} */
let yourSeat = null;

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
  const blank = choice.seats.findIndex((s) => s === '');
  if (blank >= 0) {
    showError(`Player ${blank}: type an agent spec, or pick one from the list.`);
    return;
  }
  setState('waiting');
  const start = /** @type {HTMLButtonElement} */ (byId('start'));
  start.disabled = true;
  let game;
  try {
    game = await api.createGame(choice.seats, choice.seed || undefined);
  } catch (e) {
    showError(e);
    setState('setup');
    return;
  } finally {
    start.disabled = false;
  }
  const mine = game.tokens[0] ?? null;
  yourSeat = mine?.seat ?? null;
  expose({ gameId: game.id, token: mine?.token ?? null, watchToken: game.watchToken, mode: mine ? 'play' : 'watch' });
  showScreen('game');
  if (mine) {
    const play = new Play({ id: game.id, token: mine.token, seat: mine.seat, seats: game.seats, chart }, replayGame);
    switchTo(play);
    await play.start();
  } else {
    watch(game.watchToken, true);
  }
}

/** @param {string} token @param {boolean} autoplay */
function watch(token, autoplay) {
  const replay = new Replay({ id: /** @type {string} */ (czechPub.gameId), token, you: yourSeat, chart });
  switchTo(replay);
  setState('replay');
  return replay.start(autoplay);
}

function replayGame() {
  clearError();
  expose({ mode: 'replay' });
  return watch(/** @type {string} */ (czechPub.token ?? czechPub.watchToken), false);
}

function backToSetup() {
  switchTo(null);
  clearError();
  yourSeat = null;
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
    chart = rules.ruleset.chart;
    setCards(rules.cards);
    setActionGroups(rules.actionGroups);
    const specs = bots.bots.map((/** @type {any} */ b) => ({ spec: b.spec ?? b.name, description: b.description ?? '' }));
    renderSetup(/** @type {HTMLFormElement} */ (byId('setup-form')), rules.players, specs, startGame);
  } catch (e) {
    showError(e);
  }
}

boot();
