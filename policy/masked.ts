/**
 * The masked categorical policy on the JavaScript side: sampling and log-probabilities from
 * a row of logits, over the legal actions only. Illegal actions are skipped outright, so they
 * can never be drawn and their logits, masked (MASKED_LOGIT) or raw, never matter.
 */
import { nextFloat, type RngState } from '../env/index.ts';

/** log Σ exp over the legal entries of `logits[off .. off+n)`. */
function logSumExp(logits: ArrayLike<number>, mask: ArrayLike<number>, off: number, n: number): number {
  let max = -Infinity;
  for (let a = 0; a < n; a++) if (mask[off + a] && logits[off + a] > max) max = logits[off + a];
  if (max === -Infinity) throw new Error('policy: no legal action in the mask');
  let sum = 0;
  for (let a = 0; a < n; a++) if (mask[off + a]) sum += Math.exp(logits[off + a] - max);
  return max + Math.log(sum);
}

export interface Choice {
  action: number;
  /** log π(action) under the masked policy. */
  logp: number;
}

/** Draws an action from the softmax of the legal logits in row `row` (n actions per row). */
export function sampleMasked(logits: ArrayLike<number>, mask: ArrayLike<number>, row: number, n: number, rng: RngState): Choice {
  const off = row * n;
  const lse = logSumExp(logits, mask, off, n);
  let u = nextFloat(rng);
  let last = -1;
  for (let a = 0; a < n; a++) {
    if (!mask[off + a]) continue;
    last = a;
    const p = Math.exp(logits[off + a] - lse);
    if (u < p) return { action: a, logp: logits[off + a] - lse };
    u -= p;
  }
  // Rounding left a sliver of u: the last legal action takes it.
  return { action: last, logp: logits[off + last] - lse };
}

/** The legal action with the highest logit (ties: the lowest id). */
export function argmaxMasked(logits: ArrayLike<number>, mask: ArrayLike<number>, row: number, n: number): number {
  const off = row * n;
  let best = -1;
  for (let a = 0; a < n; a++) if (mask[off + a] && (best < 0 || logits[off + a] > logits[off + best])) best = a;
  if (best < 0) throw new Error('policy: no legal action in the mask');
  return best;
}

/** Log-probability of `action` under the masked policy of row `row`. */
export function logProb(logits: ArrayLike<number>, mask: ArrayLike<number>, row: number, n: number, action: number): number {
  const off = row * n;
  if (!mask[off + action]) return -Infinity;
  return logits[off + action] - logSumExp(logits, mask, off, n);
}
