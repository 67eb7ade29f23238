/**
 * A seat's observation as a flat Float32Array with a fixed, named slice layout, the same
 * size for every player count. Seats are relative to the observer: player slot k is the
 * seat k places to its left (slot 0 is the observer); slots past the player count are zero.
 * It reads only what makeView exposes: the observer's hand, public state, and the cards
 * the observer knows to be in other hands.
 *
 * | slice           | size | contents                                                            |
 * |-----------------|------|---------------------------------------------------------------------|
 * | hand            | 23   | own hand: count of each card type / 4                               |
 * | hand_size       | 1    | own hand size / 7                                                   |
 * | players         | 6×58 | per player slot (58 each, see PLAYER_FEATURES below)                |
 * | turn            | 11   | active player's turn: actions left/3, beers/3, small beers, shots,  |
 * |                 |      | shot limit/2, cards played/5, played I'll get the same, after done, |
 * |                 |      | a card was removed, blocked beers, blocked small beers              |
 * | front_own       | 23   | cards in front of the active player that they played, by type       |
 * | front_given     | 10   | orders put there by Mixed-up, by type                               |
 * | front_poured    | 5    | their own shot orders poured into a beer, by shot                   |
 * | front_added     | 5    | shots poured in from another player's hand, by shot                 |
 * | front_flattery  | 5    | Flattery cards in front, by the shot they count as                  |
 * | decision        | 5    | one-hot: play, discard, reaction, response, over                    |
 * | my_decision     | 1    | 1 if the observer is the one deciding                               |
 * | decision_card   | 24   | one-hot: the card that opened the window / is aimed (23 = "done")   |
 * | decision_by     | 6    | one-hot player slot that played the card being responded to        |
 * | decision_target | 6    | one-hot player slot deciding now                                    |
 * | avoided         | 6    | player slots that already avoided the card with Excuse me           |
 * | pile            | 3    | draw pile size/100, discard pile size/100, reshuffles/3             |
 * | discard_counts  | 23   | cards of each type in the discard pile / ruleset count              |
 * | discard_top     | 24   | one-hot top card of the discard pile (23 = empty)                   |
 * | pile_may_hold   | 23   | cards of each type the draw pile may still hold, as far as the      |
 * |                 |      | observer knows (the pile laid at the last reshuffle less its own    |
 * |                 |      | draws) / ruleset count                                              |
 * | closing         | 5    | one-hot aside / in deck / drawn, depth range lo/100, hi/100         |
 * | end             | 2    | the observer still has a last turn to take, solo last turn pending  |
 * | titles_left     | 4    | tokens left of each title (first 4) / their ruleset count           |
 * | player_count    | 5    | one-hot 2..6 players                                                |
 * | progress        | 1    | turn number / 100                                                   |
 *
 * PLAYER_FEATURES (per slot): present, active, deciding, wasted, thrown out, paused,
 * points/50, score/50, level one-hot (4), space value/4, position in row (0..1),
 * shot tokens (5), token count/5, abstinence one-stripe, two-stripe, titles (4), hand size/7,
 * insulted, copying: one-hot slot of the player copied (6), last turn taken,
 * known cards in hand by type / 4 (23).
 */
import { HAND_TYPES, ORDER_TYPES, RUM, SHOT_TYPES, isShot } from '../cards.ts';
import { finalScores } from '../engine/flow.ts';
import { summarizeFront } from '../engine/legal.ts';
import type { CompiledRules } from '../ruleset.ts';
import {
  CLOSING_DRAWN, CLOSING_IN_DECK, entryFlags, entryShot, entryType, F_ADDED, F_GIVEN, F_MARKER,
  F_POURED, PHASE_REACTION, PHASE_RESPONSE, THROWN_OUT, WASTED, type GameState,
} from '../state.ts';
import { MAX_PLAYERS } from '../ruleset.ts';
import { closingDepth } from './view.ts';

export const OBSERVATION_VERSION = 1;
export const PLAYER_FEATURES = 58;

