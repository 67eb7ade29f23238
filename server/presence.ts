/**
 * Who is at the table: a bot, a seat still open in the lobby, a person connected (their event
 * stream is open, or their seat asked within AWAY_MS), or a person away. Table metadata, as
 * names are: it says when a seat last asked, nothing of any hand.
 */
import type { LiveGame } from './games.ts';

export const PRESENCES = ['bot', 'open', 'connected', 'away'] as const;
export type Presence = (typeof PRESENCES)[number];

/** A person whose seat has not asked for this long, with no event stream open, is away. */
export const AWAY_MS = 45_000;

/** Where the server keeps what presence is read from, per seat. */
export interface SeatPresence {
  /** When the seat's token last opened something (0: never). */
  seen: number[];
  /** Event streams open for the seat. */
  streams: number[];
}

export function newPresence(players: number): SeatPresence {
  return { seen: new Array(players).fill(0), streams: new Array(players).fill(0) };
}

export function presenceOf(game: Pick<LiveGame, 'seats' | 'open' | 'presence'>, seat: number, now: number): Presence {
  if (game.seats[seat] !== 'remote') return 'bot';
  if (game.open.has(seat)) return 'open';
  const p = game.presence;
  return p.streams[seat] > 0 || now - p.seen[seat] <= AWAY_MS ? 'connected' : 'away';
}

/** Every seat's presence. */
export function tablePresence(game: Pick<LiveGame, 'seats' | 'open' | 'presence'>, now = Date.now()): Presence[] {
  return game.seats.map((_, seat) => presenceOf(game, seat, now));
}
