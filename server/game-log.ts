/**
 * The state dir: what lets games survive a server restart. The engine is deterministic, so a
 * game's seed, reward, seats (the specs asked for), the HASHES of its tokens (never a token)
 * and its actions restore it exactly (GameStore.restore replays the actions). One
 * append-only file per game, one JSON line per record as it happens:
 *
 *   {"t":"game","v":1,"id":…,"seed":…,"salt":…,"chosen":false,"askForced":true,"reward":"win","specs":["remote","greedy"],
 *    "ruleset":"<fingerprint>","client":"127.0.0.1","created":…,"tokens":[{"seat":0,"hash":…}],"watch":…}
 *   {"t":"a","k":0,"a":17}                      action k (a person's or a bot's)
 *   {"t":"a","k":211,"a":3,"end":true}          the action that ended the game: nothing follows it
 *   {"t":"join","seat":2,"hash":…,"client":…}   an open seat taken from the lobby
 *   {"t":"fault","step":9,"seat":1,"reason":…}  a bot decision that failed (its seat played legal[0])
 *
 * The head may carry `names` (the creator's people seats), a join the joiner's `name`. What a
 * file may hold, field by field, is game-log-schema.ts, checked again whenever one is read.
 *
 * Auto-pass settings are a value a person may set any number of times, not a fact of the game:
 * they live in `<id>.settings.json` beside the log ({"v":1,"seats":[{"seat":0,"on":false,
 * "unwatched":[…]}]}), rewritten whole when a seat's value changes (a temporary file renamed
 * over it, so a crash leaves the old value or the new) and not written at all when it does
 * not. Appended to the log, each PUT made the file grow until it passed stateMaxFileBytes and
 * the game was no longer kept; compacting the log instead would rewrite up to 130 kB per
 * change and give up the append-only log's crash rule below. The settings file is bounded by
 * the seats (a few hundred bytes) and the log by the game's length.
 *
 * Everything here is the server's user's alone: the folder is made 0700 and each file 0600
 * (a live game's seed is every hand and the draw pile's order), and both are tightened to that
 * at start if they were made otherwise.
 *
 * A crash mid-write leaves at most a last line without its newline: it is ignored, and every
 * line before it stands. Files are named by the game's id (made by the server, never by a
 * client); a game dropped (expired, or making room) loses its files. At start (`scan`) files
 * older than stateMaxAgeMs, past stateMaxFileBytes, or beyond the stateMaxGames newest are
 * removed; of the rest, the games in progress are restored in the background and the finished
 * ones (a last line with "end") wait unread until asked for (restorer.ts). A file that cannot
 * be restored is moved into `rejected/` with one line to the operator naming it and why;
 * files there are removed once older than stateMaxAgeMs.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_AUTO_PASS } from './auto-pass.ts';
import { GAME_ID, LogFormatError, parseGameLog, settingsText, type GameHead, type LoggedGame, type LogLine, type SeatSettings } from './game-log-schema.ts';

export { LOG_VERSION, LogFormatError, parseGameLog, type GameHead, type LoggedGame, type LogLine, type SeatSettings } from './game-log-schema.ts';

/** SHA-256 (hex) of a token: what the state dir holds and what a presented token is compared by. */
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

export interface StateLimits {
  /** Games kept at start at most (the newest files first). */
  stateMaxGames: number;
  /** A file not written for this long is removed at start, not restored. */
  stateMaxAgeMs: number;
  /** A game whose file would pass this many bytes is no longer kept (its file is removed). */
  stateMaxFileBytes: number;
}

/** The folder's and each file's mode: the server's user only. */
export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;
/** Where files that could not be restored are moved, inside the state dir. */
export const REJECTED = 'rejected';

const GAME_FILE = new RegExp(`^(${GAME_ID.source.slice(1, -1)})\\.jsonl$`);
const SETTINGS_FILE = new RegExp(`^(${GAME_ID.source.slice(1, -1)})\\.settings\\.json(\\.tmp)?$`);
/** Bytes read from a file's end to see whether its game ended (its last line is some 40). */
const TAIL = 256;

/** The games a start found in the state dir, newest first. */
export interface Scanned {
  /** Games in progress: restored in the background. */
  live: string[];
  /** Finished games: left unread until asked for. */
  finished: string[];
}

const errorCode = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? (e as Error).message;

/** The state dir of one server: appends as games change, lists and reads them back at start. */
export class GameLog {
  private readonly bytes = new Map<string, number>();
  /** Per kept game, each seat's settings as its settings file holds them. */
  private readonly seatSettings = new Map<string, Map<number, SeatSettings>>();

