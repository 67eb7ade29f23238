/**
 * The transcript (`transcript=FILE`): one JSON line per request sent to the model, and one
 * for each decision that fell back. A line names its decision by (agent, game, seat,
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

/** One request: its answer, or the fault that left it without one. */
export interface CallLine extends DecisionKey {
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
  tokens?: { prompt: number; cached: number; completion: number; reasoning: number };
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

/** Appends lines to a JSONL file, each stamped with the time and the agent, the key taken out. */
export class Transcript {
  constructor(private readonly file: string, private readonly agent: string, private readonly redact: (text: string) => string) {}

  write(line: CallLine | FallbackLine): void {
    fs.appendFileSync(this.file, `${this.redact(JSON.stringify({ time: new Date().toISOString(), agent: this.agent, ...line }))}\n`);
  }
}
