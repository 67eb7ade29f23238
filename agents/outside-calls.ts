/**
 * Calls to servers elsewhere (an `llm` agent's model server, an `http` agent's bot): the kinds
 * of failure, the error an agent throws to stop its game, and the budgets a server sets on
 * them. A budget is a gate the agent asks before each request it sends (corrections and fault
 * retries are requests too), so a bound is exact, never counted after the fact:
 *
 * | budget | counted in | shared by |
 * |---|---|---|
 * | per game | the agent (one seat), started again at each game | that seat |
 * | per tournament | one Int32 slot of a SharedArrayBuffer | every worker thread of the tournament |
 * | per client and entry, a minute | a sliding window (RateWindow) of the client's calls | the client's live games (main thread) and tournaments (worker threads) |
 * | per host, a minute | a sliding window shared fairly by clients | every entry whose server is on that host |
 * | server-wide, a minute | a sliding window shared fairly by clients | every entry of the server |
 *
 * The rates count calls in any window of a minute, never in fixed minutes: a fixed window lets
 * twice its limit through within a second across its boundary. A shared window serves clients
 * in turn: a client already holding its share of it is refused while the window fills (see
 * RateWindow), so one client's burst never takes another's place for the rest of the minute.
 * A refused call is not sent and takes nothing from any budget. Without a gate (the CLI) an
 * agent calls without limit.
 */

import { giveBack, takeWindow, type RateWindow, type WindowClaim } from './rate-window.ts';

export { fairShare, lastCall, OWNERS, rateWindow, takeWindow, windowCalls, type RateWindow } from './rate-window.ts';

/** What a client may be told of a failed call: the kind, never the outside server's own words. */
export const CALL_FAULT_KINDS = ['authentication', 'refused', 'rate-limited', 'server-error', 'timeout', 'unreachable', 'failed', 'budget'] as const;
export type CallFaultKind = (typeof CALL_FAULT_KINDS)[number];

/** Which budget or rate refused a call: a seat's game, a tournament, the client's minute of an entry, the host's or the server's minute, a run's cost. */
export const BUDGET_SCOPES = ['game', 'tournament', 'client-minute', 'host-minute', 'server-minute', 'cost'] as const;
export type BudgetScope = (typeof BUDGET_SCOPES)[number];

/** Which budget refused a call: the catalogue entry, the budget, its limit. */
export interface BudgetRefusal {
  entry: string;
  scope: BudgetScope;
  limit: number;
}

/**
 * An agent stops its game on purpose (a model server that failed every decision, a budget
 * spent): a tournament stops there and keeps the games it finished; a live game plays the
 * seat's fallback. The message may hold what only the operator may read (a model's name, a
 * server's address or its words); `kind` is what a client is told.
 */
export class AgentStopError extends Error {
  override name = 'AgentStopError';
  /** The seat whose agent stopped, set by the game that was playing it (eval/game.ts). */
  seat?: number;
  constructor(message: string, readonly kind: CallFaultKind, readonly budget?: BudgetRefusal) {
    super(message);
  }
}

const SCOPE_TEXT: Record<BudgetScope, (limit: number) => string> = {
  game: (n) => `per-game budget of ${n} calls (a seat's calls in one game)`,
  tournament: (n) => `per-tournament budget of ${n} calls`,
  'client-minute': (n) => `budget of ${n} calls a minute per client`,
  // The host's and the server's rates are shared: a client is refused at its share of them, all of them when it calls alone.
  'host-minute': (n) => `share of the server's ${n} calls a minute to its host`,
  'server-minute': (n) => `share of the server's ${n} calls a minute to servers elsewhere`,
  cost: (usd) => `run's cost budget of $${usd} (its next call's worst case, its prompt and token limit at the model's prices, would pass it)`,
};

/** "bot 'gpt' reached its per-tournament budget of 5000 calls": names only the operator's entry and its budget. */
export function budgetText(r: BudgetRefusal): string {
  return r.scope === 'cost' ? `bot '${r.entry}' would pass the ${SCOPE_TEXT.cost(r.limit)}` : `bot '${r.entry}' reached its ${SCOPE_TEXT[r.scope](r.limit)}`;
}