  constructor(
    readonly dir: string,
    readonly limits: StateLimits,
    /** Told what the operator should know (a game not restored, one no longer kept). */
    private readonly notice: (line: string) => void = () => {},
    private readonly now: () => number = () => Date.now(),
  ) {
    fs.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
    this.tighten(dir, DIR_MODE);
  }

  private file(id: string): string {
    return path.join(this.dir, `${id}.jsonl`);
  }

  private settingsFile(id: string): string {
    return path.join(this.dir, `${id}.settings.json`);
  }

  /** Makes `p` the server's user's alone, telling the operator when it cannot. */
  private tighten(p: string, mode: number): void {
    try {
      if ((fs.statSync(p).mode & 0o777) !== mode) fs.chmodSync(p, mode);
    } catch (e) {
      this.notice(`the state dir: could not set ${p} to mode ${mode.toString(8)} (${errorCode(e)}); others may read it`);
    }
  }

  /** Starts a game's file with its head. */
  begin(head: GameHead): void {
    this.bytes.set(head.id, 0);
    this.seatSettings.set(head.id, new Map());
    this.append(head.id, head, 'w');
  }

  /** Appends one record (settings go to the settings file); a game past stateMaxFileBytes is no longer kept (a partial record would restore a wrong game). */
  append(id: string, line: LogLine, flag: 'a' | 'w' = 'a'): void {
    if (line.t === 'settings') return this.setSettings(id, { ...line, windows: line.windows ?? 'all' });
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
      fs.writeFileSync(this.file(id), text, { flag, mode: FILE_MODE });
      this.bytes.set(id, used + size);
    } catch (e) {
      this.notice(`game ${id} is no longer kept in the state dir: ${errorCode(e)}`);
      this.remove(id);
    }
  }

  /** A seat's settings as set: the settings file rewritten if they changed, nothing written if not. */
  private setSettings(id: string, s: SeatSettings): void {
    const seats = this.seatSettings.get(id);
    if (!seats || !this.bytes.has(id)) return;
    const held = seats.get(s.seat) ?? DEFAULT_AUTO_PASS;
    if (held.on === s.on && held.windows === s.windows && held.unwatched.length === s.unwatched.length && held.unwatched.every((x, i) => x === s.unwatched[i])) return;
    seats.set(s.seat, { seat: s.seat, on: s.on, unwatched: [...s.unwatched], windows: s.windows });
    const file = this.settingsFile(id);
    try {
      fs.writeFileSync(`${file}.tmp`, settingsText([...seats.values()].sort((a, b) => a.seat - b.seat)), { mode: FILE_MODE });
      fs.renameSync(`${file}.tmp`, file);
    } catch (e) {
      this.notice(`game ${id}: seat ${s.seat}'s settings could not be written to the state dir (${errorCode(e)}); a restart would restore the ones before`);
    }
  }

  /** Forgets a game (dropped): its files go. */
  remove(id: string): void {
    this.bytes.delete(id);
    this.seatSettings.delete(id);
    for (const f of [this.file(id), this.settingsFile(id), `${this.settingsFile(id)}.tmp`]) fs.rmSync(f, { force: true });
  }

  /**
   * The games the dir holds, newest first, within the limits (the files past them are
   * removed), as games in progress and finished ones: only a file's last line is read here.
   * Every file is made the server's user's alone; settings files without a game, and files
   * set aside past stateMaxAgeMs, are removed.
   */
  scan(): Scanned {
    const { stateMaxGames, stateMaxAgeMs, stateMaxFileBytes } = this.limits;
    const files: { id: string; mtime: number; size: number }[] = [];
    const settings: string[] = [];
    for (const name of fs.readdirSync(this.dir)) {
      const p = path.join(this.dir, name);
      if (name === REJECTED) {
        this.pruneRejected(p);
        continue;
      }
      const game = GAME_FILE.exec(name);
      const set = SETTINGS_FILE.exec(name);
      if (!game && !set) continue;
      // A link or a folder of that name is nobody's game file: left alone, never followed.
      const st = fs.lstatSync(p);
      if (!st.isFile()) continue;
      if (set?.[2]) {
        fs.rmSync(p, { force: true }); // a rewrite a crash cut short: the settings file before it stands
        continue;
      }
      this.tighten(p, FILE_MODE);
      if (game) files.push({ id: game[1], mtime: st.mtimeMs, size: st.size });
      else settings.push(set![1]);
    }
    files.sort((a, b) => b.mtime - a.mtime);
    const out: Scanned = { live: [], finished: [] };
    for (const f of files) {
      const why = this.now() - f.mtime > stateMaxAgeMs ? `not written for over ${Math.round(stateMaxAgeMs / 60_000)} min (stateMaxAgeMs)`
        : f.size > stateMaxFileBytes ? `over ${stateMaxFileBytes} bytes (stateMaxFileBytes)`
        : out.live.length + out.finished.length >= stateMaxGames ? `beyond the ${stateMaxGames} newest (stateMaxGames)` : null;
      if (why) {
        this.notice(`game ${f.id} not restored, its file removed: ${why}`);
        this.remove(f.id);
        continue;
      }
      (this.lastLineEnds(f.id, f.size) ? out.finished : out.live).push(f.id);
    }
    const kept = new Set([...out.live, ...out.finished]);
    for (const id of settings) if (!kept.has(id)) fs.rmSync(this.settingsFile(id), { force: true });
    return out;
  }

  /** Whether a file's last whole line is an action that ended the game (read from its last bytes only). */
  private lastLineEnds(id: string, size: number): boolean {
    const n = Math.min(size, TAIL);
    const buf = Buffer.alloc(n);
    const fd = fs.openSync(this.file(id), 'r');
    try {
      fs.readSync(fd, buf, 0, n, size - n);
    } finally {
      fs.closeSync(fd);
    }
    const text = buf.toString('utf8');
    const whole = text.slice(0, text.lastIndexOf('\n'));
    try {
      const last = JSON.parse(whole.slice(whole.lastIndexOf('\n') + 1)) as { t?: unknown; end?: unknown };
      return last.t === 'a' && last.end === true;
    } catch {
      return false; // read in full when restored, and refused there if it is not a game
    }
  }

  /** Removes what was set aside longer ago than stateMaxAgeMs, and keeps the folder private. */
  private pruneRejected(dir: string): void {
    if (!fs.lstatSync(dir).isDirectory()) return;
    this.tighten(dir, DIR_MODE);
    for (const name of fs.readdirSync(dir)) {
      const p = path.join(dir, name);
      const st = fs.lstatSync(p);
      if (st.isFile() && this.now() - st.mtimeMs > this.limits.stateMaxAgeMs) fs.rmSync(p, { force: true });
    }
  }

  /** A game's files read and checked (game-log-schema.ts); throws LogFormatError saying what is wrong. */
  read(id: string): LoggedGame {
    let text: string;
    let settings: string | undefined;
    try {
      text = fs.readFileSync(this.file(id), 'utf8');
      settings = fs.existsSync(this.settingsFile(id)) ? fs.readFileSync(this.settingsFile(id), 'utf8') : undefined;
    } catch (e) {
      throw new LogFormatError(`it cannot be read (${errorCode(e)})`);
    }
    const game = parseGameLog(text, settings);
    if (game.head.id !== id) throw new LogFormatError('line 1: its id is not its file name');
    return game;
  }

  /**
   * Moves a game's files into rejected/ (they are not restored), with one line to the operator
   * naming them and why: the reason may quote the file (a bot spec), so it is kept to one line
   * of shown characters.
   */
  setAside(id: string, why: string): void {
    const reason = why.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '?').slice(0, 300);
    this.bytes.delete(id);
    this.seatSettings.delete(id);
    const to = path.join(this.dir, REJECTED);
    try {
      fs.mkdirSync(to, { recursive: true, mode: DIR_MODE });
      for (const f of [this.file(id), this.settingsFile(id)]) if (fs.existsSync(f)) fs.renameSync(f, path.join(to, path.basename(f)));
      this.notice(`game ${id} not restored: ${reason}; its file ${this.file(id)} was moved to ${to}`);
    } catch (e) {
      this.notice(`game ${id} not restored: ${reason}; its file could not be moved to ${to} (${errorCode(e)})`);
    }
  }

  /**
   * Keeps writing a restored game's files: a partial last line a crash left is cut off first,
   * so the next record starts a line; `settings` are what its settings file holds.
   */
  resume(id: string, settings: readonly SeatSettings[]): void {
    const file = this.file(id);
    const text = fs.readFileSync(file, 'utf8');
    const whole = Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1));
    if (whole < Buffer.byteLength(text)) fs.truncateSync(file, whole);
    this.bytes.set(id, whole);
    this.seatSettings.set(id, new Map(settings.map((s) => [s.seat, { ...s, unwatched: [...s.unwatched] }])));
  }
}
