/**
 * The model's answer: structured output checked against a zod schema (whose JSON schema is
 * sent as the response format), or, for servers without structured output, plain text that
 * names a legal action id. Anything else is an invalid answer with a reason the correction
 * message can quote.
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

export type Parsed = { ok: true; action: number; reason?: string; plainText: boolean } | { ok: false; error: string };

/** Reads an answer: JSON first (also inside a ```json fence), then a legal id in plain text. */
export function parseAnswer(text: string | null | undefined, legal: readonly number[]): Parsed {
  const raw = (text ?? '').trim();
  if (raw === '') return { ok: false, error: 'the answer was empty' };
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(raw)?.[1] ?? raw;
  const braces = /\{[\s\S]*\}/.exec(fenced)?.[0];
  if (braces !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(braces);
    } catch {
      json = undefined;
    }
    if (json !== undefined) {
      const a = AnswerSchema.safeParse(json);
      if (!a.success) return { ok: false, error: `the JSON answer does not match {"action": <id>, "reason": "..."} (${a.error.issues[0].path.join('.') || 'answer'}: ${a.error.issues[0].message})` };
      if (!legal.includes(a.data.action)) return { ok: false, error: `${a.data.action} is not one of the legal action ids (${legal.join(', ')})` };
      return { ok: true, action: a.data.action, reason: a.data.reason, plainText: false };
    }
  }
  // Plain text: the legal ids it names; exactly one distinct legal id is an answer.
  const named = [...new Set((raw.match(/-?\d+/g) ?? []).map(Number).filter((n) => legal.includes(n)))];
  if (named.length === 1) return { ok: true, action: named[0], plainText: true };
  if (named.length > 1) return { ok: false, error: `the answer names several legal ids (${named.join(', ')}); give exactly one` };
  return { ok: false, error: `no legal action id found in the answer (legal ids: ${legal.join(', ')})` };
}
