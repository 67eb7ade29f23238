/**
 * The reward each seat backs up at the end of an iteration, from the scores of the world it
 * ended in (the end of the game, or the rollout's cut-off, scored as it stands).
 *
 *   reward[p] = (1 − w) · winShare[p] + w · (1 + tanh(margin[p] / scale)) / 2
 *
 * winShare is the env's 'win' reward (1 shared among tied leaders), which is what a
 * tournament counts. It is all-or-nothing, so alone it learns slowly from few iterations
 * and says nothing at a cut-off far from the end; the margin term (score minus the best
 * other score, squashed into [0, 1]) grades near-wins and near-losses. Both parts lie in
 * [0, 1], so the exploration constant keeps its usual scale.
 */
export interface EvalOptions {
  /** w: weight of the margin term, in [0, 1]. */
  scoreWeight: number;
  /** Points of margin that count as a clear lead (tanh's scale). */
  scoreScale: number;
}

export function outcomeRewards(scores: ArrayLike<number>, opts: EvalOptions, out: Float64Array): Float64Array {
  const n = scores.length;
  let best = -Infinity;
  let second = -Infinity;
  let tied = 0;
  for (let i = 0; i < n; i++) {
    const v = scores[i];
    if (v > best) {
      second = best;
      best = v;
      tied = 1;
    } else if (v === best) {
      second = v;
      tied++;
    } else if (v > second) {
      second = v;
    }
  }
  const w = opts.scoreWeight;
  for (let p = 0; p < n; p++) {
    const v = scores[p];
    const win = v === best ? 1 / tied : 0;
    const margin = v - (v === best ? second : best);
    out[p] = (1 - w) * win + (w * (1 + Math.tanh(margin / opts.scoreScale))) / 2;
  }
  return out;
}
