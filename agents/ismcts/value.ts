/**
 * What each seat's game is worth where an iteration is cut off (rollout.ts): its score now
 * plus the points it can expect to add, by one of two evaluations.
 *
 * `learned` (default): a linear model over features.ts, fitted by fit-value.ts to the points
 * seats went on to score in heuristic self-play. `chart`: the heuristic agent's own measures —
 * the chart's expected points for the turns left (scripted/future.ts) plus the keep value of
 * the hand against fresh draws (scripted/hand.ts). The chart's numbers come from a menu of
 * typical turns and overstate what is scored in play about twofold (refitted, its weight is
 * 0.45), so a search judged by them drinks as timidly as the heuristic does, and can find no
 * fault in choices the heuristic makes by the same numbers: the learned model gives it an
 * independent, calibrated judge.
 *
 * The hand term matters either way: without it a cut-off search spends cards for nothing,
 * since a card kept only pays after the cut-off.
 */
import { HAND_TYPES, type CzechPubEnv } from '../../env/index.ts';
import { averageDraw, rankHand } from '../scripted/hand.ts';
import { HEURISTIC_KEEP } from '../scripted/heuristic.ts';
import { NUM_FEATURES, seatFeatures } from './features.ts';
import { VALUE_WEIGHTS } from './value-model.ts';

export const EVALUATIONS = ['learned', 'chart'] as const;
export type Evaluation = (typeof EVALUATIONS)[number];

/** Keep value of a shot type not yet owned, over its copies' (as the heuristic agent prices it). */
const NEW_SHOT_KEEP = 0.6;
const avgDraws = new WeakMap<object, number>();

export class Evaluator {
  private x = new Float64Array(0);

  constructor(private readonly kind: Evaluation) {
    if (VALUE_WEIGHTS.length !== NUM_FEATURES) {
      throw new Error(`ismcts: value-model.ts has ${VALUE_WEIGHTS.length} weights for ${NUM_FEATURES} features; rerun fit-value.ts`);
    }
  }

  /** Expected final score of every seat, into `out`. */
  totals(world: CzechPubEnv, out: Float64Array): Float64Array {
    const scores = world.scores();
    for (let p = 0; p < scores.length; p++) out[p] = scores[p];
    if (world.done) return out;
    if (this.x.length !== scores.length * NUM_FEATURES) this.x = new Float64Array(scores.length * NUM_FEATURES);
    // Everything read from the view is public, so any seat's serves for all.
    const x = seatFeatures(world, world.view(0), this.x);
    for (let p = 0; p < scores.length; p++) {
      const b = p * NUM_FEATURES;
      if (x[b] === 0) continue; // out, or no turn left
      if (this.kind === 'chart') {
        out[p] += x[b + 1] + handValue(world, p);
      } else {
        for (let i = 0; i < NUM_FEATURES; i++) out[p] += VALUE_WEIGHTS[i] * x[b + i];
      }
    }
    return out;
  }
}

/** Keep value of a seat's hand less as many average fresh draws. */
function handValue(world: CzechPubEnv, seat: number): number {
  const ruleset = world.config.ruleset;
  let avg = avgDraws.get(ruleset);
  if (avg === undefined) avgDraws.set(ruleset, (avg = averageDraw(HEURISTIC_KEEP, ruleset)));
  const s = world.state;
  const hand = s.hand.slice(seat * HAND_TYPES, (seat + 1) * HAND_TYPES);
  let v = 0;
  for (const c of rankHand(HEURISTIC_KEEP, hand, s.tokens[seat], NEW_SHOT_KEEP)) v += c.value - avg;
  return v;
}
