/**
 * What a game's file in the state dir may hold, checked line by line when the file is read
 * back: the server wrote it, but anyone who can write the folder can change it, and whatever
 * it holds becomes a live game every client's view is built from. So a file is parsed as
 * outside input is: every field of its type and within its bounds (the seed as a game's, names
 * by the one rule for names, token hashes as hashes, actions as action ids in order), the
 * fields that name seats consistent with the seats, and nothing after the game's end. A file
 * that is not all of that is refused as a whole, with the first fault named
 * (LogFormatError); what replaying the actions checks (each legal) is GameStore.restore's.
 *
 * The seats' auto-pass settings sit beside the log in a small file of their own
 * (`<id>.settings.json`), read and checked here too: game-log.ts says why they are apart.
 */
import { z } from 'zod';
import { MAX_PLAYERS, NUM_ACTIONS, REWARD_SCHEMES } from '../env/index.ts';
import { ASK_WINDOWS, X_WATCHABLE, type AskWindows, type Watchable } from './auto-pass.ts';
import { MAX_SPEC_LENGTH } from './catalogue.ts';
import { isKeptName } from './names.ts';
import { MAX_SEED } from './schemas.ts';

export const LOG_VERSION = 1;

/** Server-made game ids: 9 random bytes, base64url. */
export const GAME_ID = /^[A-Za-z0-9_-]{12}$/;

const hash = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 in hex');
const seat = z.number().int().min(0).max(MAX_PLAYERS - 1);
/** A client's address as the server keyed it (an IP address, or 'local'). */
const client = z.string().max(200);
const keptName = z.string().refine(isKeptName, 'not a name this server would keep (names.ts)');
const unwatched = z.array(z.enum(X_WATCHABLE)).max(X_WATCHABLE.length);
/** Which windows ask the seat; absent in files written before 5 Dec 2026, which asked at all. */
const windows = z.enum(ASK_WINDOWS).optional();
/** Why a bot's decision failed, as the game's clients read it (GameStore.faultReason's words). */
const MAX_REASON = 2000;

const head = z.strictObject({
  t: z.literal('game'),
  v: z.literal(LOG_VERSION),
  id: z.string().regex(GAME_ID, 'a game id'),
  seed: z.string().max(MAX_SEED),
  salt: z.string().regex(/^[0-9a-f]{32}$/, 'a salt of 16 bytes in hex'),
  chosen: z.boolean(),
  /** Every seat asked at every decision (env option askForced): every game dealt since 5 Dec 2026; absent in older files, dealt without. */
  askForced: z.boolean().optional(),
  reward: z.enum(REWARD_SCHEMES),
  specs: z.array(z.string().min(1).max(MAX_SPEC_LENGTH)).min(2).max(MAX_PLAYERS),
  ruleset: z.string().regex(/^[0-9a-f]{1,64}$/, 'a ruleset fingerprint'),
  client,
  created: z.number().int().min(0),
  tokens: z.array(z.strictObject({ seat, hash })).max(MAX_PLAYERS),
  watch: hash,
  names: z.array(keptName.nullable()).max(MAX_PLAYERS).optional(),
});

const settingsLine = z.strictObject({ t: z.literal('settings'), seat, on: z.boolean(), unwatched, windows });

const record = z.discriminatedUnion('t', [
  z.strictObject({ t: z.literal('a'), k: z.number().int().min(0), a: z.number().int().min(0).max(NUM_ACTIONS - 1), end: z.literal(true).optional() }),
  z.strictObject({ t: z.literal('join'), seat, hash, client, name: keptName.optional() }),
  z.strictObject({ t: z.literal('fault'), step: z.number().int().min(0), seat, reason: z.string().max(MAX_REASON) }),
  // Written by servers before the settings file: read, the last one of each seat standing.
  settingsLine,
]);

/** The settings file: each seat whose person changed their auto-pass, as they last set it. */
const settingsFile = z.strictObject({
  v: z.literal(LOG_VERSION),
  seats: z.array(z.strictObject({ seat, on: z.boolean(), unwatched, windows })).max(MAX_PLAYERS),
});

export type GameHead = z.infer<typeof head>;
export type SeatSettings = { seat: number; on: boolean; unwatched: Watchable[]; windows: AskWindows };
export type LogLine = GameHead | z.infer<typeof record>;
export type SettingsFile = z.infer<typeof settingsFile>;

/** A game as its file tells it, checked for shape (the actions are checked by replaying them). */
export interface LoggedGame {
  head: GameHead;
  actions: number[];
  /** The last action ended the game (the file says so: `"end":true`); restoring it asks no bot again. */
  ended: boolean;
  joins: { seat: number; hash: string; client: string; name?: string }[];
  faults: { step: number; seat: number; reason: string }[];
  /** Each seat's auto-pass as last set, one entry per seat at most. */
  settings: SeatSettings[];
}

