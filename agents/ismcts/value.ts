/**
 * What each seat's game is worth where a rollout is cut off: its score now, plus the points
 * it can expect from its place on the drunkenness chart over the turns it has left, plus
 * what its hand is worth against the fresh draws that would replace it. Without the hand
 * term a cut-off search spends cards for nothing (an X card on a stray beer, a small beer
 * for no points), since a card kept would only pay after the cut-off.
 *
 * These are the heuristic agent's own measures, reused rather than re-derived: the chart's
 * dynamic programme (scripted/future.ts), the turns left from the public view
 * (scripted/horizon.ts; the mean over CLOSING TIME's possible depths rather than this
 * determinization's exact one, so the evaluation adds no variance of its own) and the keep
 * values of cards (scripted/hand.ts, HEURISTIC_KEEP). A seat that is out has only its score.
 * Effects still to come are counted in turns: a paused seat loses one to the PAUSE, an
 * insulted one loses one (no orders: about a PAUSE), and one copying another with I'll get
 * the same has one more (the copy is a turn's drinks, its own digestion was skipped).
 */
import { HAND_TYPES } from '../../env/cards.ts';
import type { CzechPubEnv } from '../../env/env.ts';
import type { PlayerView } from '../../env/observation/view.ts';
import { futureTable, meanFuture } from '../scripted/future.ts';
import { averageDraw, rankHand } from '../scripted/hand.ts';
import { HEURISTIC_KEEP } from '../scripted/heuristic.ts';
import { cardsPerTurn, turnsAfterNow } from '../scripted/horizon.ts';

/** Keep value of a shot type not yet owned, over its copies' (as the heuristic agent prices it). */
const NEW_SHOT_KEEP = 0.6;
const avgDraws = new WeakMap<object, number>();

export function estimateTotals(world: CzechPubEnv, out: Float64Array): Float64Array {
  const scores = world.scores();
  for (let p = 0; p < scores.length; p++) out[p] = scores[p];
  if (world.done) return out;
  const ruleset = world.config.ruleset;
  const f = futureTable(ruleset);
  // Everything read below is public, so any seat's view serves for all.
  const v = world.view(0);
  const perTurn = cardsPerTurn(ruleset, v);
  const future = new Float64Array(f.places * f.abst);
  for (let p = 0; p < scores.length; p++) {
    const me = v.table[p];
    if (me.out !== null) continue;
    let [lo, hi] = turnsAfterNow(ruleset, { ...v, seat: p } as PlayerView, perTurn);
    // The active seat's turn has only begun: it still has it to play.
    const now = v.turnState.active === p ? 1 : 0;
    const shift = now - (me.paused ? 1 : 0) - (me.insulted ? 1 : 0) + (me.copying !== null ? 1 : 0);
    lo = Math.max(0, lo + shift);
    hi = Math.max(0, hi + shift);
    if (hi === 0) continue;
    meanFuture(f, lo, hi, future);
    out[p] += future[(f.levelStart[me.level - 1] + me.space) * f.abst + me.abstinence];
    out[p] += handValue(world, p, ruleset);
  }
  return out;
}

/** Keep value of a seat's hand less as many average fresh draws. */
function handValue(world: CzechPubEnv, seat: number, ruleset: CzechPubEnv['config']['ruleset']): number {
  let avg = avgDraws.get(ruleset);
  if (avg === undefined) avgDraws.set(ruleset, (avg = averageDraw(HEURISTIC_KEEP, ruleset)));
  const s = world.state;
  const hand = s.hand.slice(seat * HAND_TYPES, (seat + 1) * HAND_TYPES);
  let v = 0;
  for (const c of rankHand(HEURISTIC_KEEP, hand, s.tokens[seat], NEW_SHOT_KEEP)) v += c.value - avg;
  return v;
}
