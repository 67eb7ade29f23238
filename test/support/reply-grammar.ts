/**
 * The replies an OpenAI-compatible chat-completions server sends, as a grammar a seeded
 * generator draws from: the fixture of a property test of the LLM benchmark, independent of
 * the code it tests. A plan is plain data (what to send, and the truth about it); the fake
 * server (fake-model-server.ts) only sends it. Every draw is a pure function of the
 * generator (`replyRng(seed, n)`), the request and the weights.
 *
 * | family        | shapes (outcome)                                                                 |
 * |---------------|----------------------------------------------------------------------------------|
 * | named         | json-id, json-id-reason, json-fenced, think-json, think-fenced-json,             |
 * |               | json-id-string, json-words, plain-id, plain-id-script, plain-words,              |
 * |               | plain-words-case, plain-id-words; preflight-json when nothing is legal (answer)  |
 * | notNamed      | sentence-words, words-with-number, action-because, two-ids, two-json, illegal-id,|
 * |               | empty, json-no-action, think-unclosed (answer)                                  |
 * | reasoning     | reasoning_content+<named or notNamed shape>, reasoning+…, hidden-reasoning+…,    |
 * |               | reasoning_content-holds-json, reasoning-holds-json (answer; the reasoning text   |
 * |               | is never the answer, and content '' names nothing)                               |
 * | truncated     | cut-json, cut-fenced, cut-think, whole-json, reasoning-only (truncated)          |
 * | filtered      | content-filter-azure, finish-safety, finish-recitation, refusal (filtered)       |
 * | retryable     | status-429-retry-after-ms, status-429-retry-after-0, status-429 (rate-limit);    |
 * |               | status-529-overloaded, status-503-overloaded (overloaded); status-500,           |
 * |               | status-502-html, status-503, status-504-empty, ok-error-object, ok-errors-array, |
 * |               | ok-detail, ok-html, ok-text, ok-empty, finish-error (server-error);              |
 * |               | reset-before-headers, reset-mid-body (connection-lost) — all fault               |
 * | fatal         | status-429-quota, status-402-credits (quota); status-401-key-echo, status-403    |
 * |               | (authentication); status-404-model (not-found); status-413-tpm,                  |
 * |               | status-400-context-length, status-400-string-too-long (too-large);               |
 * |               | status-400-invalid, status-422-detail,                                           |
 * |               | status-400-vllm (bad-request) — all fault                                        |
 * | formatRefused | status-400-format-unavailable, status-400-format-unsupported (format-refused;    |
 * |               | drawn only when the request sent response_format)                                |
 * | unknown       | finish-banana, finish-empty, finish-null, finish-missing, finish-tool-calls,     |
 * |               | choices-empty, status-202-completion, status-204, status-3xx, status-418,        |
 * |               | status-599 (unknown: a careful client treats these as faults, never as a play)   |
 * | stream, gzip  | a transport over a shape of the families above (its record keeps that family)   |
 *
 * Named forms are the rules' only: a lenient reader would also take some notNamed ones
 * (`{"action": 40, "confidence": 0.3}`, prose around the JSON, `40.`, `I choose 40`); those
 * carry `meant` for reporting and `named: null`.
 *
 * A 200 whose body is no completion (HTML, plain text, empty, an error object) is recorded as
 * a fault ('server-error'), not 'unknown': it is a gateway's failure page, not a reply we
 * cannot read. A request that lists no legal actions (the preflight) gets `{"action": 0}` or
 * a fault. A request that asked for a stream gets every 200 completion as an event stream.
 */
import seedrandom from 'seedrandom';

export const FAMILIES = ['named', 'notNamed', 'reasoning', 'truncated', 'filtered', 'retryable', 'fatal', 'formatRefused', 'unknown', 'stream', 'gzip'] as const;
export type Family = (typeof FAMILIES)[number];
/** The families of what a reply says; stream and gzip are how it is sent. */
export type ContentFamily = Exclude<Family, 'stream' | 'gzip'>;
const CONTENT: readonly ContentFamily[] = ['named', 'notNamed', 'reasoning', 'truncated', 'filtered', 'retryable', 'fatal', 'formatRefused', 'unknown'];
/** Weight per family; given weights replace the defaults (a family left out weighs 0). */
export type ShapeWeights = Partial<Record<Family, number>>;
/** ~40 requests meet most families; a fatal one about once in 90. */
export const DEFAULT_WEIGHTS: Readonly<Record<Family, number>> = {
  named: 30, notNamed: 10, reasoning: 8, truncated: 6, filtered: 4, retryable: 10, fatal: 1, formatRefused: 2, unknown: 6, stream: 8, gzip: 6,
};

export type Outcome = 'answer' | 'truncated' | 'filtered' | 'fault' | 'unknown';
export type Fault = 'rate-limit' | 'quota' | 'overloaded' | 'too-large' | 'format-refused' | 'bad-request' | 'authentication' | 'not-found' | 'connection-lost' | 'server-error';
/** Where a reply carries its usage: OpenAI's `usage`, with OpenRouter's `cost`, Anthropic-like, Gemini's `usageMetadata`, Groq's `x_groq.usage` (streams). */
export type UsageShape = 'openai' | 'openrouter' | 'anthropic' | 'gemini' | 'groq';
export type Transport = 'plain' | 'gzip' | 'stream' | 'gzip-stream';

