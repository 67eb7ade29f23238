/**
 * Moves the bridge's frames (protocol.ts) over two file descriptors, synchronously: the
 * client waits for each answer anyway, and a blocking read costs far less than a trip through
 * the event loop per message. Returns when the input closes (the client went away); a frame
 * over the size limit is answered with an error and ends the session, since what follows it
 * can no longer be framed.
 */
import fs from 'node:fs';
import { MAX_REQUEST_BYTES, STATUS } from './protocol.ts';
import { BridgeSession } from './session.ts';

const pause = new Int32Array(new SharedArrayBuffer(4));

/** How long a read polls an empty pipe before it blocks (see Input). */
export const SPIN_MS = 1;

/**
 * The request pipe, read in two ways. Waking a process blocked on a pipe from another core
 * takes ~100 µs on this project's VMs (a halted virtual CPU must be woken), against ~4 µs when
 * the reader is polling: so a read polls a non-blocking description of the pipe for up to
 * SPIN_MS, which covers a client's usual think time between requests, and then blocks on a
 * blocking one. Both are opened anew from /proc/self/fd/0 (Linux), since Node may have made
 * fd 0 itself non-blocking; elsewhere fd 0 is polled with short pauses.
 */
class Input {
  private readonly polled: number;
  private readonly blocking: number;

  constructor(fd: number) {
    let polled = fd;
    let blocking = -1;
    try {
      polled = fs.openSync(`/proc/self/fd/${fd}`, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      blocking = fs.openSync(`/proc/self/fd/${fd}`, fs.constants.O_RDONLY);
    } catch {
      // No /proc: poll the descriptor as it is.
    }
    this.polled = polled;
    this.blocking = blocking;
  }

  /** Reads some bytes into buf[at, at + n); 0 at end of input. */
  read(buf: Buffer, at: number, n: number): number {
    const start = performance.now();
    // Each empty poll throws; an error without a stack trace costs half as much to make (~6 us
    // against ~11 us here), and a shorter poll notices a request sooner.
    const traces = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      for (;;) {
        try {
          return fs.readSync(this.polled, buf, at, n, null);
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          if (code === 'EOF') return 0;
          if (code !== 'EAGAIN') throw e;
        }
        if (performance.now() - start < SPIN_MS) continue;
        Error.stackTraceLimit = traces;
        if (this.blocking >= 0) return fs.readSync(this.blocking, buf, at, n, null);
        Atomics.wait(pause, 0, 0, 0.2);
        Error.stackTraceLimit = 0;
      }
    } finally {
      Error.stackTraceLimit = traces;
    }
  }
}

/** Reads exactly `n` bytes into `buf`; false at end of input before any byte of them. */
function readFully(input: Input, buf: Buffer, n: number): boolean {
  let got = 0;
  while (got < n) {
    const k = input.read(buf, got, n - got);
    if (k === 0) {
      if (got === 0) return false;
      throw new Error(`the input ended inside a frame (${got} of ${n} bytes)`);
    }
    got += k;
  }
  return true;
}

function writeFully(fd: number, buf: Buffer): void {
  let off = 0;
  while (off < buf.length) {
    try {
      off += fs.writeSync(fd, buf, off, buf.length - off);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
        // The client has not read the last answer yet and the pipe is full.
        Atomics.wait(pause, 0, 0, 0.05);
        continue;
      }
      throw e;
    }
  }
}

export interface StdioStats {
  requests: number;
}

export function serveStdio(inputFd = 0, output = 1, session = new BridgeSession()): StdioStats {
  const input = new Input(inputFd);
  const stats: StdioStats = { requests: 0 };
  try {
    serveFrames(input, output, session, stats);
  } finally {
    // The client has gone: its envs' worker threads go too.
    session.close();
  }
  return stats;
}

function serveFrames(input: Input, output: number, session: BridgeSession, stats: StdioStats): void {
  const header = Buffer.alloc(4);
  let req = Buffer.alloc(1 << 16);
  for (;;) {
    if (!readFully(input, header, 4)) return;
    const len = header.readUInt32LE(0);
    if (len > MAX_REQUEST_BYTES) {
      const msg = Buffer.from(`request of ${len} bytes is over the limit of ${MAX_REQUEST_BYTES}; closing`, 'utf8');
      const out = Buffer.alloc(5 + msg.length);
      out.writeUInt32LE(1 + msg.length, 0);
      out[4] = STATUS.ERROR;
      msg.copy(out, 5);
      writeFully(output, out);
      return;
    }
    if (req.length < len) req = Buffer.alloc(Math.max(len, req.length * 2));
    if (len > 0 && !readFully(input, req, len)) throw new Error('the input ended inside a frame');
    const res = session.handle(req.subarray(0, len));
    // The session leaves 4 free bytes before its payload: the frame goes out in one write.
    const frame = Buffer.from(res.buffer, res.byteOffset - 4, res.length + 4);
    frame.writeUInt32LE(res.length, 0);
    writeFully(output, frame);
    stats.requests++;
  }
}
