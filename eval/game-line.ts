/**
 * One line of a tournament's games.jsonl: a finished game's record (game.ts) with its seating's
 * agent names, and what makes it a replay with nothing else at hand: the ruleset's fingerprint,
 * askForced and every action. Written here and read back here, so the two cannot drift apart.
 *
 *   {"index":3,"deal":0,"seed":"1/0","seating":[1,2,3,0],"scores":[...],...,
 *    "agents":["greedy","cautious","heuristic","random"],"askForced":false,"ruleset":"3f2a…","actions":[12,0,…]}
 *
 * `agents[seat]` names who played that seat; `index` is the game's place in the schedule (the
 * file is in the order games finished, not by index).
 */
import { z } from 'zod';
import { NUM_ACTIONS } from '../env/index.ts';
import type { ReplayRecord } from './replay-record.ts';
import type { GameResult } from './summary.ts';

/** A line's JSON for a finished game: `names` by entry, the tournament's askForced and ruleset fingerprint. */
export function gameLine(r: GameResult, names: readonly string[], askForced: boolean, ruleset: string): string {
  // The actions last: the figures a person reads stay at the front of the line.
  const { actions, ...rest } = r;
  return JSON.stringify({ ...rest, agents: r.seating.map((e) => names[e]), askForced, ruleset, actions });
}

const LINE = z.object({
  index: z.number().int().min(0),
  seed: z.string().min(1),
  seating: z.array(z.number().int().min(0)).min(2).max(6),
  agents: z.array(z.string()),
  scores: z.array(z.number()),
  askForced: z.boolean(),
  ruleset: z.string().regex(/^[0-9a-f]{1,64}$/),
  actions: z.array(z.number().int().min(0).max(NUM_ACTIONS - 1)),
}).refine((l) => l.agents.length === l.seating.length && l.scores.length === l.seating.length, 'seating, agents and scores differ in length');

export type GameLine = z.infer<typeof LINE>;

/**
 * An object read from a file written before `askAll` was named `askForced` (5 Dec 2026), with the
 * key under its new name: old run folders still report, resume and replay. Anything else is returned as it is.
 */
export function withRenamedKeys(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || !('askAll' in raw) || 'askForced' in raw) return raw;
  const { askAll, ...rest } = raw as Record<string, unknown>;
  return { ...rest, askForced: askAll };
}

export class GameLineError extends Error {
  override name = 'GameLineError';
}

/** A games.jsonl line read back; throws GameLineError saying in one sentence what is wrong. */
export function parseGameLine(text: string): GameLine {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new GameLineError(`not JSON (${(e as Error).message.split('\n')[0]})`);
  }
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw) && !('actions' in raw)) {
    throw new GameLineError('it has no actions: written before games.jsonl recorded them, so it cannot be replayed');
  }
  const parsed = LINE.safeParse(withRenamedKeys(raw));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new GameLineError(`not a game record: ${issue.path.length > 0 ? `'${issue.path.join('.')}' ` : ''}${issue.message}`);
  }
  return parsed.data;
}

/** The replay of a line's game. */
export function replayRecordOfLine(l: GameLine): ReplayRecord {
  return { players: l.seating.length, seed: l.seed, askForced: l.askForced, ruleset: l.ruleset, actions: l.actions };
}