export interface LegalAction { id: number; words: string }
export interface FakeRequest {
  model: string;
  /** Each message's text (a content-part list joined). */
  messages: { role: string; content: string }[];
  /** max_completion_tokens ?? max_tokens ?? 4000 (4000 too when that is no number ≥ 1). */
  maxTokens: number;
  stream: boolean;
  /** The request sent a response_format. */
  structured: boolean;
  /** The legal actions listed in the last message with `Your legal actions:`; none in the preflight. */
  legal: LegalAction[];
  /** The Authorization header's bearer key, or null. */
  apiKey: string | null;
}
export interface Tokens { prompt: number; completion: number; reasoning: number }
export interface Prices { promptPerMillion: number; completionPerMillion: number }
export const DEFAULT_PRICES: Readonly<Prices> = { promptPerMillion: 0.5, completionPerMillion: 1.5 };

/** What to send: JSON, text as it is, an event stream of JSON chunks (then `[DONE]`), or nothing. Completions carry `id: ''`, which the server fills. */
export type ReplyBody =
  | { kind: 'json'; value: Record<string, unknown> }
  | { kind: 'text'; text: string; contentType: string }
  | { kind: 'events'; chunks: Record<string, unknown>[] }
  | { kind: 'none' };

export interface ReplyPlan {
  family: ContentFamily;
  shape: string;
  outcome: Outcome;
  fault?: Fault;
  /** The legal id the answer names in a form that must be accepted; null for every other reply. */
  named: number | null;
  /** The action a human reads in an answer (even an illegal id), or null; null for non-answers. */
  meant: number | null;
  /** The choice's content, as sent (null when none, or no choice). */
  content: string | null;
  /** The choice's finish_reason as sent; absent when no choice or no such key. */
  finish?: string | null;
  billed: Tokens;
  /** Prompt tokens the usage says came from a cache (part of billed.prompt). */
  cached: number;
  /** Where the body carries the usage; null when it does not. */
  usageShape: UsageShape | null;
  /** usage.cost, when the body carries one: billed tokens × prices. */
  costReported?: number;
  status: number;
  headers: Record<string, string>;
  body: ReplyBody;
  transport: Transport;
  /** 'before-headers': the socket is destroyed at once; 'mid-body': after half the body. */
  cut: 'none' | 'before-headers' | 'mid-body';
}

export type Rng = () => number;

/** The generator of reply n: keyed by the seed and n alone, so concurrency does not change what reply n is. */
export function replyRng(seed: string, n: number): Rng {
  return seedrandom(`${seed}/${n}`);
}

const LEGAL_HEADER = 'Your legal actions:';

const textOf = (c: unknown): string => typeof c === 'string' ? c
  : Array.isArray(c) ? c.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('') : '';

/** The request, from its JSON body and Authorization header. */
export function parseRequest(body: unknown, authorization?: string): FakeRequest {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const messages = (Array.isArray(b.messages) ? b.messages : []).map((m: { role?: unknown; content?: unknown }) => ({ role: String(m?.role ?? ''), content: textOf(m?.content) }));
  const limit = b.max_completion_tokens ?? b.max_tokens ?? 4000;
  const lines = messages.filter((m) => m.content.includes(LEGAL_HEADER)).at(-1)?.content.split(LEGAL_HEADER).at(-1)!.split('\n').slice(1) ?? [];
  const legal: LegalAction[] = [];
  for (const line of lines) {
    const m = /^\s+(\d+): (.*\S)\s*$/.exec(line);
    if (!m) break;
    legal.push({ id: Number(m[1]), words: m[2] });
  }
  return {
    model: typeof b.model === 'string' ? b.model : '',
    messages,
    maxTokens: typeof limit === 'number' && limit >= 1 && Number.isFinite(limit) ? Math.floor(limit) : 4000,
    stream: b.stream === true,
    structured: b.response_format !== undefined && b.response_format !== null,
    legal,
    apiKey: /^Bearer\s+(\S+)/i.exec(authorization ?? '')?.[1] ?? null,
  };
}

/** Billed prompt tokens: a quarter token per UTF-16 unit of the contents, rounded up, and 4 per message. */
export function promptTokens(req: FakeRequest): number {
  return Math.ceil(req.messages.reduce((s, m) => s + m.content.length, 0) / 4) + 4 * req.messages.length;
}

const NO_TOKENS: Readonly<Tokens> = { prompt: 0, completion: 0, reasoning: 0 };

// ---- Drawing helpers

interface Ctx { rng: Rng; req: FakeRequest; prices: Prices }
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)];
const int = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
const chance = (rng: Rng, p: number) => rng() < p;
const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));

function weighted<T extends string>(rng: Rng, options: readonly T[], w: Readonly<Partial<Record<T, number>>>): T | null {
  const total = options.reduce((s, o) => s + Math.max(0, w[o] ?? 0), 0);
  if (total <= 0) return null;
  let r = rng() * total;
  for (const o of options) if ((r -= Math.max(0, w[o] ?? 0)) < 0) return o;
  return [...options].reverse().find((o) => (w[o] ?? 0) > 0)!; // rounding at the very end
}

