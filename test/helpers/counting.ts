/** What test/helpers/counting-worker.ts tells of each decision it runs, on this BroadcastChannel. */
export const COUNTING_CHANNEL = 'czech-pub-counting-worker';
/** The work of one decision (ms, or the time it is told it has, if less). */
export const HOLD_MS = 10;

export interface CountedDecision {
  /** The pool's id of the decision: ids rise in the order decisions were asked for. */
  id: number;
  /** `${game}/${seat}`. */
  key: string;
  /** The time it was told it has (ms). */
  told: number;
}
