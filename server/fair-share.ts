/**
 * Fair shares of a server-wide limit (stored games, lobby places, event streams, queued bot
 * decisions). Per-client limits keep one client from taking everything; these keep many from
 * doing it together. When every place is taken, a newcomer takes the place of the client
 * holding the most, never of a client holding as many as it does or fewer: so a client below
 * the others always gets a place, and places move from the biggest holders towards an equal
 * share, never back. A place in use (the caller says which: a game someone plays, a decision
 * running) is never taken.
 */

/** Who holds what: each client's places. */
export type Holdings<T> = Iterable<readonly [client: string, places: Iterable<T>]>;

export interface VictimRule<T> {
  /** May this place be taken? (not in use) */
  free: (place: T) => boolean;
  /** Of one client's free places, whether `a` goes before `b` (its least recently used first, say). */
  before: (a: T, b: T) => boolean;
  /** The asker's own places may be taken too, when no client holds more than it (a store making room for its own next game). */
  own?: boolean;
}

/**
 * The place a newcomer `asker` takes, or null: a free place of the client holding the most,
 * among those holding more places than the asker (and the asker itself with `own`); a client
 * with no free place is passed over for the next biggest. Ties go to the client whose first
 * free place comes first.
 */
export function fairVictim<T>(holdings: Holdings<T>, asker: string, rule: VictimRule<T>): T | null {
  const all: { client: string; count: number; first: T | null }[] = [];
  let mine = 0;
  for (const [client, places] of holdings) {
    let count = 0;
    let first: T | null = null;
    for (const p of places) {
      count++;
      if (rule.free(p) && (first === null || rule.before(p, first))) first = p;
    }
    if (client === asker) mine = count;
    all.push({ client, count, first });
  }
  let best: { count: number; first: T } | null = null;
  for (const h of all) {
    if (h.first === null) continue;
    if (h.client === asker ? !rule.own : h.count <= mine) continue;
    if (!best || h.count > best.count || (h.count === best.count && rule.before(h.first, best.first))) best = { count: h.count, first: h.first };
  }
  return best?.first ?? null;
}