/** Digits of other scripts: Arabic-Indic, Devanagari, fullwidth. */
const ZEROS = [0x660, 0x966, 0xff10];
const inScript = (zero: number, s: string) => s.replace(/[0-9]/g, (d) => String.fromCodePoint(zero + Number(d)));
/** The normal form the accepted plain-text forms are compared in: ASCII digits, lower case, single spaces. */
function normalise(s: string): string {
  const digit = (c: string) => {
    const cp = c.codePointAt(0)!;
    return String(cp - ZEROS.find((z) => cp >= z && cp < z + 10)!);
  };
  return s.replace(/[\u0660-\u0669\u0966-\u096f\uff10-\uff19]/g, digit).trim().replace(/\s+/g, ' ').toLowerCase();
}

const STOP = ['stop', 'STOP', 'Stop', 'end_turn', 'END_TURN', 'stop_sequence', 'eos', 'EOS'];
const LENGTH = ['length', 'LENGTH', 'MAX_TOKENS', 'max_tokens', 'max_output_tokens'];
const REASONS = ['keeps 2 beers for later', 'player 3 has 4 shots {already}', 'ends the turn safely', 'saves Rum (worth 5 points)'];
const pad = (rng: Rng, t: string) => pick(rng, ['', ' ', '\n', ' \n ']) + t + pick(rng, ['', '\n', '  ', '\n\n']);
const json = (rng: Rng, v: string) => pick(rng, [`{"action": ${v}}`, `{"action":${v}}`, `{ "action" : ${v} }`, `{\n  "action": ${v}\n}`]);
const withReason = (rng: Rng, v: string) => {
  const r = JSON.stringify(pick(rng, REASONS));
  return pick(rng, [`{"action": ${v}, "reason": ${r}}`, `{"reason": ${r}, "action": ${v}}`, `{\n  "action": ${v},\n  "reason": ${r}\n}`]);
};
/** A proper prefix: never a whole JSON object. */
const cutPrefix = (rng: Rng, s: string) => s.slice(0, int(rng, 1, s.length - 1));
const fence = (rng: Rng, t: string) => `${pick(rng, ['```json\n', '```\n', '```JSON\n'])}${t}\n\`\`\``;
/** Words in other cases and with runs of spaces (the same normal form). */
const recase = (rng: Rng, w: string) => w.split(' ').map((x) => pick(rng, [x, x.toUpperCase(), x.toLowerCase()])).reduce((a, x) => `${a}${pick(rng, [' ', '  ', '   '])}${x}`);

/** Another id: a different legal one where there is one. */
function other(rng: Rng, legal: LegalAction[], a: number): number {
  const rest = legal.filter((l) => l.id !== a);
  return rest.length > 0 ? pick(rng, rest).id : a + 1;
}
function illegal(rng: Rng, legal: LegalAction[]): number {
  const ids = legal.map((l) => l.id);
  return pick(rng, [Math.max(...ids) + int(rng, 1, 4), -1, 999].filter((z) => !ids.includes(z)));
}
/** Thinking text with numbers, braces and even an answer-shaped object for another id; never `</think>`. */
function thinking(rng: Rng, legal: LegalAction[], a: number): string {
  const b = other(rng, legal, a);
  const parts = [
    `Legal ids: ${legal.map((l) => l.id).join(', ') || 'none'}.`,
    `Player ${int(rng, 0, 5)} has ${int(rng, 0, 9)} beers and {${int(rng, 1, 4)} shots}.`,
    `{"action": ${b}} looked good at first.`,
    `Score so far: {"p0": ${int(rng, 0, 30)}, "p1": ${int(rng, 0, 30)}}.`,
    `Option ${b} loses ${int(rng, 1, 5)} points.`,
  ];
  return parts.filter(() => chance(rng, 0.6)).join(' ') || parts[0];
}

interface Text { shape: string; text: string; named: number | null; meant: number | null }

/** An answer in a form that names `a` and must be accepted. */
function namedText(rng: Rng, legal: LegalAction[], a: LegalAction): Text {
  const X = String(a.id);
  const W = a.words;
  const uniqueWords = legal.filter((l) => normalise(l.words) === normalise(W)).length === 1 && !/^\d+$/.test(normalise(W));
  const forms: [string, () => string][] = [
    ['json-id', () => pad(rng, json(rng, X))],
    ['json-id-reason', () => pad(rng, withReason(rng, X))],
    ['json-fenced', () => pad(rng, fence(rng, pick(rng, [json(rng, X), withReason(rng, X)])))],
    ['think-json', () => `<think>\n${thinking(rng, legal, a.id)}\n</think>${pick(rng, ['', '\n', '\n\n'])}${pick(rng, [json(rng, X), withReason(rng, X)])}`],
    ['think-fenced-json', () => `<think>${thinking(rng, legal, a.id)}</think>\n${fence(rng, json(rng, X))}`],
    ['json-id-string', () => pad(rng, json(rng, `"${X}"`))],
    // JSON naming one action is an answer with words around it or keys beside it too.
    ['json-with-prose', () => pick(rng, [`Here is my answer: ${json(rng, X)}`, `${json(rng, X)}\nThat ${pick(rng, REASONS)}.`])],
    ['json-extra-key', () => `{"action": ${X}, "confidence": 0.${int(rng, 1, 9)}}`],
    ['plain-id', () => pad(rng, X)],
    ['plain-id-script', () => pad(rng, inScript(pick(rng, ZEROS), X))],
    ['plain-id-words', () => pad(rng, `${chance(rng, 0.3) ? inScript(pick(rng, ZEROS), X) : X}:${pick(rng, [' ', '  ', ' \t'])}${chance(rng, 0.5) ? recase(rng, W) : W}`)],
    ...(uniqueWords ? [
      ['json-words', () => pad(rng, json(rng, JSON.stringify(W)))],
      ['plain-words', () => pad(rng, W)],
      ['plain-words-case', () => pad(rng, recase(rng, W))],
    ] as [string, () => string][] : []),
  ];
  const [shape, make] = pick(rng, forms);
  return { shape, text: make(), named: a.id, meant: a.id };
}

