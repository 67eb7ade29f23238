/**
 * A person's settings for their seat, with the seat's token: auto-pass (auto-pass.ts), on by
 * default, the X cards they do not watch for, and which windows ask them. Bots have none; the watch token may not
 * read or change a seat's.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ASK_WINDOWS, X_WATCHABLE, type AutoPass } from '../auto-pass.ts';
import { bearer } from '../bearer.ts';
import * as S from '../schemas.ts';
import type { ServerContext } from './context.ts';
import { idParams } from './params.ts';

const unwatched = z.array(z.enum(X_WATCHABLE)).max(X_WATCHABLE.length)
  .describe('X cards the seat is not asked about: auto-pass passes even when the seat could play one. Default: none (every X card is watched for).');

const windows = z.enum(ASK_WINDOWS);

export const seatSettings = z.object({
  autoPass: z.boolean().describe('Pass for the seat when every legal action but pass is an X card it does not watch for (with none unwatched: when pass is its only legal action). On by default.'),
  unwatched,
  windows: windows.describe("The reaction windows the seat is asked at: 'all' where it could play a watched X card (the default); 'answering' only where one answers the card just played (knocks over, swaps or warms that order, pours that shot or into that beer), as the web page sets for people."),
});

/** The settings as the API words them. */
const answer = (s: AutoPass): z.infer<typeof seatSettings> => ({ autoPass: s.on, unwatched: s.unwatched, windows: s.windows });

export const settingsRoutes: FastifyPluginAsyncZod<Pick<ServerContext, 'store'>> = async (app, { store }) => {
  app.get('/v1/games/:id/settings', {
    schema: {
      operationId: 'getSettings', summary: "The token's seat's settings: auto-pass", tags: ['games'], security: S.SEAT_TOKEN, params: idParams,
      response: { 200: seatSettings, ...S.errors(401, 403, 404, 409, 429) },
    },
  }, async (req) => {
    const game = store.get(req.params.id);
    return answer(store.autoPassOf(game, store.seatOf(game, bearer(req))));
  });

  app.put('/v1/games/:id/settings', {
    schema: {
      operationId: 'putSettings', summary: "Changes the token's seat's settings; auto-pass then passes if it now applies", tags: ['games'], security: S.SEAT_TOKEN, params: idParams,
      description: 'Fields left out keep their values. If the seat is deciding and auto-pass now passes for it, it does at once, and the bots play on.',
      body: z.object({ autoPass: z.boolean().optional(), unwatched: unwatched.optional(), windows: windows.optional() }).strict(),
      response: { 200: seatSettings, ...S.errors(400, 401, 403, 404, 409, 429) },
    },
  }, async (req) => {
    const game = store.get(req.params.id);
    const seat = store.seatOf(game, bearer(req));
    return answer(await store.setAutoPass(game, seat, { on: req.body.autoPass, unwatched: req.body.unwatched, windows: req.body.windows }));
  });
};
