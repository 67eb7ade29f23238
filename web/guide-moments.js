/**
 * The guided first game's table and the moments its coach notes wait for, kept apart from the
 * page (no DOM here) so scripts/find-guide-seed.ts checks the very same rules against the
 * engine when it picks the seed.
 *
 * The seed deals the person (seat 0) an X card and plays early, against these bots, into each
 * moment below whatever a newcomer does at their first turns (the script checks that).
 */

/**
 * The person, then two Beginners (random), so that a newcomer who follows the notes and the
 * hint can win their first game. Following the hint at every decision (GET hint, Strong's
 * choice), seeds guide-1 to guide-8: 8 wins of 8 against two Beginners; against two Regulars
 * 0 of 9 (seeds guide-1 to guide-3, from the first decision or after one or two turns of the
 * newcomer's own clicks), against a Beginner and a Regular 1 of 15 (guide-1 to guide-5).
 */
export const GUIDE_SEATS = ['remote', 'random', 'random'];
/** Found by `node --import tsx scripts/find-guide-seed.ts` with the seats above. */
export const GUIDE_SEED = 'guide-1';

/**
 * A moment a coach note explains, in the order a game meets them at the latest:
 * - `turn`   the person's own turn begins (their first choice of what to play);
 * - `digest` the person digests what is in front of them;
 * - `chart`  the person's marker moves on the drunkenness chart;
 * - `x`      an X card: the person may react with one, or another plays one in the person's
 *            turn (X cards are played on the player whose turn it is).
 * @typedef {'turn' | 'digest' | 'chart' | 'x'} Moment
 */
/** @type {Moment[]} */
export const MOMENTS = ['turn', 'digest', 'chart', 'x'];

/**
 * What a step shows the person that a note is about: its decision and its events, as GET
 * view gives them.
 * @typedef {{ done: boolean, view: { decision: { actor: number, kind: string }, turnState: { active: number } }, events: { k: string, seat?: number, move?: number }[], legalActions?: unknown[] }} StepSeen
 */

/**
 * The X card events of a step played in the person's turn: whose turn it is follows the
 * step's 'turn' events, from `activeBefore` (the previous step's turn) on.
 * @param {StepSeen} data @param {number} you @param {number | null} activeBefore
 */
export function xOnYou(data, you, activeBefore) {
  let active = activeBefore;
  return data.events.filter((e) => {
    if (e.k === 'turn') active = e.seat ?? null;
    return e.k === 'x' && e.seat !== you && active === you;
  });
}

/**
 * The moments one step holds for the person at seat `you`, in the order they happened: a
 * moment of an event (an X card played on them, their digestion, their move on the chart) at
 * that event, one of the decision asked (their turn, an X card they may play) after them all.
 * @param {StepSeen} data @param {number} you
 * @param {number | null} activeBefore  whose turn it was at the step before (null at the deal)
 * @returns {Moment[]}
 */
export function momentsIn(data, you, activeBefore) {
  const d = data.view.decision;
  const deciding = (/** @type {string} */ kind) => !data.done && d.actor === you && d.kind === kind;
  const at = (/** @type {(e: StepSeen['events'][number]) => boolean} */ is) => data.events.findIndex((e) => e.seat === you && is(e));
  const end = data.events.length;
  /** @type {[Moment, number][]} */
  const found = [];
  if (deciding('play')) found.push(['turn', end]);
  const digest = at((e) => e.k === 'digest');
  if (digest >= 0) found.push(['digest', digest]);
  const chart = at((e) => (e.k === 'digest' && e.move !== 0) || e.k === 'level_up');
  if (chart >= 0) found.push(['chart', chart]);
  const [onYou] = xOnYou(data, you, activeBefore);
  // Asked with a real choice: a forced pass (nothing to play) is the engine's and shown only in the record.
  if (onYou) found.push(['x', data.events.indexOf(onYou)]);
  else if (deciding('reaction') && (data.legalActions ?? []).length > 1) found.push(['x', end]);
  // Stable: moments at the same event keep MOMENTS order (a digestion, then the chart it moved).
  return found.sort((a, b) => a[1] - b[1]).map(([m]) => m);
}
