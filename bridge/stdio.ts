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

/** Reads exactly `n` bytes into `buf`; false at end of input before any byte of them. */
function readFully(fd: number, buf: Buffer, n: number): boolean {
  let got = 0;
  while (got < n) {
    let k: number;
    try {
      k = fs.readSync(fd, buf, got, n - got, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        // A non-blocking pipe with nothing in it yet: wait a little and try again.
        Atomics.wait(pause, 0, 0, 1);
        continue;
      }
      if (code === 'EOF') return false;
      throw e;
    }
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
        Atomics.wait(pause, 0, 0, 1);
        continue;
      }
      throw e;
    }
  }
}

export interface StdioStats {
  requests: number;
}

export function serveStdio(input = 0, output = 1, session = new BridgeSession()): StdioStats {
  const header = Buffer.alloc(4);
  let req = Buffer.alloc(1 << 16);
  const stats: StdioStats = { requests: 0 };
  for (;;) {
    if (!readFully(input, header, 4)) return stats;
    const len = header.readUInt32LE(0);
    if (len > MAX_REQUEST_BYTES) {
      const msg = Buffer.from(`request of ${len} bytes is over the limit of ${MAX_REQUEST_BYTES}; closing`, 'utf8');
      const out = Buffer.alloc(5 + msg.length);
      out.writeUInt32LE(1 + msg.length, 0);
      out[4] = STATUS.ERROR;
      msg.copy(out, 5);
      writeFully(output, out);
      return stats;
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