/** A call the gate refused: nothing was sent. */
export class BudgetSpentError extends AgentStopError {
  override name = 'BudgetSpentError';
  constructor(readonly refusal: BudgetRefusal) {
    super(budgetText(refusal), 'budget', refusal);
  }
}

/** What one request the gate let through was charged, as its answer said. */
export interface CallSpend {
  promptTokens: number;
  /** Of the prompt tokens, those read from the server's prompt cache. */
  cachedTokens: number;
  completionTokens: number;
  /** Of the completion tokens, those spent reasoning. */
  reasoningTokens: number;
  /** The cost the server reported (usage.cost), or null where it reported none. */
  cost: number | null;
}

/** The most a request can be charged: its prompt's tokens at most, and the answer's token limit. */
export interface CallBound {
  promptTokens: number;
  completionTokens: number;
}

/**
 * What a request the gate let through is charged, when it is over: its usage as the server
 * reported it; `bound` where the server may have billed it but reported nothing (an answer
 * without usage, a connection lost mid-answer, a timeout): its worst case; null where nothing
 * was billed (refused before any work).
 */
export type CallCharge = CallSpend | 'bound' | null;

/** Asked before each request to an outside server. */
export interface CallGate {
  /**
   * Takes one call from every budget: null when it may be sent, else the budget that is spent
   * (then nothing is taken). A cost budget reserves the call's worst case (`bound`: needed
   * with one) and refuses a call whose worst case would take the spend past the limit.
   */
  take(bound?: CallBound): BudgetRefusal | null;
  /** The agent begins a game: the per-game count starts again. */
  newGame(): void;
  /**
   * Told once for every request take() let through, when it is over: what it was charged
   * (CallCharge). For a budget of tokens or money; a gate of call counts has no need of it.
   */
  settle?(charge: CallCharge): void;
}

/** US dollars per million tokens. */
export interface Price {
  promptPerMillion: number;
  completionPerMillion: number;
}

/** What tokens cost at a price, in US dollars: the one formula of every cost estimate. */
export function tokenCost(promptTokens: number, completionTokens: number, price: Price): number {
  return (promptTokens * price.promptPerMillion + completionTokens * price.completionPerMillion) / 1e6;
}

/**
 * A run's spending limit, shared by every gate of the run (and by worker threads: the cells
 * are shared memory). Amounts are kept in nanodollars so they add up exactly and atomically.
 */
export interface CostBudget {
  limitUsd: number;
  /** costCells(): committed (spent plus the worst case of the calls in flight), spent, calls settled. */
  cells: BigInt64Array;
  /** This entry's price: what a call's tokens cost, its worst case and the answers whose cost the server does not report. */
  price: Price;
}

const NANO = 1e9;
const COMMITTED = 0;
const SPENT = 1;
const SETTLED = 2;

/** The cells of a new cost budget, with what was already spent (a resumed run's earlier part) in them. */
export function costCells(spentUsd = 0): BigInt64Array {
  const cells = new BigInt64Array(new SharedArrayBuffer(8 * 3));
  const spent = BigInt(Math.round(spentUsd * NANO));
  cells[COMMITTED] = spent;
  cells[SPENT] = spent;
  return cells;
}

/** What the budget's calls have cost so far, in US dollars (a call with no usage reported at its worst case). */
export function costSpent(cells: BigInt64Array): number {
  return Number(Atomics.load(cells, SPENT)) / NANO;
}

/** What a call is charged at a price: its reported cost or tokens, its worst case, or nothing. */
export function chargeCost(charge: CallCharge, bound: CallBound, price: Price): number {
  if (charge === null) return 0;
  if (charge === 'bound') return tokenCost(bound.promptTokens, bound.completionTokens, price);
  return charge.cost ?? tokenCost(charge.promptTokens, charge.completionTokens, price);
}

/** A shared count with its limit: one slot of an Int32Array over a SharedArrayBuffer. */
export interface SharedCount {
  counts: Int32Array;
  index: number;
  limit: number;
}

/** A rate a gate takes from: a sliding window (rate-window.ts), or where to find the current one, and what a refusal names. */
export interface RateLimit {
  scope: 'client-minute' | 'host-minute' | 'server-minute';
  window: RateWindow | (() => RateWindow);
}

