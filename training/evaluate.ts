/**
 * Evaluation during training: the current policy (argmax, through the same `PpoAgent` that
 * tournaments use) in one seat against a scripted opponent in all the others. Each deal is
 * played once with the policy in every seat, so the deals' luck cancels; the interval is
 * over per-deal means. The deals are the same at every evaluation, so curves compare.
 */
import { PpoAgent } from '../agents/ppo/ppo-agent.ts';
import { createAgent } from '../agents/registry.ts';
import { meanCI } from '../eval/stats.ts';
import { playGame } from '../eval/game.ts';
import type { NetWeights } from './weights.ts';

export interface EvalResult {
  opponent: string;
  games: number;
  /** Policy's win share per game (1/k for a k-way tie), and its 95% interval. */
  winRate: number;
  winRateCI: [number, number];
  meanScore: number;
}

export async function evaluatePolicy(weights: NetWeights, opponent: string, deals: number, players: number, seed: string): Promise<EvalResult> {
  const policy = new PpoAgent('ppo:current', { weights });
  const others = Array.from({ length: players - 1 }, () => createAgent(opponent));
  const perDeal: number[] = [];
  let scoreSum = 0;
  for (let d = 0; d < deals; d++) {
    let share = 0;
    for (let seat = 0; seat < players; seat++) {
      let k = 0;
      const seated = Array.from({ length: players }, (_, s) => (s === seat ? policy : others[k++]));
      const g = await playGame(seated, { seed: `${seed}/eval/${d}` });
      if (g.winners.includes(seat)) share += 1 / g.winners.length;
      scoreSum += g.scores[seat];
    }
    perDeal.push(share / players);
  }
  const ci = meanCI(perDeal);
  return {
    opponent,
    games: deals * players,
    winRate: ci.mean,
    winRateCI: [Math.max(0, ci.lo), Math.min(1, ci.hi)],
    meanScore: scoreSum / (deals * players),
  };
}
