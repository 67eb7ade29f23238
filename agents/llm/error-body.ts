/**
 * An error answer in any server's shape, made into the one the `openai` client reads. The
 * client takes an error's words only from a JSON body's `error` key, so its message for
 * older vLLM's top-level `{"object": "error", "message": ...}`, FastAPI's `{"detail": ...}`
 * or a bare `{"message": ...}` is "400 status code (no body)": the server's own words, which
 * say what it refused, were lost before describeFault or adapt() could read them. The client
 * is given this fetch, which rewrites a non-OK body as `{"error": {"message": ..., ...}}`;
 * an answer that is OK is passed on untouched (its body may still be on its way).
 */

/** The error object the client reads (its `message`, `type`, `code`, `param`). */
export interface ErrorObject {
  message: string;
  type?: unknown;
  code?: unknown;
  param?: unknown;
}

/** The longest server text kept in a message: an HTML error page is not worth more. */
const MAX_TEXT = 500;

const clip = (s: string) => (s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}…` : s);

/** One FastAPI validation error: `{"loc": ["body", "max_completion_tokens"], "msg": "Extra inputs are not permitted"}`. */
function detailLine(d: unknown): string {
  if (typeof d === 'string') return d;
  const { loc, msg } = (d ?? {}) as { loc?: unknown; msg?: unknown };
  if (typeof msg !== 'string') return JSON.stringify(d);
  return Array.isArray(loc) && loc.length > 0 ? `${loc.join('.')}: ${msg}` : msg;
}

/**
 * The error object for an error answer's body text; null when the body already has the
 * shape the client reads (an `error` object with a message).
 */
export function errorObject(text: string, status: number, statusText: string): ErrorObject | null {
  const trimmed = text.trim();
  if (trimmed === '') return { message: `${statusText || `HTTP ${status}`}, with an empty body` };
  let body: unknown;
  try {
    body = JSON.parse(trimmed);
  } catch {
    return { message: clip(trimmed) };
  }
  if (typeof body !== 'object' || body === null) return { message: clip(typeof body === 'string' ? body : trimmed) };
  const b = body as Record<string, unknown>;
  const e = b.error;
  if (typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string') return null;
  if (typeof e === 'string') return { message: clip(e) };
  const kept = Object.fromEntries((['type', 'code', 'param'] as const).filter((k) => b[k] !== undefined).map((k) => [k, b[k]]));
  if (typeof b.message === 'string') return { message: clip(b.message), ...kept };
  if (typeof b.detail === 'string') return { message: clip(b.detail) };
  if (Array.isArray(b.detail)) return { message: clip(b.detail.map(detailLine).join('; ')) };
  return { message: clip(trimmed) };
}

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** `inner`, with every non-OK answer's body in the shape the client reads. */
export function errorBodyFetch(inner: Fetch = fetch): Fetch {
  return async (input, init) => {
    const res = await inner(input, init);
    if (res.ok) return res;
    const text = await res.text();
    const error = errorObject(text, res.status, res.statusText);
    const headers = new Headers(res.headers);
    // The body is new: its length and encoding are no longer the server's.
    headers.delete('content-length');
    headers.delete('content-encoding');
    if (error) headers.set('content-type', 'application/json');
    return new Response(error ? JSON.stringify({ error }) : text, { status: res.status, statusText: res.statusText, headers });
  };
}
