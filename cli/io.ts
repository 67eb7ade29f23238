import { createInterface } from 'node:readline';

/** Where the CLI writes, and reads lines from: process streams by default, buffers in tests. */
export interface Io {
  /** Writes one line to standard output. */
  out(line: string): void;
  /** Writes one line to standard error. */
  err(line: string): void;
  /** Opens standard input as lines, for commands that read it (`play --human`); absent where there is none. */
  input?(): LineInput;
  /**
   * The clock of wall-clock budgets (`--minutes`), in milliseconds: performance.now when absent.
   * Tests give one that counts its reads, so a budget in minutes ends after the same work
   * however busy the machine is.
   */
  now?(): number;
}

export interface LineInput {
  /** The next line, or null once the input has ended. */
  next(): Promise<string | null>;
  /** Stops reading (an open standard input would keep the process running). */
  close(): void;
}

/** The lines of a stream. */
export function streamLines(stream: NodeJS.ReadableStream): LineInput {
  const rl = createInterface({ input: stream, crlfDelay: Infinity });
  const lines = rl[Symbol.asyncIterator]();
  return {
    next: async () => {
      const r = await lines.next();
      return r.done ? null : r.value;
    },
    close: () => rl.close(),
  };
}

export const processIo: Io = {
  out: (line) => void process.stdout.write(`${line}\n`),
  err: (line) => void process.stderr.write(`${line}\n`),
  input: () => streamLines(process.stdin),
};

/** Collects output lines, for tests and for callers that want the text; `input` is what standard input holds, line by line. */
export function bufferIo(input: readonly string[] = [], now?: () => number): Io & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  let next = 0;
  return {
    stdout, stderr, out: (l) => void stdout.push(l), err: (l) => void stderr.push(l),
    input: () => ({ next: async () => (next < input.length ? input[next++] : null), close: () => undefined }),
    ...(now ? { now } : {}),
  };
}

/** A clock that moves `stepMs` each time it is read: time measured in reads, the same on any machine under any load. */
export function countingClock(stepMs: number): () => number {
  let t = 0;
  return () => (t += stepMs);
}

/** A mistake in the command line: reported with the usage hint, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
