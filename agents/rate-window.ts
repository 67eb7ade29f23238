/**
 * A sliding window of calls in shared memory: at most `limit` calls in any `windowMs`, counted
 * exactly, with no fixed boundary to burst across (a fixed minute lets twice its limit through
 * within a second: its last moments and the next minute's first).
 *
 * The window is `limit` slots of a BigInt64Array over a SharedArrayBuffer, each holding one
 * call: its time (ms since the epoch, plus one so that 0 means never used) and its client's
 * number, packed. A call takes a slot whose call is a whole window old, or never used, with one
 * compare-and-swap. Two calls in one slot are thus at least `windowMs` apart, so no window of
 * that length holds more than `limit` calls, and threads racing for the last slot cannot both
 * win. Nothing is ever locked: a worker thread stopped mid-call leaves nothing held.
 *
 * A `fair` window is shared by clients and serves them in turn: a client may hold at most
 * limit / (clients + 1) of it, where clients are those with calls in it, itself included. So
 * one client alone takes at most half, n clients leave a share free for one more, and a
 * client past its share (it called while it had the window to itself) is refused until its
 * calls age out, the room going to those below theirs. Each take reads every slot: O(limit),
 * a few microseconds for the limits of a server's config.
 */

/** Bits of a slot for the client's number; the rest (43 bits) hold the time, enough until the year 2248. */
const OWNER_BITS = 20n;
const OWNER_MASK = (1n << OWNER_BITS) - 1n;
/** How many client numbers there are: a server hashes its clients' addresses into them (two sharing one share it). */
export const OWNERS = Number(1n << OWNER_BITS);

export interface RateWindow {
  /** One per call the window may hold (its limit). */
  slots: BigInt64Array;
  windowMs: number;
  /** Shared by clients, each held to its share (above). */
  fair: boolean;
}

export function rateWindow(limit: number, o: { fair?: boolean; windowMs?: number } = {}): RateWindow {
  return { slots: new BigInt64Array(new SharedArrayBuffer(8 * limit)), windowMs: o.windowMs ?? 60_000, fair: o.fair ?? false };
}

const timeOf = (slot: bigint): number => Number(slot >> OWNER_BITS) - 1;

/** A call taken: where, so it can be given back. */
export interface WindowClaim {
  window: RateWindow;
  slot: number;
  was: bigint;
  now: bigint;
}

/** Calls in the window at `now`; `owner`'s among them; the clients that made them. */
export function windowCalls(w: RateWindow, now: number, owner = 0): { calls: number; mine: number; clients: number } {
  const since = now - w.windowMs;
  const clients = new Set<bigint>();
  let calls = 0;
  let mine = 0;
  for (let i = 0; i < w.slots.length; i++) {
    const v = Atomics.load(w.slots, i);
    if (v === 0n || timeOf(v) <= since) continue;
    calls++;
    const o = v & OWNER_MASK;
    clients.add(o);
    if (o === BigInt(owner)) mine++;
  }
  return { calls, mine, clients: clients.size };
}

/** The most of a fair window one client may hold while `clients` have calls in it (itself included). */
export function fairShare(limit: number, clients: number): number {
  return Math.max(1, Math.floor(limit / (clients + 1)));
}

/** Takes one call at `now` for client `owner`: where it went, or null (the window is full, or the client holds its share). */
export function takeWindow(w: RateWindow, now: number, owner = 0): WindowClaim | null {
  const limit = w.slots.length;
  if (w.fair) {
    const seen = windowCalls(w, now, owner);
    const clients = seen.clients + (seen.mine === 0 ? 1 : 0);
    if (seen.mine >= fairShare(limit, clients)) return null;
  }
  const since = now - w.windowMs;
  const packed = (BigInt(now + 1) << OWNER_BITS) | (BigInt(owner) & OWNER_MASK);
  for (let i = 0; i < limit; i++) {
    for (;;) {
      const v = Atomics.load(w.slots, i);
      if (v !== 0n && timeOf(v) > since) break;
      if (Atomics.compareExchange(w.slots, i, v, packed) === v) return { window: w, slot: i, was: v, now: packed };
    }
  }
  return null;
}

/** Gives a call back (a later budget refused it): its slot holds what it held before. */
export function giveBack(c: WindowClaim): void {
  Atomics.compareExchange(c.window.slots, c.slot, c.now, c.was);
}

/** The time of the window's latest call, or -Infinity if none: a window whose latest call is a window old holds none. */
export function lastCall(w: RateWindow): number {
  let last = -Infinity;
  for (let i = 0; i < w.slots.length; i++) {
    const v = Atomics.load(w.slots, i);
    if (v !== 0n) last = Math.max(last, timeOf(v));
  }
  return last;
}
