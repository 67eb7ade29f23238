/**
 * `llm:<model>`: a language model as a player, through any OpenAI-compatible chat-completions
 * server (the `openai` package). Only decisions with more than one legal action are sent.
 *
 * Per decision: the rules summary, what the seat saw since its last decision and its text view
 * with the numbered legal actions (prompt.ts). The answer is structured JSON (a JSON schema
 * from a zod schema) or plain text naming a legal id (answer.ts). An invalid answer gets a
 * short correction and another try, up to `maxInvalid` times; then the fallback action is
 * played and counted. An answer cut off before it was whole (finish_reason "length", or ending
 * inside reasoning or JSON) is a truncation, corrected the same way and never read as a move.
 * Whatever shape a server answers in is read by readCompletion: an error in a 200 body, a
 * choice that failed or text that is no completion is a fault of the server (GatewayError),
 * and a timeout covers the whole answer, body included. Faults (timeouts, connection errors,
 * 429, 5xx, gateway errors) are retried with
 * exponential backoff, honouring Retry-After, up to `maxRetries` times (a 429 for as long as
 * `maxWaitMs` allows, from a window learned per server); then the fallback too, counted as the
 * server's (faultFallbacks).
 * A server that fails `maxFaultStreak` decisions in a row stops the game (LlmFaultsError), and
 * the agent sends nothing more until its next game. Requests across all llm agents with the
 * same base URL share a concurrency limit. With a gate (outside-calls.ts: a server's budgets)
 * every request is asked for first, corrections and retries too.
 */
import OpenAI from 'openai';
import { DEFAULT_RULESET, randInt, seedRng, type RngState, type Ruleset } from '../../env/index.ts';
import type { Agent, AgentObservation, AgentUsage, GameStart } from '../agent.ts';
import { AgentStopError, BudgetSpentError, type CallFaultKind, type CallGate, type CallSpend } from '../outside-calls.ts';
import { emptyKindUsage, emptyUsage } from '../usage.ts';
import { decisionKind } from '../scripted/common.ts';
import { answerJsonSchema, parseAnswer, type Parsed } from './answer.ts';
import { AnswerTimeoutError, GatewayError, readCompletion, spendOf, type Completion } from './completion.ts';
import { errorBodyFetch } from './error-body.ts';
import { limiterFor, pacerFor, type Limiter, type Pacer } from './limits.ts';
import { actionWords, decisionMessages, type ChatMessage } from './prompt.ts';
import { Transcript, type CallLine, type DecisionKey } from './transcript.ts';
import { promptHashes, SDK_VERSION } from './provenance.ts';

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
  /** Retries after a timeout, connection error or 5xx before the fallback is played (a 429 is waited out, within maxWaitMs). */
  maxRetries: 4,
  /** First backoff delay, doubled each retry (a Retry-After header overrides it). */
  backoffMs: 500,
  /** The longest one decision waits on back-offs in all; a server that asks for longer (Retry-After) is given up on at once, saying so. */
  maxWaitMs: 600_000,
  /** Requests in flight at once, across every llm agent with the same base URL and this limit. */
  concurrency: 4,
  /** Request starts a minute, across every llm agent with the same base URL, model and limit, paced by us (not a fault, not counted in maxWaitMs); 0 = no limit. */
  rpm: 0,
  /** Played when the model gives no usable answer: 'first' legal action or a 'random' one. */
  fallback: 'first',
  /** Decisions in a row that fall back because the server failed, after which the agent stops the game (LlmFaultsError); 0 = never. */
  maxFaultStreak: 5,
  /** Append a line for every request and fallback to this JSONL file (transcript.ts; '' = no transcript). */
  transcript: '',
  /** One conversation per game (the rules once, then every decision and answer so far) instead of the rules with each decision alone. */
  conversation: false,
};

export type LlmOptions = typeof LLM_DEFAULTS & { model: string };