/** An answer a human may read but that names no action in an accepted form. */
function notNamedText(rng: Rng, legal: LegalAction[], a: LegalAction): Text {
  const X = String(a.id);
  const W = a.words;
  const Y = other(rng, legal, a.id);
  const Z = illegal(rng, legal);
  const forms: [string, () => [string, number | null]][] = [
    ['sentence-words', () => [pick(rng, [`I'll ${W}.`, `Let me ${W}, it keeps my options open.`, `My move: ${W}`, `${W}, since ${int(rng, 1, 6)} beers are on the table.`]), a.id]],
    ['words-with-number', () => [pick(rng, [`I choose ${X}`, `I pick action ${X}.`, `${X} is the best move`, `Answer: ${X}`, `#${X}`, `${X}.`, `(${X})`]), a.id]],
    ['action-because', () => [`Action ${X}, because it ${pick(rng, REASONS)}.`, a.id]],
    ['two-ids', () => [pick(rng, [`${X} or ${Y}`, `${X}, ${Y}`, `either ${X} or ${Y}`, `${X}/${Y}`]), null]],
    ['two-json', () => [pick(rng, [`${json(rng, X)}\n${json(rng, String(Y))}`, `${json(rng, String(Y))} ${json(rng, X)}`]), null]],
    ['illegal-id', () => [pick(rng, [json(rng, String(Z)), String(Z), json(rng, `"${Z}"`)]), Z]],
    ['empty', () => [pick(rng, ['', ' ', '\n\n']), null]],
    ['json-no-action', () => pick(rng, [[`{"move": ${X}}`, a.id], [`{"choice": ${JSON.stringify(W)}}`, a.id], [`{"reason": ${JSON.stringify(pick(rng, REASONS))}}`, null], ['{"action": null}', null], [`{"actions": [${X}]}`, a.id]] as [string, number | null][])],
    ['think-unclosed', () => [`<think>${thinking(rng, legal, a.id)} ${json(rng, X)}`, null]],
  ];
  const [shape, make] = pick(rng, forms);
  const [text, meant] = make();
  return { shape, text, named: null, meant };
}

function reasoningText(rng: Rng, legal: LegalAction[], a: number): string {
  return `${thinking(rng, legal, a)} Counting: ${int(rng, 1, 9)} + ${int(rng, 1, 9)} = ${int(rng, 2, 18)}. Option ${other(rng, legal, a)} looks weaker.`;
}

// ---- Plans

/** What a plan says of itself, before its body. */
export interface PlanHead { family: ContentFamily; shape: string; outcome: Outcome; fault?: Fault; named?: number | null; meant?: number | null }

/** A reply refused before any work: nothing billed, no usage. */
export function refusedPlan(head: PlanHead, status: number, body: ReplyBody, headers: Record<string, string> = {}): ReplyPlan {
  return {
    named: null, meant: null, ...head, content: null, billed: { ...NO_TOKENS }, cached: 0, usageShape: null,
    status, headers, body, transport: 'plain', cut: 'none',
  };
}
const jsonBody = (value: Record<string, unknown>): ReplyBody => ({ kind: 'json', value });
const error = (message: string, more: Record<string, unknown> = {}) => jsonBody({ error: { message, ...more } });

/** Billed completion tokens: the content's and the reasoning's, within [1, maxTokens]. */
function completionTokens(req: FakeRequest, content: string, reasoning: number): { completion: number; reasoning: number } {
  const own = Math.ceil(content.length / 4);
  const completion = clamp(own + reasoning, 1, req.maxTokens);
  return { completion, reasoning: Math.max(0, Math.min(reasoning, completion - own)) };
}

interface Choice {
  content: string | null;
  /** undefined: no finish_reason key. */
  finish: string | null | undefined;
  reasoning?: { field: 'reasoning_content' | 'reasoning'; text: string };
  refusal?: string;
  choiceExtra?: Record<string, unknown>;
  topExtra?: Record<string, unknown>;
  noChoice?: boolean;
  status?: number;
}

