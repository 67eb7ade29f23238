/**
 * `llm:<model>`: a language model as a player, through any OpenAI-compatible chat-completions
 * server (the `openai` package). Only decisions with more than one legal action are sent.
 *
 * Per decision: the rules summary, what the seat saw since its last decision and its text view
 * with the numbered legal actions (prompt.ts). The answer is structured JSON (a JSON schema
 * from a zod schema) or plain text naming a legal id (answer.ts). An invalid answer gets a
 * short correction and another try, up to `maxInvalid` times; then the fallback action is
 * played and counted. Faults (timeouts, connection errors, 429, 5xx) are retried with
 * exponential backoff, honouring Retry-After, up to `maxRetries` times; then the fallback too.
 * The game never stops because of the model. Requests across all llm agents with the same
 * base URL share a concurrency limit.
 */
import fs from 'node:fs';
import OpenAI from 'openai';
import { DEFAULT_RULESET } from '../../env/ruleset.ts';
import { randInt, seedRng, type RngState } from '../../env/rng.ts';
import type { Agent, AgentObservation, AgentUsage, GameStart } from '../agent.ts';
import { emptyUsage } from '../usage.ts';
import { answerJsonSchema, parseAnswer } from './answer.ts';
import { decisionMessages, type ChatMessage } from './prompt.ts';

export const LLM_DEFAULTS = {
  /** Server base URL; default $OPENAI_BASE_URL, else OpenAI's. */
  baseUrl: '',
  /** Name of the environment variable holding the API key. */
  apiKeyEnv: 'OPENAI_API_KEY',
  temperature: 0,
  maxTokens: 200,
  /** Per-request timeout. */
  timeoutMs: 60_000,
  /** Send the answer's JSON schema as response_format (off for servers without structured output). */
  structured: true,
  /** Corrections after an invalid answer before the fallback is played. */
  maxInvalid: 2,
  /** Retries after a timeout, connection error, 429 or 5xx before the fallback is played. */
  maxRetries: 4,
  /** First backoff delay, doubled each retry (a Retry-After header overrides it). */
  backoffMs: 500,
  /** Requests in flight at once, across every llm agent using the same base URL. */
  concurrency: 4,
  /** Played when the model gives no usable answer: 'first' legal action or a 'random' one. */
  fallback: 'first',
  /** Append every request and answer to this JSONL file ('' = no transcript). */
  transcript: '',
};

export type LlmOptions = typeof LLM_DEFAULTS & { model: string };

/** The answer's JSON schema as the response format, for servers with structured output. */
const RESPONSE_FORMAT = { type: 'json_schema' as const, json_schema: { name: 'czech_pub_action', schema: answerJsonSchema(), strict: false } };

/** A counting semaphore per base URL. */
class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}
  async run<T>(f: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await f();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}
const limiters = new Map<string, Limiter>();

/** Delay a Retry-After (or retry-after-ms) header asks for, in ms, or null. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | null {
  if (!headers) return null;
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') !== null && Number.isFinite(ms)) return Math.max(0, ms);
  const raw = headers.get('retry-after');
  if (raw === null) return null;
  const secs = Number(raw);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function retryable(err: unknown): boolean {
  if (err instanceof OpenAI.APIConnectionError) return true; // includes timeouts
  if (err instanceof OpenAI.APIError) return err.status === 429 || (err.status !== undefined && err.status >= 500);
  return false;
}

export class LlmAgent implements Agent {
  readonly readsEvents = true;
  /** What the agent spent since the last takeUsage. */
  private usage: AgentUsage = emptyUsage();
  private readonly client: OpenAI;
  private readonly limiter: Limiter;
  private rng: RngState = seedRng('llm');
  private game = '';

  constructor(
    readonly spec: string,
    private readonly o: LlmOptions,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {
    const baseURL = o.baseUrl || process.env.OPENAI_BASE_URL || undefined;
    // maxRetries 0: faults are retried here, so they can be counted and bounded per decision.
    this.client = new OpenAI({ baseURL, apiKey: process.env[o.apiKeyEnv] ?? 'none', timeout: o.timeoutMs, maxRetries: 0 });
    const key = baseURL ?? 'openai';
    let l = limiters.get(key);
    if (!l) limiters.set(key, (l = new Limiter(o.concurrency)));
    this.limiter = l;
  }

  takeUsage(): AgentUsage {
    const u = { ...this.usage, model: this.o.model };
    this.usage = emptyUsage();
    return u;
  }

  reset(game: GameStart): void {
    this.rng = seedRng(`llm/${game.seed}`);
    this.game = game.seed;
  }

  async act(obs: AgentObservation): Promise<number> {
    const legal = obs.legalActions;
    if (legal.length === 1) return legal[0];
    this.usage.decisions++;
    const messages: ChatMessage[] = decisionMessages(obs, DEFAULT_RULESET);
    for (let attempt = 0; attempt <= this.o.maxInvalid; attempt++) {
      const text = await this.complete(messages);
      if (text === null) break; // faults exhausted
      const parsed = parseAnswer(text, legal);
      this.log({ game: this.game, seat: obs.seat, attempt, messages: attempt === 0 ? messages : messages.slice(-2), answer: text, parsed });
      if (parsed.ok) {
        if (parsed.plainText) this.usage.plainTextAnswers++;
        return parsed.action;
      }
      this.usage.invalidAnswers++;
      messages.push({ role: 'assistant', content: text }, { role: 'user', content: `That answer cannot be used: ${parsed.error}. Answer again with JSON {"action": <id>} using one id from the list.` });
    }
    this.usage.fallbacks++;
    const a = this.o.fallback === 'random' ? legal[randInt(this.rng, legal.length)] : legal[0];
    this.log({ game: this.game, seat: obs.seat, fallback: a });
    return a;
  }

  /** One completion, with fault retries; null when they are exhausted. */
  private async complete(messages: ChatMessage[]): Promise<string | null> {
    for (let retry = 0; ; retry++) {
      const t0 = performance.now();
      try {
        this.usage.requests++;
        const res = await this.limiter.run(() =>
          this.client.chat.completions.create({
            model: this.o.model,
            messages,
            temperature: this.o.temperature,
            max_tokens: this.o.maxTokens,
            ...(this.o.structured ? { response_format: RESPONSE_FORMAT } : {}),
          }),
        );
        this.usage.latenciesMs.push(performance.now() - t0);
        this.usage.promptTokens += res.usage?.prompt_tokens ?? 0;
        this.usage.completionTokens += res.usage?.completion_tokens ?? 0;
        return res.choices[0]?.message?.content ?? '';
      } catch (err) {
        if (!retryable(err) || retry >= this.o.maxRetries) {
          this.log({ game: this.game, error: String((err as Error).message ?? err) });
          return null;
        }
        this.usage.faultRetries++;
        const asked = err instanceof OpenAI.APIError ? retryAfterMs(err.headers as Headers | undefined) : null;
        await this.sleep(asked ?? this.o.backoffMs * 2 ** retry);
      }
    }
  }

  private log(entry: Record<string, unknown>): void {
    if (this.o.transcript) fs.appendFileSync(this.o.transcript, `${JSON.stringify({ time: new Date().toISOString(), agent: this.spec, ...entry })}\n`);
  }
}