/** The answer's JSON schema as the response format, for servers with structured output. */
const RESPONSE_FORMAT = { type: 'json_schema' as const, json_schema: { name: 'czech_pub_action', schema: answerJsonSchema(), strict: false } };

/** Per server and model: the rate-limit window its 429s without Retry-After have shown, learned and shared. */
const rateWindows = new Map<string, { ms: number }>();
/** The longest a learned rate-limit window grows. */
const MAX_RATE_WINDOW_MS = 120_000;

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

/** How servers say they do not take a parameter (OpenAI, vLLM, llama.cpp, Ollama, gateways). */
const REFUSED_PARAMETER = /unsupported|not supported|unrecogni[sz]ed|unknown|not permitted|not allowed|extra (fields|inputs)|does not support|invalid (parameter|argument|field)/i;

/** The trait a refusal names, changed; false when the refusal names none it can change. */
function adapt(t: ServerTraits, err: unknown): string | null {
  if (!(err instanceof OpenAI.APIError) || (err.status !== 400 && err.status !== 422)) return null;
  const m = err.message;
  // A refusal of the parameter itself, not of its value for this request (vLLM names
  // max_completion_tokens when the prompt and the limit pass its context length).
  if (!REFUSED_PARAMETER.test(m)) return null;
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
  /** The server did not answer within the timeout (it may be loading the model), rather than refusing. */
  constructor(message: string, readonly timedOut = false) {
    super(message);
  }
}

/** A fault in one line, with the server's own words where it gave some. */
export function describeFault(err: unknown): string {
  if (err instanceof AnswerTimeoutError || err instanceof GatewayError) return err.message;
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
  if (err instanceof OpenAI.APIConnectionTimeoutError || err instanceof AnswerTimeoutError) return 'timeout';
  if (err instanceof GatewayError) return 'server-error';
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
  if (err instanceof OpenAI.APIConnectionError || err instanceof AnswerTimeoutError || err instanceof GatewayError) return true; // includes timeouts
  if (err instanceof OpenAI.APIError) return err.status === 429 || (err.status !== undefined && err.status >= 500);
  return false;
}

export class LlmAgent implements Agent {
  readonly readsEvents = true;
  /** What the agent spent since the last takeUsage. */
  private usage: AgentUsage = emptyUsage();
  private readonly client: OpenAI;
  private readonly limiter: Limiter;
  /** The pace of request starts (rpm), or null. */
  private readonly pacer: Pacer | null;
  private readonly traits: ServerTraits;
  private rng: RngState = seedRng('llm');
  private game = '';
  /** Decisions sent to the model in this game so far: the next one's index. */
  private decisionsInGame = 0;
  private transcript: Transcript | null;
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
  private readonly rateWindow: { ms: number };
  /** The model ids the server's answers named. */
  private readonly served = new Set<string>();
  /** Back-off slept in this decision so far (maxWaitMs bounds it). */
  private waitedMs = 0;
  readonly baseUrl: string;

  constructor(
    readonly spec: string,
    private readonly o: LlmOptions,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
    /** The clock request starts are paced by (rpm). */
    private readonly now: () => number = Date.now,
  ) {
    const baseURL = o.baseUrl || process.env.OPENAI_BASE_URL || undefined;
    this.baseUrl = baseURL ?? 'https://api.openai.com/v1';
    // maxRetries 0: faults are retried here, so they can be counted and bounded per decision.
    // errorBodyFetch: the server's own words in an error, whatever shape its body has.
    this.client = new OpenAI({ baseURL, apiKey: process.env[o.apiKeyEnv] ?? 'none', timeout: o.timeoutMs, maxRetries: 0, fetch: errorBodyFetch() });
    this.limiter = limiterFor(this.baseUrl, o.concurrency);
    this.pacer = pacerFor(this.baseUrl, o.model, o.rpm);
    this.transcript = o.transcript ? new Transcript(o.transcript, spec, (text) => this.redact(text)) : null;
    const tk = `${this.baseUrl}|${o.model}`;
    let t = traits.get(tk);
    if (!t) traits.set(tk, (t = { tokensParam: 'max_completion_tokens', structured: true, temperature: true }));
    this.traits = t;
    let w = rateWindows.get(tk);
    if (!w) rateWindows.set(tk, (w = { ms: 0 }));
    this.rateWindow = w;
  }

