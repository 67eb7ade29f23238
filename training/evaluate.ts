/**
 * Evaluation during training: the current policy (argmax, through the same `PpoAgent` that
 * tournaments use) in one seat against a scripted opponent in all the others, scheduled and
 * summarised as a tournament is (eval/schedule.ts, eval/summary.ts): each deal is played once
 * with the policy in every seat, so the deals' luck cancels, and the interval is over per-deal
 * means. The deals are the same at every evaluation, so curves compare.
 */
import type { Ruleset } from '../env/index.ts';
import { runGames, schedule, summarize, type RunOptions, type RunOutcome } from '../eval/index.ts';
import { encodeWeights, type NetWeights } from '../policy/index.ts';

/** Plays an evaluation's games: by default in this thread; the job queue's runner plays them on workers. */
export type GamesRunner = (o: RunOptions) => Promise<RunOutcome>;

export interface EvalResult {
  opponent: string;
  games: number;
  /** Policy's win share per game (1/k for a k-way tie), and its 95% interval. */
  winRate: number;
  winRateCI: [number, number];
  meanScore: number;
}

const POLICY = 'ppo:current';

export async function evaluatePolicy(
  weights: NetWeights, opponent: string, deals: number, players: number, seed: string, ruleset?: Ruleset, runner: GamesRunner = runGames,
): Promise<EvalResult> {
  // Entry 0 is the policy (its weights travel with the games), the others one opponent instance each.
  const entries = [POLICY, ...Array.from({ length: players - 1 }, () => opponent)];
  const games = schedule({ entries: players, games: deals * players, seed: `${seed}/eval`, duplicate: true });
  const out = await runner({ entries, games, ruleset, workers: 0, policy: { name: POLICY, weights: encodeWeights(weights) } });
  if (out.results.length !== games.length) {
    throw new Error(`evaluation against ${opponent} played ${out.results.length} of ${games.length} games${out.stoppedBy ? `: ${out.stoppedBy}` : ''}`);
  }
  const mine = summarize(entries, out.results).agents.find((a) => a.spec === POLICY)!;
  return { opponent, games: mine.games, winRate: mine.winRate, winRateCI: mine.winRateCI, meanScore: mine.meanScore };
}
