/**
 * The state dir: one append-only file per live game, so games survive a server restart. The
 * engine is deterministic, so a game's seed, reward, seats (the specs asked for), the HASHES
 * of its tokens (never a token) and its actions, one JSON line each as they happen, restore it
 * exactly: the server replays the actions at start (GameStore.restore).
 *
 *   {"t":"game","v":1,"id":…,"seed":…,"salt":…,"chosen":false,"askForced":true,"reward":"win","specs":["remote","greedy"],
 *    "ruleset":"<fingerprint>","client":"127.0.0.1","created":…,"tokens":[{"seat":0,"hash":…}],"watch":…}
 *   {"t":"a","k":0,"a":17}                      action k (a person's or a bot's)
 *   {"t":"join","seat":2,"hash":…,"client":…}   an open seat taken from the lobby
 *   {"t":"fault","step":9,"seat":1,"reason":…}  a bot decision that failed (its seat played legal[0])
 *   {"t":"settings","seat":0,"on":true,"unwatched":[…]}  a person's auto-pass, as they set it
 *
 * The head may carry `names` (the creator's people seats), a join the joiner's `name`.
 *
 * A crash mid-write leaves at most a last line without its newline: it is ignored, and every
 * line before it stands. Files are named by the game's id (made by the server, never by a
 * client); a game dropped (expired, or making room) loses its file; at start, files older
 * than stateMaxAgeMs, past stateMaxFileBytes, or beyond the stateMaxGames newest are removed.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { X_WATCHABLE, type Watchable } from './auto-pass.ts';

export const LOG_VERSION = 1;

/** SHA-256 (hex) of a token: what the state dir holds and what a presented token is compared by. */
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

export interface GameHead {
  t: 'game';
  v: number;
  id: string;
  seed: string;
  salt: string;
  chosen: boolean;
  /** Every seat asked at every decision (env option askForced): every game dealt since 5 Dec 2026; absent in older files, dealt without. */
  askForced?: boolean;
  reward: string;
  /** Per seat, what the creator asked for: 'remote', 'open' or a catalogue bot spec. */
  specs: string[];
  /** The ruleset's fingerprint: a game is restored only under the rules it was dealt under. */
  ruleset: string;
  client: string;
  created: number;
  /** Hashes of the tokens handed out at creation (remote seats). */
  tokens: { seat: number; hash: string }[];
  watch: string;
  /** Display names the creator gave its people seats, per seat (null: the default). */
  names?: (string | null)[];
}

export type LogLine =
  | GameHead
  | { t: 'a'; k: number; a: number }
  | { t: 'join'; seat: number; hash: string; client: string; name?: string }
  | { t: 'fault'; step: number; seat: number; reason: string }
  | { t: 'settings'; seat: number; on: boolean; unwatched: Watchable[] };

/** A game as its file tells it, checked for shape (the actions are checked by replaying them). */
export interface LoggedGame {
  head: GameHead;
  actions: number[];
  joins: { seat: number; hash: string; client: string; name?: string }[];
  faults: { step: number; seat: number; reason: string }[];
  /** Auto-pass settings as the seats changed them, in order. */
  settings: { seat: number; on: boolean; unwatched: Watchable[] }[];
}

export interface StateLimits {
  /** Games restored at start at most (the newest files first). */
  stateMaxGames: number;
  /** A file not written for this long is removed at start, not restored. */
  stateMaxAgeMs: number;
  /** A game whose file would pass this many bytes is no longer kept (its file is removed). */
  stateMaxFileBytes: number;
}

/** Server-made game ids: 9 random bytes, base64url. Nothing else in the dir is read. */
const FILE = /^([A-Za-z0-9_-]{12})\.jsonl$/;

export class LogFormatError extends Error {
  override name = 'LogFormatError';
}

/**
 * Reads a game's file: every whole line (ending in a newline); a last line without one is a
 * write cut short by a crash and is ignored. Throws LogFormatError for anything else amiss.
 */
export function parseGameLog(text: string): LoggedGame {
  const lines = text.split('\n');
  lines.pop(); // '' after the last newline, or the partial line a crash left
  if (lines.length === 0) throw new LogFormatError('no whole line');
  const records = lines.map((l, i) => {
    try {
      return JSON.parse(l) as LogLine;
    } catch {
      throw new LogFormatError(`line ${i + 1} is not JSON`);
    }
  });
  const head = records[0];
  if (head?.t !== 'game' || head.v !== LOG_VERSION || !Array.isArray(head.specs) || !Array.isArray(head.tokens)) throw new LogFormatError('the first line is not a game of this version');
  const game: LoggedGame = { head, actions: [], joins: [], faults: [], settings: [] };
  for (const [i, r] of records.slice(1).entries()) {
    if (r.t === 'a' && r.k === game.actions.length && Number.isInteger(r.a)) game.actions.push(r.a);
    else if (r.t === 'join' && Number.isInteger(r.seat) && typeof r.hash === 'string') game.joins.push(r);
    else if (r.t === 'fault') game.faults.push(r);
    else if (r.t === 'settings' && Number.isInteger(r.seat) && typeof r.on === 'boolean' && Array.isArray(r.unwatched) && r.unwatched.every((x) => (X_WATCHABLE as readonly string[]).includes(x))) game.settings.push(r);
    else throw new LogFormatError(`line ${i + 2} is not a record in order`);
  }
  return game;
}