/** What a gate is made of: plain data and shared memory, so it can be sent to worker threads. */
export interface GateSpec {
  /** The catalogue entry whose budget this is: what a refusal names. */
  entry: string;
  perGame?: number;
  tournament?: SharedCount;
  /** Calls a minute: the client's of this entry, its host's, the server's; a call is taken from all of them or none. */
  rates?: RateLimit[];
  /** The client's number in the shared windows (rate-window.ts OWNERS): its share is counted by it. */
  owner?: number;
  /** The run's cost budget: a call is refused when what it is expected to cost would take the spend past the limit. */
  cost?: CostBudget;
}

export function sharedCounts(n: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4 * Math.max(1, n)));
}

/** Takes one from a count below its limit; false (nothing taken) at the limit. */
export function takeCount(c: SharedCount): boolean {
  for (;;) {
    const n = Atomics.load(c.counts, c.index);
    if (n >= c.limit) return false;
    if (Atomics.compareExchange(c.counts, c.index, n, n + 1) === n) return true;
  }
}

export class Gate implements CallGate {
  private inGame = 0;
  /** Of the cost budget: the call in flight's worst case, reserved (nanodollars), and its bound. */
  private reserved = 0n;
  private bound: CallBound = { promptTokens: 0, completionTokens: 0 };

  constructor(private readonly spec: GateSpec, private readonly now: () => number = Date.now) {}

  newGame(): void {
    this.inGame = 0;
  }

  take(bound?: CallBound): BudgetRefusal | null {
    const { entry, perGame, tournament, rates = [], owner = 0 } = this.spec;
    if (perGame !== undefined && this.inGame >= perGame) return { entry, scope: 'game', limit: perGame };
    if (tournament && !takeCount(tournament)) return { entry, scope: 'tournament', limit: tournament.limit };
    const cost = this.spec.cost;
    if (cost && !this.reserve(cost, bound)) {
      if (tournament) Atomics.sub(tournament.counts, tournament.index, 1);
      return { entry, scope: 'cost', limit: cost.limitUsd };
    }
    // The rates last: a call is taken from every window or, given back, from none.
    const now = this.now();
    const claims: WindowClaim[] = [];
    for (const r of rates) {
      const w = typeof r.window === 'function' ? r.window() : r.window;
      const claim = takeWindow(w, now, owner);
      if (claim) {
        claims.push(claim);
        continue;
      }
      for (const c of claims) giveBack(c);
      if (tournament) Atomics.sub(tournament.counts, tournament.index, 1);
      if (cost) this.unreserve(cost);
      return { entry, scope: r.scope, limit: w.slots.length };
    }
    this.inGame++;
    return null;
  }

  /**
   * Reserves the call's worst case (its bound at the price): false, reserving nothing, when
   * the spend and the worst cases of the calls in flight would pass the limit with it.
   */
  private reserve(b: CostBudget, bound: CallBound | undefined): boolean {
    if (!bound) throw new Error('a cost budget needs the bound of each call');
    const worst = BigInt(Math.ceil(tokenCost(bound.promptTokens, bound.completionTokens, b.price) * NANO));
    const limit = BigInt(Math.round(b.limitUsd * NANO));
    for (;;) {
      const committed = Atomics.load(b.cells, COMMITTED);
      if (committed + worst > limit) return false;
      if (Atomics.compareExchange(b.cells, COMMITTED, committed, committed + worst) === committed) {
        this.reserved = worst;
        this.bound = bound;
        return true;
      }
    }
  }

  /** Gives back the reservation of a call refused after it was made. */
  private unreserve(b: CostBudget): void {
    Atomics.sub(b.cells, COMMITTED, this.reserved);
    this.reserved = 0n;
  }

  settle(charge: CallCharge): void {
    const b = this.spec.cost;
    if (!b) return;
    const cost = BigInt(Math.round(chargeCost(charge, this.bound, b.price) * NANO));
    // The reservation becomes what the call cost.
    Atomics.add(b.cells, COMMITTED, cost - this.reserved);
    this.reserved = 0n;
    Atomics.add(b.cells, SPENT, cost);
    Atomics.add(b.cells, SETTLED, 1n);
  }
}
