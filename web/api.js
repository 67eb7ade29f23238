/**
 * The public HTTP API (/v1), nothing else: every call the page makes goes through here, with
 * the seat's (or the watch) token, so the page only ever shows what that token may see.
 * A failed call throws an Error whose message is the server's `{ error }`.
 */

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
  let res;
  try {
    res = await fetch(`/v1${path}`, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body) });
  } catch (e) {
    throw new Error(`cannot reach the server (${method} /v1${path}): ${/** @type {Error} */ (e).message}`);
  }
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error(data?.error ?? `${method} /v1${path} failed with HTTP ${res.status}`);
  return data;
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
  /** @param {string} id @param {string} token @param {number} action */
  act: (id, token, action) => call('POST', `${game(id)}/actions`, { token, body: { action } }),
  /** What digesting would give the seat to play, now and with each order. @param {string} id @param {string} token */
  preview: (id, token) => call('GET', `${game(id)}/preview`, { token }),
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
