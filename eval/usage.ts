/**
 * Model usage per agent spec, from the per-game usage records of agents that report one (LLM
 * agents): decisions sent, invalid-answer rate, retries, fallbacks, latency (median and 95th
 * percentile), tokens, the cost the server reported (OpenRouter's usage.cost) and one estimated
 * from a price table given by the user.
 */
import { addUsage, emptyUsage, LEDGER_COUNTS, tokenCost, type AgentUsage, type LedgerTotals, type CallFaultKind, type KindUsage, type ModelProvenance, type Price } from '../agents/index.ts';
import { percentile, winShares } from './stats.ts';
import type { GameResult } from './summary.ts';

/** US dollars per million tokens (agents/outside-calls.ts), by agent spec or by model name in a price table. */
export type { Price };

export interface UsageSummary {
  spec: string;
  decisions: number;
  requests: number;
  /** Of the requests, those of games dropped unfinished when the run stopped (their cost is real). */
  unfinishedRequests: number;
  invalidAnswers: number;
  invalidRate: number;
  plainTextAnswers: number;
  faultRetries: number;
  fallbacks: number;
  fallbackRate: number;
  /** Of the fallbacks, those the server caused (faults past their retries): not the model's play, but not a measure of it either. */
  faultFallbacks: number;
  /** By kind of decision (play, discard, reaction, response): decisions, legal at the first try, after corrections, fallbacks, truncations. */
  byKind: Record<string, KindUsage & { firstTryRate: number }>;
  /** Failed requests by the kind of fault (timeout, rate-limited, server-error, ...): the server's, never charged to the model. */
  faults: Partial<Record<CallFaultKind, number>>;
  /** The cost per game played, per decision sent and per win, from costSource (null without either, or without a win). */
  costPerGame: number | null;
  costPerDecision: number | null;
  costPerWin: number | null;
  /** Where the costs per game, decision and win come from: the server's report when every answer had one, else the price table; null with neither. */
  costSource: 'provider' | 'prices' | null;
  /** Where and how the model was asked (LLM agents), or null. */
  provenance: ModelProvenance | null;
  /** Changes made to be answered (a parameter the server refused): the run played as these say. */
  adaptations: string[];
  /** Answers cut off before they were whole (token limit), never read as moves. */
  truncations: number;
  latencyMedianMs: number;
  latencyP95Ms: number;
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
  /** Of the prompt tokens, those the server read from its prompt cache. */
  cachedTokens: number;
  /** Replies that reported their usage: the tokens above are theirs. */
  usageReports: number;
  /** Answers whose usage the server did not report: not in the tokens above ("not reported", never 0). */
  usageMissing: number;
  /** Answers refused by the model or held back by a filter: never read as moves. */
  refusals: number;
  /** Every reply by its class (answer, truncated, filtered, fault:<kind>, unknown). */
  replies: Record<string, number>;
  /** The cost the server reported, summed over the answers that reported one; null when none did. */
  providerCost: number | null;
  /** Model calls per game the spec played in (seat-games of a spec filling several seats share one). */
  requestsPerGame: number;
  /** From the price table, or null without a price for this spec. */
  estimatedCost: number | null;
  /** More of its decisions fell back than the run allows: its results measure the fallback, not the model. */
  invalid: boolean;
}

/** The share of a model's decisions that may fall back before its results are marked invalid. */
export const DEFAULT_MAX_FALLBACK_RATE = 0.05;

