/**
 * Which games a tournament plays. Seats rotate so that every entry sits in every seat
 * equally often; with duplicate deals (the default) each seed is played once per rotation,
 * so every entry gets the same cards from every seat and the luck of the deal cancels out.
 */
export interface ScheduledGame {
  index: number;
  /** Games of one deal share a seed (duplicate deals); otherwise each game is its own deal. */
  deal: number;
  seed: string;
  /** seating[seat] = index of the entry playing that seat. */
  seating: number[];
}

export interface ScheduleOptions {
  entries: number;
  games: number;
  seed: string;
  duplicate: boolean;
}

/** Games rounded up to a whole number of rotations. */
export function roundedGames(games: number, players: number): number {
  return Math.ceil(games / players) * players;
}

export function schedule(o: ScheduleOptions): ScheduledGame[] {
  const p = o.entries;
  const total = roundedGames(o.games, p);
  const out: ScheduledGame[] = [];
  for (let index = 0; index < total; index++) {
    const rotation = index % p;
    const deal = o.duplicate ? Math.floor(index / p) : index;
    // Entry i sits at seat (i + rotation) mod p.
    const seating = Array.from({ length: p }, (_, seat) => (seat - rotation + p) % p);
    out.push({ index, deal, seed: `${o.seed}/${deal}`, seating });
  }
  return out;
}
