/**
 * Bringing back the state dir's games (game-log.ts) when the server starts, without making
 * anyone wait for all of them. Restoring a game replays it, and replaying bots that are asked
 * again at each past decision (a six-`ppo` table) took some 90 ms a game: 1,000 games in the
 * dir kept the server from answering for 88 s. So:
 *
 * - the server serves at once; the games in progress are restored one at a time in the
 *   background, the event loop let go between games and every few milliseconds within one;
 * - a game asked for before its turn is restored then, ahead of the rest (`ready`), and its
 *   request waits for it; a request for it while it is being restored waits for that;
 * - finished games are not read at start. One asked for is restored then (without asking its
 *   bots again: they have no decision left), so a replay link still opens after a restart; one
 *   nobody asks for within idleMs of the start loses its file, as a restored game left idle
 *   that long would.
 *
 * A file that cannot be restored (refused by game-log-schema.ts, or by GameStore.restore: other
 * rules, a bot the catalogue no longer has, an illegal action) is set aside in `rejected/`
 * with one line to the operator, and the server goes on; nothing of it reaches a client.
 */
import type { GameLog, LoggedGame } from './game-log.ts';

/** What a restorer needs of the store: GameStore.restore. */
export interface Restores {
  restore(game: LoggedGame): Promise<unknown>;
}

/** Lets the event loop answer what waits (a request) before going on. */
const yieldTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class Restorer {
  /** Games whose files are not read yet, by id: true for a finished one (restored only when asked for). */
  private readonly unread = new Map<string, boolean>();
  /** Restores under way, by id: what a request for the game waits on. */
  private readonly running = new Map<string, Promise<void>>();
  private readonly started: number;
  private stopped = false;
  /** Games restored, and files set aside, so far. */
  restored = 0;
  setAside = 0;
  /** Settles once every game in progress is restored or set aside (or the restorer is stopped). */
  readonly done: Promise<void>;

  constructor(
    private readonly log: GameLog,
    private readonly store: Restores,
    private readonly notice: (line: string) => void,
    /** A finished game nobody asked for within this of the start loses its file. */
    private readonly idleMs: number,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.started = now();
    const { live, finished } = log.scan();
    for (const id of finished) this.unread.set(id, true);
    for (const id of live) this.unread.set(id, false);
    this.done = this.background(live, finished.length);
  }

  /**
   * Waits until the game `id` is restored (restoring it now if its turn has not come) or set
   * aside; undefined when there is nothing to wait for (no such file, or already done).
   */
  ready(id: string): Promise<void> | undefined {
    const running = this.running.get(id);
    if (running) return running;
    const finished = this.unread.get(id);
    if (finished === undefined || this.stopped) return undefined;
    this.unread.delete(id);
    const p = this.restoreOne(id).finally(() => this.running.delete(id));
    this.running.set(id, p);
    return p;
  }

  private async restoreOne(id: string): Promise<void> {
    try {
      await this.store.restore(this.log.read(id));
      this.restored++;
    } catch (e) {
      this.setAside++;
      this.log.setAside(id, e instanceof Error ? e.message : String(e));
    }
  }

  private async background(live: readonly string[], finished: number): Promise<void> {
    for (const id of live) {
      // Requests that came in meanwhile go first (one of them may be asking for this very game).
      await yieldTurn();
      if (this.stopped) return;
      await this.ready(id);
    }
    if (live.length > 0 || finished > 0) {
      this.notice(`restored ${this.restored} of ${live.length} games in progress from the state dir ${this.log.dir}${finished > 0 ? `; ${finished} finished games there are restored when asked for` : ''}`);
    }
  }

  /** Removes the files of finished games nobody asked for within idleMs of the start. */
  expire(): void {
    if (this.now() - this.started <= this.idleMs) return;
    for (const [id, finished] of [...this.unread]) {
      if (!finished) continue;
      this.unread.delete(id);
      this.log.remove(id);
    }
  }

  /** Stops restoring (the server is closing): what is under way ends first; no file is touched after. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([...this.running.values()]);
    await this.done;
  }
}
