/**
 * What a token's seat saw of a game, three ways: its events from the N-th on (GET events), step
 * by step with the action of each, paged (GET history, history.ts), and live as Server-Sent
 * Events (GET stream, stream.ts). Every event is narrated from the seat's facts (games.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearer } from '../bearer.ts';
import { narratedEvents } from '../games.ts';
import { HISTORY_PAGE } from '../history.ts';
import * as S from '../schemas.ts';
import { stepParam } from '../seat-state.ts';
import { Streams } from '../stream.ts';
import type { ServerContext } from './context.ts';
import { decimal, tokenRoute } from './params.ts';

const sinceQuery = z.object({ since: decimal.optional() }).strict();

export const eventRoutes: FastifyPluginAsyncZod<Pick<ServerContext, 'store' | 'pages' | 'streams'>> = async (app, { store, pages, streams }) => {
  app.get('/v1/games/:id/events', {
    schema: {
      operationId: 'listEvents', summary: "What the token's seat saw, from its N-th event on", tags: ['games'],
      ...tokenRoute, querystring: sinceQuery,
      response: { 200: S.eventsAnswer, ...S.errors(400, 401, 403, 404, 429) },
    },
  }, async (req) => {
    const game = store.get(req.params.id);
    const viewer = store.viewerOf(game, bearer(req));
    const since = req.query.since ?? 0;
    return { events: narratedEvents(game, viewer, Math.min(since, game.env.eventCount)), next: game.env.eventCount, done: game.env.done };
  });

  app.get('/v1/games/:id/history', {
    schema: {
      operationId: 'getHistory', summary: "What the token's seat saw, step by step, from step K on (paged)", tags: ['games'],
      ...tokenRoute, querystring: z.object({ from: decimal.optional(), limit: decimal.optional() }).strict(),
      description: `Steps from \`from\` (default 0) on, at most \`limit\` (default and most ${HISTORY_PAGE}) of them: for each, the action that led to it and its events as the token's seat saw them (what a page that was there from the start has in its log). \`next\` is the step to ask from for the rest, null once there is none.`,
      response: { 200: S.historyAnswer, ...S.errors(400, 401, 403, 404, 429) },
    },
    // Built a slice at a time from checked values (history.ts): documented by its schema, not re-validated on the way out.
    serializerCompiler: () => (data) => JSON.stringify(data),
  }, async (req) => {
    const game = store.get(req.params.id);
    const viewer = store.viewerOf(game, bearer(req));
    return pages.page(game, viewer, stepParam(game, req.query.from ?? 0), req.query.limit ?? HISTORY_PAGE, req.ip);
  });

  app.get('/v1/games/:id/stream', {
    schema: {
      operationId: 'streamEvents', summary: "The token's events as Server-Sent Events, live", tags: ['games'],
      ...tokenRoute, querystring: sinceQuery,
      description: 'Server-Sent Events: each event\'s id is the seat\'s event count, so a reconnect with Last-Event-ID resumes; `step` (no id) when the game moved on without an event the seat sees, or a seat was joined; a comment line every heartbeat; ends with `end`, `gone` (the game is no longer held) or `closed` (its place went to another client\'s stream while all were taken: reconnect later).',
      response: { 200: { description: 'The event stream.', content: { 'text/event-stream': { schema: z.string() } } }, ...S.errors(400, 401, 403, 404, 429) },
    },
  }, async (req, reply) => {
    const game = store.get(req.params.id);
    const viewer = store.viewerOf(game, bearer(req));
    streams.serve(req, reply, game, viewer, Streams.cursor(req, req.query.since, game.env.eventCount));
  });
};
