/**
 * A tournament's game opened in the page: the client sends its replay link or its record
 * (eval/replay-record.ts), the server replays it under its own ruleset with replayGame (every
 * action checked), and holds it as a finished game whose frames the existing replay routes
 * serve with the watch token. An r2 link carries its seats' labels, which name the seats as a
 * games.jsonl line's agents do. What a client sends is data only: never a path, a URL or code.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NUM_ACTIONS } from '../../env/index.ts';
import {
  decodeReplay, GameLineError, MAX_REPLAY_ACTIONS, MAX_SEAT_LABEL, parseGameLine, ReplayFormatError, replayGame, replayRecordOfLine, type ReplayRecord,
} from '../../eval/index.ts';
import { ApiError } from '../games.ts';
import { nameFault } from '../names.ts';
import * as S from '../schemas.ts';
import type { ServerContext } from './context.ts';

/** A link is one line of a few thousand characters at most (decodeReplay checks it exactly). */
const MAX_LINK = 14_000;
/** A games.jsonl line: its figures and up to MAX_REPLAY_ACTIONS actions of at most 4 characters each. */
const MAX_LINE = 4 * MAX_REPLAY_ACTIONS + 16_000;

const record = z.object({
  players: z.number().int().min(2).max(6),
  seed: z.string().min(1).max(S.MAX_SEED, `a seed is at most ${S.MAX_SEED} characters`),
  askForced: z.boolean(),
  ruleset: z.string().regex(/^[0-9a-f]{1,64}$/, 'a ruleset fingerprint (hex digits)'),
  actions: z.array(z.number().int().min(0).max(NUM_ACTIONS - 1)).max(MAX_REPLAY_ACTIONS),
}).strict();

/** Names to show per seat (a tournament's agents): display text only, put on the page as text, under the one rule for names (names.ts). */
const seatName = z.string().min(1).max(MAX_SEAT_LABEL).superRefine((s, ctx) => {
  const fault = nameFault(s);
  if (fault) ctx.addIssue({ code: 'custom', message: `a seat name: ${fault}` });
});
const seatNames = z.array(seatName).max(6);

/** A seat's label carried in a link or a line, or `seat N` where the rule for names refuses it (the label is a tournament's, not the request's own). */
const shownLabel = (label: string, seat: number): string => (seatName.safeParse(label).success ? label : `seat ${seat}`);

export const replayRoutes: FastifyPluginAsyncZod<Pick<ServerContext, 'store' | 'ruleset'>> = async (app, { store, ruleset }) => {
  app.post('/v1/replays', {
    schema: {
      operationId: 'openReplay', summary: "A tournament's game (link, line or record), replayed and held for its frames", tags: ['replays'], security: S.NO_TOKEN,
      description: "A finished game from its replay link (a report's `#replay=` part), a tournament's games.jsonl line as it is (its agents name the seats), or a record: replayed under this server's rules, every action checked, then served like any finished game's replay (GET /v1/games/{id}/replay/{step} with the watch token).",
      body: z.union([
        z.object({ link: z.string().min(1).max(MAX_LINK), seats: seatNames.optional() }).strict(),
        z.object({ line: z.string().min(1).max(MAX_LINE) }).strict(),
        z.object({ record, seats: seatNames.optional() }).strict(),
      ]),
      response: { 201: S.replayOpened, ...S.errors(400, 413, 422, 429) },
    },
  }, async (req, reply) => {
    const body = req.body;
    let r: ReplayRecord;
    let names: string[] | undefined;
    try {
      if ('line' in body) {
        // eval/game-line.ts reads the line: the format has one reader.
        const line = parseGameLine(body.line);
        // A record's and a link's seed are bounded where they are read; a line's here, by the same bound (a game held here has a game's seed).
        if (line.seed.length > S.MAX_SEED) throw new ApiError(400, `line: 'seed' is ${line.seed.length} characters; a game's seed is at most ${S.MAX_SEED}`);
        r = replayRecordOfLine(line);
        names = line.agents.map(shownLabel);
      } else {
        r = 'link' in body ? decodeReplay(body.link) : body.record;
        // Names sent beside the link win over the labels an r2 link carries.
        names = body.seats ?? r.seats?.map(shownLabel);
      }
    } catch (e) {
      if (e instanceof ReplayFormatError) throw new ApiError(400, `link: ${e.message}`);
      if (e instanceof GameLineError) throw new ApiError(400, `line: ${e.message}`);
      throw e;
    }
    if (r.actions.length > MAX_REPLAY_ACTIONS) throw new ApiError(400, `a replay has at most ${MAX_REPLAY_ACTIONS} actions`);
    if (names && names.length !== r.players) throw new ApiError(400, `seats: the game has ${r.players} players, ${names.length} names were sent`);
    const record = r;
    const seats = names ?? Array.from({ length: r.players }, () => 'tournament seat');
    let game;
    try {
      game = store.adopt((step) => replayGame(record, ruleset, step), seats, req.ip);
    } catch (e) {
      // Another ruleset, an illegal action, a record that stops early: the record is wrong, not the request's shape.
      if (e instanceof ReplayFormatError) throw new ApiError(422, e.message);
      throw e;
    }
    const env = game.env;
    return reply.code(201).send({ id: game.id, players: r.players, seats, watchToken: game.watchToken, steps: env.actions.length, scores: env.scores() });
  });
};