export function summarizeUsage(
  entries: readonly string[], results: readonly GameResult[], prices: Record<string, Price> = {}, maxFallbackRate = DEFAULT_MAX_FALLBACK_RATE,
  unfinished: readonly (AgentUsage | null)[] = [],
): UsageSummary[] {
  const acc = new Map<string, AgentUsage & { games: number; wins: number; model?: string; unfinishedRequests: number }>();
  /** Adds `u` into `spec`'s totals and returns them. */
  const add = (spec: string, u: AgentUsage) => {
    let a = acc.get(spec);
    if (!a) acc.set(spec, (a = { ...emptyUsage(), games: 0, wins: 0, unfinishedRequests: 0 }));
    addUsage(a, u);
    a.model ??= u.model;
    return a;
  };
  for (const g of results) {
    if (!g.usage) continue;
    const shares = winShares(g.scores);
    g.usage.forEach((u, seat) => {
      if (!u) return;
      const spec = entries[g.seating[seat]];
      const a = add(spec, u);
      a.games++;
      // The seats this agent filled in the game (usage is reported once per agent).
      g.seating.forEach((e, s) => void (entries[e] === spec && (a.wins += shares[s])));
    });
  }
  // What was spent on games dropped at a stop: the server answered those requests too.
  unfinished.forEach((u, entry) => {
    if (!u) return;
    add(entries[entry], u).unfinishedRequests += u.requests;
  });
  return [...acc].map(([spec, a]) => {
    const price = prices[spec] ?? (a.model !== undefined ? prices[a.model] : undefined);
    const fallbackRate = a.decisions ? a.fallbacks / a.decisions : 0;
    const estimated = price ? tokenCost(a.promptTokens, a.completionTokens, price) : null;
    // The server's own figure only when it is whole: a reply without one would make it too low.
    const reported = a.costReports > 0 && a.costReports === a.usageReports && a.usageMissing === 0;
    const cost = reported ? a.providerCost : estimated;
    const per = (n: number) => (cost === null || n === 0 ? null : cost / n);
    const byKind = Object.fromEntries(Object.entries(a.byKind ?? {}).map(([kind, k]) => [kind, { ...k, firstTryRate: k.decisions ? k.firstTry / k.decisions : 0 }]));
    return {
      spec,
      decisions: a.decisions,
      requests: a.requests,
      unfinishedRequests: a.unfinishedRequests,
      invalidAnswers: a.invalidAnswers,
      // Per answer received: corrections can make several per decision.
      invalidRate: a.requests - a.faultRetries > 0 ? a.invalidAnswers / (a.requests - a.faultRetries) : 0,
      plainTextAnswers: a.plainTextAnswers,
      faultRetries: a.faultRetries,
      fallbacks: a.fallbacks,
      faultFallbacks: a.faultFallbacks,
      adaptations: a.adaptations ?? [],
      provenance: a.provenance ?? null,
      truncations: a.truncations,
      fallbackRate,
      latencyMedianMs: percentile(a.latenciesMs, 50),
      latencyP95Ms: percentile(a.latenciesMs, 95),
      promptTokens: a.promptTokens,
      completionTokens: a.completionTokens,
      reasoningTokens: a.reasoningTokens,
      cachedTokens: a.cachedTokens,
      usageReports: a.usageReports,
      usageMissing: a.usageMissing,
      refusals: a.refusals,
      replies: a.replies ?? {},
      providerCost: a.costReports > 0 ? a.providerCost : null,
      requestsPerGame: a.games ? a.requests / a.games : 0,
      estimatedCost: estimated,
      costSource: reported ? 'provider' : estimated !== null ? 'prices' : null,
      costPerGame: per(a.games),
      costPerDecision: per(a.decisions),
      costPerWin: per(a.wins),
      byKind,
      faults: a.faults ?? {},
      invalid: fallbackRate > maxFallbackRate,
    };
  });
}

/**
 * What the run's ledger (its transcript: agents/llm/ledger.ts) holds beyond its finished
 * games, per entry: the requests of games dropped at a stop or a kill and of the preflights,
 * with their tokens. The ledger has every request, whichever process sent it, so after a kill
 * and a resume the usage still counts every request a server answered.
 */
export function ledgerUnfinished(entries: readonly string[], results: readonly GameResult[], ledger: ReadonlyMap<string, LedgerTotals>): (AgentUsage | null)[] {
  const out: (AgentUsage | null)[] = entries.map(() => null);
  entries.forEach((spec, entry) => {
    const t = ledger.get(spec);
    if (!t || entries.indexOf(spec) !== entry) return;
    const inGames = emptyUsage();
    for (const g of results) {
      g.usage?.forEach((u, seat) => {
        if (u && entries[g.seating[seat]] === spec) addUsage(inGames, u);
      });
    }
    const left = emptyUsage();
    const minus = (a: number, b: number) => Math.max(0, a - b);
    for (const k of LEDGER_COUNTS) left[k] = minus(t[k], inGames[k]);
    const replies = Object.fromEntries(Object.entries(t.replies).map(([c, n]) => [c, minus(n, inGames.replies?.[c] ?? 0)]).filter(([, n]) => (n as number) > 0));
    if (t.inFlight > 0) replies['cut off by a kill'] = t.inFlight;
    if (Object.keys(replies).length) left.replies = replies;
    if (left.requests > 0) out[entry] = left;
  });
  return out;
}
