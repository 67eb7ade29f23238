/** How many of something (games in progress, open streams) each client holds: for per-client limits. */
export class ClientCounts {
  private readonly counts = new Map<string, number>();

  of(client: string): number {
    return this.counts.get(client) ?? 0;
  }

  add(client: string): void {
    this.counts.set(client, this.of(client) + 1);
  }

  /** One fewer; a client holding none is forgotten. */
  remove(client: string): void {
    const n = this.of(client) - 1;
    if (n > 0) this.counts.set(client, n);
    else this.counts.delete(client);
  }
}
