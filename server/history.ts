/**
 * History pages (GET /v1/games/:id/history): what a token's seat saw, step by step. A page
 * of 500 steps is milliseconds of narration, and its answer as many again to validate; built
 * in one go, a client keeping 16 of them in flight held every other client's request behind
 * them (GET /v1/bots at 20–30 times its quiet median). So a page is built a slice at a time in
 * the server's round robin of work in this thread (inline-turns.ts, the same turns as bots
 * played here: INLINE_SLICE_MS, clients in turn; even its first slice waits for its turn), and
 * another request waits for at most one slice. Each client has at most `maxPagesPerClient`
 * pages being built (429 past it): a bounded queue, served per client in turn. The answer is
 * built here from checked values and sent as it is (its schema documents it), not validated
 * again on its way out.
 */
import { ClientCounts } from './client-counts.ts';
import { ApiError, INLINE_SLICE_MS, stepEvents, type LiveGame, type Viewer } from './games.ts';
import type { InlineTurns } from './inline-turns.ts';
import { played } from './seat-state.ts';

/** Steps one history answer holds at most (a whole game is a few hundred). */
export const HISTORY_PAGE = 500;

export class HistoryPages {
  private readonly building = new ClientCounts();

  constructor(private readonly turns: InlineTurns, private readonly maxPerClient: number) {}

  /** Steps `from` on, at most `limit` of them (HISTORY_PAGE at most), as `viewer` saw them; `from` is a step of the game. */
  async page(game: LiveGame, viewer: Viewer, from: number, limit: number, client: string) {
    if (this.building.of(client) >= this.maxPerClient) {
      throw new ApiError(429, `you have ${this.maxPerClient} history pages being built, the most one client may have (maxPagesPerClient); wait for their answers`);
    }
    this.building.add(client);
    try {
      // The page ends where the game stood when asked: steps taken meanwhile are the next page's.
      const steps = game.env.actions.length;
      const to = Math.min(steps, from + Math.max(1, Math.min(HISTORY_PAGE, limit)) - 1);
      const entries = [];
      // Even the first slice waits for its turn: sixteen pages asked at once would otherwise run one each before anything else.
      let slice = -Infinity;
      for (let k = from; k <= to; k++) {
        if (performance.now() - slice >= INLINE_SLICE_MS) {
          await this.turns.next(client);
          slice = performance.now();
        }
        entries.push({ step: k, lastAction: k > 0 ? played(game, k - 1, viewer) : null, events: stepEvents(game, k, viewer) });
      }
      return { entries, steps, next: to < steps ? to + 1 : null };
    } finally {
      this.building.remove(client);
    }
  }
}