/** A completion body, its tokens billed as given and its usage drawn in one of the shapes (or none). */
function completionPlan({ rng, req, prices }: Ctx, head: PlanHead, c: Choice, spent: { completion: number; reasoning: number }): ReplyPlan {
  const billed: Tokens = { prompt: promptTokens(req), ...spent };
  const usageShape = pick(rng, ['openai', 'openai', 'openrouter', 'anthropic', 'gemini', null, null] as const);
  let cached = 0;
  let costReported: number | undefined;
  const top: Record<string, unknown> = {};
  if (usageShape === 'openai' || usageShape === 'openrouter') {
    cached = chance(rng, 1 / 3) ? int(rng, 0, billed.prompt) : 0;
    costReported = usageShape === 'openrouter' ? (billed.prompt * prices.promptPerMillion + billed.completion * prices.completionPerMillion) / 1e6 : undefined;
    top.usage = {
      prompt_tokens: billed.prompt, completion_tokens: billed.completion, total_tokens: billed.prompt + billed.completion,
      ...(cached > 0 || chance(rng, 0.5) ? { prompt_tokens_details: { cached_tokens: cached } } : {}),
      ...(billed.reasoning > 0 || chance(rng, 0.5) ? { completion_tokens_details: { reasoning_tokens: billed.reasoning } } : {}),
      ...(costReported !== undefined ? { cost: costReported } : {}),
    };
  } else if (usageShape === 'anthropic') {
    top.usage = { input_tokens: billed.prompt, output_tokens: billed.completion };
  } else if (usageShape === 'gemini') {
    top.usageMetadata = { promptTokenCount: billed.prompt, candidatesTokenCount: billed.completion - billed.reasoning, thoughtsTokenCount: billed.reasoning, totalTokenCount: billed.prompt + billed.completion };
  }
  const message = {
    role: 'assistant', content: c.content,
    ...(c.refusal !== undefined ? { refusal: c.refusal } : {}),
    ...(c.reasoning ? { [c.reasoning.field]: c.reasoning.text } : {}),
  };
  const choice = { index: 0, message, logprobs: null, ...(c.finish !== undefined ? { finish_reason: c.finish } : {}), ...c.choiceExtra };
  const value = {
    id: '', object: 'chat.completion', created: 1_760_000_000 + int(rng, 0, 1e6), model: req.model, ...c.topExtra,
    choices: c.noChoice ? [] : [choice], ...top,
  };
  return {
    named: null, meant: null, ...head, content: c.noChoice ? null : c.content, ...(c.noChoice ? {} : { finish: c.finish }),
    billed, cached, usageShape, ...(costReported !== undefined ? { costReported } : {}),
    status: c.status ?? 200, headers: {}, body: jsonBody(value), transport: 'plain', cut: 'none',
  };
}

/** A complete answer: finish a variant of stop. */
function answerPlan(ctx: Ctx, family: ContentFamily, t: Text, reasoning?: Choice['reasoning'], hidden = 0): ReplyPlan {
  const r = (reasoning ? Math.ceil(reasoning.text.length / 4) + int(ctx.rng, 0, 300) : 0) + hidden;
  return completionPlan(ctx, { family, shape: t.shape, outcome: 'answer', named: t.named, meant: t.meant },
    { content: t.text, finish: pick(ctx.rng, STOP), reasoning }, completionTokens(ctx.req, t.text, r));
}

const target = (ctx: Ctx) => pick(ctx.rng, ctx.req.legal);

const PREFLIGHT: Text = { shape: 'preflight-json', text: '{"action": 0}', named: null, meant: 0 };

const named = (ctx: Ctx) => answerPlan(ctx, 'named', ctx.req.legal.length === 0 ? PREFLIGHT : namedText(ctx.rng, ctx.req.legal, target(ctx)));
const notNamed = (ctx: Ctx) => answerPlan(ctx, 'notNamed', notNamedText(ctx.rng, ctx.req.legal, target(ctx)));

function reasoning(ctx: Ctx): ReplyPlan {
  const { rng, req } = ctx;
  const a = target(ctx);
  const field = pick(rng, ['reasoning_content', 'reasoning'] as const);
  const t = chance(rng, 0.75) ? namedText(rng, req.legal, a) : notNamedText(rng, req.legal, a);
  const text = reasoningText(rng, req.legal, a.id);
  switch (int(rng, 0, 3)) {
    case 0: return answerPlan(ctx, 'reasoning', { ...t, shape: `hidden-reasoning+${t.shape}` }, undefined, int(rng, 50, 2000));
    case 1: return answerPlan(ctx, 'reasoning', { shape: `${field}-holds-json`, text: '', named: null, meant: null }, { field, text: `${text} So: {"action": ${a.id}}` });
    default: return answerPlan(ctx, 'reasoning', { ...t, shape: `${field}+${t.shape}` }, { field, text });
  }
}

function truncated(ctx: Ctx): ReplyPlan {
  const { rng, req } = ctx;
  const a = target(ctx);
  const X = String(a.id);
  const forms: [string, () => string][] = [
    ['cut-json', () => cutPrefix(rng, withReason(rng, X))],
    ['cut-fenced', () => cutPrefix(rng, fence(rng, json(rng, X)).slice(0, -4))],
    ['cut-think', () => cutPrefix(rng, `<think>\n${thinking(rng, req.legal, a.id)} ${thinking(rng, req.legal, a.id)}`)],
    ['whole-json', () => json(rng, X)],
    ['reasoning-only', () => ''],
  ];
  const [shape, make] = pick(rng, forms);
  const content = make();
  const reasoningField = shape === 'reasoning-only' || chance(rng, 0.3) ? pick(rng, ['reasoning_content', 'reasoning'] as const) : undefined;
  const hidden = shape === 'reasoning-only' ? req.maxTokens : reasoningField ? Math.max(0, req.maxTokens - Math.ceil(content.length / 4)) : 0;
  return completionPlan(ctx, { family: 'truncated', shape, outcome: 'truncated' },
    { content, finish: pick(rng, LENGTH), ...(reasoningField ? { reasoning: { field: reasoningField, text: reasoningText(rng, req.legal, a.id) } } : {}) },
    { completion: req.maxTokens, reasoning: Math.min(hidden, req.maxTokens) });
}

