/**
 * A tournament's game opened in the page: the client sends its replay link or its record
 * (eval/replay-record.ts), the server replays it under its own ruleset with replayGame (every
 * action checked), and holds it as a finished game whose frames the existing replay routes
 * serve with the watch token. An r2 link carries its seats' labels, which name the seats as a
 * games.jsonl line's agents do. What a client sends is data only: never a path, a URL or code.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NUM_ACTIONS, type Ruleset } from '../env/index.ts';
import {
  decodeReplay, GameLineError, MAX_REPLAY_ACTIONS, parseGameLine, ReplayFormatError, replayGame, replayRecordOfLine, type ReplayRecord,
} from '../eval/index.ts';
import { ApiError, type GameStore } from './games.ts';
import * as S from './schemas.ts';

/** A link is one line of a few thousand characters at most (decodeReplay checks it exactly). */
const MAX_LINK = 14_000;
/** A games.jsonl line: its figures and up to MAX_REPLAY_ACTIONS actions of at most 4 characters each. */
const MAX_LINE = 4 * MAX_REPLAY_ACTIONS + 16_000;

const record = z.object({
  players: z.number().int().min(2).max(6),
  seed: z.string().min(1).max(200),
  askForced: z.boolean(),
  ruleset: z.string().regex(/^[0-9a-f]{1,64}$/, 'a ruleset fingerprint (hex digits)'),
  actions: z.array(z.number().int().min(0).max(NUM_ACTIONS - 1)).max(MAX_REPLAY_ACTIONS),
}).strict();

/** Names to show per seat (a tournament's agents): display text only, put on the page as text. */
const seatName = z.string().min(1).max(200).regex(/^[^\u0000-\u001f\u007f]+$/, 'a seat name has no control characters');
const seatNames = z.array(seatName).max(6);

export function replayRoutes(app: FastifyInstance, store: GameStore, ruleset: Ruleset): void {
  app.withTypeProvider<ZodTypeProvider>().post('/v1/replays', {
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
        r = replayRecordOfLine(line);
        names = line.agents.map((a, seat) => (seatName.safeParse(a).success ? a : `seat ${seat}`));
      } else {
        r = 'link' in body ? decodeReplay(body.link) : body.record;
        // Names sent beside the link win over the labels an r2 link carries (decodeReplay checked them).
        names = body.seats ?? r.seats;
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
}
