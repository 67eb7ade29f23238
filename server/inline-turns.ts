/**
 * Turns on the event loop for bots played in this thread (games.ts). A game's bots play for a
 * slice (INLINE_SLICE_MS), then wait here for their next turn: one waiting slice runs per
 * turn of the event loop, clients in turn (round robin), so between two slices of bot work
 * the loop serves whatever else has come in. A request that needs no bot waits for at most
 * one slice (and the decision that ends it), however many games are being played.
 */
export class InlineTurns {
  /** Waiting slices per client; the map's order is the round robin's. */
  private readonly waiting = new Map<string, (() => void)[]>();
  private scheduled = false;

  /** Resolves when `client`'s next slice may run. */
  next(client: string): Promise<void> {
    return new Promise((resolve) => {
      const q = this.waiting.get(client);
      if (q) q.push(resolve);
      else this.waiting.set(client, [resolve]);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // setImmediate runs after the loop has polled for I/O: other requests come in between slices.
    setImmediate(() => {
      this.scheduled = false;
      const first = this.waiting.entries().next();
      if (first.done) return;
      const [client, q] = first.value;
      this.waiting.delete(client);
      const go = q.shift()!;
      if (q.length > 0) this.waiting.set(client, q);
      go();
      if (this.waiting.size > 0) this.schedule();
    });
  }
}