const SLICES: [name: string, size: number][] = [
  ['hand', HAND_TYPES],
  ['hand_size', 1],
  ['players', MAX_PLAYERS * PLAYER_FEATURES],
  ['turn', 11],
  ['front_own', HAND_TYPES],
  ['front_given', ORDER_TYPES],
  ['front_poured', SHOT_TYPES],
  ['front_added', SHOT_TYPES],
  ['front_flattery', SHOT_TYPES],
  ['decision', 5],
  ['my_decision', 1],
  ['decision_card', HAND_TYPES + 1],
  ['decision_by', MAX_PLAYERS],
  ['decision_target', MAX_PLAYERS],
  ['avoided', MAX_PLAYERS],
  ['pile', 3],
  ['discard_counts', HAND_TYPES],
  ['discard_top', HAND_TYPES + 1],
  ['pile_may_hold', HAND_TYPES],
  ['closing', 5],
  ['end', 2],
  ['titles_left', 4],
  ['player_count', 5],
  ['progress', 1],
];

/** Named slices of the observation: offset and size of each. */
export const OBS_LAYOUT: Readonly<Record<string, { offset: number; size: number }>> = (() => {
  const out: Record<string, { offset: number; size: number }> = {};
  let offset = 0;
  for (const [name, size] of SLICES) {
    out[name] = { offset, size };
    offset += size;
  }
  return out;
})();

export const OBS_SIZE = SLICES.reduce((n, [, size]) => n + size, 0);

const O = Object.fromEntries(Object.entries(OBS_LAYOUT).map(([k, v]) => [k, v.offset])) as Record<string, number>;

/**
 * Player slot of `p` for the observer `seat`: how many places to its left `p` sits.
 * A module-level function, not a closure made per call: tsx compiles with esbuild's
 * keepNames, which wraps each named closure in a defineProperty call, and that alone took
 * about a third of the encoding time.
 */
function slotOf(p: number, seat: number, n: number): number {
  return (p - seat + n) % n;
}

/**
 * Writes the observation of `seat` into `out` at `offset` (zeroing that range first).
 * Allocates nothing but the score array, so a vectorised env can write into one big buffer.
 */
