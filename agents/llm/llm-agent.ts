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
 * A server that fails `maxFaultStreak` decisions in a row stops the game (LlmFaultsError), and
 * the agent sends nothing more until its next game. Requests across all llm agents with the
 * same base URL share a concurrency limit. With a gate (outside-calls.ts: a server's budgets)
 * every request is asked for first, corrections and retries too.
 */
import fs from 'node:fs';
import OpenAI from 'openai';
import { DEFAULT_RULESET, randInt, seedRng, type RngState, type Ruleset } from '../../env/index.ts';
import type { Agent, AgentObservation, AgentUsage, GameStart } from '../agent.ts';
import { AgentStopError, BudgetSpentError, type CallFaultKind, type CallGate } from '../outside-calls.ts';
import { emptyUsage } from '../usage.ts';
import { answerJsonSchema, parseAnswer } from './answer.ts';
import { decisionMessages, type ChatMessage } from './prompt.ts';

export const LLM_DEFAULTS = {
  /** Server base URL; default $OPENAI_BASE_URL, else OpenAI's. */
  baseUrl: '',
  /** Name of the environment variable holding the API key. */
  apiKeyEnv: 'OPENAI_API_KEY',
  temperature: 0,
  /** Tokens the answer may take, reasoning included (sent as max_completion_tokens, or max_tokens where a server refuses that): room for reasoning models to think. */
  maxTokens: 4000,
  /** Sent as reasoning_effort (low, medium, high) when set, for reasoning models. */
  reasoningEffort: '',
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
  /** Requests in flight at once, across every llm agent with the same base URL and this limit. */
  concurrency: 4,
  /** Played when the model gives no usable answer: 'first' legal action or a 'random' one. */
  fallback: 'first',
  /** Decisions in a row that fall back because the server failed, after which the agent stops the game (LlmFaultsError); 0 = never. */
  maxFaultStreak: 5,
  /** Append every request and answer to this JSONL file ('' = no transcript). */
  transcript: '',
  /** One conversation per game (the rules once, then every decision and answer so far) instead of the rules with each decision alone. */
  conversation: false,
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

/**
 * What a server was found to refuse, learned from its 400 answers once per base URL and model
 * and shared by every agent that uses it: the token limit's parameter name (today's OpenAI
 * models want max_completion_tokens, some servers only know max_tokens), structured output,
 * a temperature other than the default (reasoning models).
 */
interface ServerTraits {
  tokensParam: 'max_completion_tokens' | 'max_tokens';
  structured: boolean;
  temperature: boolean;
}
const traits = new Map<string, ServerTraits>();

/** The trait a refusal names, changed; false when the refusal names none it can change. */
function adapt(t: ServerTraits, err: unknown): string | null {
  if (!(err instanceof OpenAI.APIError) || (err.status !== 400 && err.status !== 422)) return null;
  const m = err.message;
  if (t.tokensParam === 'max_completion_tokens' && /max_completion_tokens/.test(m)) {
    t.tokensParam = 'max_tokens';
    return 'the server refused max_completion_tokens: sending max_tokens instead';
  }
  if (t.structured && /response_format|json_schema/.test(m)) {
    t.structured = false;
    return 'the server refused response_format (structured output): asking for plain-text answers instead';
  }
  if (t.temperature && /temperature/.test(m)) {
    t.temperature = false;
    return "the server refused the temperature: leaving it at the model's default";
  }
  return null;
}

/** Told of every fault as it happens (a command prints them); one listener per process. */
let faultListener: ((spec: string, fault: string) => void) | null = null;
export function onLlmFault(listener: ((spec: string, fault: string) => void) | null): void {
  faultListener = listener;
}

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

/** The server failed so many decisions in a row that playing on would only measure the fallback; `kind` is the last fault's. */
export class LlmFaultsError extends AgentStopError {
  override name = 'LlmFaultsError';
}

/** The server refused the preflight request: its own message, and where it was sent. */
export class LlmServerError extends Error {
  override name = 'LlmServerError';
}

/** The longest a preflight request may take. */
export const PREFLIGHT_TIMEOUT_MS = 10_000;

/** A fault in one line, with the server's own words where it gave some. */
export function describeFault(err: unknown): string {
  if (err instanceof OpenAI.APIConnectionTimeoutError) return 'no answer in time (timeout)';
  if (err instanceof OpenAI.APIConnectionError) {
    // fetch's TypeError('fetch failed') holds the system error (ECONNREFUSED, ENOTFOUND, ...).
    let cause = (err as { cause?: unknown }).cause;
    while (cause && typeof cause === 'object' && (cause as { cause?: unknown }).cause) cause = (cause as { cause?: unknown }).cause;
    const c = cause as { code?: string; message?: string } | undefined;
    return `connection failed${c?.code ? ` (${c.code})` : c?.message ? ` (${c.message})` : ''}`;
  }
  if (err instanceof OpenAI.APIError) return err.message.split('\n')[0] || `HTTP ${err.status}`;
  return String((err as Error)?.message ?? err).split('\n')[0];
}

/** The kind of a fault, for those who may not read the server's own words (a server's clients). */
export function faultKind(err: unknown): CallFaultKind {
  if (err instanceof OpenAI.APIConnectionTimeoutError) return 'timeout';
  if (err instanceof OpenAI.APIConnectionError) return 'unreachable';
  if (err instanceof OpenAI.APIError) {
    const s = err.status ?? 0;
    if (s === 401 || s === 403) return 'authentication';
    if (s === 429) return 'rate-limited';
    if (s >= 500) return 'server-error';
    if (s >= 400) return 'refused';
  }
  return 'failed';
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
  private readonly traits: ServerTraits;
  private rng: RngState = seedRng('llm');
  private game = '';
  /** The rules the model is told: the game's own. */
  private ruleset: Ruleset = DEFAULT_RULESET;
  /** With `conversation`: this game's decisions and answers so far. */
  private history: ChatMessage[] = [];
  /** Decisions in a row that fell back because of faults, and the last fault. */
  private faultStreak = 0;
  private lastFault = '';
  private lastFaultKind: CallFaultKind = 'failed';
  /** Thrown again, without a request, by every decision left in the game that the streak stopped. */
  private stopped: LlmFaultsError | null = null;
  private gate: CallGate | null = null;
  readonly baseUrl: string;

  constructor(
    readonly spec: string,
    private readonly o: LlmOptions,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {
    const baseURL = o.baseUrl || process.env.OPENAI_BASE_URL || undefined;
    this.baseUrl = baseURL ?? 'https://api.openai.com/v1';
    // maxRetries 0: faults are retried here, so they can be counted and bounded per decision.
    this.client = new OpenAI({ baseURL, apiKey: process.env[o.apiKeyEnv] ?? 'none', timeout: o.timeoutMs, maxRetries: 0 });
    // One limit per server and configured limit: agents asking for different limits each get theirs.
    const key = `${this.baseUrl}|${o.concurrency}`;
    let l = limiters.get(key);
    if (!l) limiters.set(key, (l = new Limiter(o.concurrency)));
    this.limiter = l;
    const tk = `${this.baseUrl}|${o.model}`;
    let t = traits.get(tk);
    if (!t) traits.set(tk, (t = { tokensParam: 'max_completion_tokens', structured: true, temperature: true }));
    this.traits = t;
  }

  takeUsage(): AgentUsage {
    const u = { ...this.usage, model: this.o.model };
    this.usage = emptyUsage();
    return u;
  }

  useGate(gate: CallGate): void {
    this.gate = gate;
  }

  reset(game: GameStart): void {
    this.gate?.newGame();
    this.stopped = null;
    this.rng = seedRng(`llm/${game.seed}`);
    this.game = game.seed;
    this.ruleset = game.ruleset ?? DEFAULT_RULESET;
    this.history = [];
  }

  /**
   * One small request with the parameters every decision uses, before any game: a server that
   * is not there, a model it does not know, a key it refuses or a parameter it rejects fails
   * here with the server's own message (LlmServerError), not as a run of fallbacks.
   */
  async preflight(): Promise<void> {
    for (;;) {
      this.ask();
      try {
        await this.client.chat.completions.create(
          { ...this.params(), messages: [{ role: 'user', content: 'This is a connection check. Answer with JSON {"action": 0}.' }] },
          { timeout: Math.min(this.o.timeoutMs, PREFLIGHT_TIMEOUT_MS) },
        );
        return;
      } catch (err) {
        const changed = adapt(this.traits, err);
        if (changed) {
          faultListener?.(this.spec, changed);
          continue;
        }
        throw new LlmServerError(`model '${this.o.model}' at ${this.baseUrl}: ${describeFault(err)}`);
      }
    }
  }

  /** The request's parameters, as this server takes them. */
  private params() {
    const t = this.traits;
    return {
      model: this.o.model,
      ...(t.temperature ? { temperature: this.o.temperature } : {}),
      [t.tokensParam]: this.o.maxTokens,
      ...(this.o.reasoningEffort ? { reasoning_effort: this.o.reasoningEffort as 'low' | 'medium' | 'high' } : {}),
      ...(this.o.structured && t.structured ? { response_format: RESPONSE_FORMAT } : {}),
    };
  }

  async act(obs: AgentObservation): Promise<number> {
    const legal = obs.legalActions;
    if (legal.length === 1) return legal[0];
    if (this.stopped) throw this.stopped;
    this.usage.decisions++;
    const fresh = decisionMessages(obs, this.ruleset);
    // A conversation resends the game so far with every call (chat APIs keep no state); see the token table of docs/results/2026-11-30-llm-prompts.md.
    const messages: ChatMessage[] = this.o.conversation ? [fresh[0], ...this.history, fresh[1]] : fresh;
    const remember = (answer: string) => {
      if (this.o.conversation) this.history.push(fresh[1], { role: 'assistant', content: answer });
    };
    for (let attempt = 0; attempt <= this.o.maxInvalid; attempt++) {
      const text = await this.complete(messages);
      if (text === null) {
        // Faults exhausted: past the streak limit, playing on would only measure the fallback.
        if (this.o.maxFaultStreak > 0 && ++this.faultStreak >= this.o.maxFaultStreak) {
          this.stopped = new LlmFaultsError(`model '${this.o.model}' at ${this.baseUrl}: ${this.faultStreak} decisions in a row failed (last: ${this.lastFault}); stopping`, this.lastFaultKind);
          throw this.stopped;
        }
        break;
      }
      this.faultStreak = 0;
      const parsed = parseAnswer(text, legal);
      this.log({ game: this.game, seat: obs.seat, attempt, messages: attempt === 0 && !this.o.conversation ? messages : messages.slice(attempt === 0 ? -1 : -2), answer: text, parsed });
      if (parsed.ok) {
        if (parsed.plainText) this.usage.plainTextAnswers++;
        remember(text);
        return parsed.action;
      }
      this.usage.invalidAnswers++;
      messages.push({ role: 'assistant', content: text }, { role: 'user', content: `That answer cannot be used: ${parsed.error}. Answer again with JSON {"action": <id>} using one id from the list.` });
    }
    this.usage.fallbacks++;
    const a = this.o.fallback === 'random' ? legal[randInt(this.rng, legal.length)] : legal[0];
    this.log({ game: this.game, seat: obs.seat, fallback: a });
    remember(JSON.stringify({ action: a }));
    return a;
  }

  /** One completion, with fault retries; null when they are exhausted. */
  private async complete(messages: ChatMessage[]): Promise<string | null> {
    for (let retry = 0; ; retry++) {
      this.ask();
      const t0 = performance.now();
      const sent = this.params();
      try {
        this.usage.requests++;
        const res = await this.limiter.run(() => this.client.chat.completions.create({ ...sent, messages }));
        this.usage.latenciesMs.push(performance.now() - t0);
        this.usage.promptTokens += res.usage?.prompt_tokens ?? 0;
        this.usage.completionTokens += res.usage?.completion_tokens ?? 0;
        this.usage.reasoningTokens += res.usage?.completion_tokens_details?.reasoning_tokens ?? 0;
        const message = res.choices[0]?.message as { content?: string | null; reasoning_content?: string; reasoning?: string } | undefined;
        // A reasoning model's thinking is kept in the transcript, never read as the answer.
        const reasoning = message?.reasoning_content ?? message?.reasoning;
        if (reasoning) this.log({ game: this.game, reasoning });
        return message?.content ?? '';
      } catch (err) {
        const changed = adapt(this.traits, err);
        if (changed) faultListener?.(this.spec, changed);
        // Learned once per server (by this request, or by another agent's while it was on its
        // way): ask again as the server wants, not counted as a fault.
        if (changed || JSON.stringify(sent) !== JSON.stringify(this.params())) {
          retry--;
          continue;
        }
        this.lastFault = describeFault(err);
        this.lastFaultKind = faultKind(err);
        faultListener?.(this.spec, this.lastFault);
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

  /** Asks the gate for one request; a spent budget sends nothing and stops the decision. */
  private ask(): void {
    const refused = this.gate?.take();
    if (refused) throw new BudgetSpentError(refused);
  }

  private log(entry: Record<string, unknown>): void {
    if (this.o.transcript) fs.appendFileSync(this.o.transcript, `${JSON.stringify({ time: new Date().toISOString(), agent: this.spec, ...entry })}\n`);
  }
}