/** The state dir of one server: appends as games change, lists what to restore at start. */
export class GameLog {
  private readonly bytes = new Map<string, number>();

  constructor(
    readonly dir: string,
    readonly limits: StateLimits,
    /** Told what the operator should know (a game not restored, one no longer kept). */
    private readonly notice: (line: string) => void = () => {},
    private readonly now: () => number = () => Date.now(),
  ) {
    fs.mkdirSync(dir, { recursive: true });
  }

  private file(id: string): string {
    return path.join(this.dir, `${id}.jsonl`);
  }

  /** Starts a game's file with its head. */
  begin(head: GameHead): void {
    this.bytes.set(head.id, 0);
    this.append(head.id, head, 'w');
  }

  /** Appends one record; a game past stateMaxFileBytes is no longer kept (a partial record would restore a wrong game). */
  append(id: string, line: LogLine, flag: 'a' | 'w' = 'a'): void {
    const used = this.bytes.get(id);
    if (used === undefined) return;
    const text = `${JSON.stringify(line)}\n`;
    const size = Buffer.byteLength(text);
    if (used + size > this.limits.stateMaxFileBytes) {
      this.notice(`game ${id} is no longer kept in the state dir: its file would pass ${this.limits.stateMaxFileBytes} bytes (stateMaxFileBytes)`);
      this.remove(id);
      return;
    }
    try {
      fs.writeFileSync(this.file(id), text, { flag });
      this.bytes.set(id, used + size);
    } catch (e) {
      this.notice(`game ${id} is no longer kept in the state dir: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      this.remove(id);
    }
  }

  /** Forgets a game (dropped): its file goes. */
  remove(id: string): void {
    this.bytes.delete(id);
    fs.rmSync(this.file(id), { force: true });
  }

  /**
   * The games to restore, newest first, within the limits; files past them are removed.
   * A file that cannot be read as a game is left in place and named to the operator.
   */
  load(): LoggedGame[] {
    const { stateMaxGames, stateMaxAgeMs, stateMaxFileBytes } = this.limits;
    const files: { id: string; mtime: number; size: number }[] = [];
    for (const name of fs.readdirSync(this.dir)) {
      const m = FILE.exec(name);
      if (!m) continue;
      const st = fs.statSync(path.join(this.dir, name));
      if (st.isFile()) files.push({ id: m[1], mtime: st.mtimeMs, size: st.size });
    }
    files.sort((a, b) => b.mtime - a.mtime);
    const out: LoggedGame[] = [];
    for (const f of files) {
      const why = this.now() - f.mtime > stateMaxAgeMs ? `not written for over ${Math.round(stateMaxAgeMs / 60_000)} min (stateMaxAgeMs)`
        : f.size > stateMaxFileBytes ? `over ${stateMaxFileBytes} bytes (stateMaxFileBytes)`
        : out.length >= stateMaxGames ? `beyond the ${stateMaxGames} newest (stateMaxGames)` : null;
      if (why) {
        this.notice(`game ${f.id} not restored, its file removed: ${why}`);
        fs.rmSync(this.file(f.id), { force: true });
        continue;
      }
      try {
        const game = parseGameLog(fs.readFileSync(this.file(f.id), 'utf8'));
        if (game.head.id !== f.id) throw new LogFormatError('its id is not its file name');
        out.push(game);
      } catch (e) {
        if (!(e instanceof LogFormatError)) throw e;
        this.notice(`game ${f.id} not restored: its file is not a game log (${e.message}); left in place`);
      }
    }
    return out;
  }

  /** Keeps appending to a restored game's file (a partial last line a crash left is cut off first, so the next record starts a line). */
  resume(id: string): void {
    const file = this.file(id);
    const text = fs.readFileSync(file, 'utf8');
    const whole = text.lastIndexOf('\n') + 1;
    if (whole < text.length) fs.truncateSync(file, Buffer.byteLength(text.slice(0, whole)));
    this.bytes.set(id, Buffer.byteLength(text.slice(0, whole)));
  }
}

/** Restores the state dir's games into `store` (GameStore.restore), telling the operator of each one that cannot be. */
export async function restoreGames(log: GameLog, store: { restore(g: LoggedGame): Promise<unknown> }, notice: (line: string) => void): Promise<number> {
  const games = log.load();
  let restored = 0;
  for (const g of games) {
    try {
      await store.restore(g);
      restored++;
    } catch (e) {
      notice(`game ${g.head.id} not restored: ${(e as Error).message}; its file is left in place`);
    }
  }
  if (games.length > 0) notice(`restored ${restored} of ${games.length} games from the state dir ${log.dir}`);
  return restored;
}