export function encodeObservation(r: CompiledRules, s: GameState, seat: number, out: Float32Array, offset = 0): void {
  out.fill(0, offset, offset + OBS_SIZE);
  const n = s.players;
  const rs = r.ruleset;
  const h = seat * HAND_TYPES;
  for (let t = 0; t < HAND_TYPES; t++) out[offset + O.hand + t] = s.hand[h + t] / 4;
  out[offset + O.hand_size] = s.handSize[seat] / 7;

  const scores = finalScores(r, s);
  for (let p = 0; p < n; p++) {
    const b = offset + O.players + slotOf(p, seat, n) * PLAYER_FEATURES;
    out[b] = 1;
    out[b + 1] = p === s.active ? 1 : 0;
    out[b + 2] = !s.over && p === s.actor ? 1 : 0;
    out[b + 3] = s.out[p] === WASTED ? 1 : 0;
    out[b + 4] = s.out[p] === THROWN_OUT ? 1 : 0;
    out[b + 5] = s.paused[p];
    out[b + 6] = s.points[p] / 50;
    out[b + 7] = scores[p] / 50;
    out[b + 8 + Math.min(s.level[p], 3)] = 1;
    const row = rs.chart[s.level[p]].spaces;
    out[b + 12] = row[s.space[p]] / 4;
    out[b + 13] = row.length > 1 ? s.space[p] / (row.length - 1) : 0;
    let k = 0;
    for (let i = 0; i < SHOT_TYPES; i++) {
      if (s.tokens[p] & (1 << i)) {
        out[b + 14 + i] = 1;
        k++;
      }
    }
    out[b + 19] = k / 5;
    if (s.abstinence[p] === 1) out[b + 20] = 1;
    if (s.abstinence[p] >= 2) out[b + 21] = 1;
    for (let i = 0; i < 4; i++) if (s.titles[p] & (1 << i)) out[b + 22 + i] = 1;
    out[b + 26] = s.handSize[p] / 7;
    out[b + 27] = summarizeFront(s.front[p]).insulted ? 1 : 0;
    if (s.copying[p] >= 0) out[b + 28 + slotOf(s.copying[p], seat, n)] = 1;
    out[b + 34] = s.finalDone & (1 << p) ? 1 : 0;
    if (p !== seat) {
      const kb = (seat * n + p) * HAND_TYPES;
      for (let t = 0; t < HAND_TYPES; t++) out[b + 35 + t] = s.known[kb + t] / 4;
    }
  }

  const lim = rs.limits;
  const f = summarizeFront(s.front[s.active]);
  const tb = offset + O.turn;
  out[tb] = (lim.actionsPerTurn - s.actionsUsed) / 3;
  out[tb + 1] = f.countedBeers / 3;
  out[tb + 2] = f.countedSmall;
  out[tb + 3] = f.countedShots;
  out[tb + 4] = (lim.shots + s.extraShots) / 2;
  out[tb + 5] = s.played / 5;
  out[tb + 6] = s.playedSame;
  out[tb + 7] = s.doneWindow;
  out[tb + 8] = s.removed;
  out[tb + 9] = s.blockedBeer;
  out[tb + 10] = s.blockedSmall;

  for (const e of s.front[s.active]) {
    const t = entryType(e);
    const fl = entryFlags(e);
    if (fl & F_MARKER) continue;
    if (fl & F_ADDED) out[offset + O.front_added + t - RUM]++;
    else if (fl & F_GIVEN) out[offset + O.front_given + t]++;
    else {
      out[offset + O.front_own + t]++;
      if (fl & F_POURED && isShot(t)) out[offset + O.front_poured + t - RUM]++;
      if (entryShot(e) >= 0) out[offset + O.front_flattery + entryShot(e)]++;
    }
  }

  out[offset + O.decision + s.phase] = 1;
  if (!s.over) {
    out[offset + O.my_decision] = s.actor === seat ? 1 : 0;
    out[offset + O.decision_target + slotOf(s.actor, seat, n)] = 1;
    if (s.phase === PHASE_REACTION) out[offset + O.decision_card + (s.windowCard >= 0 ? s.windowCard : HAND_TYPES)] = 1;
    if (s.phase === PHASE_RESPONSE && s.effect) {
      out[offset + O.decision_card + s.effect.card] = 1;
      out[offset + O.decision_by + slotOf(s.effect.by, seat, n)] = 1;
      for (let p = 0; p < n; p++) if (s.effect.avoided & (1 << p)) out[offset + O.avoided + slotOf(p, seat, n)] = 1;
    }
  }

  const inDeck = s.closing.where === CLOSING_IN_DECK ? 1 : 0;
  out[offset + O.pile] = (s.deck.length - inDeck) / 100;
  out[offset + O.pile + 1] = s.discard.length / 100;
  out[offset + O.pile + 2] = s.reshuffles / 3;
  for (const t of s.discard) out[offset + O.discard_counts + t] += 1 / Math.max(1, r.count[t]);
  out[offset + O.discard_top + (s.discard.length > 0 ? s.discard[s.discard.length - 1] : HAND_TYPES)] = 1;
  for (let t = 0; t < HAND_TYPES; t++) out[offset + O.pile_may_hold + t] = s.pileKnown[seat * HAND_TYPES + t] / Math.max(1, r.count[t]);
  out[offset + O.closing + (s.closing.where === CLOSING_DRAWN ? 2 : inDeck ? 1 : 0)] = 1;
  const depth = closingDepth(s);
  if (depth) {
    out[offset + O.closing + 3] = depth[0] / 100;
    out[offset + O.closing + 4] = depth[1] / 100;
  }
  if (s.closing.where === CLOSING_DRAWN && s.out[seat] === 0 && !(s.finalDone & (1 << seat))) out[offset + O.end] = 1;
  out[offset + O.end + 1] = s.soloLast;
  for (let i = 0; i < Math.min(4, rs.titles.length); i++) {
    out[offset + O.titles_left + i] = rs.titles[i].tokens > 0 ? s.titlesLeft[i] / rs.titles[i].tokens : 0;
  }
  out[offset + O.player_count + n - 2] = 1;
  out[offset + O.progress] = s.turn / 100;
}
