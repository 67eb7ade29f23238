/**
 * Help for the seat to act, with its token: what each legal choice would do (GET preview, the
 * seat channel's, tables.ts) and what the Strong bot would play there and why (GET hint,
 * hint.ts). Both are worked out from the seat's facts alone.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bearer } from '../bearer.ts';
import { hintAnswer, hintForToken, Hints } from '../hint.ts';
import * as S from '../schemas.ts';
import { preview } from '../tables.ts';
import type { ServerContext } from './context.ts';
import { idParams } from './params.ts';

export const adviceRoutes: FastifyPluginAsyncZod<Pick<ServerContext, 'store' | 'catalogue'>> = async (app, { store, catalogue }) => {
  app.get('/v1/games/:id/preview', {
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

  const hints = new Hints(catalogue, { turns: store.turns, warn: (line) => app.log.warn(line) });
  app.get('/v1/games/:id/hint', {
    schema: {
      operationId: 'getHint', summary: 'For the seat to act: what the Strong bot would play, how sure it is, and why', tags: ['games'],
      security: S.SEAT_TOKEN, params: idParams,
      description: "For the seat to act: the action the Strong bot (catalogue entry `ppo`) would play there, with its probability under the bot's policy and the two next most likely actions with theirs, and that action's entry of GET preview (the same object), which says what it would do. The bot is told what a bot in that seat would be, from the seat's facts alone (never the game's seed: its own is made from the game's id and the seat), and it plays along with the seat's earlier decisions as that bot would. Where Strong cannot advise, the heuristic (Regular) does, without probabilities, and `fallback` says why. A 409 (`code: not-seat-to-act`) at another seat's decision or once the game is over.",
      response: { 200: hintAnswer, ...S.errors(401, 403, 404, 409, 429) },
    },
  }, async (req) => hintForToken(store, hints, req.params.id, bearer(req), req.ip));
};