const FILTER_RESULTS = (hit: string) => Object.fromEntries(['hate', 'self_harm', 'sexual', 'violence'].map((k) => [k, { filtered: k === hit, severity: k === hit ? 'medium' : 'safe' }]));

function filtered(ctx: Ctx): ReplyPlan {
  const { rng, req } = ctx;
  const a = target(ctx);
  // What the filter stopped may look like a move, whole or cut.
  const partial = pick(rng, [null, json(rng, String(a.id)), cutPrefix(rng, json(rng, String(a.id)))]);
  const head = (shape: string): PlanHead => ({ family: 'filtered', shape, outcome: 'filtered' });
  const spent = completionTokens(req, partial ?? '', 0);
  switch (int(rng, 0, 3)) {
    case 0: return completionPlan(ctx, head('content-filter-azure'), {
      content: partial, finish: 'content_filter', choiceExtra: { content_filter_results: FILTER_RESULTS(pick(rng, ['hate', 'violence'])) },
      ...(chance(rng, 0.5) ? { topExtra: { prompt_filter_results: [{ prompt_index: 0, content_filter_results: FILTER_RESULTS('') }] } } : {}),
    }, spent);
    case 1: return completionPlan(ctx, head('finish-safety'), { content: partial, finish: pick(rng, ['SAFETY', 'safety']) }, spent);
    case 2: return completionPlan(ctx, head('finish-recitation'), { content: partial, finish: 'RECITATION' }, spent);
    default: return completionPlan(ctx, head('refusal'), { content: null, finish: 'stop', refusal: "I'm sorry, but I can't help with that request." }, completionTokens(req, "I'm sorry, but I can't help with that request.", 0));
  }
}

