/**
 * A model server's reply, classified: one total function from what came back (a status, its
 * headers and the body's bytes, or the failure that left no reply) to exactly one of
 *
 * | kind | what it is | read as a move? |
 * |---|---|---|
 * | `answer` | a whole answer: a choice that finished as a complete one (`stop`, `end_turn`, …) | yes, if it names a listed action (answer.ts) |
 * | `truncated` | cut off at the token limit (`length`, `MAX_TOKENS`, …) | never |
 * | `filtered` | refused by the model (`refusal`) or held back by a filter (`content_filter`, `SAFETY`, …); its text kept | never |
 * | `fault` | a fault of the server or the account, with its kind (FAULT_POLICY) | never |
 * | `unknown` | anything else: a finish reason, a status or a body shape not known here, named with its raw value | never |
 *
 * Everything not positively recognised as a complete answer falls to `unknown`, which the
 * agent treats as a fault of the server. Usage is read from every shape a server sends it in
 * (OpenAI's, Anthropic's, Gemini's, Groq's stream, OpenRouter's cost) and is null, "not
 * reported", where there is none: never 0.
 */
import { gunzipSync } from 'node:zlib';
import type { CallSpend } from '../outside-calls.ts';

/** The kinds of fault, each with one policy (FAULT_POLICY). */
export const REPLY_FAULTS = [
  'rate-limit', 'quota', 'overloaded', 'too-large', 'format-refused', 'parameter-refused', 'bad-request',
  'authentication', 'not-found', 'unreachable', 'connection-lost', 'server-error', 'timeout',
] as const;
export type ReplyFault = (typeof REPLY_FAULTS)[number];

/**
 * What is done on each kind of fault: `retry` with back-off inside the decision's total wait;
 * `stop` the run at once with the server's words and everything written; `adapt` what is sent
 * (once per server and model; a refusal that cannot be adapted to stops).
 */
export const FAULT_POLICY: Record<ReplyFault | 'unknown', 'retry' | 'stop' | 'adapt'> = {
  'rate-limit': 'retry',
  overloaded: 'retry',
  'connection-lost': 'retry',
  unreachable: 'retry',
  'server-error': 'retry',
  timeout: 'retry',
  unknown: 'retry',
  quota: 'stop',
  authentication: 'stop',
  'not-found': 'stop',
  'too-large': 'stop',
  'bad-request': 'stop',
  'format-refused': 'adapt',
  'parameter-refused': 'adapt',
};

/**
 * Whether a fault's request may have been billed though no usage came back: the server may
 * have done the work (an answer lost on the way, a timeout) or said nothing of it. Refusals
 * by status (429, 401, 413, …) are made before any work and cost nothing.
 */
export const MAY_BE_BILLED: Record<ReplyFault | 'unknown', boolean> = {
  'rate-limit': false, quota: false, overloaded: false, 'too-large': false, 'format-refused': false, 'parameter-refused': false,
  'bad-request': false, authentication: false, 'not-found': false, unreachable: false, 'server-error': false,
  'connection-lost': true, timeout: true, unknown: true,
};

/** Tokens and cost as the server reported them: what the request is charged (outside-calls.ts). */
export type ReplyUsage = CallSpend;

/** What a choice said. */
export interface Said {
  /** The answer's text (the content; a refusal's text for a refused one). */
  text: string;
  /** The model's reasoning, where the server sent it apart (never read as the answer). */
  reasoning: string;
  /** The finish reason as the server wrote it. */
  finish: string;
  /** The model id the server named. */
  model: string;
}

interface Common {
  /** The reply's id (the completion's, else the x-request-id header), '' when none. */
  id: string;
  /** Null: the server reported none ("not reported", never 0). */
  usage: ReplyUsage | null;
}

export type Reply =
  | (Common & Said & { kind: 'answer' })
  | (Common & Said & { kind: 'truncated' })
  | (Common & Said & { kind: 'filtered'; why: string })
  | (Common & {
    kind: 'fault';
    fault: ReplyFault;
    /** The server's own words (or what happened), in one line. */
    message: string;
    status: number | null;
    /** What Retry-After (or retry-after-ms) asked for, in ms. */
    retryAfterMs: number | null;
    /** For parameter-refused: the parameter named. */
    param?: RefusableParam;
  })
  | (Common & { kind: 'unknown'; message: string; status: number | null });

