/**
 * One writer per run folder. A command that writes a run folder (a tournament, llm-bench,
 * `report`, `--resume`) first creates DIR/run.lock with O_EXCL, holding who it is; a second
 * writer finds it and is refused, naming the holder. A lock whose holder is gone (its pid not
 * running, or running but started at another time: the pid was reused) is stale and taken over;
 * the caller is told, so a command can say so.
 *
 * Only processes on this host are judged: a lock written on another host (a shared folder) is
 * always held, and is deleted by hand once its run is known to be gone.
 */
import { closeSync, existsSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmdirSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { RunFolderError } from './run-folder.ts';

export const LOCK_FILE = 'run.lock';
/** A lock file that cannot be read (its writer crashed between creating and filling it) is stale once this old. */
export const UNREADABLE_STALE_MS = 5_000;
/** How long a reader waits for a lock file being written to become whole before judging it. */
const WRITE_WAIT_MS = 200;

/** What run.lock holds. */
export interface LockInfo {
  pid: number;
  /** When the lock was taken (ISO). */
  startedAt: string;
  /** The holder's start time in clock ticks since boot (Linux: field 22 of /proc/<pid>/stat), which tells a reused pid; null elsewhere. */
  procStart: number | null;
  /** What holds it, e.g. 'czech-pub llm-bench'. */
  command: string;
  host: string;
}

/** A stale lock that was taken over: whose it was (null when unreadable) and a sentence saying so. */
export interface Takeover {
  holder: LockInfo | null;
  text: string;
}

export interface RunLock {
  /** The folder, resolved. */
  readonly dir: string;
  readonly info: LockInfo;
  /** The stale lock this one replaced, or null. */
  readonly tookOver: Takeover | null;
  /** Removes run.lock if it is still this lock's (and the folder, if taking the lock made it and it is empty); idempotent. */
  release(): void;
}

/** The folder is another writer's, named; or its lock cannot be judged yet. */
export class RunLockedError extends RunFolderError {
  override name = 'RunLockedError';
  constructor(readonly dir: string, readonly holder: LockInfo | null, message = holder ? lockedMessage(dir, holder) : `${dir} is being locked by another process (its ${LOCK_FILE} is not whole yet); try again in a few seconds`) {
    super(message);
  }
}

function lockedMessage(dir: string, h: LockInfo): string {
  const where = h.host === hostname() ? '' : ` on host ${h.host}`;
  const tail = where ? `; wait for it to end, or stop it (if it is gone, delete ${join(dir, LOCK_FILE)})` : '; wait for it to end, or stop it';
  return `${dir} is in use by pid ${h.pid}${where} (${h.command}, since ${h.startedAt})${tail}`;
}

/** A process's start time in clock ticks since boot (Linux), or null where it cannot be read. */
export function processStart(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2, the command name, is in parentheses and may hold spaces and parentheses: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[22 - 3]);
    return Number.isSafeInteger(ticks) ? ticks : null;
  } catch {
    return null;
  }
}

/** Whether a process runs (as any user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it runs, as another user.
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function parseLock(text: string): LockInfo | null {
  try {
    const j = JSON.parse(text) as Partial<LockInfo>;
    if (!Number.isSafeInteger(j.pid) || j.pid! <= 0 || typeof j.startedAt !== 'string' || typeof j.command !== 'string' || typeof j.host !== 'string') return null;
    if (j.procStart !== null && !Number.isSafeInteger(j.procStart)) return null;
    return j as LockInfo;
  } catch {
    return null;
  }
}

/** What a folder's lock file is: absent, held, or stale (with the sentence a takeover says). */
type Judged =
  | { kind: 'free' }
  | { kind: 'held'; holder: LockInfo | null }
  | { kind: 'stale'; text: string; holder: LockInfo | null; ino: number; mtimeMs: number; raw: string };

