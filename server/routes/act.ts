/**
 * A bot asked about a posted view (POST /v1/bots/:spec/act): stateless serving for clients that
 * hold their own game. The view is checked field by field against the server's ruleset
 * (view-schema.ts) and encoded here, so a view from any seat route is enough for any bot that
 * can answer one; bots that need a game held on the server are refused.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BudgetSpentError, type Agent } from '../../agents/index.ts';
import { compileRuleset, describeAction, NUM_ACTIONS, OBS_SIZE } from '../../env/index.ts';
import { PostedObservation } from '../bot-obs.ts';
import { BotSpecError } from '../catalogue.ts';
import { ApiError } from '../games.ts';
import { LruMap } from '../lru.ts';
import * as S from '../schemas.ts';
import { parsePostedView } from '../view-schema.ts';
import type { ServerContext } from './context.ts';
import { specString } from './params.ts';

const actBody = z.object({
  view: z.unknown().describe("A seat's view as GET /v1/games/{id}/view gives it (PlayerView); checked field by field."),
  legalActions: z.array(z.number().int().min(0).max(NUM_ACTIONS - 1)).min(1).max(NUM_ACTIONS),
  encoding: z.array(z.number()).length(OBS_SIZE).optional()
    .describe('Ignored: the server encodes the posted view itself, so any bot (ppo included) needs only the view. Accepted so that older clients sending it keep working.'),
  game: z.string().max(64).optional()
    .describe("An opaque name for the game this decision belongs to (what an `http:` agent sends): bots that draw at random are seeded from it, so one game's decisions share a stream."),
  seed: z.string().max(200).optional().describe('Older clients\' name for `game`.'),
}).strict();

export const actRoutes: FastifyPluginAsyncZod<Pick<ServerContext, 'catalogue' | 'ruleset' | 'outside' | 'limits'>> = async (app, { catalogue, ruleset, outside, limits }) => {
  // Bot instances, one per label (entry and options), least recently used dropped first.
  const served = new LruMap<string, Agent>(limits.servedCache);
  // A posted view is encoded here, under the server's ruleset, for the bots that read encodings.
  const actRules = compileRuleset(ruleset);
  app.post('/v1/bots/:spec/act', {
    schema: {
      operationId: 'askBot', summary: "A bot's action for a posted view and its legal actions (stateless)", tags: ['bots'], security: S.NO_TOKEN,
      params: z.object({ spec: specString }),
      body: actBody,
      response: { 200: S.actAnswer, ...S.errors(400, 404, 413, 429) },
    },
    // The answer is built right here from checked values: documented by its schema, not re-validated on the hot path.
    serializerCompiler: () => (data) => JSON.stringify(data),
  }, async (req) => {
    let choice;
    try {
      choice = catalogue.resolve(req.params.spec);
    } catch (e) {
      if (e instanceof BotSpecError) throw new ApiError(e.unknown ? 404 : 400, e.message);
      throw e;
    }
    if (choice.entry.needs || choice.entry.heavy) {
      throw new ApiError(400, `bot '${choice.entry.name}' cannot answer a posted view (it ${choice.entry.needs === 'history' ? 'reads the game\'s history' : 'searches copies of a game held on the server'}); seat it at a game (POST /v1/games)`);
    }
    const posted = parsePostedView(req.body.view, ruleset);
    if (!posted.ok) throw new ApiError(400, posted.error);
    const view = posted.view;
    const make = () => {
      try {
        return catalogue.create(choice);
      } catch (e) {
        throw new ApiError(400, (e as Error).message);
      }
    };
    // A bot that calls out is made per request, holding this client's budget.
    const bot = choice.entry.budget ? make() : served.use(choice.label, make);
    if (choice.entry.budget) outside.attach(bot, choice.entry, req.ip);
    bot.reset?.({ seat: view.seat, players: view.players, seed: req.body.game ?? req.body.seed ?? 'served' });
    const legal = [...new Set(req.body.legalActions)].sort((a, b) => a - b);
    let action: number;
    try {
      action = await bot.act(new PostedObservation(view, legal, actRules));
    } catch (e) {
      if (e instanceof ApiError) throw e;
      if (e instanceof BudgetSpentError) throw new ApiError(429, e.message);
      throw new ApiError(400, 'the bot could not act on this view: the view and legalActions do not describe a position it can play');
    }
    if (!legal.includes(action)) {
      throw new ApiError(400, `the posted view and legalActions contradict each other: in this view the bot's move is ${action} (${describeAction(action, view.seat, view.players)}), which legalActions does not list`);
    }
    return { action, name: describeAction(action, view.seat, view.players) };
  });
};
