/**
 * The server's side of bots that call a server elsewhere (llm and http entries): the gates of
 * their budgets (config.ts, agents/outside-calls.ts), handed to a live game's seats, to the act
 * route's bot and, as shared memory, to a tournament's worker threads; and what a client is
 * told when such a bot fails: the entry's name and the kind of failure. The model's name, the
 * server's address, the key's variable and the server's own words go to the operator's log.
 *
 * Every call is taken from three sliding windows of a minute (agents/rate-window.ts): the
 * client's of the entry (its budget's perClientMinute), shared by the client's live games
 * (which look it up at every call) and its tournaments (which hold it, pinned, while they run);
 * the host's the entry calls (limits.outsideCallsPerHostMinute), shared by every entry there;
 * and the server's (limits.outsideCallsPerMinute). The last two are shared by clients in turn:
 * each is held to its share. A client's window nobody holds is dropped once its last call is a
 * window old: a new one, empty, then counts the same.
 */
import {
  budgetText, createAgent, Gate, lastCall, LlmAgent, OWNERS, rateWindow, sharedCounts, type Agent, type BudgetRefusal, type CallFaultKind, type GateSpec, type RateLimit, type RateWindow,
} from '../agents/index.ts';
import type { BotChoice, CatalogueEntry } from './catalogue.ts';
import { DEFAULT_LIMITS, type Limits } from './config.ts';

const KIND_TEXT: Record<CallFaultKind, string> = {
  authentication: 'refused the request (authentication)',
  refused: 'refused the request',
  'rate-limited': 'is limiting requests (rate-limited)',
  'server-error': 'failed (server error)',
  timeout: 'did not answer in time (timeout)',
  unreachable: 'could not be reached (unreachable)',
  failed: 'failed',
  budget: 'reached a budget',
};

/** "bot 'gpt': the model server refused the request (authentication)", or the budget reached. */
export function faultText(entry: CatalogueEntry, fault: { kind: CallFaultKind; budget?: BudgetRefusal }): string {
  if (fault.budget) return budgetText(fault.budget);
  return `bot '${entry.name}': ${entry.kind === 'llm' ? 'the model server' : "the bot's server"} ${KIND_TEXT[fault.kind]}`;
}

/** A client's number in the shared windows: its address hashed (FNV-1a) into rate-window.ts's OWNERS. */
export function clientNumber(client: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < client.length; i++) h = Math.imul(h ^ client.charCodeAt(i), 0x01000193) >>> 0;
  return h % OWNERS;
}

/**
 * The host (and port) of the server an entry's bot calls: the URL in the operator's spec (an
 * http bot's, an llm entry's baseUrl), or for an llm entry without one where its agent calls
 * by default. Never shown to clients.
 */
export function outsideHost(entry: CatalogueEntry): string {
  const agent = createAgent(entry.spec);
  if (agent instanceof LlmAgent) return new URL(agent.baseUrl).host;
  const url = /https?:\/\/(\[[^\]]*\]|[^/\s:]+)(:\d+)?/.exec(entry.spec);
  return url ? new URL(url[0]).host : `entry:${entry.name}`;
}

/** The server-wide rates of outside calls (config.ts). */
export type CallRates = Pick<Limits, 'outsideCallsPerMinute' | 'outsideCallsPerHostMinute'>;

export class OutsideCalls {
  /** Per client and entry. */
  private readonly windows = new Map<string, { window: RateWindow; pins: number }>();
  /** Per host, by entry name (an entry's host is looked up once). */
  private readonly hosts = new Map<string, RateWindow>();
  private readonly hostOf = new Map<string, RateWindow>();
  private readonly server: RateWindow;
  private sweptAt = -Infinity;

  constructor(
    /** The operator's log: what a client may not read of a failure. */
    readonly log: (line: string) => void = () => {},
    private readonly now: () => number = Date.now,
    private readonly rates: CallRates = DEFAULT_LIMITS,
  ) {
    this.server = rateWindow(rates.outsideCallsPerMinute, { fair: true });
  }

  /** Gives a live game's seat (or the act route's bot) the gate of its entry's budget, for `client`. Entries without one are left as they are. */
  attach(agent: Agent, entry: CatalogueEntry, client: string): void {
    const b = entry.budget;
    if (!b) return;
    if (!agent.useGate) throw new Error(`bot '${entry.name}' has a budget but its agent takes no gate`);
    agent.useGate(new Gate({
      entry: entry.name, perGame: b.perGame, owner: clientNumber(client), rates: this.shared(entry, () => this.client(client, entry).window),
    }, this.now));
  }

  /**
   * A tournament's gates, one per choice (null for bots without a budget): one per-tournament
   * count per entry, the client's windows pinned until `release`.
   */
  tournament(choices: readonly BotChoice[], client: string): { gates: (GateSpec | null)[]; release: () => void } {
    const entries = [...new Map(choices.filter((c) => c.entry.budget).map((c) => [c.entry.name, c.entry])).values()];
    const counts = sharedCounts(entries.length);
    const held = entries.map((e) => this.client(client, e));
    for (const h of held) h.pins++;
    const gates = choices.map((c): GateSpec | null => {
      const b = c.entry.budget;
      if (!b) return null;
      const i = entries.findIndex((e) => e.name === c.entry.name);
      return {
        entry: c.entry.name, perGame: b.perGame, tournament: { counts, index: i, limit: b.perTournament }, owner: clientNumber(client), rates: this.shared(c.entry, held[i].window),
      };
    });
    let released = false;
    return {
      gates,
      release: () => {
        if (released) return;
        released = true;
        for (const h of held) h.pins--;
      },
    };
  }

  /** Client windows held (for tests: stale ones are dropped). */
  get size(): number {
    return this.windows.size;
  }

  /** The client's window (or how to find it), then the entry's host's and the server's. */
  private shared(entry: CatalogueEntry, mine: RateLimit['window']): RateLimit[] {
    return [{ scope: 'client-minute', window: mine }, { scope: 'host-minute', window: this.host(entry) }, { scope: 'server-minute', window: this.server }];
  }

  private host(entry: CatalogueEntry): RateWindow {
    let w = this.hostOf.get(entry.name);
    if (w) return w;
    const host = outsideHost(entry);
    w = this.hosts.get(host) ?? rateWindow(this.rates.outsideCallsPerHostMinute, { fair: true });
    this.hosts.set(host, w);
    this.hostOf.set(entry.name, w);
    return w;
  }

  private client(client: string, entry: CatalogueEntry): { window: RateWindow; pins: number } {
    const key = `${client}\n${entry.name}`;
    let c = this.windows.get(key);
    if (!c) {
      this.sweep();
      this.windows.set(key, (c = { window: rateWindow(entry.budget!.perClientMinute), pins: 0 }));
    }
    return c;
  }

  /** Once a window's length at most: drops the client windows nobody holds whose last call is a window old. */
  private sweep(): void {
    const t = this.now();
    if (t - this.sweptAt < 60_000) return;
    this.sweptAt = t;
    for (const [key, c] of this.windows) if (c.pins === 0 && lastCall(c.window) <= t - c.window.windowMs) this.windows.delete(key);
  }
}
