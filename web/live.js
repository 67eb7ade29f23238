/**
 * Live updates: the game's event stream (GET stream, Server-Sent Events) read with fetch, as
 * EventSource cannot send the token in a header. Every event only says "something changed":
 * the page then asks for the view it is allowed (play.js), so nothing is read from the stream
 * but its rhythm and its event ids (where to resume).
 *
 * A stream that drops before the game's `end` (the network, the server restarting) is opened
 * again by itself after a growing wait (api.js's backoff), resuming after the last event
 * seen, while the page says "Reconnecting…"; once back, `onChange` resyncs the page. After
 * RETRY_FOR_MS without getting through it gives up and calls `onLost`.
 */
import { backoffMs, RETRY_FOR_MS } from './api.js';
import { reconnecting } from './ui.js';

/**
 * @param {string} id @param {string} token @param {number} since  events already shown
 * @param {() => void} onChange  called after each batch of events, when the stream ends, and after a reconnect
 * @param {() => void} [onLost]  the server could not be reached for RETRY_FOR_MS
 * @returns {{ stop: () => void }}
 */
export function follow(id, token, since, onChange, onLost = () => {}) {
  const ctrl = new AbortController();
  let cursor = since;
  (async () => {
    /** When the stream first failed to get through, of the failures in a row; null while it is up. */
    let failingSince = /** @type {number | null} */ (null);
    try {
      for (let attempt = 0; !ctrl.signal.aborted; attempt++) {
        let over = false;
        try {
          const res = await fetch(`/v1/games/${encodeURIComponent(id)}/stream?since=${cursor}`, { headers: { authorization: `Bearer ${token}` }, signal: ctrl.signal });
          // The server answered: a refusal (the game gone, a bad token) is for the view to say; a limit is tried again.
          if (!res.ok && res.status !== 429 && res.status < 500) {
            onChange();
            return;
          }
          if (res.ok && res.body) {
            if (failingSince !== null) {
              failingSince = null;
              reconnecting(-1);
              onChange();
            }
            attempt = 0;
            over = await read(res.body, (n) => { cursor = n; }, onChange);
          }
        } catch {
          if (ctrl.signal.aborted) return;
          // No answer, or the stream broke off: tried again below.
        }
        if (over) return;
        onChange();
        if (failingSince === null) {
          failingSince = Date.now();
          reconnecting(+1);
        } else if (Date.now() - failingSince > RETRY_FOR_MS) {
          onLost();
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, backoffMs(attempt)));
      }
    } finally {
      if (failingSince !== null) reconnecting(-1);
    }
  })();
  return {
    stop: () => ctrl.abort(),
  };
}

/**
 * Reads a stream to its end: true when it ended with `end` (the game is over).
 * @param {ReadableStream<any>} body @param {(cursor: number) => void} seen @param {() => void} onChange
 */
async function read(body, seen, onChange) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return false;
    buffered += value;
    // Whole events end with a blank line; a heartbeat is a comment line (": ...") and changes nothing.
    const events = buffered.split('\n\n');
    buffered = events.pop() ?? '';
    const real = events.filter((e) => !e.startsWith(':'));
    for (const e of real) {
      const id = /^id: (\d+)$/m.exec(e);
      if (id) seen(Number(id[1]));
    }
    if (real.length > 0) onChange();
    if (real.some((e) => /^event: end$/m.test(e))) return true;
  }
}
