/**
 * Tournaments of catalogue bots, run as background jobs on worker threads (jobs.ts): started
 * (POST), followed until done, then read for their summary and leaderboard (GET), stopped or
 * dropped (DELETE).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import * as S from '../schemas.ts';
import type { ServerContext } from './context.ts';
import { idParams, secretSeed, specString } from './params.ts';

export const tournamentRoutes: FastifyPluginAsyncZod<Pick<ServerContext, 'jobs' | 'limits' | 'ruleset'>> = async (app, { jobs, limits, ruleset }) => {
  const { min, max } = ruleset.players;
  app.post('/v1/tournaments', {
    schema: {
      operationId: 'startTournament', summary: 'A tournament of catalogue bots, run as a background job', tags: ['tournaments'], security: S.NO_TOKEN,
      body: z.object({
        agents: z.array(specString).min(min).max(max).describe('A bot from GET /v1/bots per seat (repeat one to field it twice).'),
        games: z.number().int().min(1).max(limits.maxJobGames),
        seed: S.gameSeed.optional().describe('Default: a random seed, reported in the summary.'),
        duplicate: z.boolean().optional(),
      }).strict(),
      response: { 202: S.jobAnswer, ...S.errors(400, 403, 413, 429) },
    },
  }, async (req, reply) => {
    const job = jobs.start({ agents: req.body.agents, games: req.body.games, seed: String(req.body.seed ?? secretSeed()), duplicate: req.body.duplicate, client: req.ip });
    return reply.code(202).send(jobs.report(job));
  });

  app.get('/v1/tournaments/:id', {
    schema: {
      operationId: 'getTournament', summary: "A tournament's progress; once ended, its summary", tags: ['tournaments'], security: S.NO_TOKEN,
      params: idParams, response: { 200: S.jobAnswer, ...S.errors(404, 429) },
    },
  }, async (req) => jobs.report(jobs.get(req.params.id)));

  app.delete('/v1/tournaments/:id', {
    schema: {
      operationId: 'stopTournament', summary: 'Stops a tournament, or drops a finished one', tags: ['tournaments'], security: S.NO_TOKEN,
      params: idParams, description: 'Stops a running tournament (its finished games are kept and summarised), or drops a finished one.',
      response: { 200: S.jobAnswer, ...S.errors(404, 429) },
    },
  }, async (req) => jobs.report(await jobs.cancel(req.params.id)));
};
