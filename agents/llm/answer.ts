/**
 * The model's answer: structured output checked against a zod schema (whose JSON schema is
 * sent as the response format), or, for servers without structured output, plain text that
 * names a legal action id. Anything else is an invalid answer with a reason the correction
 * message can quote; an answer cut off before it was whole is a truncation, never a move.
 */
import { z } from 'zod';

export const AnswerSchema = z.object({
  /** The id of the chosen action, from the numbered list of legal actions. */
  action: z.number().int(),
  /** Optional short reason, kept in transcripts. */
  reason: z.string().max(500).optional(),
});

export type Answer = z.infer<typeof AnswerSchema>;

/** JSON schema of the answer, for `response_format: { type: 'json_schema' }`. */
export function answerJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(AnswerSchema) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

/**
 * A read answer: a legal action; or an unusable one, with the reason a correction can quote.
 * `truncated`: the answer stopped before it was whole (inside its reasoning or its JSON), so
 * nothing in it may be read as a move: the model ran out of tokens.
 */
export type Parsed =
  | { ok: true; action: number; reason?: string; plainText: boolean }
  | { ok: false; error: string; truncated?: boolean };

/** Tags that distilled reasoning models wrap their thinking in when no server parser strips it. */
const REASONING = /<(think|thinking|reasoning)>([\s\S]*?)(<\/\1>|$)/gi;

/** The text of an answer outside its inline reasoning, and whether the answer ended inside it. */
export function outsideReasoning(text: string): { answer: string; endedInReasoning: boolean } {
  // Some chat templates open the <think> block in the prompt: the answer then starts inside it.
  const close = /<\/(think|thinking|reasoning)>/i.exec(text);
  const open = /<(think|thinking|reasoning)>/i.exec(text);
  let rest = close && (!open || open.index > close.index) ? text.slice(close.index + close[0].length) : text;
  let endedInReasoning = false;
  rest = rest.replace(REASONING, (_m, _tag, _inner, end: string) => {
    if (end === '') endedInReasoning = true;
    return ' ';
  });
  return { answer: rest, endedInReasoning };
}

/**
 * The top-level JSON objects in `text`, as substrings, in order (braces inside strings do not
 * count), and whether an object was still open when the text ended.
 */
export function jsonObjects(text: string): { objects: string[]; openAtEnd: boolean } {
  const objects: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"' && depth > 0) {
      inString = true;
    } else if (c === '{') {
      if (depth++ === 0) start = i;
    } else if (c === '}' && depth > 0 && --depth === 0) {
      objects.push(text.slice(start, i + 1));
    }
  }
  return { objects, openAtEnd: depth > 0 };
}

/**
 * Reads an answer. Only the text outside any reasoning counts; in it, the last JSON object
 * that parses is the answer (a model may quote an example before answering); without one, a
 * legal id named in plain text. An answer that ends inside its reasoning or inside a JSON
 * object is truncated: numbers in a cut-off reason are not a move.
 */
export function parseAnswer(text: string | null | undefined, legal: readonly number[]): Parsed {
  const { answer, endedInReasoning } = outsideReasoning(text ?? '');
  if (endedInReasoning) return { ok: false, truncated: true, error: 'the answer ended inside its reasoning, before any move' };
  const raw = answer.trim();
  if (raw === '') return { ok: false, error: 'the answer was empty' };
  const { objects, openAtEnd } = jsonObjects(raw);
  if (openAtEnd) return { ok: false, truncated: true, error: 'the JSON answer was cut off before it closed' };
  const parsed = objects.map((o) => {
    try {
      return JSON.parse(o) as unknown;
    } catch {
      return undefined;
    }
  }).filter((j) => j !== undefined);
  const withAction = parsed.filter((j) => typeof j === 'object' && j !== null && 'action' in j);
  const json = withAction.at(-1) ?? parsed.at(-1);
  if (json !== undefined) {
    const a = AnswerSchema.safeParse(json);
    if (!a.success) return { ok: false, error: `the JSON answer does not match {"action": <id>, "reason": "..."} (${a.error.issues[0].path.join('.') || 'answer'}: ${a.error.issues[0].message})` };
    if (!legal.includes(a.data.action)) return { ok: false, error: `${a.data.action} is not one of the legal action ids (${legal.join(', ')})` };
    return { ok: true, action: a.data.action, reason: a.data.reason, plainText: false };
  }
  // Plain text: the legal ids it names; exactly one distinct legal id is an answer.
  const named = [...new Set((raw.match(/-?\d+/g) ?? []).map(Number).filter((n) => legal.includes(n)))];
  if (named.length === 1) return { ok: true, action: named[0], plainText: true };
  if (named.length > 1) return { ok: false, error: `the answer names several legal ids (${named.join(', ')}); give exactly one` };
  return { ok: false, error: `no legal action id found in the answer (legal ids: ${legal.join(', ')})` };
}
