/**
 * A game made and played: POST /v1/games seats bots, remote players and open seats and hands
 * out the seat tokens; a token reads its seat's state (GET view) and plays (POST actions), the
 * bots then playing on (games.ts). Both answers are the seat channel's (seat-state.ts).
 */
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { REWARD_SCHEMES } from '../../env/index.ts';
import { bearer } from '../bearer.ts';
import { displayName } from '../names.ts';
import * as S from '../schemas.ts';
import { seatState, stepParam } from '../seat-state.ts';
import { shownCommitment } from '../seed-commitment.ts';
import type { ServerContext } from './context.ts';
import { decimal, secretSeed, specString, tokenRoute } from './params.ts';

/** Aborted if the client closes its connection before its answer is sent: bots then stop playing for nobody (games.ts, botIdleMs). */
function clientGone(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort();
  });
  return gone.signal;
}

export const gameRoutes: FastifyPluginAsyncZod<Pick<ServerContext, 'store' | 'ruleset'>> = async (app, { store, ruleset }) => {
  const { min, max } = ruleset.players;
  app.post('/v1/games', {
    schema: {
      operationId: 'createGame', summary: 'A game: its seats filled by bots, remote players or the lobby; the seat tokens', tags: ['games'], security: S.NO_TOKEN,
      body: z.object({
        seats: z.array(specString).min(min).max(max).describe("Per seat: 'remote' for a seat played through the API (its token comes back here), 'open' for a seat anyone may take from the lobby (POST /v1/games/{id}/join), or a bot from GET /v1/bots."),
        seed: S.gameSeed.optional().describe("Deals the game. Without one, a random seed is drawn. Every game commits to its seed (`seed.commitment`, in every view and the lobby) and reveals it with the commitment's salt in the replay. Refused for a game with an 'open' seat; a table of 'remote' and bot seats may set one, and its views say so (`seed.chosen`)."),
        reward: z.enum(REWARD_SCHEMES).optional(),
        names: z.array(displayName.nullable()).max(max).optional().describe("Per seat, a display name for a 'remote' seat (null or absent: \"Player N\"); bots are called by their catalogue name, and whoever joins an open seat names themselves."),
      }).strict(),
      response: { 201: S.created, ...S.errors(400, 413, 429) },
    },
  }, async (req, reply) => {
    const chosen = req.body.seed !== undefined;
    const seed = chosen ? String(req.body.seed) : secretSeed();
    const { game, tokens } = await store.create({ seats: req.body.seats, names: req.body.names, seed, seedChosen: chosen, reward: req.body.reward ?? 'win', client: req.ip, signal: clientGone(reply) });
    return reply.code(201).send({ id: game.id, players: game.seats.length, seats: game.seats, names: game.names, tokens, watchToken: game.watchToken, seed: shownCommitment(game.seed) });
  });

  app.get('/v1/games/:id/view', {
    schema: {
      operationId: 'getView', summary: "The token's view: legal actions, whose turn, the last action's events", tags: ['games'],
      ...tokenRoute, querystring: z.object({ at: decimal.optional() }).strict(),
      response: { 200: S.seatState, ...S.errors(400, 401, 403, 404, 429) },
    },
  }, async (req) => {
    const game = store.get(req.params.id);
    const viewer = store.viewerOf(game, bearer(req));
    return seatState(game, viewer, stepParam(game, req.query.at), store.now());
  });

  app.post('/v1/games/:id/actions', {
    schema: {
      operationId: 'playAction', summary: "The token's seat plays an action; bot seats then play on", tags: ['games'],
      description: 'With `step`, the action answers the decision at that step only: if the game has moved on (an X card played in between asked the seat again), it is refused with 409 `code: decision-changed` and nothing is played, so a click meant for the decision before never lands on the one after.',
      ...tokenRoute,
      body: z.object({
        action: z.number().int().min(0),
        step: z.number().int().min(0).optional().describe('The step of the decision this action answers (GET view\'s `step`); refused with 409 if the game is at another.'),
      }).strict(),
      response: { 200: S.seatState, ...S.errors(400, 401, 403, 404, 409, 429) },
    },
  }, async (req, reply) => {
    const game = store.get(req.params.id);
    const seat = store.seatOf(game, bearer(req));
    await store.act(game, seat, req.body.action, clientGone(reply), req.body.step);
    return seatState(game, seat, undefined, store.now());
  });
};