const HTML = (title: string) => `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
const RATE = error('Rate limit reached for requests per min (RPM): Limit 60, Used 60, Requested 1.', { type: 'requests', code: 'rate_limit_exceeded' });

function retryable(ctx: Ctx): ReplyPlan {
  const { rng, req } = ctx;
  const f = (shape: string, fault: Fault): PlanHead => ({ family: 'retryable', shape, outcome: 'fault', fault });
  const server = (shape: string) => f(shape, 'server-error');
  const variants: (() => ReplyPlan)[] = [
    () => refusedPlan(f('status-429-retry-after-ms', 'rate-limit'), 429, RATE, { 'retry-after-ms': String(int(rng, 1, 20)) }),
    () => refusedPlan(f('status-429-retry-after-0', 'rate-limit'), 429, RATE, { 'retry-after': '0' }),
    () => refusedPlan(f('status-429', 'rate-limit'), 429, RATE),
    () => refusedPlan(f('status-529-overloaded', 'overloaded'), 529, jsonBody({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })),
    () => refusedPlan(f('status-503-overloaded', 'overloaded'), 503, error('The engine is currently overloaded, please try again later', { type: 'server_error' })),
    () => refusedPlan(server('status-500'), 500, error('The server had an error while processing your request. Sorry about that!', { type: 'server_error' })),
    () => refusedPlan(server('status-502-html'), 502, { kind: 'text', text: HTML('502 Bad Gateway'), contentType: 'text/html' }),
    () => refusedPlan(server('status-503'), 503, error('Service Unavailable', { code: 503 })),
    () => refusedPlan(server('status-504-empty'), 504, { kind: 'text', text: '', contentType: 'text/html' }),
    () => refusedPlan(server('ok-error-object'), 200, error('Upstream request failed', { code: 502 })),
    () => refusedPlan(server('ok-errors-array'), 200, jsonBody({ errors: [{ message: 'Internal error', extensions: { code: 'INTERNAL' } }] })),
    () => refusedPlan(server('ok-detail'), 200, jsonBody({ detail: 'Internal Server Error' })),
    () => refusedPlan(server('ok-html'), 200, { kind: 'text', text: HTML('Service temporarily unavailable'), contentType: 'text/html; charset=utf-8' }),
    () => refusedPlan(server('ok-text'), 200, { kind: 'text', text: 'upstream connect error or disconnect/reset before headers. reset reason: connection termination', contentType: 'text/plain' }),
    () => refusedPlan(server('ok-empty'), 200, { kind: 'text', text: '', contentType: 'application/json' }),
    () => {
      const partial = chance(rng, 0.5) && req.legal.length > 0 ? cutPrefix(rng, json(rng, String(target(ctx).id))) : '';
      return completionPlan(ctx, server('finish-error'), { content: partial, finish: 'error', choiceExtra: { error: { message: 'Upstream provider returned an error', code: 502 } } }, completionTokens(req, partial, 0));
    },
    () => ({ ...refusedPlan(f('reset-before-headers', 'connection-lost'), 200, { kind: 'none' }), cut: 'before-headers' }),
    () => {
      const t = req.legal.length === 0 ? PREFLIGHT : namedText(rng, req.legal, target(ctx));
      const p = answerPlan(ctx, 'retryable', t);
      return { ...p, ...f('reset-mid-body', 'connection-lost'), named: null, meant: null, cut: 'mid-body' };
    },
  ];
  return pick(rng, variants)();
}
function fatal(ctx: Ctx): ReplyPlan {
  const { rng, req } = ctx;
  const f = (shape: string, fault: Fault): PlanHead => ({ family: 'fatal', shape, outcome: 'fault', fault });
  const asked = promptTokens(req) + req.maxTokens;
  const variants: (() => ReplyPlan)[] = [
    () => refusedPlan(f('status-429-quota', 'quota'), 429, error('You exceeded your current quota, please check your plan and billing details.', { type: 'insufficient_quota', code: 'insufficient_quota' })),
    () => refusedPlan(f('status-402-credits', 'quota'), 402, error('Insufficient credits. Add more using https://openrouter.ai/settings/credits', { code: 402 })),
    () => refusedPlan(f('status-401-key-echo', 'authentication'), 401, error(req.apiKey ? `Incorrect API key provided: ${req.apiKey}. You can find your API key at https://platform.openai.com/account/api-keys.` : "You didn't provide an API key.", { type: 'invalid_request_error', code: 'invalid_api_key' })),
    () => refusedPlan(f('status-403', 'authentication'), 403, error('Country, region, or territory not supported', { type: 'request_forbidden', code: 'unsupported_country_region_territory' })),
    () => refusedPlan(f('status-404-model', 'not-found'), 404, error(`The model \`${req.model}\` does not exist or you do not have access to it.`, { type: 'invalid_request_error', param: null, code: 'model_not_found' })),
    () => refusedPlan(f('status-413-tpm', 'too-large'), 413, error(`Request too large for model \`${req.model}\` in organization \`org_01fake\` service tier \`on_demand\` on tokens per minute (TPM): Limit 6000, Requested ${Math.max(6001, asked)}, please reduce your message size and try again.`, { type: 'tokens', code: 'rate_limit_exceeded' })),
    () => refusedPlan(f('status-400-context-length', 'too-large'), 400, error(`This model's maximum context length is 8192 tokens. However, you requested ${Math.max(8193, asked)} tokens (${promptTokens(req)} in the messages, ${req.maxTokens} in the completion). Please reduce the length of the messages or completion.`, { type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' })),
    // OpenAI's refusal of a message too long for it: the prompt's size, whatever the status says.
    () => refusedPlan(f('status-400-string-too-long', 'too-large'), 400, error("Invalid 'messages[1].content': string too long.", { type: 'invalid_request_error', param: 'messages[1].content', code: 'string_above_max_length' })),
    () => refusedPlan(f('status-400-invalid', 'bad-request'), 400, error("Invalid type for 'messages[0].role': expected one of 'system', 'assistant' or 'user'.", { type: 'invalid_request_error', param: 'messages[0].role', code: 'invalid_type' })),
    () => refusedPlan(f('status-422-detail', 'bad-request'), 422, jsonBody({ detail: [{ type: 'missing', loc: ['body', 'messages', 0, 'role'], msg: 'Field required' }] })),
    () => refusedPlan(f('status-400-vllm', 'bad-request'), 400, jsonBody({ object: 'error', message: 'The messages could not be rendered with the chat template.', type: 'BadRequestError', param: null, code: 400 })),
  ];
  return pick(rng, variants)();
}

function formatRefused({ rng }: Ctx): ReplyPlan {
  const f = (shape: string): PlanHead => ({ family: 'formatRefused', shape, outcome: 'fault', fault: 'format-refused' });
  return chance(rng, 0.5)
    ? refusedPlan(f('status-400-format-unavailable'), 400, error('This response_format type is unavailable now', { type: 'invalid_request_error', param: null, code: 'invalid_request_error' }))
    : refusedPlan(f('status-400-format-unsupported'), 400, error("Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.", { type: 'invalid_request_error', param: 'response_format', code: null }));
}

function unknown(ctx: Ctx): ReplyPlan {
  const { rng, req } = ctx;
  const u = (shape: string): PlanHead => ({ family: 'unknown', shape, outcome: 'unknown' });
  const t = namedText(rng, req.legal, target(ctx)).text;
  const spent = completionTokens(req, t, 0);
  const variants: (() => ReplyPlan)[] = [
    () => completionPlan(ctx, u('finish-banana'), { content: t, finish: 'banana' }, spent),
    () => completionPlan(ctx, u('finish-empty'), { content: t, finish: '' }, spent),
    () => completionPlan(ctx, u('finish-null'), { content: t, finish: null }, spent),
    () => completionPlan(ctx, u('finish-missing'), { content: t, finish: undefined }, spent),
    () => completionPlan(ctx, u('finish-tool-calls'), { content: null, finish: 'tool_calls' }, completionTokens(req, '', int(rng, 1, 40))),
    () => completionPlan(ctx, u('choices-empty'), { content: null, finish: undefined, noChoice: true }, completionTokens(req, '', int(rng, 1, 40))),
    () => completionPlan(ctx, u('status-202-completion'), { content: t, finish: 'stop', status: 202 }, spent),
    () => refusedPlan(u('status-204'), 204, { kind: 'none' }),
    () => refusedPlan(u('status-3xx'), pick(rng, [300, 307]), jsonBody({ message: 'Moved', location: null })),
    () => refusedPlan(u('status-418'), 418, error("I'm a teapot")),
    () => refusedPlan(u('status-599'), 599, error('Network connect timeout error')),
  ];
  return pick(rng, variants)();
}

const SHAPES: Record<ContentFamily, (ctx: Ctx) => ReplyPlan> = { named, notNamed, reasoning, truncated, filtered, retryable, fatal, formatRefused, unknown };

// ---- Transports

const streamable = (p: ReplyPlan) => p.body.kind === 'json' && p.status === 200 && p.body.value.object === 'chat.completion' && (p.body.value.choices as unknown[]).length === 1;

/** `text` in 1 to 4 pieces. */
function pieces(rng: Rng, text: string): string[] {
  const cuts = [...new Set(Array.from({ length: int(rng, 0, 3) }, () => int(rng, 0, text.length)))].sort((x, y) => x - y);
  return [0, ...cuts, text.length].slice(1).map((end, i, ends) => text.slice(i === 0 ? 0 : ends[i - 1], end)).filter((s, i) => s !== '' || i === 0);
}

/** A completion as an event stream: role, reasoning and content deltas, the finish on the last choice chunk, the usage where a server puts it. */
function asEvents(rng: Rng, plan: ReplyPlan): ReplyPlan {
  const v = (plan.body as { value: Record<string, unknown> }).value;
  const { choices, usage, usageMetadata, id, object: _o, created, model, ...topExtra } = v;
  const { message, index: _i, logprobs: _l, ...choiceRest } = (choices as Record<string, unknown>[])[0];
  const m = message as Record<string, unknown>;
  const base = { id, object: 'chat.completion.chunk', created, model };
  const chunk = (choice: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ ...base, ...extra, choices: [{ index: 0, ...choice }] });
  const chunks: Record<string, unknown>[] = [chunk({ delta: { role: 'assistant', content: '' }, finish_reason: null }, topExtra)];
  for (const field of ['reasoning_content', 'reasoning', 'refusal', 'content']) {
    if (typeof m[field] === 'string' && m[field] !== '') for (const p of pieces(rng, m[field] as string)) chunks.push(chunk({ delta: { [field]: p }, finish_reason: null }));
  }
  const last = chunk({ delta: {}, ...choiceRest });
  chunks.push(last);
  let usageShape = plan.usageShape;
  if (usageShape === 'gemini') last.usageMetadata = usageMetadata;
  else if (usageShape === 'anthropic') last.usage = usage;
  else if (usageShape === 'openai' && chance(rng, 1 / 3)) {
    last.x_groq = { id: 'req_fake', usage };
    usageShape = 'groq';
  } else if (usageShape !== null) {
    if (chance(rng, 0.5)) chunks.push({ ...base, choices: [], usage });
    else last.usage = usage;
  }
  return { ...plan, usageShape, body: { kind: 'events', chunks }, transport: 'stream' };
}

