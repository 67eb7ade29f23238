import { describe, expect, it } from 'vitest';
import type { AgentUsage } from '../agents/agent.ts';
import { emptyUsage } from '../agents/usage.ts';
import type { GameResult } from './summary.ts';
import { summarizeUsage } from './usage.ts';

const u = (o: Partial<AgentUsage>): AgentUsage => ({ ...emptyUsage(), ...o });

function game(index: number, seating: number[], usage: (AgentUsage | null)[]): GameResult {
  return { index, deal: index, seed: `${index}`, seating, scores: seating.map(() => 0), points: [], winners: [], turns: 1, decisions: 1, out: [], truncated: false, agentDecisions: [], agentMillis: [], usage } as unknown as GameResult;
}

describe('model usage summary', () => {
  it('sums usage per spec by seating and matches hand-computed rates and cost', () => {
    const entries = ['llm:m', 'heuristic'];
    const results = [
      // llm in seat 0: 4 decisions, 6 requests, of which 1 fault retry → 5 answers, 1 invalid.
      game(0, [0, 1], [u({ model: 'm', decisions: 4, requests: 6, faultRetries: 1, faults: { timeout: 1 }, invalidAnswers: 1, fallbacks: 0, latenciesMs: [100, 300], promptTokens: 1000, completionTokens: 50 }), null]),
      // llm in seat 1: 2 decisions, 3 requests, 1 invalid, 1 fallback.
      game(1, [1, 0], [null, u({ decisions: 2, requests: 3, faults: { timeout: 2, 'rate-limited': 1 }, invalidAnswers: 1, fallbacks: 1, latenciesMs: [200], promptTokens: 500, completionTokens: 25 })]),
    ];
    const [s] = summarizeUsage(entries, results, { m: { promptPerMillion: 2, completionPerMillion: 8 } });
    expect(s.spec).toBe('llm:m');
    expect(s.decisions).toBe(6);
    expect(s.requests).toBe(9);
    expect(s.invalidRate).toBeCloseTo(2 / 8, 12);
    expect(s.fallbackRate).toBeCloseTo(1 / 6, 12);
    expect(s.latencyMedianMs).toBe(200);
    expect(s.latencyP95Ms).toBe(300);
    expect(s.requestsPerGame).toBe(4.5);
    expect(s.faults).toEqual({ timeout: 3, 'rate-limited': 1 });
    // 1,500 prompt tokens at $2/M + 75 completion tokens at $8/M.
    expect(s.estimatedCost).toBeCloseTo((1500 * 2 + 75 * 8) / 1e6, 12);
    expect(summarizeUsage(entries, results)[0].estimatedCost).toBeNull();
  });

  it("uses the server's reported cost where every answer had one, else the price table, and says which", () => {
    const entries = ['llm:m', 'heuristic'];
    const prices = { m: { promptPerMillion: 2, completionPerMillion: 8 } };
    const reported = [
      game(0, [0, 1], [u({ model: 'm', decisions: 2, requests: 2, latenciesMs: [1, 1], promptTokens: 1000, cachedTokens: 600, completionTokens: 50, providerCost: 0.003, costReports: 2, usageReports: 2 }), null]),
      game(1, [1, 0], [null, u({ model: 'm', decisions: 1, requests: 1, latenciesMs: [1], promptTokens: 500, cachedTokens: 0, completionTokens: 25, providerCost: 0.001, costReports: 1, usageReports: 1 })]),
    ];
    const [s] = summarizeUsage(entries, reported, prices);
    expect(s.cachedTokens).toBe(600);
    expect(s.providerCost).toBeCloseTo(0.004, 12);
    expect(s.costSource).toBe('provider');
    expect(s.costPerGame).toBeCloseTo(0.002, 12);
    expect(s.costPerDecision).toBeCloseTo(0.004 / 3, 12);
    // The price table's estimate is still there, beside it.
    expect(s.estimatedCost).toBeCloseTo((1500 * 2 + 75 * 8) / 1e6, 12);
    // One answer without a cost: the reported sum is too low to stand for the run, so the prices are used.
    const partial = [...reported, game(2, [0, 1], [u({ model: 'm', decisions: 1, requests: 1, latenciesMs: [1], promptTokens: 100, usageReports: 1 }), null])];
    const [p] = summarizeUsage(entries, partial, prices);
    expect(p.providerCost).toBeCloseTo(0.004, 12);
    expect(p.costSource).toBe('prices');
    expect(p.costPerGame).toBeCloseTo(p.estimatedCost! / 3, 12);
    const [none] = summarizeUsage(entries, partial);
    expect([none.costSource, none.costPerGame]).toEqual([null, null]);
    // No answer reported a cost: null, not 0.
    expect(summarizeUsage(entries, [game(0, [0, 1], [u({ decisions: 1, requests: 1, latenciesMs: [1] }), null])])[0].providerCost).toBeNull();
  });

  it('reads game records written before cached tokens and reported costs were counted', () => {
    const old = u({ decisions: 1, requests: 1, latenciesMs: [1], promptTokens: 10 }) as Partial<AgentUsage>;
    delete old.cachedTokens;
    delete old.providerCost;
    delete old.costReports;
    const [s] = summarizeUsage(['llm:m'], [game(0, [0], [old as AgentUsage])]);
    expect([s.cachedTokens, s.providerCost, s.costSource]).toEqual([0, null, null]);
  });
});
