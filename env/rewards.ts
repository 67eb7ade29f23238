/**
 * Reward schemes, chosen at reset. All are terminal: zero on every step but the last.
 *
 * | scheme | reward per seat at the end                                                       |
 * |--------|----------------------------------------------------------------------------------|
 * | win    | 1 shared among tied winners (1/k each), else 0                                   |
 * | rank   | +1 for first place down to −1 for last, linear in rank; tied seats share the mean |
 * | score  | (final score − mean final score of the other seats) / 50                          |
 */
export const REWARD_SCHEMES = ['win', 'rank', 'score'] as const;
export type RewardScheme = (typeof REWARD_SCHEMES)[number];

export const SCORE_REWARD_SCALE = 50;

export function terminalRewards(scheme: RewardScheme, scores: readonly number[]): number[] {
  const n = scores.length;
  if (scheme === 'win') {
    const best = Math.max(...scores);
    const k = scores.filter((v) => v === best).length;
    return scores.map((v) => (v === best ? 1 / k : 0));
  }
  if (scheme === 'rank') {
    if (n === 1) return [0];
    return scores.map((v) => {
      const better = scores.filter((w) => w > v).length;
      const tied = scores.filter((w) => w === v).length;
      // Mean of the linear values of the ranks better..better+tied-1 (0-based).
      const meanRank = better + (tied - 1) / 2;
      return 1 - (2 * meanRank) / (n - 1);
    });
  }
  const total = scores.reduce((a, b) => a + b, 0);
  return scores.map((v) => (n > 1 ? (v - (total - v) / (n - 1)) / SCORE_REWARD_SCALE : 0));
}
