/**
 * What the server is, fixed when it starts: that it serves (GET /healthz), the bots it offers
 * (GET /v1/bots) and the rules it plays (GET /v1/ruleset). No token; every answer is made from
 * figures worked out once, here.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  ACTION_GROUPS, ACTION_SPACE_VERSION, CARD_IDS, cardKind, cardName, cardShortTexts, cardTexts, CLOSING_TIME, glossary, rulesetFingerprint,
} from '../../env/index.ts';
import * as S from '../schemas.ts';
import type { ServerContext } from './context.ts';

export const aboutRoutes: FastifyPluginAsyncZod<Pick<ServerContext, 'catalogue' | 'ruleset'>> = async (app, { catalogue, ruleset }) => {
  const rulesetId = { name: ruleset.name, fingerprint: rulesetFingerprint(ruleset) };
  const started = Date.now();

  app.get('/healthz', {
    schema: { operationId: 'getHealth', summary: 'Whether the server serves, and the rules it plays', tags: ['server'], security: S.NO_TOKEN, response: { 200: S.health, ...S.errors() } },
    config: { rateLimit: false },
  }, async () => ({ status: 'ok' as const, uptimeSec: Math.round((Date.now() - started) / 1000), ruleset: rulesetId }));

  // The catalogue is fixed when the server starts: its listing is made (and checked) once.
  const botListing = JSON.stringify(S.botList.parse({ bots: catalogue.list() }));
  app.get('/v1/bots', {
    schema: { operationId: 'listBots', summary: 'The bots that can fill a seat, with the options a client may set', tags: ['bots'], security: S.NO_TOKEN, response: { 200: S.botList, ...S.errors(429) } },
  }, async (_req, reply) =>
    // A string body goes out as it is (fastify serializes only objects); the type provider expects the object.
    reply.type('application/json; charset=utf-8').send(botListing as unknown as z.infer<typeof S.botList>));

  const texts = cardTexts(ruleset);
  const faces = cardShortTexts(ruleset);
  const { min, max } = ruleset.players;
  app.get('/v1/ruleset', {
    schema: { operationId: 'getRuleset', summary: "The rules' numbers, the cards' names and texts, and a glossary", tags: ['server'], security: S.NO_TOKEN, response: { 200: S.rulesetAnswer, ...S.errors(429) } },
  }, async () => ({
    ruleset: ruleset as unknown as Record<string, unknown>,
    fingerprint: rulesetId.fingerprint,
    cards: CARD_IDS.map((id, type) => ({ id, type, name: cardName(type), kind: cardKind(type), text: texts[id], short: faces[id] })),
    closingTime: { name: cardName(CLOSING_TIME), text: texts.closing_time, short: faces.closing_time },
    glossary: glossary(ruleset),
    players: { min, max },
    actionSpaceVersion: ACTION_SPACE_VERSION,
    actionGroups: [...ACTION_GROUPS],
  }));
};