function judge(dir: string, now: () => number): Judged {
  const file = join(dir, LOCK_FILE);
  const waitUntil = now() + WRITE_WAIT_MS;
  for (;;) {
    let raw: string;
    let ino: number;
    let mtimeMs: number;
    try {
      const st = statSync(file);
      ({ ino, mtimeMs } = st);
      raw = readFileSync(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'free' };
      throw e;
    }
    const holder = parseLock(raw);
    if (holder === null) {
      const age = now() - mtimeMs;
      if (age >= UNREADABLE_STALE_MS) {
        return { kind: 'stale', holder, ino, mtimeMs, raw, text: `took over an unreadable ${LOCK_FILE} last written ${new Date(mtimeMs).toISOString()} (a run that crashed while taking it)` };
      }
      // Its writer fills it right after creating it: wait a moment for it to be whole.
      if (now() < waitUntil) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
        continue;
      }
      return { kind: 'held', holder: null };
    }
    if (holder.host !== hostname()) return { kind: 'held', holder };
    if (!processAlive(holder.pid)) {
      return { kind: 'stale', holder, ino, mtimeMs, raw, text: `took over the lock of pid ${holder.pid}, which is no longer running` };
    }
    const started = processStart(holder.pid);
    if (holder.procStart !== null && started !== null && started !== holder.procStart) {
      return { kind: 'stale', holder, ino, mtimeMs, raw, text: `took over the lock of pid ${holder.pid}, which is no longer running (the pid is another process's now)` };
    }
    return { kind: 'held', holder };
  }
}

/**
 * Moves a stale lock file out of the way, if run.lock is still the file judged stale. Two
 * processes racing to take one over: one renames it aside, the other finds run.lock gone (or
 * renames the winner's new lock, sees it is not the one it judged, and puts it back).
 */
function removeStale(dir: string, stale: Extract<Judged, { kind: 'stale' }>): void {
  const file = join(dir, LOCK_FILE);
  const aside = join(dir, `${LOCK_FILE}.stale-${process.pid}-${Date.now()}`);
  try {
    renameSync(file, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  const st = statSync(aside);
  const same = st.ino === stale.ino && st.mtimeMs === stale.mtimeMs && readFileSync(aside, 'utf8') === stale.raw;
  if (!same) {
    try {
      linkSync(aside, file); // back where it was, unless yet another lock is there now
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  unlinkSync(aside);
}

/**
 * Takes `dir`'s lock for `command` (making the folder if need be), or throws RunLockedError naming the live holder.
 * `now` is the clock an unreadable lock's age is read by (tests give one of their own).
 */
export function acquireRunLock(dir: string, command: string, now: () => number = Date.now): RunLock {
  const made = !existsSync(dir);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, LOCK_FILE);
  const info: LockInfo = { pid: process.pid, startedAt: new Date().toISOString(), procStart: processStart(process.pid), command, host: hostname() };
  let tookOver: Takeover | null = null;
  // Each pass either takes the lock, meets a holder, or clears a stale lock; a race lost goes round again.
  for (let attempt = 0; ; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, 'wx');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const j = judge(dir, now);
      if (j.kind === 'held') throw new RunLockedError(dir, j.holder);
      if (attempt >= 10) throw new RunLockedError(dir, null, `${dir}: could not take its ${LOCK_FILE}; other processes keep taking and leaving it`);
      if (j.kind === 'stale') {
        removeStale(dir, j);
        tookOver = { holder: j.holder, text: j.text };
      }
      continue;
    }
    try {
      writeSync(fd, `${JSON.stringify(info)}\n`);
    } finally {
      closeSync(fd);
    }
    break;
  }
  let released = false;
  return {
    dir: resolve(dir),
    info,
    tookOver,
    release() {
      if (released) return;
      released = true;
      let ours = false;
      try {
        const now = parseLock(readFileSync(file, 'utf8'));
        ours = now !== null && now.pid === info.pid && now.startedAt === info.startedAt;
      } catch {
        // gone already
      }
      if (ours) unlinkSync(file);
      if (made) {
        try {
          rmdirSync(dir); // only when empty: a run refused before it wrote anything leaves no folder behind
        } catch {
          // it holds the run's files
        }
      }
    },
  };
}

/** The live holder of `dir`'s lock, or null when there is none (or it is stale), for readers that must not read a folder mid-write; throws RunLockedError when a lock file is being written and cannot be judged yet. */
export function runLockHolder(dir: string, now: () => number = Date.now): LockInfo | null {
  const j = judge(dir, now);
  if (j.kind !== 'held') return null;
  if (j.holder === null) throw new RunLockedError(dir, null);
  return j.holder;
}
