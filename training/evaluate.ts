/**
 * Evaluation during training: the current policy (argmax, through the same `PpoAgent` that
 * tournaments use) in one seat against a scripted opponent in all the others, scheduled and
 * summarised as a tournament is (eval/schedule.ts, eval/summary.ts): each deal is played once
 * with the policy in every seat, so the deals' luck cancels, and the interval is over per-deal
 * means. The deals are the same at every evaluation, so curves compare.
 */
import type { Ruleset } from '../env/ruleset.ts';
import { PpoAgent } from '../agents/ppo/ppo-agent.ts';
import { createAgent } from '../agents/default-registry.ts';
import { playGame } from '../eval/game.ts';
import { schedule } from '../eval/schedule.ts';
import { summarize, type GameResult } from '../eval/summary.ts';
import type { NetWeights } from '../policy/weights.ts';

export interface EvalResult {
  opponent: string;
  games: number;
  /** Policy's win share per game (1/k for a k-way tie), and its 95% interval. */
  winRate: number;
  winRateCI: [number, number];
  meanScore: number;
}

const POLICY = 'ppo:current';

export async function evaluatePolicy(weights: NetWeights, opponent: string, deals: number, players: number, seed: string, ruleset?: Ruleset): Promise<EvalResult> {
  // Entry 0 is the policy, the others one opponent instance each.
  const entries = [POLICY, ...Array.from({ length: players - 1 }, () => opponent)];
  const agents = [new PpoAgent(POLICY, { weights }), ...entries.slice(1).map((spec) => createAgent(spec))];
  const results: GameResult[] = [];
  for (const g of schedule({ entries: players, games: deals * players, seed: `${seed}/eval`, duplicate: true })) {
    results.push({ ...(await playGame(g.seating.map((e) => agents[e]), { seed: g.seed, ruleset })), ...g });
  }
  const mine = summarize(entries, results).agents.find((a) => a.spec === POLICY)!;
  return { opponent, games: mine.games, winRate: mine.winRate, winRateCI: mine.winRateCI, meanScore: mine.meanScore };
}
