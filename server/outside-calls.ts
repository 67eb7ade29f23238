/**
 * The server's side of bots that call a server elsewhere (llm and http entries): the gates of
 * their budgets (config.ts, agents/outside-calls.ts), handed to a live game's seats, to the act
 * route's bot and, as shared memory, to a tournament's worker threads; and what a client is
 * told when such a bot fails: the entry's name and the kind of failure. The model's name, the
 * server's address, the key's variable and the server's own words go to the operator's log.
 *
 * Per client and entry there is one minute cell, shared by the client's live games (which look
 * it up at every call) and its tournaments (which hold it, pinned, while they run). A cell
 * nobody holds is dropped once its minute is over: a new one starting at 0 then counts the same.
 */
import {
  budgetText, Gate, minuteCell, readMinute, sharedCounts, type Agent, type BudgetRefusal, type CallFaultKind, type GateSpec,
} from '../agents/index.ts';
import type { BotChoice, CatalogueEntry } from './catalogue.ts';

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

const minuteOf = (t: number) => Math.floor(t / 60_000);

export class OutsideCalls {
  private readonly cells = new Map<string, { cell: BigInt64Array; pins: number }>();
  private sweptAt = -1;

  constructor(
    /** The operator's log: what a client may not read of a failure. */
    readonly log: (line: string) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {}

  /** Gives a live game's seat (or the act route's bot) the gate of its entry's budget, for `client`. Entries without one are left as they are. */
  attach(agent: Agent, entry: CatalogueEntry, client: string): void {
    const b = entry.budget;
    if (!b) return;
    if (!agent.useGate) throw new Error(`bot '${entry.name}' has a budget but its agent takes no gate`);
    agent.useGate(new Gate({
      entry: entry.name, perGame: b.perGame, clientMinute: { cell: () => this.cell(client, entry.name).cell, limit: b.perClientMinute },
    }, this.now));
  }

  /**
   * A tournament's gates, one per choice (null for bots without a budget): one per-tournament
   * count per entry, the client's minute cells pinned until `release`.
   */
  tournament(choices: readonly BotChoice[], client: string): { gates: (GateSpec | null)[]; release: () => void } {
    const names = [...new Set(choices.filter((c) => c.entry.budget).map((c) => c.entry.name))];
    const counts = sharedCounts(names.length);
    const held = names.map((name) => this.cell(client, name));
    for (const h of held) h.pins++;
    const gates = choices.map((c): GateSpec | null => {
      const b = c.entry.budget;
      if (!b) return null;
      const i = names.indexOf(c.entry.name);
      return { entry: c.entry.name, perGame: b.perGame, tournament: { counts, index: i, limit: b.perTournament }, clientMinute: { cell: held[i].cell, limit: b.perClientMinute } };
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

  /** Minute cells held (for tests: stale ones are dropped). */
  get size(): number {
    return this.cells.size;
  }

  private cell(client: string, entry: string): { cell: BigInt64Array; pins: number } {
    const key = `${client}\n${entry}`;
    let c = this.cells.get(key);
    if (!c) {
      this.sweep();
      this.cells.set(key, (c = { cell: minuteCell(), pins: 0 }));
    }
    return c;
  }

  /** Once a minute at most: drops the cells of minutes over that nobody holds. */
  private sweep(): void {
    const minute = minuteOf(this.now());
    if (minute === this.sweptAt) return;
    this.sweptAt = minute;
    for (const [key, c] of this.cells) if (c.pins === 0 && readMinute(c.cell).minute < minute) this.cells.delete(key);
  }
}
