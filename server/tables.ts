/**
 * Tables for people: the lobby (games with seats open to anyone), joining one of those seats,
 * and the move preview for the seat to act. The lobby says only what anyone at the table could
 * see: seats, who fills them, whether a seat is free, the turn; never a token, a hand or a seed.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SeatChannel } from '../env/index.ts';
import { bearer } from './bearer.ts';
import type { GameStore, LiveGame } from './games.ts';
import { displayName } from './names.ts';
import { presenceOf } from './presence.ts';
import { shownCommitment } from './seed-commitment.ts';
import * as S from './schemas.ts';

/** Lobby entries listed at most (the store holds at most maxOpenGames of them anyway). */
export const LOBBY_LISTED = 100;

/** What the lobby shows of a game: public facts only. */
export function lobbyEntry(g: LiveGame) {
  const now = Date.now();
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

export function tableRoutes(app: FastifyInstance, store: GameStore): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const idParams = z.object({ id: z.string().min(1).max(64) });

  typed.get('/v1/games', {
    schema: {
      operationId: 'listOpenGames', summary: 'The lobby: games in progress with a seat open to anyone', tags: ['games'], security: S.NO_TOKEN,
      description: 'The lobby: games in progress with a seat open to anyone (created with an `open` seat), newest first. Public facts only.',
      response: { 200: S.lobbyAnswer, ...S.errors(429) },
    },
  }, async () => ({ games: store.lobby().slice(0, LOBBY_LISTED).map(lobbyEntry) }));

  typed.post('/v1/games/:id/join', {
    schema: {
      operationId: 'joinGame', summary: "Takes an open seat of a lobby game: the seat's token", tags: ['games'], security: S.NO_TOKEN,
      params: idParams,
      body: z.object({
        seat: z.number().int().min(0).max(5).optional().describe('An open seat; default: the first open one.'),
        name: displayName.optional(),
      }).strict(),
      description: "Takes an open seat: its token, handed out once. Anyone may join a lobby game; that is what an open seat is for (a client holds at most maxJoinedSeatsPerClient such seats in games in progress: 429).",
      response: { 200: z.object({ seat: z.number().int(), token: z.string(), seed: S.seedShown }), ...S.errors(400, 404, 409, 429) },
    },
  }, async (req) => {
    const game = store.get(req.params.id);
    return { ...store.join(game, req.body.seat, req.ip, req.body.name), seed: shownCommitment(game.seed) };
  });

  typed.get('/v1/games/:id/preview', {
    schema: {
      operationId: 'getPreview', summary: 'For the seat to act: what each legal choice would do, and what digesting would give', tags: ['games'],
      security: S.SEAT_TOKEN, params: idParams,
      description: "For the seat to act, at any decision: what each legal choice would do at once (cards leaving and entering its hand, fronts and points changed), the seat's digestion it starts or that saying done right after would give, an X card's change to the digestion of the player it hits, and a `risk` when that digestion may waste the seat or throw it out; while it chooses what to play, also what digesting now would give. Worked out from what the seat may see and the die's faces (the engine's card code and digestion on the seat's facts, once per face, never the game's dice to come): what depends on hidden cards is left out (`certain: false`). At most one entry per legal action. Empty at another seat's decision.",
      response: { 200: S.previewAnswer, ...S.errors(401, 403, 404, 429) },
    },
  }, async (req) => {
    const game = store.get(req.params.id);
    return preview(game, store.seatOf(game, bearer(req)));
  });
}
