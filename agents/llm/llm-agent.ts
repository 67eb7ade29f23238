/**
 * `llm:<model>`: a language model as a player, through any OpenAI-compatible chat-completions
 * server (the `openai` package). Only decisions with more than one legal action are sent.
 *
 * Per decision: the rules summary, what the seat saw since its last decision and its text view
 * with the numbered legal actions (prompt.ts). Every reply is classified whole by one total
 * classifier (reply.ts, through reply-fetch.ts): a complete answer, a truncated one, a filtered
 * or refused one, a fault of a known kind, or unknown. Only a complete answer is read as a
 * move, and only when it names one listed action (answer.ts); anything else never is. An
 * unusable answer gets a short correction and another try, up to `maxInvalid` times; then the
 * fallback action is played and counted. Each kind of fault has one policy (FAULT_POLICY):
 * retried with exponential back-off, honouring Retry-After, up to `maxRetries` times (a rate
 * limit or an overloaded server for as long as `maxWaitMs` allows); a refused parameter or
 * response format adapted to once per server and model; a spent quota, a refused key, an
 * unknown model, a request too large or a refused request stops the game at once
 * (LlmStopError), saying what to change. A server that fails `maxFaultStreak` decisions in a
 * row stops the game too (LlmFaultsError). Requests across all llm agents with the same base
 * URL share a concurrency limit. With a gate (outside-calls.ts: budgets) every request is
 * asked for first, with its worst case (its prompt's bound and the token limit), and settled
 * with what it was charged; with a transcript, every request is written before it is sent and
 * again when it is over, so the transcript is the ledger of calls (ledger.ts).
 */
import OpenAI from 'openai';
import { DEFAULT_RULESET, randInt, seedRng, type RngState, type Ruleset } from '../../env/index.ts';
import type { Agent, AgentObservation, AgentUsage, GameStart } from '../agent.ts';
import { AgentStopError, BudgetSpentError, type CallBound, type CallCharge, type CallFaultKind, type CallGate } from '../outside-calls.ts';
import { countReply, emptyKindUsage, emptyUsage } from '../usage.ts';
import { decisionKind } from '../scripted/common.ts';
import { answerJsonSchema, parseAnswer, type Listed, type Parsed } from './answer.ts';
import { callBound, chargeOf } from './ledger.ts';
import { limiterFor, pacerFor, type Limiter, type Pacer } from './limits.ts';
import { actionWords, decisionMessages, type ChatMessage } from './prompt.ts';
import { FAULT_POLICY, replyClass, type Reply, type ReplyFault } from './reply.ts';
import { handedReply, replyFetch } from './reply-fetch.ts';
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
 * What a server was found to refuse, learned from its refusals once per base URL and model
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

