/**
 * The transcript (`transcript=FILE`): for every request sent to the model a `sent` line before
 * it goes out and a line with its outcome, and one line for each decision that fell back. It is
 * the ledger of calls (ledger.ts). A line names its decision by (agent, game, seat,
 * decision), and the line of the answer that was played, like a fallback's, holds the
 * `action`: with the action, the key that pairs it with the game's moves (docs/llm.md has
 * the table of fields). Everything written has the API key taken out.
 */
import fs from 'node:fs';
import type { ChatMessage } from './prompt.ts';
import type { Parsed } from './answer.ts';

/** Which decision a line is of. */
export interface DecisionKey {
  /** The game seed the agent was reset with. */
  game: string;
  seat: number;
  /** 0-based index of this seat's decisions sent to the model in this game. */
  decision: number;
}

/** A request about to be sent: the ledger's reservation (ledger.ts), written before it goes out. */
export interface SentLine extends DecisionKey {
  call: string;
  retry?: number;
  /** The most it can be charged: its prompt's tokens at most, and the answer's token limit. */
  sent: { prompt: number; completion: number };
}

/** One request: its answer, or the fault that left it without one. */
export interface CallLine extends DecisionKey {
  /** The request's id, unique in the transcript: pairs this line with its `sent` line. */
  call?: string;
  /** The reply's class (reply.ts replyClass: answer, truncated, filtered, fault:<kind>, unknown). */
  reply?: string;
  /** The reply's own id (the completion's, or the x-request-id header), when it had one. */
  replyId?: string;
  /** How the request is charged in the ledger: its usage, its bound, or nothing (ledger.ts). */
  charge?: 'usage' | 'bound' | 'none';
  /** 0 for the decision's first answer, n after n corrections. */
  attempt: number;
  /** Requests sent before this one for the same attempt (fault retries, a resend after an adaptation); absent when none. */
  retry?: number;
  /** What was sent: the whole prompt at a first attempt, else what it adds (a correction, or the decision in a conversation). */
  messages: ChatMessage[];
  answer?: string;
  reasoning?: string;
  finish?: string;
  latencyMs?: number;
  /** As the server's usage said; null when it reported none. */
  tokens?: { prompt: number; cached: number; completion: number; reasoning: number } | null;
  /** The cost the server reported for the request (usage.cost). */
  cost?: number;
  parsed?: Parsed;
  /** On the line whose answer was played: the action's id and its words as the prompt listed them. */
  action?: number;
  words?: string;
  /** The fault, when the request got no answer (or none that could be read). */
  error?: string;
}

/** A decision that fell back: the action played instead, and whose failure it was. */
export interface FallbackLine extends DecisionKey {
  fallback: true;
  action: number;
  words: string;
  cause: 'server' | 'model';
}

/**
 * Appends lines to a JSONL file (or to a list, kept until they are written to one), each
 * stamped with the time and the agent, the key taken out. Each line is appended whole, at
 * once, so a kill leaves at most the last one cut off.
 */
export class Transcript {
  constructor(private readonly to: string | string[], private readonly agent: string, private readonly redact: (text: string) => string) {}

  write(line: CallLine | FallbackLine | SentLine): void {
    const text = `${this.redact(JSON.stringify({ time: new Date().toISOString(), agent: this.agent, ...line }))}\n`;
    if (typeof this.to === 'string') fs.appendFileSync(this.to, text);
    else this.to.push(text);
  }
}
