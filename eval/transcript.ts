/**
 * A run's model transcript (DIR/transcript.jsonl) read back and paired with the moves of its
 * games. A line is one model call:
 *
 *   {"agent":"llm:m:…","game":"<agentSeed(game seed, seat)>","seat":2,"decision":0,"attempt":0,
 *    "answer":"…","reasoning":"…","finish":"stop","latencyMs":812,"tokens":…,"action":17,"words":"play …"}
 *
 * `agent` is the spec as in run.json's config.agents, `game` the seed the agent was reset with,
 * `decision` the index of the seat's decisions sent to the model in that game (only those
 * with more than one legal action are sent); the line whose answer was played carries
 * `action` and `words`, and a decision that fell back has a line with `fallback: true`.
 *
 * A game's model decisions are found by replaying its actions; a transcript's decision is
 * paired with a move only when the action it played is the move's. A game dropped at a stop and
 * played again on resume has the same seeds, so a seat's lines are cut into attempts at the
 * game (where the decision index starts again) and the last attempt that matches is taken.
 */
import { z } from 'zod';
import { agentSeed } from '../agents/index.ts';
import { CzechPubEnv, DEFAULT_MAX_DECISIONS, describeAction, type Ruleset } from '../env/index.ts';

export const TRANSCRIPT_FILE = 'transcript.jsonl';

const LINE = z.object({
  agent: z.string(),
  game: z.string(),
  seat: z.number().int().min(0),
  decision: z.number().int().min(0),
  attempt: z.number().int().min(0).optional(),
  answer: z.string().optional(),
  reasoning: z.string().optional(),
  finish: z.string().optional(),
  latencyMs: z.number().optional(),
  tokens: z.unknown().optional(),
  action: z.number().int().optional(),
  words: z.string().optional(),
  fallback: z.boolean().optional(),
  cause: z.string().optional(),
});

export type TranscriptLine = z.infer<typeof LINE>;

/** The lines of a transcript, by (agent, game, seat), in file order; lines that are not of the format are counted. */
export interface Transcript {
  bySeat: Map<string, TranscriptLine[]>;
  unreadable: number;
}

const key = (agent: string, game: string, seat: number) => `${agent}\u0000${game}\u0000${seat}`;

export function parseTranscript(text: string): Transcript {
  const bySeat = new Map<string, TranscriptLine[]>();
  let unreadable = 0;
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    let parsed: ReturnType<typeof LINE.safeParse>;
    try {
      const json = JSON.parse(raw) as Record<string, unknown> | null;
      // A request's ledger line, written before it was sent (agents/llm/ledger.ts): its outcome has its own line.
      if (json !== null && typeof json === 'object' && 'sent' in json) continue;
      parsed = LINE.safeParse(json);
    } catch {
      unreadable++;
      continue;
    }
    if (!parsed.success) {
      unreadable++;
      continue;
    }
    const l = parsed.data;
    const k = key(l.agent, l.game, l.seat);
    bySeat.set(k, [...(bySeat.get(k) ?? []), l]);
  }
  return { bySeat, unreadable };
}

/** A decision of a model's seat in the game, with the transcript lines of it. */
export interface ModelMove {
  decision: number;
  /** Index of the action in the game's actions. */
  step: number;
  action: number;
  words: string;
  lines: TranscriptLine[];
}

/** A seat's moves paired with its transcript, or (on a mismatch) its lines unpaired and why. */
export interface SeatMoves {
  seat: number;
  agent: string;
  moves: ModelMove[];
  /** Set when the lines could not be paired with the moves: then `moves` carry no lines. */
  mismatch: string | null;
  unpaired: TranscriptLine[];
}

export interface GameToPair {
  seed: string;
  seating: readonly number[];
  actions: readonly number[];
}

/** The lines of one seat cut into attempts at the game: a new one where the decision index goes back. */
function attempts(lines: readonly TranscriptLine[]): TranscriptLine[][] {
  const out: TranscriptLine[][] = [];
  let prev: TranscriptLine | undefined;
  for (const l of lines) {
    const again = prev === undefined || l.decision < prev.decision || (l.decision === prev.decision && prev.action !== undefined);
    if (again) out.push([]);
    out[out.length - 1].push(l);
    prev = l;
  }
  return out;
}

/** Why the lines do not pair with the moves, or null when they do. */
function mismatchOf(lines: readonly TranscriptLine[], moves: readonly ModelMove[]): string | null {
  const played = new Map<number, number>();
  for (const l of lines) if (l.action !== undefined) played.set(l.decision, l.action);
  const decisions = new Set(lines.map((l) => l.decision));
  if (decisions.size !== moves.length) return `the transcript has ${decisions.size} decision${decisions.size === 1 ? '' : 's'} of this seat, the game ${moves.length}`;
  for (const d of [...decisions].sort((x, y) => x - y)) {
    const m = moves[d];
    if (!m) return `the transcript's decision ${d} is not in the game (${moves.length} decisions)`;
    const a = played.get(d);
    if (a === undefined) return `the transcript's decision ${d} has no line saying what was played`;
    if (a !== m.action) return `the transcript's decision ${d} played action ${a}, the game's move there is ${m.action}`;
  }
  return null;
}

/** The model seats' moves of a game (seats whose agent has lines in the transcript), paired with its lines. */
export function pairTranscript(game: GameToPair, agents: readonly string[], transcript: Transcript, ruleset: Ruleset, askForced: boolean): SeatMoves[] {
  const players = game.seating.length;
  const seats = game.seating
    .map((entry, seat) => ({ seat, agent: agents[entry], lines: transcript.bySeat.get(key(agents[entry], agentSeed(game.seed, seat), seat)) ?? [] }))
    .filter((s) => s.lines.length > 0);
  if (seats.length === 0) return [];
  const moves = new Map<number, ModelMove[]>(seats.map((s) => [s.seat, []]));
  const env = new CzechPubEnv({ seed: game.seed, players, ruleset, askForced, maxDecisions: Math.max(DEFAULT_MAX_DECISIONS, game.actions.length) });
  game.actions.forEach((action, step) => {
    const seat = env.actor;
    const mine = moves.get(seat);
    if (mine && env.legalActions().length > 1) mine.push({ decision: mine.length, step, action, words: describeAction(action, seat, players), lines: [] });
    env.step(action);
  });
  return seats.map(({ seat, agent, lines }) => {
    const mine = moves.get(seat)!;
    const tries = attempts(lines);
    const fits = [...tries].reverse().find((t) => mismatchOf(t, mine) === null);
    if (fits === undefined) {
      const last = tries[tries.length - 1];
      return { seat, agent, moves: mine, mismatch: mismatchOf(last, mine), unpaired: last };
    }
    for (const l of fits) mine[l.decision].lines.push(l);
    return { seat, agent, moves: mine, mismatch: null, unpaired: [] };
  });
}
