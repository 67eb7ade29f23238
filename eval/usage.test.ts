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
      game(0, [0, 1], [u({ model: 'm', decisions: 4, requests: 6, faultRetries: 1, invalidAnswers: 1, fallbacks: 0, latenciesMs: [100, 300], promptTokens: 1000, completionTokens: 50 }), null]),
      // llm in seat 1: 2 decisions, 3 requests, 1 invalid, 1 fallback.
      game(1, [1, 0], [null, u({ decisions: 2, requests: 3, invalidAnswers: 1, fallbacks: 1, latenciesMs: [200], promptTokens: 500, completionTokens: 25 })]),
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
    // 1,500 prompt tokens at $2/M + 75 completion tokens at $8/M.
    expect(s.estimatedCost).toBeCloseTo((1500 * 2 + 75 * 8) / 1e6, 12);
    expect(summarizeUsage(entries, results)[0].estimatedCost).toBeNull();
  });
});
