/**
 * Generalised advantage estimation (Schulman et al. 2016) over one seat's run of decisions.
 * A seat's trajectory is its own decisions only: what the other seats do in between is part
 * of the environment's transition. Rewards are terminal, so only the last decision of a
 * finished game has one.
 *
 *   δ_t = r_t + γ·V_{t+1} − V_t,   A_t = δ_t + γλ·A_{t+1},   return_t = A_t + V_t
 *
 * with V_n = `bootstrap`: 0 when the game ended after the last decision, else the value the
 * net gave the seat's next decision (the run was cut at a rollout boundary).
 */
export function gae(
  rewards: ArrayLike<number>,
  values: ArrayLike<number>,
  bootstrap: number,
  gamma: number,
  lambda: number,
  advantages: Float32Array | number[],
  returns: Float32Array | number[],
): void {
  let next = bootstrap;
  let carry = 0;
  for (let t = values.length - 1; t >= 0; t--) {
    const delta = rewards[t] + gamma * next - values[t];
    carry = delta + gamma * lambda * carry;
    advantages[t] = carry;
    returns[t] = carry + values[t];
    next = values[t];
  }
}

/** Fraction of the variance of `targets` that `predicted` explains (1 = perfect, ≤ 0 = no better than the mean). */
export function explainedVariance(predicted: ArrayLike<number>, targets: ArrayLike<number>): number {
  const n = targets.length;
  if (n === 0) return NaN;
  let mean = 0;
  let meanDiff = 0;
  for (let i = 0; i < n; i++) {
    mean += targets[i];
    meanDiff += targets[i] - predicted[i];
  }
  mean /= n;
  meanDiff /= n;
  let varY = 0;
  let varDiff = 0;
  for (let i = 0; i < n; i++) {
    varY += (targets[i] - mean) ** 2;
    varDiff += (targets[i] - predicted[i] - meanDiff) ** 2;
  }
  return varY === 0 ? NaN : 1 - varDiff / varY;
}
