import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunFolderError } from './run-folder.ts';
import { acquireRunLock, LOCK_FILE, processStart, RunLockedError, runLockHolder, UNREADABLE_STALE_MS, type LockInfo } from './run-lock.ts';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'czech-pub-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lockFile = () => join(dir, LOCK_FILE);
const writeLock = (l: Partial<LockInfo>) => writeFileSync(lockFile(), JSON.stringify({
  pid: process.pid, startedAt: '2020-01-01T00:00:00.000Z', procStart: null, command: 'czech-pub llm-bench', host: hostname(), ...l,
}));
/** A pid no process can have: above the kernel's largest. */
function deadPid(): number {
  try {
    return Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8').trim()) + 1;
  } catch {
    return 4_194_305;
  }
}
/**
 * A clock that reads `ms` after the lock file was last written, moving 25 ms a read (a reader
 * waits some reads for a file being written): its age is the same however long the test takes.
 */
const since = (ms: number) => {
  let t = statSync(lockFile()).mtimeMs + ms;
  return () => (t += 25);
};

describe('acquireRunLock', () => {
  it('holds the folder: a second writer is refused, naming the first; after release it is free', () => {
    const lock = acquireRunLock(dir, 'czech-pub llm-bench');
    expect(lock.tookOver).toBeNull();
    expect(JSON.parse(readFileSync(lockFile(), 'utf8'))).toMatchObject({ pid: process.pid, command: 'czech-pub llm-bench', host: hostname() });
    let refused: unknown;
    try {
      acquireRunLock(dir, 'czech-pub report');
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(RunLockedError);
    expect(refused).toBeInstanceOf(RunFolderError);
    expect((refused as Error).message).toBe(`${dir} is in use by pid ${process.pid} (czech-pub llm-bench, since ${lock.info.startedAt}); wait for it to end, or stop it`);
    expect(runLockHolder(dir)).toEqual(lock.info);
    lock.release();
    lock.release();
    expect(existsSync(lockFile())).toBe(false);
    expect(runLockHolder(dir)).toBeNull();
    const again = acquireRunLock(dir, 'czech-pub report');
    expect(again.tookOver).toBeNull();
    again.release();
  });

  it("takes over the lock of a pid that is not running, and says whose it was", () => {
    const pid = deadPid();
    writeLock({ pid });
    expect(runLockHolder(dir)).toBeNull();
    const lock = acquireRunLock(dir, 'czech-pub llm-bench');
    expect(lock.tookOver?.holder?.pid).toBe(pid);
    expect(lock.tookOver?.text).toBe(`took over the lock of pid ${pid}, which is no longer running`);
    expect(JSON.parse(readFileSync(lockFile(), 'utf8')).pid).toBe(process.pid);
    // The first to take it over holds it: a second comer is refused.
    expect(() => acquireRunLock(dir, 'czech-pub report')).toThrow(RunLockedError);
    lock.release();
  });

  it.skipIf(processStart(process.pid) === null)('takes over the lock of a running pid that started at another time (the pid was reused)', () => {
    writeLock({ procStart: processStart(process.pid)! + 1 });
    const lock = acquireRunLock(dir, 'czech-pub llm-bench');
    expect(lock.tookOver?.text).toMatch(new RegExp(`^took over the lock of pid ${process.pid}, which is no longer running`));
    lock.release();
    // The same start time is the same process: held.
    writeLock({ procStart: processStart(process.pid) });
    expect(() => acquireRunLock(dir, 'x')).toThrow(`is in use by pid ${process.pid}`);
  });

  it('release removes only its own lock', () => {
    const lock = acquireRunLock(dir, 'czech-pub llm-bench');
    writeLock({ startedAt: '2030-01-01T00:00:00.000Z' });
    lock.release();
    expect(JSON.parse(readFileSync(lockFile(), 'utf8')).startedAt).toBe('2030-01-01T00:00:00.000Z');
  });

  it('an unreadable lock file is taken over once old (a crash while it was written), and refused while fresh', () => {
    writeFileSync(lockFile(), '{"pid": 12');
    let refused: unknown;
    try {
      acquireRunLock(dir, 'czech-pub llm-bench', since(0));
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(RunLockedError);
    expect((refused as RunLockedError).holder).toBeNull();
    expect((refused as Error).message).toMatch(/is being locked by another process .*try again in a few seconds/);
    expect(() => runLockHolder(dir, since(UNREADABLE_STALE_MS - 1000))).toThrow(RunLockedError);
    expect(runLockHolder(dir, since(UNREADABLE_STALE_MS))).toBeNull();
    const lock = acquireRunLock(dir, 'czech-pub llm-bench', since(UNREADABLE_STALE_MS + 1000));
    expect(lock.tookOver?.holder).toBeNull();
    expect(lock.tookOver?.text).toMatch(/^took over an unreadable run\.lock last written /);
    lock.release();
  });

  it("another host's lock is held: its pid means nothing here", () => {
    writeLock({ pid: deadPid(), host: 'elsewhere.example' });
    expect(() => acquireRunLock(dir, 'x')).toThrow(/is in use by pid \d+ on host elsewhere\.example .*delete .*run\.lock/);
  });

  it('a folder the lock made is removed on release while it is empty, and kept once it holds files', () => {
    const fresh = join(dir, 'a', 'run');
    acquireRunLock(fresh, 'x').release();
    expect(existsSync(fresh)).toBe(false);
    const kept = join(dir, 'kept');
    const lock = acquireRunLock(kept, 'x');
    writeFileSync(join(kept, 'run.json'), '{}');
    lock.release();
    expect(existsSync(join(kept, 'run.json'))).toBe(true);
    expect(existsSync(join(kept, LOCK_FILE))).toBe(false);
  });
});