export type RefusableParam = 'max_completion_tokens' | 'temperature';

/** A reply's kind and, for a fault, its kind: how the usage report counts replies. */
export const replyClass = (r: Reply): string => (r.kind === 'fault' ? `fault:${r.fault}` : r.kind);

/** Finish reasons, lower-cased, by what they say of the answer. */
const COMPLETE = new Set(['stop', 'end_turn', 'stop_sequence', 'eos', 'eos_token', 'finished']);
const TRUNCATED = new Set(['length', 'max_tokens', 'max_output_tokens', 'model_length', 'model_context_window_exceeded']);
const FILTERED = new Set(['content_filter', 'safety', 'recitation', 'blocklist', 'prohibited_content', 'spii', 'refusal', 'image_safety']);

/** The longest server text kept in a message: an HTML error page is not worth more. */
const MAX_TEXT = 300;
const clip = (s: string) => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > MAX_TEXT ? `${one.slice(0, MAX_TEXT)}…` : one;
};

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const count = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

/** Delay a Retry-After (or retry-after-ms) header asks for, in ms, or null. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | null {
  if (!headers) return null;
  const msRaw = headers.get('retry-after-ms');
  if (msRaw !== null && msRaw.trim() !== '' && Number.isFinite(Number(msRaw))) return Math.max(0, Number(msRaw));
  const raw = headers.get('retry-after');
  if (raw === null || raw.trim() === '') return null;
  const secs = Number(raw);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Usage in any shape a server sends it, or null where there is none with a token count. */
export function usageOf(body: Obj): ReplyUsage | null {
  const candidates: unknown[] = [body.usage, body.usageMetadata, isObj(body.x_groq) ? body.x_groq.usage : undefined];
  for (const u of candidates) {
    if (!isObj(u)) continue;
    const details = (k: string) => (isObj(u[k]) ? (u[k] as Obj) : {});
    // OpenAI (and most servers): prompt_tokens, completion_tokens.
    let prompt = count(u.prompt_tokens);
    let completion = count(u.completion_tokens);
    let reasoning = count(details('completion_tokens_details').reasoning_tokens) ?? count(details('output_tokens_details').reasoning_tokens);
    let cached = count(details('prompt_tokens_details').cached_tokens) ?? count(details('input_tokens_details').cached_tokens);
    // Anthropic-style: input_tokens, output_tokens.
    prompt ??= count(u.input_tokens);
    completion ??= count(u.output_tokens);
    cached ??= count(u.cache_read_input_tokens);
    // Gemini-style: the thoughts are billed as output beside the candidates.
    if (prompt === null && completion === null && (count(u.promptTokenCount) !== null || count(u.candidatesTokenCount) !== null)) {
      prompt = count(u.promptTokenCount);
      const thoughts = count(u.thoughtsTokenCount) ?? 0;
      completion = (count(u.candidatesTokenCount) ?? 0) + thoughts;
      reasoning = thoughts;
      cached = count(u.cachedContentTokenCount);
    }
    if (prompt === null && completion === null) continue;
    return { promptTokens: prompt ?? 0, completionTokens: completion ?? 0, reasoningTokens: reasoning ?? 0, cachedTokens: cached ?? 0, cost: count(u.cost) };
  }
  return null;
}

/** An error a body holds, in any server's shape: its words, type and code; null when it holds none. */
export function errorIn(body: unknown): { message: string; type: string; code: string } | null {
  if (!isObj(body)) return null;
  const pick = (e: Obj) => ({
    message: str(e.message) || str(e.msg) || str(e.error) || str(e.detail) || JSON.stringify(e),
    type: str(e.type) || str(e.status),
    code: e.code === undefined || e.code === null ? '' : String(e.code),
  });
  const e = body.error;
  if (isObj(e)) return pick(e);
  if (typeof e === 'string' && e !== '') return { message: e, type: str(body.type), code: body.code === undefined ? '' : String(body.code) };
  if (Array.isArray(body.errors) && body.errors.length > 0) {
    const first = body.errors[0];
    return isObj(first) ? pick(first) : { message: String(first), type: '', code: '' };
  }
  // FastAPI: a string or a list of validation errors.
  if (typeof body.detail === 'string') return { message: body.detail, type: '', code: '' };
  if (Array.isArray(body.detail)) {
    const lines = body.detail.map((d) => (isObj(d) && typeof d.msg === 'string' ? (Array.isArray(d.loc) ? `${d.loc.join('.')}: ${d.msg}` : d.msg) : JSON.stringify(d)));
    return { message: lines.join('; '), type: '', code: '' };
  }
  // Older vLLM: {"object": "error", "message": ...}; a bare {"message": ...} without choices.
  if ((body.object === 'error' || body.type === 'error' || !('choices' in body)) && typeof body.message === 'string') {
    return { message: body.message, type: str(body.type), code: body.code === undefined ? '' : String(body.code) };
  }
  return null;
}

