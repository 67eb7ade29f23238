/**
 * What a decision really did, read off the engine's states before and after it: the cards
 * the seat's hand lost and gained, the fronts that changed (each card labelled as a choice
 * preview labels it, as the seats see it) and the points. Worked out here on its own, not
 * with the preview's code, so the tests that compare a preview with it (env/engine's
 * choice-preview test, the page's previews in Chromium) check the preview against the engine.
 */
import { CARD_IDS, HAND_TYPES } from '../../env/cards.ts';
import { frontLabel } from '../../env/engine/choice-preview.ts';
import { publicEntry } from '../../env/observation/visible.ts';
import type { GameState } from '../../env/state.ts';

export function engineChange(before: GameState, after: GameState, seat: number) {
  const handLoses: string[] = [];
  const handGains: string[] = [];
  for (let t = 0; t < HAND_TYPES; t++) {
    const k = seat * HAND_TYPES + t;
    for (let n = after.hand[k] - before.hand[k]; n > 0; n--) handGains.push(CARD_IDS[t]);
    for (let n = before.hand[k] - after.hand[k]; n > 0; n--) handLoses.push(CARD_IDS[t]);
  }
  const label = (front: number[], p: number) => front.map((e) => frontLabel(publicEntry(e, p)));
  const fronts: { seat: number; after: string[] }[] = [];
  const points: { seat: number; change: number }[] = [];
  for (let p = 0; p < before.players; p++) {
    const a = label(after.front[p], p);
    if (a.join() !== label(before.front[p], p).join()) fronts.push({ seat: p, after: a });
    if (after.points[p] !== before.points[p]) points.push({ seat: p, change: after.points[p] - before.points[p] });
  }
  return { handLoses, handGains, fronts, points };
}
