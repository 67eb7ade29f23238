/** Helpers for the AgentUsage records that model-backed agents report (agent.ts). */
import type { AgentUsage, KindUsage } from './agent.ts';
import type { CallFaultKind, CallSpend } from './outside-calls.ts';

const KIND_COUNTS = ['decisions', 'firstTry', 'corrected', 'fallbacks', 'truncations'] as const;

export const emptyKindUsage = (): KindUsage => ({ decisions: 0, firstTry: 0, corrected: 0, fallbacks: 0, truncations: 0 });

const COUNTS = ['decisions', 'requests', 'invalidAnswers', 'plainTextAnswers', 'faultRetries', 'fallbacks', 'faultFallbacks', 'truncations', 'promptTokens', 'completionTokens', 'reasoningTokens', 'cachedTokens', 'providerCost', 'costReports', 'usageReports', 'usageMissing', 'refusals'] as const;

export function emptyUsage(): AgentUsage {
  return { decisions: 0, requests: 0, invalidAnswers: 0, plainTextAnswers: 0, faultRetries: 0, fallbacks: 0, faultFallbacks: 0, truncations: 0, latenciesMs: [], promptTokens: 0, completionTokens: 0, reasoningTokens: 0, cachedTokens: 0, providerCost: 0, costReports: 0, usageReports: 0, usageMissing: 0, refusals: 0 };
}

/** Adds `u`'s counts and latencies into `into`. */
export function addUsage(into: AgentUsage, u: AgentUsage): void {
  // `?? 0`: game records written before a count was added (games.jsonl of a resumed run) lack it.
  for (const k of COUNTS) into[k] += u[k] ?? 0;
  into.latenciesMs.push(...u.latenciesMs);
  for (const [kind, k] of Object.entries(u.byKind ?? {})) {
    into.byKind ??= {};
    const to = (into.byKind[kind] ??= emptyKindUsage());
    for (const c of KIND_COUNTS) to[c] += k[c];
  }
  for (const [kind, n] of Object.entries(u.faults ?? {}) as [CallFaultKind, number][]) {
    into.faults ??= {};
    into.faults[kind] = (into.faults[kind] ?? 0) + n;
  }
  for (const [c, n] of Object.entries(u.replies ?? {})) {
    into.replies ??= {};
    into.replies[c] = (into.replies[c] ?? 0) + n;
  }
  if (u.provenance) into.provenance = { ...u.provenance, servedModels: [...new Set([...(into.provenance?.servedModels ?? []), ...u.provenance.servedModels])] };
  if (u.adaptations?.length) into.adaptations = [...new Set([...(into.adaptations ?? []), ...u.adaptations])];
}

/** What one reply's usage adds to a tally (an agent's usage, a ledger's totals): its tokens and reported cost, or one answer that reported none. */
export function countReply(into: Pick<AgentUsage, 'usageReports' | 'promptTokens' | 'completionTokens' | 'reasoningTokens' | 'cachedTokens' | 'providerCost' | 'costReports' | 'usageMissing'>, usage: CallSpend | null, answered: boolean): void {
  if (usage) {
    into.usageReports++;
    into.promptTokens += usage.promptTokens;
    into.completionTokens += usage.completionTokens;
    into.reasoningTokens += usage.reasoningTokens;
    into.cachedTokens += usage.cachedTokens;
    if (usage.cost !== null) {
      into.providerCost += usage.cost;
      into.costReports++;
    }
  } else if (answered) {
    into.usageMissing++;
  }
}