/** The body's text, ungzipped where the bytes are gzip though no header said so. */
function bodyText(bytes: Uint8Array): string {
  if (bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      return gunzipSync(bytes).toString('utf8');
    } catch {
      // Not gzip after all: read as it is.
    }
  }
  return new TextDecoder().decode(bytes);
}

/** An event stream's chunks joined into one completion body; null when the text holds no data line. */
export function joinEventStream(text: string): Obj | null {
  const data = text.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).filter((d) => d !== '' && d !== '[DONE]');
  if (data.length === 0) return null;
  let content = '';
  let reasoning = '';
  let refusal = '';
  let finish: unknown = null;
  let model = '';
  let id = '';
  let usage: Obj | null = null;
  let usageMetadata: unknown;
  let sawChoice = false;
  let filterResults: unknown;
  for (const d of data) {
    let chunk: unknown;
    try {
      chunk = JSON.parse(d);
    } catch {
      return { __unreadable: `an event stream chunk that is not JSON: ${clip(d)}` };
    }
    if (!isObj(chunk)) return { __unreadable: `an event stream chunk that is not an object: ${clip(d)}` };
    if (errorIn(chunk) && !Array.isArray(chunk.choices)) return chunk; // an error mid-stream is the reply
    id ||= str(chunk.id);
    model ||= str(chunk.model);
    const u = usageOf(chunk);
    if (u) usage = isObj(chunk.usage) ? chunk.usage : isObj(chunk.x_groq) && isObj(chunk.x_groq.usage) ? chunk.x_groq.usage : null;
    if (chunk.usageMetadata !== undefined) usageMetadata = chunk.usageMetadata;
    const c = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!isObj(c)) continue;
    sawChoice = true;
    const delta = isObj(c.delta) ? c.delta : isObj(c.message) ? c.message : {};
    content += str(delta.content);
    reasoning += str(delta.reasoning_content) || str(delta.reasoning);
    refusal += str(delta.refusal);
    if (c.finish_reason !== undefined && c.finish_reason !== null) finish = c.finish_reason;
    if (c.content_filter_results !== undefined) filterResults = c.content_filter_results;
  }
  return {
    id, model,
    choices: sawChoice ? [{ index: 0, finish_reason: finish, content_filter_results: filterResults, message: { role: 'assistant', content, reasoning_content: reasoning, refusal: refusal || null } }] : [],
    ...(usage ? { usage } : {}),
    ...(usageMetadata !== undefined ? { usageMetadata } : {}),
  };
}

const fault = (f: ReplyFault, message: string, status: number | null, id: string, usage: ReplyUsage | null = null, retryAfter: number | null = null, param?: RefusableParam): Reply =>
  ({ kind: 'fault', fault: f, message: clip(message), status, retryAfterMs: retryAfter, id, usage, ...(param ? { param } : {}) });

const QUOTA = /insufficient_quota|billing|quota|credit|payment|balance|spend(ing)? limit|exceeded your current/i;
const TOO_LARGE = /context[_ ]length|context window|maximum context|too large|too long|too many tokens|reduce the length|prompt is too long|request_too_large|exceeds the (maximum|limit)/i;
const OVERLOADED = /overload|capacity|try again later|temporarily unavailable/i;
const FORMAT = /response_format|json_schema|json schema|structured output/i;
/** How servers say they do not take a parameter (OpenAI, vLLM, llama.cpp, Ollama, gateways). */
const REFUSED_PARAMETER = /unsupported|not supported|unrecogni[sz]ed|unknown|not permitted|not allowed|extra (fields|inputs)|does not support|invalid (parameter|argument|field)|unavailable/i;

