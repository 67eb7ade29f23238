/**
 * What every llm agent of a server shares, so that lanes of a run do not each spend the
 * server's limits as if alone: requests in flight at once (per base URL) and request starts a
 * minute (per base URL and model). Both are ours, not the server's answers: waiting on them is
 * no fault and takes nothing from a decision's maxWaitMs.
 */

/** A counting semaphore. */
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}
  async run<T>(f: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await f();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

const MINUTE_MS = 60_000;

/**
 * At most `rpm` request starts in any 60 s. Each start is booked when asked for, at the
 * earliest time the window allows, so requests asked for together are spread over the
 * minute in the order they asked.
 */
export class Pacer {
  /** The last `rpm` starts booked, ascending (some may be still to come). */
  private readonly starts: number[] = [];
  constructor(private readonly rpm: number) {}

  /** Books a start for a request asked for at `now`: the time it may start (≥ now). */
  book(now: number): number {
    const s = this.starts;
    const at = s.length < this.rpm ? now : Math.max(now, s[s.length - this.rpm] + MINUTE_MS);
    s.push(at);
    if (s.length > this.rpm) s.splice(0, s.length - this.rpm);
    return at;
  }
}

const limiters = new Map<string, Limiter>();
const pacers = new Map<string, Pacer>();

/** The concurrency limit of a base URL; agents asking for different limits each get theirs. */
export function limiterFor(baseUrl: string, concurrency: number): Limiter {
  const key = `${baseUrl}|${concurrency}`;
  let l = limiters.get(key);
  if (!l) limiters.set(key, (l = new Limiter(concurrency)));
  return l;
}

/** The pace of a base URL and model at `rpm` requests a minute; null for rpm 0 (no limit). */
export function pacerFor(baseUrl: string, model: string, rpm: number): Pacer | null {
  if (rpm <= 0) return null;
  const key = `${baseUrl}|${model}|${rpm}`;
  let p = pacers.get(key);
  if (!p) pacers.set(key, (p = new Pacer(rpm)));
  return p;
}