  takeUsage(): AgentUsage {
    const t = this.traits;
    const adaptations = [
      ...(t.tokensParam === 'max_tokens' ? ['max_tokens sent instead of max_completion_tokens'] : []),
      ...(this.o.structured && !t.structured ? ['plain-text answers: the server refused response_format'] : []),
      ...(!t.temperature ? [`temperature left at the model's default: the server refused ${this.o.temperature}`] : []),
    ];
    const { response_format: format, ...settings } = this.params();
    const provenance = {
      host: new URL(this.baseUrl).host,
      servedModels: [...this.served],
      settings: { ...settings, ...(format ? { response_format: format.type } : {}), ...(this.o.conversation ? { conversation: true } : {}) },
      ...promptHashes(this.ruleset),
      sdk: SDK_VERSION,
    };
    const u = { ...this.usage, model: this.o.model, provenance, ...(adaptations.length ? { adaptations } : {}) };
    this.usage = emptyUsage();
    return u;
  }

  /** Writes the transcript to `file` from now on (a run's own, kept in its folder; not part of the spec). */
  useTranscript(file: string): void {
    this.transcript = new Transcript(file, this.spec, (text) => this.redact(text));
  }

  useGate(gate: CallGate): void {
    this.gate = gate;
  }

  reset(game: GameStart): void {
    this.gate?.newGame();
    this.stopped = null;
    this.rng = seedRng(`llm/${game.seed}`);
    this.game = game.seed;
    this.decisionsInGame = 0;
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
      let res: Completion;
      try {
        await this.pace();
        res = readCompletion(await this.request({ ...this.params(), messages: [{ role: 'user', content: 'This is a connection check. Answer with JSON {"action": 0}.' }] }));
      } catch (err) {
        this.gate?.settle?.(null);
        const changed = adapt(this.traits, err);
        if (changed) {
          faultListener?.(this.spec, changed);
          continue;
        }
        // A model still loading (Ollama's first use) answers late, not never.
        const late = err instanceof AnswerTimeoutError ? ': the server took longer than timeoutMs; a model that is still loading answers late, so give it more (timeoutMs=...)' : '';
        throw new LlmServerError(this.redact(`model '${this.o.model}' at ${this.baseUrl}: ${describeFault(err)}${late}`), err instanceof AnswerTimeoutError);
      }
      this.gate?.settle?.(spendOf(res));
      return;
    }
  }

  /**
   * One request, its whole answer within timeoutMs: the client's own timeout stops at the
   * headers, so a body that comes late is cut off here.
   */
  private async request(body: Record<string, unknown>): Promise<unknown> {
    const ms = this.o.timeoutMs;
    const stop = new AbortController();
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      stop.abort();
    }, ms);
    try {
      return await this.client.chat.completions.create(body as never, { signal: stop.signal, timeout: ms });
    } catch (err) {
      throw late || err instanceof OpenAI.APIConnectionTimeoutError ? new AnswerTimeoutError(ms) : err;
    } finally {
      clearTimeout(timer);
    }
  }

  /** `text` with the API key taken out: a server may echo it in an error. */
  private redact(text: string): string {
    const key = process.env[this.o.apiKeyEnv];
    return key && key.length >= 8 ? text.split(key).join('[key redacted]') : text;
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
    const kind = ((this.usage.byKind ??= {})[decisionKind(legal)] ??= emptyKindUsage());
    kind.decisions++;
    this.waitedMs = 0;
    const key: DecisionKey = { game: this.game, seat: obs.seat, decision: this.decisionsInGame++ };
    let serverFailed = false;
    const fresh = decisionMessages(obs, this.ruleset);
    // A conversation resends the game so far with every call (chat APIs keep no state); see the token table of docs/results/2026-11-30-llm-prompts.md.
    const messages: ChatMessage[] = this.o.conversation ? [fresh[0], ...this.history, fresh[1]] : fresh;
    const remember = (answer: string) => {
      if (this.o.conversation) this.history.push(fresh[1], { role: 'assistant', content: answer });
    };
    for (let attempt = 0; attempt <= this.o.maxInvalid; attempt++) {
      // The transcript has the whole prompt once, then what each attempt adds.
      const call = { ...key, attempt, messages: attempt === 0 && !this.o.conversation ? [...messages] : messages.slice(attempt === 0 ? -1 : -2) };
      const answered = await this.complete(messages, call);
      if (answered === null) {
        // Faults exhausted: past the streak limit, playing on would only measure the fallback.
        if (this.o.maxFaultStreak > 0 && ++this.faultStreak >= this.o.maxFaultStreak) {
          this.stopped = new LlmFaultsError(`model '${this.o.model}' at ${this.baseUrl}: ${this.faultStreak} decisions in a row failed (last: ${this.lastFault}); stopping`, this.lastFaultKind);
          throw this.stopped;
        }
        serverFailed = true;
        break;
      }
      this.faultStreak = 0;
      const { completion: answer, spent } = answered;
      const text = answer.content;
      // Cut off at the token limit, the answer is not whole: nothing in it is read as a move.
      const parsed: Parsed = answer.finish === 'length' ? { ok: false, truncated: true, error: `the answer was cut off at the token limit (maxTokens=${this.o.maxTokens})` } : parseAnswer(text, legal);
      this.transcript?.write({
        ...call,
        ...(answered.retry ? { retry: answered.retry } : {}),
        answer: text,
        // A reasoning model's thinking is kept here, never read as the answer.
        ...(answer.reasoning ? { reasoning: answer.reasoning } : {}),
        finish: answer.finish,
        latencyMs: Math.round(answered.latencyMs),
        tokens: { prompt: spent.promptTokens, cached: spent.cachedTokens, completion: spent.completionTokens, reasoning: spent.reasoningTokens },
        ...(spent.cost !== null ? { cost: spent.cost } : {}),
        parsed,
        ...(parsed.ok ? { action: parsed.action, words: actionWords(obs, parsed.action) } : {}),
      });
      if (parsed.ok) {
        if (parsed.plainText) this.usage.plainTextAnswers++;
        if (attempt === 0) kind.firstTry++;
        else kind.corrected++;
        remember(text);
        return parsed.action;
      }
      if (parsed.truncated) {
        kind.truncations++;
        this.usage.truncations++;
      } else {
        this.usage.invalidAnswers++;
      }
      const again = parsed.truncated ? 'Answer at once, briefly, with JSON {"action": <id>} only.' : 'Answer again with JSON {"action": <id>} using one id from the list.';
      messages.push({ role: 'assistant', content: text }, { role: 'user', content: `That answer cannot be used: ${parsed.error}. ${again}` });
    }
    this.usage.fallbacks++;
    kind.fallbacks++;
    if (serverFailed) this.usage.faultFallbacks++;
    const a = this.o.fallback === 'random' ? legal[randInt(this.rng, legal.length)] : legal[0];
    this.transcript?.write({ ...key, fallback: true, action: a, words: actionWords(obs, a), cause: serverFailed ? 'server' : 'model' });
    remember(JSON.stringify({ action: a }));
    return a;
  }

  /**
   * One completion, with fault retries; null when they are exhausted. Every request gets its
   * line in the transcript: a fault's here, an answer's by the caller, who reads it.
   */
  private async complete(messages: ChatMessage[], call: CallLine): Promise<{ completion: Completion; spent: CallSpend; latencyMs: number; retry: number } | null> {
    for (let retry = 0, sentBefore = 0; ; retry++, sentBefore++) {
      this.ask();
      let t0 = 0;
      const sent = this.params();
      const line = sentBefore > 0 ? { ...call, retry: sentBefore } : call;
      let res: Completion;
      try {
        this.usage.requests++;
        res = readCompletion(await this.limiter.run(async () => {
          // Paced while holding a slot of the concurrency limit, so the start booked is the start made.
          await this.pace();
          t0 = performance.now();
          return this.request({ ...sent, messages });
        }));
      } catch (err) {
        this.gate?.settle?.(null);
        const fault = this.redact(describeFault(err));
        const changed = adapt(this.traits, err);
        if (changed) faultListener?.(this.spec, changed);
        // Learned once per server (by this request, or by another agent's while it was on its
        // way): ask again as the server wants, not counted as a fault.
        if (changed || JSON.stringify(sent) !== JSON.stringify(this.params())) {
          this.transcript?.write({ ...line, error: fault });
          retry--;
          continue;
        }
        this.lastFault = fault;
        this.lastFaultKind = faultKind(err);
        const faults = (this.usage.faults ??= {});
        faults[this.lastFaultKind] = (faults[this.lastFaultKind] ?? 0) + 1;
        faultListener?.(this.spec, this.lastFault);
        // A rate limit is waited out, as long as maxWaitMs allows, however many retries it takes.
        const limited = this.lastFaultKind === 'rate-limited';
        if (!retryable(err) || (retry >= this.o.maxRetries && !limited)) {
          this.transcript?.write({ ...line, error: fault });
          return null;
        }
        const asked = err instanceof OpenAI.APIError ? retryAfterMs(err.headers as Headers | undefined) : null;
        let delay = asked ?? this.o.backoffMs * 2 ** Math.min(retry, 20);
        if (limited && asked === null) {
          // No Retry-After: wait at least the window this server's 429s have shown so far (shared
          // by every agent using it), and learn a longer one while they go on.
          delay = Math.max(delay, this.rateWindow.ms);
          this.rateWindow.ms = Math.min(2 * delay, MAX_RATE_WINDOW_MS);
        }
        if (this.waitedMs + delay > this.o.maxWaitMs) {
          // A daily cap's Retry-After of an hour is not slept through, retry after retry.
          this.lastFault = `${this.lastFault}; waiting ${Math.ceil(delay / 1000)} s more would pass maxWaitMs (${this.o.maxWaitMs / 1000} s a decision)`;
          faultListener?.(this.spec, this.lastFault);
          this.transcript?.write({ ...line, error: this.lastFault });
          return null;
        }
        this.transcript?.write({ ...line, error: fault });
        this.usage.faultRetries++;
        this.waitedMs += delay;
        await this.sleep(delay);
        continue;
      }
      const latencyMs = performance.now() - t0;
      const spent = spendOf(res);
      this.gate?.settle?.(spent);
      // Answered: the learned rate-limit window shrinks back, halving with each answer.
      this.rateWindow.ms = this.rateWindow.ms / 2 < this.o.backoffMs ? 0 : this.rateWindow.ms / 2;
      this.usage.latenciesMs.push(latencyMs);
      if (res.model) this.served.add(res.model);
      const u = this.usage;
      u.promptTokens += spent.promptTokens;
      u.cachedTokens += spent.cachedTokens;
      u.completionTokens += spent.completionTokens;
      u.reasoningTokens += spent.reasoningTokens;
      if (spent.cost !== null) {
        u.providerCost += spent.cost;
        u.costReports++;
      }
      return { completion: res, spent, latencyMs, retry: sentBefore };
    }
  }

  /** Waits for the start the pace (rpm) books for this request; a wait of ours, not counted in waitedMs. */
  private async pace(): Promise<void> {
    if (!this.pacer) return;
    const wait = this.pacer.book(this.now()) - this.now();
    if (wait > 0) await this.sleep(wait);
  }

  /** Asks the gate for one request; a spent budget sends nothing and stops the decision. */
  private ask(): void {
    const refused = this.gate?.take();
    if (refused) throw new BudgetSpentError(refused);
  }

}