/** A 4xx or 5xx (or an error in a 200's body, under the status its code names) as its kind of fault. */
function statusFault(status: number, e: { message: string; type: string; code: string }, headers: Headers | undefined, id: string, usage: ReplyUsage | null): Reply {
  const words = `${e.type} ${e.code} ${e.message}`;
  const told = e.message.startsWith('HTTP ') ? e.message : `HTTP ${status}: ${e.message}`;
  const after = retryAfterMs(headers);
  if (status === 401 || status === 403) return fault(QUOTA.test(words) && !/key|auth/i.test(e.message) ? 'quota' : 'authentication', told, status, id, usage);
  if (status === 402) return fault('quota', told, status, id, usage);
  if (status === 404) return fault('not-found', told, status, id, usage);
  if (status === 408) return fault('timeout', told, status, id, usage, after);
  if (status === 413) return fault('too-large', told, status, id, usage);
  if (status === 429) {
    if (QUOTA.test(`${e.type} ${e.code}`) || /exceeded your current quota|billing|credit|insufficient/i.test(e.message)) return fault('quota', told, status, id, usage);
    return fault('rate-limit', told, status, id, usage, after);
  }
  if (status === 400 || status === 422) {
    if (TOO_LARGE.test(words)) return fault('too-large', told, status, id, usage);
    if (QUOTA.test(`${e.type} ${e.code}`) || /credit balance|billing/i.test(e.message)) return fault('quota', told, status, id, usage);
    if (FORMAT.test(e.message) || /response_format/.test(e.code)) return fault('format-refused', told, status, id, usage);
    if (REFUSED_PARAMETER.test(e.message)) {
      if (/max_completion_tokens/.test(e.message)) return fault('parameter-refused', told, status, id, usage, null, 'max_completion_tokens');
      if (/temperature/.test(e.message)) return fault('parameter-refused', told, status, id, usage, null, 'temperature');
    }
    return fault('bad-request', told, status, id, usage);
  }
  if (status === 529 || ((status === 503 || status === 500) && OVERLOADED.test(words))) return fault('overloaded', told, status, id, usage, after);
  if ((status >= 500 && status <= 504) || (status >= 520 && status <= 524)) return fault('server-error', told, status, id, usage, after);
  return { kind: 'unknown', message: clip(`${told} (a status not known here)`), status, id, usage };
}

/** The text of a message's content: a string, or a list of text parts. */
function contentText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map((p) => (isObj(p) ? str(p.text) : typeof p === 'string' ? p : '')).join('');
  return '';
}

/** A completion body (a JSON object with choices) classified by its first choice. */
function completionReply(body: Obj, id: string, usage: ReplyUsage | null): Reply {
  const choices = body.choices;
  if (!Array.isArray(choices) || choices.length === 0) return { kind: 'unknown', message: 'a reply without any choice', status: 200, id, usage };
  const c = choices[0];
  if (!isObj(c)) return { kind: 'unknown', message: `a choice that is not an object: ${clip(JSON.stringify(c))}`, status: 200, id, usage };
  const m = isObj(c.message) ? c.message : isObj(c.delta) ? c.delta : {};
  const rawFinish = c.finish_reason;
  const finish = typeof rawFinish === 'string' ? rawFinish : '';
  const said: Said = { text: contentText(m.content), reasoning: str(m.reasoning_content) || str(m.reasoning), finish, model: str(body.model) };
  const f = finish.trim().toLowerCase();
  if (f === 'error') {
    const e = errorIn(c) ?? errorIn(body);
    return fault('server-error', `the answer failed on the server (finish_reason "${finish}")${e ? `: ${e.message}` : ''}`, 200, id, usage);
  }
  const refusal = str(m.refusal);
  if (refusal.trim() !== '') return { kind: 'filtered', why: 'refused (refusal)', ...said, text: refusal, id, usage };
  const filteredBy = Object.entries(isObj(c.content_filter_results) ? c.content_filter_results : {}).filter(([, v]) => isObj(v) && v.filtered === true).map(([k]) => k);
  if (FILTERED.has(f) || filteredBy.length > 0) return { kind: 'filtered', why: `held back by a filter (finish_reason "${finish}"${filteredBy.length ? `: ${filteredBy.join(', ')}` : ''})`, ...said, id, usage };
  if (TRUNCATED.has(f)) return { kind: 'truncated', ...said, id, usage };
  if (COMPLETE.has(f)) {
    if (Array.isArray(m.tool_calls) && m.tool_calls.length > 0 && said.text.trim() === '') return { kind: 'unknown', message: 'tool calls, though no tool was offered', status: 200, id, usage };
    return { kind: 'answer', ...said, id, usage };
  }
  return { kind: 'unknown', message: `finish_reason ${rawFinish === undefined ? 'missing' : JSON.stringify(rawFinish)}: not known to say the answer is whole`, status: 200, id, usage };
}

