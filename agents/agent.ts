/**
 * The one agent interface every agent in the project implements. An agent is given what
 * its seat may see and returns one of the legal actions; it may be asynchronous (LLM and
 * HTTP agents are). Agents never receive the game state.
 *
 * The observation is built lazily: `view`, `encoding`, `text` and `events` are computed the
 * first time they are read, so a fast scripted agent pays only for what it uses.
 */
import { rulesetFingerprint, type CzechPubEnv, type GameEvent, type PlayerView, type Ruleset, type SeatPast } from '../env/index.ts';
import type { CallFaultKind, CallGate } from './outside-calls.ts';

export interface AgentObservation {
  seat: number;
  players: number;
  /** Legal actions, ascending; never empty. */
  legalActions: readonly number[];
  /** The seat's view (typed object). */
  readonly view: PlayerView;
  /** The seat's observation encoding (env/observation/encode.ts). */
  readonly encoding: Float32Array;
  /** Legal-action mask over the whole action space. */
  readonly mask: Uint8Array;
  /** The seat's view as text, with its legal actions listed. */
  readonly text: string;
  /** Events the seat saw since its last decision (kept only for agents that set `readsEvents`). */
  readonly events: readonly GameEvent[];
  /**
   * A copy of the game in which everything this seat cannot see is dealt anew, consistent
   * with what it knows (env.resample): for search bots. Absent where the game is not held
   * locally (e.g. a remote client's view).
   */
  sampleWorld?(seed: string): CzechPubEnv;
  /**
   * The seat's record of the other seats' decisions (their last `window` each), which deals
   * the worlds sampleWorld deals with what each of those seats would have seen at them there
   * (env/beliefs/past.ts): for beliefs over the hidden cards (agents/beliefs). Absent where
   * sampleWorld is.
   */
  past?(window: number): SeatPast;
}

export interface GameStart {
  seat: number;
  players: number;
  /** A seed for the agent's own randomness in this game (tournaments derive it per game and seat). */
  seed: string;
  /** The game's rules, when they are not the default ones (an LLM agent describes them to its model). */
  ruleset?: Ruleset;
}

/** A decision's time limit, set by a caller that stops waiting past it (the server's bot workers). */
export interface DecisionBudget {
  timeLeftMs: number;
}

export interface Agent {
  /** The spec string that made this agent, e.g. `ismcts:iterations=500`. */
  readonly spec: string;
  /** Set by agents that read `obs.events`: the game then keeps its event log (it costs speed). */
  readonly readsEvents?: boolean;
  /**
   * Set by agents made for one ruleset (a policy trained under it: its checkpoint's
   * fingerprint, env/spec.ts). They must not play under another: `rulesetMismatch` says so.
   */
  readonly rulesetFingerprint?: string;
  /**
   * Set only by the clairvoyant measurement reference (agents/clairvoyant.ts): where the game
   * is held locally, its `obs.sampleWorld` is the true game with fresh dice instead of a
   * resampled one. A yardstick of how much skill there is, never a fair bot: the server
   * refuses it.
   */
  readonly clairvoyant?: true;
  /** Called before each game. */
  reset?(game: GameStart): void;
  /** `budget`: the time this decision may still take; an agent that can stop early (a search) answers within it. */
  act(obs: AgentObservation, budget?: DecisionBudget): number | Promise<number>;
  /**
   * The probabilities `act` draws its action from, one per `obs.legalActions`, for agents whose
   * choice is a distribution known without playing (random, ppo): the exact exploitability walk
   * (eval/exact) reads them. Other agents' choices count as certain (a one-hot on `act`'s).
   */
  probabilities?(obs: AgentObservation): number[];
  /** Usage since the last call (model calls, tokens, faults), for agents that have any: read after each game. */
  takeUsage?(): AgentUsage | null;
  /**
   * Set by agents that call servers elsewhere (llm, http): from then on each request first
   * asks the gate, and a refused one is not sent (the agent throws BudgetSpentError).
   */
  useGate?(gate: CallGate): void;
  /** Set by agents that keep a transcript (llm: what they sent and were answered; ppo-search: each search's candidates and values): from then on they append it to `file`. */
  useTranscript?(file: string): void;
}

