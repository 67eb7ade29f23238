/**
 * Tables for people: what the lobby shows of a game (games with seats open to anyone), and the
 * move preview for the seat to act; their routes are routes/lobby.ts and routes/advice.ts. The
 * lobby says only what anyone at the table could see: seats, who fills them, whether a seat is
 * free, the turn; never a token, a hand or a seed.
 */
import { SeatChannel } from '../env/index.ts';
import type { LiveGame } from './games.ts';
import { presenceOf } from './presence.ts';
import { shownCommitment } from './seed-commitment.ts';

/** Lobby entries listed at most (the store holds at most maxOpenGames of them anyway). */
export const LOBBY_LISTED = 100;

/** What the lobby shows of a game as of `now` (the store's clock): public facts only. */
export function lobbyEntry(g: LiveGame, now = Date.now()) {
  return {
    id: g.id,
    players: g.seats.length,
    seats: g.seats.map((who, seat) => ({ seat, who: who === 'remote' ? 'person' : who, open: g.open.has(seat), name: g.names[seat], presence: presenceOf(g, seat, now) })),
    turn: new SeatChannel(g.env, null).view().turn,
    seed: shownCommitment(g.seed),
    ageSec: Math.round((now - g.created) / 1000),
  };
}

/** The preview for the seat to act (the seat channel's: from the seat's facts alone), empty at any other decision; with `only`, of that action alone. */
export function preview(game: LiveGame, seat: number, only?: number) {
  const p = new SeatChannel(game.env, seat).preview(game.names, only);
  return { step: game.env.actions.length, now: p?.now ?? null, actions: p?.actions ?? [] };
}
