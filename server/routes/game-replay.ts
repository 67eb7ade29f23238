/**
 * A finished game's record, for any of its tokens (a finished game has no secrets left): its
 * seed, seats and every action (GET replay), and each step with every seat's view and the choice
 * made there (GET replay/:step), which is also how a replay opened by POST /v1/replays is shown.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { RevealedGame } from '../../env/index.ts';
import { bearer } from '../bearer.ts';
import { ApiError, envAt, stepEvents, type GameStore, type LiveGame } from '../games.ts';
import * as S from '../schemas.ts';
import { played } from '../seat-state.ts';
import type { ServerContext } from './context.ts';
import { decimal, idParams, tokenRoute } from './params.ts';

/** A game any of whose tokens is shown, once it is over. */
function finishedGame(store: GameStore, id: string, token: string | undefined): LiveGame {
  const game = store.get(id);
  store.viewerOf(game, token);
  if (!game.env.done) throw new ApiError(409, 'the replay is available once the game is over');
  return game;
}

export const gameReplayRoutes: FastifyPluginAsyncZod<Pick<ServerContext, 'store'>> = async (app, { store }) => {
  app.get('/v1/games/:id/replay', {
    schema: {
      operationId: 'getReplay', summary: 'A finished game: its seed, seats and every action', tags: ['replays'],
      ...tokenRoute, response: { 200: S.replayAnswer, ...S.errors(401, 403, 404, 409, 429) },
    },
  }, async (req) => {
    const game = finishedGame(store, req.params.id, bearer(req));
    const c = game.env.config;
    return { seed: c.seed, salt: game.seed.salt, seedCommitment: game.seed.commitment, seedChosen: game.seed.chosen, players: c.players, seats: game.seats, reward: c.reward, askForced: c.askForced, actions: [...game.env.actions], scores: game.env.scores(), faults: game.faults };
  });

  app.get('/v1/games/:id/replay/:step', {
    schema: {
      operationId: 'getReplayFrame', summary: "A finished game's step: every seat's view and the choice made", tags: ['replays'],
      security: S.SEAT_TOKEN, params: idParams.extend({ step: decimal }),
      response: { 200: S.replayFrame, ...S.errors(400, 401, 403, 404, 409, 429) },
    },
  }, async (req) => {
    const game = finishedGame(store, req.params.id, bearer(req));
    const steps = game.env.actions.length;
    const k = req.params.step;
    if (k > steps) throw new ApiError(404, `step ${k}: the game has steps 0 to ${steps}`);
    const env = envAt(game, k);
    const revealed = new RevealedGame(game.env, env);
    const views = revealed.views() as unknown as Record<string, unknown>[];
    return {
      step: k,
      steps,
      views,
      decision: views[0].decision as Record<string, unknown>,
      legalActions: revealed.legal(),
      next: k < steps ? played(game, k) : null,
      events: stepEvents(game, k, 'all'),
      scores: game.env.scores(),
    };
  });
};
