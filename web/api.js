/**
 * The public HTTP API (/v1), nothing else: every call the page makes goes through here, with
 * the seat's (or the watch) token, so the page only ever shows what that token may see.
 * A call the server refuses throws an ApiError (the server's `{ error }`, its status and code);
 * one that never reached the server throws Unreachable, with words for a person, never the
 * browser's ("Failed to fetch").
 *
 * A GET that cannot reach the server (the network dropped, the server restarting) is tried
 * again with a growing wait, for up to RETRY_FOR_MS, while the page says "Reconnecting…"
 * (ui.js). A POST is never sent twice: whether it arrived is for the caller to find out
 * (play.js asks for the view: the server's step says whether the move was made).
 */
import { reconnecting } from './ui.js';

/** How long a GET keeps trying to reach the server before it gives up. */
export const RETRY_FOR_MS = 90_000;

/** Waits between tries: 0.5 s, 1 s, 2 s, 4 s, then every 5 s. @param {number} attempt */
export const backoffMs = (attempt) => Math.min(5000, 500 * 2 ** attempt);

export class ApiError extends Error {
  /** @param {string} message @param {number} status @param {string | undefined} code  e.g. 'game-gone' */
  constructor(message, status, code) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** The server could not be reached (no answer at all). */
export class Unreachable extends Error {}

/** The server no longer holds the game: the seat saved for it is of no use. @param {unknown} e */
export const isGone = (e) => e instanceof ApiError && e.code === 'game-gone';

/** The decision a move answered is past (an X card asked the seat again): nothing was played. @param {unknown} e */
export const isDecisionChanged = (e) => e instanceof ApiError && e.code === 'decision-changed';

/** Answers a proxy gives while the server behind it restarts: worth another try for a GET. */
const RESTARTING = new Set([502, 503, 504]);

/**
 * @param {string} method
 * @param {string} path
 * @param {{ token?: string | null, body?: unknown }} [o]
 */
async function call(method, path, o = {}) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  const send = () => fetch(`/v1${path}`, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body) });
  let res;
  if (method !== 'GET') {
    try {
      res = await send();
    } catch {
      throw new Unreachable('Cannot reach the server: your connection or the server is down. Nothing was sent twice; try again in a moment.');
    }
  } else {
    res = await retried(send);
  }
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(data?.error ?? `the server answered ${res.status} to ${method} /v1${path}`, res.status, data?.code);
  return data;
}

/**
 * Sends a GET until the server answers (not a proxy's "restarting"), for up to RETRY_FOR_MS.
 * @param {() => Promise<Response>} send
 */
async function retried(send) {
  const start = Date.now();
  let waiting = false;
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await send();
        if (!RESTARTING.has(res.status)) return res;
      } catch {
        // No answer: the network or the server is down; tried again below.
      }
      if (Date.now() - start > RETRY_FOR_MS) {
        throw new Unreachable(`Cannot reach the server: tried for ${Math.round(RETRY_FOR_MS / 1000)} s. Check your connection, then try again.`);
      }
      if (!waiting) reconnecting(+1);
      waiting = true;
      await new Promise((resolve) => setTimeout(resolve, backoffMs(attempt)));
    }
  } finally {
    if (waiting) reconnecting(-1);
  }
}

const game = (/** @type {string} */ id) => `/games/${encodeURIComponent(id)}`;

export const api = {
  bots: () => call('GET', '/bots'),
  ruleset: () => call('GET', '/ruleset'),
  /**
   * @param {string[]} seats @param {string} [seed] (the server picks one when absent)
   * @param {(string | null)[]} [names] display names of 'remote' seats, per seat
   */
  createGame: (seats, seed, names) => call('POST', '/games', { body: { seats, seed, names } }),
  /** The token's view at step `at` (default: now). @param {string} id @param {string} token @param {number} [at] */
  view: (id, token, at) => call('GET', `${game(id)}/view${at === undefined ? '' : `?at=${at}`}`, { token }),
  /** What the token's seat saw, step by step, from step `from` on (one page). @param {string} id @param {string} token @param {number} from */
  history: (id, token, from) => call('GET', `${game(id)}/history?from=${from}`, { token }),
  /** @param {string} id @param {string} token @param {number} action */
  /** Plays `action` as the answer to the decision at `step` (the server refuses it, 409 decision-changed, if the game moved on). @param {string} id @param {string} token @param {number} action @param {number} [step] */
  act: (id, token, action, step) => call('POST', `${game(id)}/actions`, { token, body: step === undefined ? { action } : { action, step } }),
  /** What digesting would give the seat to play, now and with each order. @param {string} id @param {string} token */
  preview: (id, token) => call('GET', `${game(id)}/preview`, { token }),
  /** What the Strong bot would play at the seat's decision now, how sure it is, and that choice's preview. @param {string} id @param {string} token */
  hint: (id, token) => call('GET', `${game(id)}/hint`, { token }),
  /** Games with a seat open to anyone. */
  lobby: () => call('GET', '/games'),
  /** Takes an open seat: its token. @param {string} id @param {number} [seat] @param {string} [name] what the joiner is called */
  join: (id, seat, name) => call('POST', `${game(id)}/join`, { body: { seat, name: name || undefined } }),
  /** The seat's auto-pass settings. @param {string} id @param {string} token */
  settings: (id, token) => call('GET', `${game(id)}/settings`, { token }),
  /** @param {string} id @param {string} token @param {{ autoPass?: boolean, unwatched?: string[] }} change */
  setSettings: (id, token, change) => call('PUT', `${game(id)}/settings`, { token, body: change }),
  /** A tournament game from its link or its games.jsonl line, opened as a finished game. @param {{ link: string } | { line: string }} what */
  openReplay: (what) => call('POST', '/replays', { body: what }),
  /** @param {string} id @param {string} token @param {number} step */
  replayStep: (id, token, step) => call('GET', `${game(id)}/replay/${step}`, { token }),
};
