/**
 * What a chat-completions answer said, whatever shape the server sent it in: a JSON body,
 * an error inside a 200, a choice that failed, or an event stream though none was asked for.
 * A body that is no completion is a fault of the server (GatewayError), never the model's answer.
 */
import type { CallSpend } from '../outside-calls.ts';

/**
 * A server answered, but not with a completion: an error in an HTTP 200 body, no choice, a
 * choice that failed (finish_reason "error"), or text that is no completion. Retried as a
 * fault of the server, never read as the model's answer.
 */
export class GatewayError extends Error {
  override name = 'GatewayError';
}

/** The whole answer (headers and body) did not come within the request's time. */
export class AnswerTimeoutError extends Error {
  override name = 'AnswerTimeoutError';
  constructor(readonly ms: number) {
    super(`no whole answer within ${ms / 1000} s (timeout)`);
  }
}

/** What a completion said, whatever shape the server sent it in. */
export interface Completion {
  content: string;
  reasoning: string;
  /** finish_reason: 'stop', 'length' (cut off at the token limit), ... or '' when not given. */
  finish: string;
  model: string;
  usage: {
    prompt_tokens?: number;
    completion_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number };
    completion_tokens_details?: { reasoning_tokens?: number };
    /** What the request cost, where the server says (OpenRouter). */
    cost?: number;
  } | undefined;
}

/** What an answer's usage says it was charged. */
export function spendOf(c: Completion): CallSpend {
  const u = c.usage;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return {
    promptTokens: n(u?.prompt_tokens) ?? 0,
    cachedTokens: n(u?.prompt_tokens_details?.cached_tokens) ?? 0,
    completionTokens: n(u?.completion_tokens) ?? 0,
    reasoningTokens: n(u?.completion_tokens_details?.reasoning_tokens) ?? 0,
    cost: n(u?.cost),
  };
}

function errorText(e: unknown): string {
  if (typeof e === 'string') return e;
  const m = (e as { message?: unknown } | null)?.message;
  return typeof m === 'string' ? m : JSON.stringify(e);
}

/** One choice's message (or a stream chunk's delta) and the completion around it, read. */
function choiceOf(body: Record<string, unknown>): Completion {
  if (body.error !== undefined && body.error !== null) throw new GatewayError(`the server answered with an error: ${errorText(body.error)}`);
  const choices = body.choices;
  if (!Array.isArray(choices) || choices.length === 0) throw new GatewayError('the server answered without any choice');
  const c = choices[0] as { finish_reason?: string | null; message?: Record<string, unknown>; delta?: Record<string, unknown>; error?: unknown };
  if (c.finish_reason === 'error') throw new GatewayError(`the answer failed on the server (finish_reason "error")${c.error ? `: ${errorText(c.error)}` : ''}`);
  const m = c.message ?? c.delta ?? {};
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    content: text(m.content),
    reasoning: text(m.reasoning_content) || text(m.reasoning),
    finish: c.finish_reason ?? '',
    model: text(body.model),
    usage: body.usage as Completion['usage'],
  };
}

/** An answer sent as an event stream, though none was asked for: its chunks joined. */
function fromEventStream(text: string): Completion {
  const chunks = text.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).filter((d) => d !== '' && d !== '[DONE]');
  if (chunks.length === 0) throw new GatewayError(`the server answered with text that is no completion: ${JSON.stringify(text.slice(0, 200))}`);
  const out: Completion = { content: '', reasoning: '', finish: '', model: '', usage: undefined };
  for (const d of chunks) {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(d) as Record<string, unknown>;
    } catch {
      throw new GatewayError(`the server's event stream held a chunk that is not JSON: ${JSON.stringify(d.slice(0, 200))}`);
    }
    if (Array.isArray(body.choices) && body.choices.length === 0 && body.usage) {
      out.usage = body.usage as Completion['usage']; // the usage-only last chunk
      continue;
    }
    const c = choiceOf(body);
    out.content += c.content;
    out.reasoning += c.reasoning;
    out.finish = c.finish || out.finish;
    out.model ||= c.model;
    out.usage = c.usage ?? out.usage;
  }
  return out;
}

/** A completion from what `chat.completions.create` gave: a JSON body in any server's shape, or event-stream text. */
export function readCompletion(res: unknown): Completion {
  if (typeof res === 'string') return fromEventStream(res);
  if (typeof res !== 'object' || res === null) throw new GatewayError('the server answered with no body');
  return choiceOf(res as Record<string, unknown>);
}
