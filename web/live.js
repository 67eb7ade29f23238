/**
 * Live updates: the game's event stream (GET stream, Server-Sent Events) read with fetch, as
 * EventSource cannot send the token in a header. Every event only says "something changed":
 * the page then asks for the view it is allowed (play.js), so nothing is read from the stream
 * but its rhythm.
 */

/**
 * @param {string} id @param {string} token @param {number} since  events already shown
 * @param {() => void} onChange  called after each batch of events, and once when the stream ends
 * @returns {{ stop: () => void }}
 */
export function follow(id, token, since, onChange) {
  const ctrl = new AbortController();
  (async () => {
    const res = await fetch(`/v1/games/${encodeURIComponent(id)}/stream?since=${since}`, { headers: { authorization: `Bearer ${token}` }, signal: ctrl.signal });
    if (!res.ok || !res.body) return;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += value;
      // Whole events end with a blank line; a heartbeat is a comment line (": ...") and changes nothing.
      const events = buffered.split('\n\n');
      buffered = events.pop() ?? '';
      if (events.some((e) => !e.startsWith(':'))) onChange();
    }
    onChange();
  })().catch(() => {
    // Closed by stop(), or the network dropped: the page's "show the game as it stands" remains.
  });
  return { stop: () => ctrl.abort() };
}