/** What came back for a request: its status, headers and the whole body's bytes. */
export interface RawReply {
  status: number;
  headers?: Headers;
  body: Uint8Array | string;
}

/** Classifies a reply that came back whole. Total: every input gives one Reply, none throws. */
export function classifyReply(raw: RawReply): Reply {
  const text = typeof raw.body === 'string' ? raw.body : bodyText(raw.body);
  const headerId = raw.headers?.get('x-request-id') ?? '';
  let json: unknown;
  let parsed = false;
  try {
    json = JSON.parse(text);
    parsed = true;
  } catch {
    // An event stream, or text that is no JSON.
  }
  if (!parsed) {
    const joined = joinEventStream(text);
    if (joined) {
      json = joined;
      parsed = true;
    }
  }
  const body = isObj(json) ? json : null;
  const id = (body && str(body.id)) || headerId;
  if (body && typeof body.__unreadable === 'string') return { kind: 'unknown', message: body.__unreadable, status: raw.status, id, usage: null };
  const usage = body ? usageOf(body) : null;
  const words = text.trim() === '' ? 'an empty body' : body ? clip(JSON.stringify(body)) : clip(text);
  const s = raw.status;
  if (s >= 400) {
    const e = errorIn(body) ?? { message: text.trim() === '' ? `HTTP ${s}, with an empty body` : /<html|<!doctype/i.test(text) ? `HTTP ${s}, an HTML page: ${clip(text.replace(/<[^>]*>/g, ' '))}` : clip(text), type: '', code: '' };
    return statusFault(s, e, raw.headers, id, usage);
  }
  if (s !== 200) return { kind: 'unknown', message: `HTTP ${s}, which is no answer: ${words}`, status: s, id, usage };
  if (!body) {
    const what = text.trim() === '' ? 'an empty body' : /<html|<!doctype/i.test(text) ? 'an HTML page' : `text that is no completion (${clip(text)})`;
    return fault('server-error', `the server answered 200 with ${what}`, 200, id, usage);
  }
  const e = errorIn(body);
  if (e && !Array.isArray(body.choices)) {
    // An error in a 200 (gateways): the status its code names, if it names one.
    const coded = Number(e.code);
    const status = Number.isInteger(coded) && coded >= 400 && coded < 600 ? coded : 500;
    const r = statusFault(status, e, raw.headers, id, usage);
    const message = clip(`the server answered 200 with an error: ${e.message}`);
    return r.kind === 'fault' ? { ...r, status: 200, message } : fault('server-error', message, 200, id, usage);
  }
  return completionReply(body, id, usage);
}

/** Classifies a request that got no whole reply: the error fetch or the body's reading threw. */
export function classifyFailure(err: unknown, phase: 'connect' | 'body'): Reply {
  let cause: unknown = err;
  while (isObj(cause) && (cause as { cause?: unknown }).cause) cause = (cause as { cause?: unknown }).cause;
  const c = (cause ?? {}) as { code?: unknown; message?: unknown };
  const code = typeof c.code === 'string' ? c.code : '';
  const said = code || (typeof c.message === 'string' ? c.message : String(err));
  if (phase === 'body') return fault('connection-lost', `the connection was lost in the middle of the answer (${said})`, null, '');
  if (/ECONNRESET|EPIPE|UND_ERR_SOCKET|socket|other side closed/i.test(`${code} ${said}`)) return fault('connection-lost', `the connection was lost before the answer (${said})`, null, '');
  return fault('unreachable', `connection failed (${said})`, null, '');
}
