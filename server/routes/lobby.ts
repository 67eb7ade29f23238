/**
 * The lobby: games in progress with a seat open to anyone (GET /v1/games), public facts only
 * (tables.ts's lobbyEntry), and taking one of those seats (POST join), its token handed out once.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { displayName } from '../names.ts';
import * as S from '../schemas.ts';
import { shownCommitment } from '../seed-commitment.ts';
import { LOBBY_LISTED, lobbyEntry } from '../tables.ts';
import type { ServerContext } from './context.ts';
import { idParams } from './params.ts';

export const lobbyRoutes: FastifyPluginAsyncZod<Pick<ServerContext, 'store'>> = async (app, { store }) => {
  app.get('/v1/games', {
    schema: {
      operationId: 'listOpenGames', summary: 'The lobby: games in progress with a seat open to anyone', tags: ['games'], security: S.NO_TOKEN,
      description: 'The lobby: games in progress with a seat open to anyone (created with an `open` seat), newest first. Public facts only.',
      response: { 200: S.lobbyAnswer, ...S.errors(429) },
    },
  }, async () => {
    const now = store.now();
    return { games: store.lobby().slice(0, LOBBY_LISTED).map((g) => lobbyEntry(g, now)) };
  });

  app.post('/v1/games/:id/join', {
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
};
