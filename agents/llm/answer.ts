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

/** An action as the prompt listed it: its id and its words. */
export interface Listed {
  id: number;
  words: string;
}

/** The value of a digit of any script (a run of ten code points from its zero). */
function digitValue(cp: number): number {
  let zero = cp;
  while (zero > 0 && cp - zero < 9 && /\p{Nd}/u.test(String.fromCodePoint(zero - 1))) zero--;
  return (cp - zero) % 10;
}

/**
 * Text as answers are compared: Unicode-compatible forms (full-width letters and digits),
 * the digits of every script as ASCII ones, whitespace collapsed, case folded.
 */
export function normalise(text: string): string {
  return text.normalize('NFKC')
    .replace(/\p{Nd}/gu, (d) => String(digitValue(d.codePointAt(0)!)))
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/**
 * The listed action a piece of text names exactly: its id alone, its words, or "id: words"
 * as the list shows them (normalised). Null when it names none, or when its words are those
 * of two listed actions.
 */
function exactlyNamed(text: string, listed: readonly Listed[]): number | null {
  const t = normalise(text);
  const hits = new Set(listed.filter((l) => t === String(l.id) || t === normalise(l.words) || t === normalise(`${l.id}: ${l.words}`)).map((l) => l.id));
  return hits.size === 1 ? [...hits][0] : null;
}

const FORMAT = 'give one listed action: JSON {"action": <id>}, or the id alone';

/**
 * Reads an answer: a move only when it names exactly one listed action. Only the text outside
 * any reasoning counts. JSON objects with an `action` name it by id (a number, or a string of
 * digits) or by the action's words; every such object must name the same action. Without
 * JSON, the whole text must be an id, an action's words, or "id: words" as listed (case,
 * whitespace and the digits of other scripts aside): a number inside other words is never read
 * as an id. An answer that ends inside its reasoning or inside a JSON object is truncated.
 */
export function parseAnswer(text: string | null | undefined, listed: readonly Listed[]): Parsed {
  const { answer, endedInReasoning } = outsideReasoning(text ?? '');
  if (endedInReasoning) return { ok: false, truncated: true, error: 'the answer ended inside its reasoning, before any move' };
  const raw = answer.trim();
  if (raw === '') return { ok: false, error: 'the answer was empty' };
  const ids = listed.map((l) => l.id).join(', ');
  const { objects, openAtEnd } = jsonObjects(raw);
  if (openAtEnd) return { ok: false, truncated: true, error: 'the JSON answer was cut off before it closed' };
  const parsed = objects.map((o) => {
    try {
      return JSON.parse(o) as unknown;
    } catch {
      return undefined;
    }
  }).filter((j): j is Record<string, unknown> => typeof j === 'object' && j !== null && !Array.isArray(j));
  const withAction = parsed.filter((j) => 'action' in j);
  if (withAction.length > 0) {
    const named = new Set<number>();
    for (const j of withAction) {
      const v = j.action;
      const id = typeof v === 'number' ? (listed.some((l) => l.id === v) ? v : null) : typeof v === 'string' ? exactlyNamed(v, listed) : null;
      if (id === null) return { ok: false, error: `${JSON.stringify(v)} is not one of the listed action ids (${ids})` };
      named.add(id);
    }
    if (named.size > 1) return { ok: false, error: `the answer names several actions (${[...named].join(', ')}); ${FORMAT}` };
    const last = withAction.at(-1)!;
    const reason = typeof last.reason === 'string' ? last.reason.slice(0, 500) : undefined;
    return { ok: true, action: [...named][0], ...(reason !== undefined ? { reason } : {}), plainText: false };
  }
  if (parsed.length > 0) return { ok: false, error: `the JSON answer has no "action" (${FORMAT})` };
  const id = exactlyNamed(raw.replace(/^```[a-z]*\s*|\s*```$/gi, ''), listed);
  if (id !== null) return { ok: true, action: id, plainText: true };
  return { ok: false, error: `the answer does not name one listed action on its own (${FORMAT}; listed ids: ${ids})` };
}