/** The trait a refusal names, changed, in words; null when it names none that can still change. */
function adapt(t: ServerTraits, r: Reply): string | null {
  if (r.kind !== 'fault') return null;
  if (r.fault === 'format-refused' && t.structured) {
    t.structured = false;
    return 'the server refused response_format (structured output): asking for plain-text answers instead (as --no-structured does)';
  }
  if (r.fault === 'parameter-refused' && r.param === 'max_completion_tokens' && t.tokensParam === 'max_completion_tokens') {
    t.tokensParam = 'max_tokens';
    return 'the server refused max_completion_tokens: sending max_tokens instead';
  }
  if (r.fault === 'parameter-refused' && r.param === 'temperature' && t.temperature) {
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

/** What a server's client may be told of each kind of fault (outside-calls.ts), never its words. */
const CLIENT_KIND: Record<ReplyFault | 'unknown', CallFaultKind> = {
  'rate-limit': 'rate-limited', quota: 'refused', overloaded: 'server-error', 'too-large': 'refused', 'format-refused': 'refused',
  'parameter-refused': 'refused', 'bad-request': 'refused', authentication: 'authentication', 'not-found': 'refused',
  unreachable: 'unreachable', 'connection-lost': 'unreachable', 'server-error': 'server-error', timeout: 'timeout', unknown: 'failed',
};

/** The server failed so many decisions in a row that playing on would only measure the fallback; `kind` is the last fault's. */
export class LlmFaultsError extends AgentStopError {
  override name = 'LlmFaultsError';
}

/**
 * A fault whose policy is to stop (a spent quota, a refused key, an unknown model, a request
 * too large, a refused request): playing on could only fall back. The message holds the
 * server's words and the setting to change.
 */
export class LlmStopError extends AgentStopError {
  override name = 'LlmStopError';
  constructor(message: string, kind: CallFaultKind, readonly fault: ReplyFault | 'unknown') {
    super(message, kind);
  }
}

/** The server refused the preflight request: its own message, what to change, and where it was sent. */
export class LlmServerError extends Error {
  override name = 'LlmServerError';
  /** `advice`: what to change, in a sentence naming the setting. */
  constructor(message: string, readonly advice: string) {
    super(message);
  }
}

/** The fault's kind in words, for messages: "rate limit", "quota or billing", ... */
const FAULT_WORDS: Record<ReplyFault | 'unknown', string> = {
  'rate-limit': 'rate limit', quota: 'quota or billing', overloaded: 'overloaded', 'too-large': 'request too large',
  'format-refused': 'response format refused', 'parameter-refused': 'parameter refused', 'bad-request': 'bad request',
  authentication: 'authentication', 'not-found': 'not found', unreachable: 'unreachable', 'connection-lost': 'connection lost',
  'server-error': 'server error', timeout: 'timeout', unknown: 'unknown reply',
};

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
  /** Thrown again, without a request, by every decision left in the game that a stop ended. */
  private stopped: AgentStopError | null = null;
  private gate: CallGate | null = null;
  private readonly rateWindow: { ms: number };
  /** The model ids the server's answers named. */
  private readonly served = new Set<string>();
  /** Back-off slept in this decision so far (maxWaitMs bounds it). */
  private waitedMs = 0;
  /** Requests this agent has sent: the next one's number in its call id. */
  private calls = 0;
  private readonly callPrefix = `${process.pid.toString(36)}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 6)}`;
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
    // replyFetch: every reply classified whole by one classifier before the client sees it.
    this.client = new OpenAI({ baseURL, apiKey: process.env[o.apiKeyEnv] ?? 'none', timeout: o.timeoutMs, maxRetries: 0, fetch: replyFetch() });
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

  /** Writes the transcript to `file` (or keeps its lines in a list) from now on (a run's own, kept in its folder; not part of the spec). */
  useTranscript(file: string | string[]): void {
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
   * is not there, a model it does not know, a key it refuses, a spent quota or a parameter it
   * rejects fails here with the server's own message and what to change (LlmServerError), not
   * as a run of fallbacks. Faults that pass (a rate limit, an overloaded server, a lost
   * connection) are retried as a decision's are.
   */
  async preflight(): Promise<void> {
    const messages: ChatMessage[] = [{ role: 'user', content: 'This is a connection check. Answer with JSON {"action": 0}.' }];
    const key: DecisionKey = { game: 'preflight', seat: 0, decision: 0 };
    for (let retry = 0, sentBefore = 0; ; retry++, sentBefore++) {
      const sent = this.params();
      const { reply, line } = await this.send(messages, { ...key, attempt: 0, messages, ...(sentBefore > 0 ? { retry: sentBefore } : {}) }, sent);
      if (reply.kind === 'answer' || reply.kind === 'truncated' || reply.kind === 'filtered') {
        this.transcript?.write({ ...line, answer: reply.text, finish: reply.finish });
        return;
      }
      const where = `model '${this.o.model}' at ${this.baseUrl}`;
      const fault = this.redact(reply.message);
      this.transcript?.write({ ...line, error: fault });
      const kind = reply.kind === 'fault' ? reply.fault : 'unknown';
      const changed = adapt(this.traits, reply);
      if (changed) {
        faultListener?.(this.spec, changed);
        retry--;
        continue;
      }
      if (kind === 'timeout') {
        throw new LlmServerError(`${where}: timeout: ${fault}: the server took longer than timeoutMs; a model that is still loading answers late, so give it more (timeoutMs=...)`,
          'The server took longer than the timeout to answer; a model that is still loading answers late: give it more with --timeout-ms.');
      }
      const policy = FAULT_POLICY[kind];
      // Nothing listening is a setting to check, not a fault that passes: said at once.
      const delay = policy === 'retry' && kind !== 'unreachable' ? this.backoff(reply, retry) : null;
      if (delay === null) throw new LlmServerError(`${where}: ${FAULT_WORDS[kind]}: ${fault}`, this.advice(kind, messages));
      faultListener?.(this.spec, `${fault} (at the preflight; retrying)`);
      this.waitedMs += delay;
      await this.sleep(delay);
    }
  }

  /**
   * The back-off before retrying `reply`, or null when no retry is left: a rate limit or an
   * overloaded server is waited out for as long as maxWaitMs allows; other faults up to
   * maxRetries times.
   */
  private backoff(reply: Reply, retry: number): number | null {
    const kind = reply.kind === 'fault' ? reply.fault : 'unknown';
    const waitsOut = kind === 'rate-limit' || kind === 'overloaded';
    if (retry >= this.o.maxRetries && !waitsOut) return null;
    const asked = reply.kind === 'fault' ? reply.retryAfterMs : null;
    let delay = asked ?? this.o.backoffMs * 2 ** Math.min(retry, 20);
    if (kind === 'rate-limit' && asked === null) {
      // No Retry-After: wait at least the window this server's 429s have shown so far (shared
      // by every agent using it), and learn a longer one while they go on.
      delay = Math.max(delay, this.rateWindow.ms);
      this.rateWindow.ms = Math.min(2 * delay, MAX_RATE_WINDOW_MS);
    }
    if (this.waitedMs + delay > this.o.maxWaitMs) return null;
    return delay;
  }

  /** What to change after a fault that stops, in one sentence naming the setting. */
  private advice(kind: ReplyFault | 'unknown', messages: readonly ChatMessage[]): string {
    const prompt = callBound(messages, false, this.o.maxTokens).promptTokens;
    switch (kind) {
      case 'quota': return "The account's quota or credit is spent (the server's words above): add credit or use another key (--api-key-env); --resume goes on with the run.";
      case 'authentication': return `The server refused the key: check the key in $${this.o.apiKeyEnv} (--api-key-env), and --base-url.`;
      case 'unreachable': return 'Nothing answered at --base-url: check the address, and that the server is up.';
      case 'not-found': return 'The server does not know the model or the address: check --model and --base-url.';
      case 'too-large': return `The request is larger than the server takes: lower --max-tokens (now ${this.o.maxTokens}; the prompt is at most about ${prompt} tokens), or use a model with a longer context.`;
      case 'format-refused': return 'The server refuses structured output even as plain text is asked for: check --base-url and --model.';
      case 'parameter-refused':
      case 'bad-request': return 'The server refused the request as sent (its words above): --no-structured, --max-tokens, --temperature or --reasoning-effort may be what it refuses.';
      default: return `The server kept failing (${FAULT_WORDS[kind]}): check that it is up at --base-url, or try again later.`;
    }
  }

  /**
   * Sends one request and classifies its reply. Before it is sent the gate is asked, with the
   * call's worst case, and the transcript gets its `sent` line; when it is over, the gate is
   * told what it was charged and the usage counts it. Never throws but for a budget's refusal.
   */
  private async send(messages: ChatMessage[], call: CallLine, sent: ReturnType<LlmAgent['params']>): Promise<{ reply: Reply; line: CallLine; latencyMs: number }> {
    const bound = callBound(messages, sent.response_format !== undefined, this.o.maxTokens);
    this.ask(bound);
    const line: CallLine = { ...call, call: `${this.callPrefix}.${(this.calls++).toString(36)}` };
    this.transcript?.write({
      game: line.game, seat: line.seat, decision: line.decision, call: line.call!, ...(line.retry ? { retry: line.retry } : {}),
      sent: { prompt: bound.promptTokens, completion: bound.completionTokens },
    });
    this.usage.requests++;
    let t0 = 0;
    const reply = await this.limiter.run(async () => {
      // Paced while holding a slot of the concurrency limit, so the start booked is the start made.
      await this.pace();
      t0 = performance.now();
      return this.request({ ...sent, messages });
    });
    const latencyMs = performance.now() - t0;
    const charge = chargeOf(reply);
    const spent: CallCharge = charge === 'usage' ? reply.usage : charge === 'bound' ? 'bound' : null;
    this.gate?.settle?.(spent);
    const u = this.usage;
    (u.replies ??= {})[replyClass(reply)] = (u.replies[replyClass(reply)] ?? 0) + 1;
    const answered = reply.kind === 'answer' || reply.kind === 'truncated' || reply.kind === 'filtered';
    countReply(u, reply.usage, answered);
    if (answered) {
      u.latenciesMs.push(latencyMs);
      if (reply.model) this.served.add(reply.model);
    }
    const facts: Partial<CallLine> = {
      reply: replyClass(reply),
      ...(reply.id ? { replyId: reply.id } : {}),
      charge,
      tokens: reply.usage ? { prompt: reply.usage.promptTokens, cached: reply.usage.cachedTokens, completion: reply.usage.completionTokens, reasoning: reply.usage.reasoningTokens } : null,
      ...(reply.usage?.cost != null ? { cost: reply.usage.cost } : {}),
    };
    return { reply, line: { ...line, ...facts }, latencyMs };
  }

  /**
   * One request, its whole answer within timeoutMs (the client's own timeout stops at the
   * headers, so a body that comes late is cut off here), as a classified reply.
   */
  private async request(body: Record<string, unknown>): Promise<Reply> {
    const ms = this.o.timeoutMs;
    const stop = new AbortController();
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      stop.abort();
    }, ms);
    try {
      return handedReply(await this.client.chat.completions.create(body as never, { signal: stop.signal, timeout: ms }));
    } catch (err) {
      if (late || err instanceof OpenAI.APIConnectionTimeoutError) {
        return { kind: 'fault', fault: 'timeout', message: `no whole answer within ${ms / 1000} s`, status: null, retryAfterMs: null, id: '', usage: null };
      }
      return { kind: 'unknown', message: `the request failed in the client: ${String((err as Error)?.message ?? err).split('\n')[0]}`, status: null, id: '', usage: null };
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
    const listed: Listed[] = legal.map((id) => ({ id, words: actionWords(obs, id) }));
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
      const { reply, line } = answered;
      // Only a complete answer is read; a truncated or filtered one never is, whatever it holds.
      const parsed: Parsed = reply.kind === 'truncated'
        ? { ok: false, truncated: true, error: `the answer was cut off at the token limit (finish_reason "${reply.finish}", maxTokens=${this.o.maxTokens})` }
        : reply.kind === 'filtered'
          ? { ok: false, error: `the answer was ${reply.why}` }
          : parseAnswer(reply.text, listed);
      this.transcript?.write({
        ...line,
        answer: reply.text,
        // A reasoning model's thinking is kept here, never read as the answer.
        ...(reply.reasoning ? { reasoning: reply.reasoning } : {}),
        finish: reply.finish,
        latencyMs: Math.round(answered.latencyMs),
        parsed,
        ...(parsed.ok ? { action: parsed.action, words: actionWords(obs, parsed.action) } : {}),
      });
      if (parsed.ok) {
        if (parsed.plainText) this.usage.plainTextAnswers++;
        if (attempt === 0) kind.firstTry++;
        else kind.corrected++;
        remember(reply.text);
        return parsed.action;
      }
      if (parsed.truncated) {
        kind.truncations++;
        this.usage.truncations++;
      } else if (reply.kind === 'filtered') {
        this.usage.refusals++;
      } else {
        this.usage.invalidAnswers++;
      }
      const again = parsed.truncated ? 'Answer at once, briefly, with JSON {"action": <id>} only.' : 'Answer again with JSON {"action": <id>} naming one id from the list.';
      messages.push({ role: 'assistant', content: reply.text }, { role: 'user', content: `That answer cannot be used: ${parsed.error}. ${again}` });
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
   * One answered reply (complete, truncated or filtered), with the faults before it handled by
   * their policies; null when the retries are exhausted. Throws LlmStopError for a fault whose
   * policy is to stop. Every request gets its line in the transcript: a fault's here, an
   * answer's by the caller, who reads it.
   */
  private async complete(messages: ChatMessage[], call: CallLine): Promise<{ reply: Reply & { kind: 'answer' | 'truncated' | 'filtered' }; line: CallLine; latencyMs: number } | null> {
    for (let retry = 0, sentBefore = 0; ; retry++, sentBefore++) {
      const sent = this.params();
      const { reply, line, latencyMs } = await this.send(messages, sentBefore > 0 ? { ...call, retry: sentBefore } : call, sent);
      if (reply.kind === 'answer' || reply.kind === 'truncated' || reply.kind === 'filtered') {
        // Answered: the learned rate-limit window shrinks back, halving with each answer.
        this.rateWindow.ms = this.rateWindow.ms / 2 < this.o.backoffMs ? 0 : this.rateWindow.ms / 2;
        return { reply, line, latencyMs };
      }
      const kind = reply.kind === 'fault' ? reply.fault : 'unknown';
      const fault = this.redact(`${FAULT_WORDS[kind]}: ${reply.message}`);
      const changed = adapt(this.traits, reply);
      if (changed) faultListener?.(this.spec, changed);
      // Learned once per server (by this request, or by another agent's while it was on its
      // way): ask again as the server wants, not counted as a fault.
      if (changed || JSON.stringify(sent) !== JSON.stringify(this.params())) {
        this.transcript?.write({ ...line, error: fault });
        retry--;
        continue;
      }
      this.lastFault = fault;
      this.lastFaultKind = CLIENT_KIND[kind];
      const faults = (this.usage.faults ??= {});
      faults[this.lastFaultKind] = (faults[this.lastFaultKind] ?? 0) + 1;
      faultListener?.(this.spec, this.lastFault);
      if (FAULT_POLICY[kind] !== 'retry') {
        // A quota, a key, a model, a size or a request the server will not take: every call would fail alike.
        this.transcript?.write({ ...line, error: fault });
        this.stopped = new LlmStopError(`model '${this.o.model}' at ${this.baseUrl}: ${fault}. ${this.advice(kind, messages)}`, CLIENT_KIND[kind], kind);
        throw this.stopped;
      }
      const delay = this.backoff(reply, retry);
      if (delay === null) {
        const waitsOut = kind === 'rate-limit' || kind === 'overloaded';
        // A daily cap's Retry-After of an hour is not slept through, retry after retry.
        if (waitsOut || retry < this.o.maxRetries) {
          this.lastFault = `${this.lastFault}; waiting more would pass maxWaitMs (${this.o.maxWaitMs / 1000} s a decision)`;
          faultListener?.(this.spec, this.lastFault);
        }
        this.transcript?.write({ ...line, error: this.lastFault });
        return null;
      }
      this.transcript?.write({ ...line, error: fault });
      this.usage.faultRetries++;
      this.waitedMs += delay;
      await this.sleep(delay);
    }
  }

  /** Waits for the start the pace (rpm) books for this request; a wait of ours, not counted in waitedMs. */
  private async pace(): Promise<void> {
    if (!this.pacer) return;
    const wait = this.pacer.book(this.now()) - this.now();
    if (wait > 0) await this.sleep(wait);
  }

  /** Asks the gate for one request with its worst case; a spent budget sends nothing and stops the decision. */
  private ask(bound: CallBound): void {
    const refused = this.gate?.take(bound);
    if (refused) throw new BudgetSpentError(refused);
  }
}