/** What a model-backed agent spent and how it went, summed over decisions. */
/** How a model did on one kind of decision (agents/scripted/common.ts decisionKind: play, discard, reaction, response). */
export interface KindUsage {
  decisions: number;
  /** Answered legally at the first attempt. */
  firstTry: number;
  /** Answered legally after one or more corrections. */
  corrected: number;
  fallbacks: number;
  truncations: number;
}

/** Where and how a model was asked (LLM agents): what a published result has to say. */
export interface ModelProvenance {
  /** The server's host and port: no path, no credentials. */
  host: string;
  /** The model ids the server said it served (its answers' `model`), which can differ from the one asked for. */
  servedModels: string[];
  /** The request's settings as last sent, after any adaptation; no messages. */
  settings: Record<string, unknown>;
  /** Hashes of the rules text and the decision prompt (agents/llm/provenance.ts). */
  rulesHash: string;
  promptHash: string;
  /** The client library every request went through. */
  sdk: string;
}

export interface AgentUsage {
  /** The model's name, for price lookups. */
  model?: string;
  /** Decisions sent to the model (those with more than one legal action). */
  decisions: number;
  requests: number;
  invalidAnswers: number;
  plainTextAnswers: number;
  faultRetries: number;
  fallbacks: number;
  /** Of the fallbacks, those played because the server kept failing (faults past their retries), not because of the model's answers. */
  faultFallbacks: number;
  provenance?: ModelProvenance;
  /** The same counts by kind of decision. */
  byKind?: Record<string, KindUsage>;
  /** Failed requests by the kind of fault (timeout, rate-limited, server-error, ...): the server's, never the model's. */
  faults?: Partial<Record<CallFaultKind, number>>;
  /** What the agent changed to be answered, as sent from then on (a parameter the server refused, left out). */
  adaptations?: string[];
  /** Answers cut off before they were whole (at the token limit, or inside reasoning or JSON): never read as a move. */
  truncations: number;
  latenciesMs: number[];
  promptTokens: number;
  completionTokens: number;
  /** Of the completion tokens, those a reasoning model spent thinking (where the server reports them). */
  reasoningTokens: number;
  /** Of the prompt tokens, those the server read from its prompt cache (usage.prompt_tokens_details.cached_tokens). */
  cachedTokens: number;
  /** The cost the server reported (usage.cost, as OpenRouter gives it), summed over the answers that reported one. */
  providerCost: number;
  /** Replies whose usage reported a cost: when it is every reply that reported usage and none went unreported, providerCost is the whole cost. */
  costReports: number;
  /** Replies that reported their usage (answers and faults alike): the tokens above are theirs. */
  usageReports: number;
  /** Answers whose usage the server did not report: their tokens are not in the counts above ("not reported", never 0). */
  usageMissing: number;
  /** Answers refused by the model or held back by a filter (agents/llm/reply.ts): never read as a move. */
  refusals: number;
  /** Every reply by its class (agents/llm/reply.ts replyClass: answer, truncated, filtered, fault:<kind>, unknown). */
  replies?: Record<string, number>;
}

/**
 * Why `agent` may not play under `ruleset`, or null when it may: a policy trained under other
 * rules would play on without knowing that the numbers it learned have changed.
 */
export function rulesetMismatch(agent: Agent, ruleset: Ruleset): string | null {
  if (agent.rulesetFingerprint === undefined) return null;
  const fingerprint = rulesetFingerprint(ruleset);
  if (agent.rulesetFingerprint === fingerprint) return null;
  return `agent '${agent.spec}' was trained under ruleset fingerprint ${agent.rulesetFingerprint}, not this ruleset's ${fingerprint} (${ruleset.name}); train one under these rules (czech-pub train --ruleset FILE)`;
}