export class LogFormatError extends Error {
  override name = 'LogFormatError';
}

/** The first issue of a failed parse in one line: where, and what. */
function issueText(where: string, error: z.ZodError): string {
  const issue = error.issues[0];
  return `${where}: ${issue.path.length > 0 ? `'${issue.path.join('.')}' ` : ''}${issue.message}`;
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new LogFormatError(`${where} is not JSON`);
  }
}

/**
 * Reads a game's file and, when it has one, its settings file: every whole line (ending in a
 * newline); a last line without one is a write cut short by a crash and is ignored. Throws
 * LogFormatError naming the first line and field that is wrong.
 */
export function parseGameLog(text: string, settingsJson?: string): LoggedGame {
  const lines = text.split('\n');
  lines.pop(); // '' after the last newline, or the partial line a crash left
  if (lines.length === 0) throw new LogFormatError('no whole line');
  const first = head.safeParse(parseJson(lines[0], 'line 1'));
  if (!first.success) throw new LogFormatError(issueText('line 1, the game', first.error));
  const h = first.data;
  const players = h.specs.length;
  const game: LoggedGame = { head: h, actions: [], ended: false, joins: [], faults: [], settings: [] };
  const fault = (where: string, what: string) => new LogFormatError(`${where}: ${what}`);
  const inGame = (where: string, s: number, what: string) => {
    if (s >= players) throw fault(where, `${what} ${s}: the game has ${players} seats`);
  };
  const person = (where: string, s: number, what: string) => {
    inGame(where, s, what);
    if (h.specs[s] !== 'remote' && h.specs[s] !== 'open') throw fault(where, `${what} ${s} is a bot's`);
  };
  const tokenSeats = new Set<number>();
  for (const t of h.tokens) {
    inGame('line 1', t.seat, 'token seat');
    if (h.specs[t.seat] !== 'remote' || tokenSeats.has(t.seat)) throw fault('line 1', `token seat ${t.seat} is not a 'remote' seat of its own`);
    tokenSeats.add(t.seat);
  }
  h.names?.forEach((name, s) => {
    if (name === null) return;
    inGame('line 1', s, 'names: seat');
    if (h.specs[s] !== 'remote') throw fault('line 1', `names: seat ${s} is not a 'remote' seat`);
  });
  const settings = new Map<number, SeatSettings>();
  for (let i = 1; i < lines.length; i++) {
    const where = `line ${i + 1}`;
    if (game.ended) throw fault(where, 'a record after the end of the game');
    const parsed = record.safeParse(parseJson(lines[i], where));
    if (!parsed.success) throw new LogFormatError(issueText(where, parsed.error));
    const r = parsed.data;
    if (r.t === 'a') {
      if (r.k !== game.actions.length) throw fault(where, `action ${r.k} where action ${game.actions.length} comes next`);
      game.actions.push(r.a);
      game.ended = r.end === true;
    } else if (r.t === 'join') {
      inGame(where, r.seat, 'join: seat');
      if (h.specs[r.seat] !== 'open' || game.joins.some((j) => j.seat === r.seat)) throw fault(where, `join: seat ${r.seat} is not an open seat nobody took`);
      game.joins.push({ seat: r.seat, hash: r.hash, client: r.client, ...(r.name !== undefined ? { name: r.name } : {}) });
    } else if (r.t === 'fault') {
      inGame(where, r.seat, 'fault: seat');
      if (r.step !== game.actions.length) throw fault(where, `a fault at step ${r.step} written at step ${game.actions.length}`);
      game.faults.push({ step: r.step, seat: r.seat, reason: r.reason });
    } else {
      person(where, r.seat, 'settings: seat');
      settings.set(r.seat, { seat: r.seat, on: r.on, unwatched: r.unwatched, windows: r.windows ?? 'all' });
    }
  }
  if (settingsJson !== undefined) {
    const where = 'the settings file';
    const file = settingsFile.safeParse(parseJson(settingsJson, where));
    if (!file.success) throw new LogFormatError(issueText(where, file.error));
    const seen = new Set<number>();
    for (const s of file.data.seats) {
      person(where, s.seat, 'seat');
      if (seen.has(s.seat)) throw fault(where, `seat ${s.seat} twice`);
      seen.add(s.seat);
      settings.set(s.seat, { seat: s.seat, on: s.on, unwatched: s.unwatched, windows: s.windows ?? 'all' });
    }
  }
  game.settings = [...settings.values()].sort((a, b) => a.seat - b.seat);
  return game;
}

/** The settings file's text for `seats` (what parseGameLog reads back). */
export const settingsText = (seats: readonly SeatSettings[]): string =>
  `${JSON.stringify({ v: LOG_VERSION, seats: seats.map((s) => ({ seat: s.seat, on: s.on, unwatched: s.unwatched, windows: s.windows })) } satisfies SettingsFile)}\n`;
