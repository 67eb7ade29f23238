/**
 * The ledger of a model's calls: the transcript (transcript.ts), read as money. Every request
 * is written twice: a `sent` line before it goes out, with its bound (the most it can be
 * charged), and its outcome line when it is over, with its `charge`:
 *
 * | charge | when | what it costs |
 * |---|---|---|
 * | `usage` | the reply reported its usage | its reported cost, else its tokens at the price |
 * | `bound` | the server may have billed it but said nothing (an answer without usage, a fault inside a 200, a connection lost mid-answer, a timeout, an unknown reply) | its bound at the price |
 * | `none` | refused by its status before any work (a rate limit, a refused key, a 5xx) | nothing |
 * | (no outcome line) | the process was killed while it was in flight | its bound at the price |
 *
 * So a run's spend read from its ledger is never less than what the servers billed, whatever
 * stopped it, and a resumed run, `report` or a budget all read the same figure.
 */
import type { AgentUsage } from '../agent.ts';
import { countReply } from '../usage.ts';
import { chargeCost, type CallBound, type CallCharge, type Price } from '../outside-calls.ts';
import { answerJsonSchema } from './answer.ts';
import type { ChatMessage } from './prompt.ts';
import { MAY_BE_BILLED, type Reply } from './reply.ts';

/** Tokens a chat template adds per message, and per request, at most (OpenAI's count 3–4 and 3). */
const PER_MESSAGE = 4;
const PER_REQUEST = 8;
const SCHEMA_BYTES = Buffer.byteLength(JSON.stringify(answerJsonSchema()));

/**
 * The most tokens a request can be charged: a byte-level tokenizer makes no more tokens than
 * the prompt has UTF-8 bytes (the structured output's schema included), plus the template's
 * own per message; the answer no more than the token limit sent.
 */
export function callBound(messages: readonly ChatMessage[], structured: boolean, maxTokens: number): CallBound {
  const bytes = messages.reduce((n, m) => n + Buffer.byteLength(m.content) + PER_MESSAGE, 0);
  return { promptTokens: bytes + PER_REQUEST + (structured ? SCHEMA_BYTES : 0), completionTokens: maxTokens };
}

export type Charge = 'usage' | 'bound' | 'none';

/** How a reply's request is charged (the table above). */
export function chargeOf(reply: Reply): Charge {
  if (reply.usage) return 'usage';
  // A fault in a 200 (a choice that failed, a gateway's error) came after the server took the request: it may have worked on it.
  if (reply.kind === 'fault') return MAY_BE_BILLED[reply.fault] || reply.status === 200 ? 'bound' : 'none';
  if (reply.kind === 'unknown') return MAY_BE_BILLED.unknown ? 'bound' : 'none';
  return 'bound';
}

/**
 * One agent's calls in a ledger: its requests (those in flight at a kill among them), the
 * usage its replies reported (LEDGER_COUNTS: the same fields as an agent's usage), every
 * outcome by its reply class, and its spend at a price.
 */
export const LEDGER_COUNTS = ['requests', 'usageReports', 'promptTokens', 'completionTokens', 'reasoningTokens', 'cachedTokens', 'providerCost', 'costReports', 'usageMissing'] as const;

export type LedgerTotals = Pick<AgentUsage, (typeof LEDGER_COUNTS)[number]> & {
  /** Of the requests, those with no outcome line (in flight when the process was killed). */
  inFlight: number;
  replies: Record<string, number>;
  /** The spend at a price: every call as its charge says. */
  spend(price: Price): number;
};

/** One request in the ledger: its bound, and its charge once it is over (none yet: cut off by a kill). */
interface Call {
  agent: string;
  bound: CallBound;
  charge?: CallCharge;
  reply?: string;
}

/** The ledger's totals by agent spec, from a transcript's text. Lines that are not of the format are skipped. */
export function readLedger(text: string): Map<string, LedgerTotals> {
  const calls = new Map<string, Call>();
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      continue; // a line cut off by a kill: its call has no outcome, and is charged its bound
    }
    if (typeof line.call !== 'string' || typeof line.agent !== 'string') continue;
    const sent = line.sent as { prompt?: unknown; completion?: unknown } | undefined;
    if (sent && typeof sent.prompt === 'number' && typeof sent.completion === 'number') {
      calls.set(line.call, { agent: line.agent, bound: { promptTokens: sent.prompt, completionTokens: sent.completion } });
      continue;
    }
    const c = calls.get(line.call);
    if (!c) continue;
    const t = (line.tokens ?? {}) as { prompt?: number; completion?: number; reasoning?: number; cached?: number };
    if (line.charge === 'usage') c.charge = { promptTokens: t.prompt ?? 0, completionTokens: t.completion ?? 0, reasoningTokens: t.reasoning ?? 0, cachedTokens: t.cached ?? 0, cost: typeof line.cost === 'number' ? line.cost : null };
    else if (line.charge === 'bound') c.charge = 'bound';
    else if (line.charge === 'none') c.charge = null;
    else continue;
    if (typeof line.reply === 'string') c.reply = line.reply;
  }
  const out = new Map<string, LedgerTotals>();
  const lists = new Map<string, Call[]>();
  for (const c of calls.values()) {
    let list = lists.get(c.agent);
    if (!list) {
      const mine: Call[] = (list = []);
      lists.set(c.agent, mine);
      out.set(c.agent, {
        requests: 0, inFlight: 0, usageReports: 0, promptTokens: 0, completionTokens: 0, reasoningTokens: 0, cachedTokens: 0,
        providerCost: 0, costReports: 0, usageMissing: 0, replies: {},
        // A request a kill cut off is charged its bound.
        spend: (p: Price) => mine.reduce((sum, k) => sum + chargeCost(k.charge === undefined ? 'bound' : k.charge, k.bound, p), 0),
      });
    }
    list.push(c);
    const t = out.get(c.agent)!;
    t.requests++;
    if (c.charge === undefined) {
      t.inFlight++;
      continue;
    }
    if (c.reply) t.replies[c.reply] = (t.replies[c.reply] ?? 0) + 1;
    countReply(t, c.charge === null || c.charge === 'bound' ? null : c.charge, c.reply === 'answer' || c.reply === 'truncated' || c.reply === 'filtered');
  }
  return out;
}