/** The drawn plan of a content family, the defaults' weights when the given ones allow none. */
function drawContent(ctx: Ctx, w: Readonly<Partial<Record<Family, number>>>, allowed: readonly ContentFamily[]): ReplyPlan {
  const family = weighted(ctx.rng, allowed, w) ?? weighted(ctx.rng, allowed, DEFAULT_WEIGHTS) ?? 'named';
  return SHAPES[family](ctx);
}

/**
 * Reply n to `req`: a family drawn by the weights (a transport family draws a shape of the
 * content families under it), then one of its shapes. Pure in (rng, req, weights, prices).
 */
export function drawReply(rng: Rng, req: FakeRequest, weights?: ShapeWeights, prices: Prices = DEFAULT_PRICES): ReplyPlan {
  const ctx: Ctx = { rng, req, prices };
  const w = weights ?? DEFAULT_WEIGHTS;
  const allowed = CONTENT.filter((f) => (req.legal.length > 0 ? f !== 'formatRefused' || req.structured
    : f === 'named' || f === 'retryable' || f === 'fatal' || (f === 'formatRefused' && req.structured)));
  const top = weighted(rng, [...allowed, 'stream', 'gzip'], w);
  let plan: ReplyPlan;
  if (top === 'stream') {
    plan = drawContent(ctx, w, allowed);
    for (let i = 0; i < 8 && !streamable(plan); i++) plan = drawContent(ctx, w, allowed);
    if (!streamable(plan)) plan = named(ctx);
    plan = asEvents(rng, plan);
    if (chance(rng, 0.25)) plan.transport = 'gzip-stream';
  } else if (top === 'gzip') {
    plan = drawContent(ctx, w, allowed);
    if (plan.body.kind !== 'none' && plan.cut !== 'before-headers') plan.transport = 'gzip';
  } else {
    plan = top === null ? named(ctx) : SHAPES[top](ctx);
  }
  if (req.stream && plan.transport !== 'stream' && plan.transport !== 'gzip-stream' && streamable(plan)) {
    const gz = plan.transport === 'gzip';
    plan = asEvents(rng, plan);
    if (gz) plan.transport = 'gzip-stream';
  }
  return plan;
}
