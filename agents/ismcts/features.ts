/**
 * Features of one seat's prospects at the start of a turn, for the learned evaluation
 * (value.ts, fitted by fit-value.ts). Everything is public or the seat's own hand — in a
 * determinized world the hands are sampled, which is what the evaluation averages over.
 *
 * | index   | feature                                                                  |
 * |---------|--------------------------------------------------------------------------|
 * | 0       | 1 while the seat has turns left                                          |
 * | 1       | chart value: the scripted agents' expected points from its place on the  |
 * |         | drunkenness chart over the turns it has left (scripted/future.ts)        |
 * | 2       | turns left (mid of the range; a PAUSE or an insult takes one, a pending  |
 * |         | I'll get the same adds one)                                              |
 * | 3–25    | cards of each type in hand                                               |
 * | 26      | shot types owned                                                         |
 * | 27–30   | level 1–4                                                                |
 *
 * All are zero for a seat that is out or has no turn left: its score is final. Pending
 * effects (PAUSE, Insulted bartender, I'll get the same) enter only through the turns left:
 * as flags they would be fitted to who tends to receive them (insults go to leaders), not to
 * what they do, and the search would seek them out.
 */
import { HAND_TYPES, popcount, type CzechPubEnv, type PlayerView } from '../../env/index.ts';
import { futureTable, meanFuture } from '../scripted/future.ts';
import { cardsPerTurn, turnsAfterNow } from '../scripted/horizon.ts';

export const NUM_FEATURES = 31;
const F_CARDS = 3;
const F_TOKENS = F_CARDS + HAND_TYPES;
const F_LEVEL = F_TOKENS + 1;

/** Fills `out` (players × NUM_FEATURES) with every seat's features; `v` is any seat's view of `world`. */
export function seatFeatures(world: CzechPubEnv, v: PlayerView, out: Float64Array): Float64Array {
  out.fill(0);
  const ruleset = world.config.ruleset;
  const f = futureTable(ruleset);
  const s = world.state;
  const perTurn = cardsPerTurn(ruleset, v);
  const future = new Float64Array(f.places * f.abst);
  for (let p = 0; p < s.players; p++) {
    const me = v.table[p];
    if (me.out !== null) continue;
    let [lo, hi] = turnsAfterNow(ruleset, { ...v, seat: p } as PlayerView, perTurn);
    // The active seat's turn has only begun: it still has it to play.
    const shift = (v.turnState.active === p ? 1 : 0) - (me.paused ? 1 : 0) - (me.insulted ? 1 : 0) + (me.copying !== null ? 1 : 0);
    lo = Math.max(0, lo + shift);
    hi = Math.max(0, hi + shift);
    if (hi === 0) continue;
    meanFuture(f, lo, hi, future);
    const x = p * NUM_FEATURES;
    out[x] = 1;
    out[x + 1] = future[(f.levelStart[me.level - 1] + me.space) * f.abst + me.abstinence];
    out[x + 2] = (lo + hi) / 2;
    for (let t = 0; t < HAND_TYPES; t++) out[x + F_CARDS + t] = s.hand[p * HAND_TYPES + t];
    out[x + F_TOKENS] = popcount(s.tokens[p]);
    out[x + F_LEVEL + me.level - 1] = 1;
  }
  return out;
}
