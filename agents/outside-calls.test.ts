import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { tsWorker } from '../eval/ts-worker.ts';
import { costCells, costSpent, Gate, rateWindow, sharedCounts, windowCalls, type CallSpend, type GateSpec } from './outside-calls.ts';

const takes = (gate: Gate, n: number) => Array.from({ length: n }, () => gate.take());

describe('a gate on outside calls', () => {
  it('allows exactly perGame calls a game, and starts again with each game', () => {
    const gate = new Gate({ entry: 'gpt', perGame: 3 });
    const first = takes(gate, 5);
    expect(first.slice(0, 3)).toEqual([null, null, null]);
    expect(first.slice(3)).toEqual([{ entry: 'gpt', scope: 'game', limit: 3 }, { entry: 'gpt', scope: 'game', limit: 3 }]);
    gate.newGame();
    expect(takes(gate, 4).filter((r) => r === null)).toHaveLength(3);
  });

  it("counts a client's calls in any minute, a sliding window shared by every gate on it", () => {
    const clock = { t: 5 * 60_000 + 59_000 };
    const window = rateWindow(4);
    const spec: GateSpec = { entry: 'relay', rates: [{ scope: 'client-minute', window }] };
    const a = new Gate(spec, () => clock.t);
    const b = new Gate(spec, () => clock.t);
    expect(takes(a, 3).every((r) => r === null)).toBe(true);
    expect(b.take()).toBeNull();
    expect(b.take()).toEqual({ entry: 'relay', scope: 'client-minute', limit: 4 });
    // A fixed minute would start again here, a second later: a sliding one counts the last 60 s.
    clock.t = 6 * 60_000 + 1000;
    expect(a.take()).not.toBeNull();
    clock.t = 6 * 60_000 + 59_000 - 1;
    expect(a.take()).not.toBeNull();
    expect(windowCalls(window, clock.t).calls).toBe(4);
    clock.t = 6 * 60_000 + 59_000; // a minute after the four calls
    expect(takes(b, 6).filter((r) => r === null)).toHaveLength(4);
    expect(windowCalls(window, clock.t).calls).toBe(4);
    // Another client's window is its own.
    const other = new Gate({ entry: 'relay', rates: [{ scope: 'client-minute', window: rateWindow(4) }] }, () => clock.t);
    expect(other.take()).toBeNull();
  });

  it("takes a call from every rate or from none: a shared window's refusal gives back the client's", () => {
    const mine = rateWindow(10);
    const host = rateWindow(3, { fair: true });
    const gate = new Gate({ entry: 'gpt', owner: 7, rates: [{ scope: 'client-minute', window: mine }, { scope: 'host-minute', window: () => host }] }, () => 1000);
    // Alone, the client may hold half of the host's three: one call.
    expect(takes(gate, 3).map((r) => r?.scope ?? 'ok')).toEqual(['ok', 'host-minute', 'host-minute']);
    expect(gate.take()).toEqual({ entry: 'gpt', scope: 'host-minute', limit: 3 });
    expect(windowCalls(mine, 1000).calls).toBe(1);
    expect(windowCalls(host, 1000)).toEqual({ calls: 1, mine: 0, clients: 1 });
  });

  it("reserves each call's worst case before it is sent, and refuses the call that would pass the run's budget, shared by every gate", () => {
    // $1 per million tokens in and out: a call bounded by 600 prompt and 400 answer tokens may cost $0.001.
    const price = { promptPerMillion: 1, completionPerMillion: 1 };
    const bound = { promptTokens: 600, completionTokens: 400 };
    const cells = costCells();
    const a = new Gate({ entry: 'gpt', cost: { limitUsd: 0.003, cells, price } });
    const b = new Gate({ entry: 'other', cost: { limitUsd: 0.003, cells, price } });
    const answer = (tokens: number, cost: number | null = null): CallSpend => ({ promptTokens: tokens, cachedTokens: 0, completionTokens: 0, reasoningTokens: 0, cost });
    expect(a.take(bound)).toBeNull();
    a.settle(answer(300));
    expect(costSpent(cells)).toBeCloseTo(0.0003, 12);
    // In flight, each reserves its worst case: 0.0003 + 0.001 + 0.001 <= 0.003; a third would pass it.
    expect(b.take(bound)).toBeNull();
    expect(a.take(bound)).toBeNull();
    expect(new Gate({ entry: 'third', cost: { limitUsd: 0.003, cells, price } }).take(bound)).toEqual({ entry: 'third', scope: 'cost', limit: 0.003 });
    a.settle(null); // refused before any work: its reservation is given back, nothing spent
    b.settle(answer(0, 0.0005)); // the server's reported cost wins over the price
    expect(costSpent(cells)).toBeCloseTo(0.0008, 12);
    // An answer without usage is charged its worst case.
    expect(a.take(bound)).toBeNull();
    a.settle('bound');
    expect(costSpent(cells)).toBeCloseTo(0.0018, 12);
    expect(a.take(bound)).toBeNull();
    a.settle(answer(1000));
    // Spent 0.0028: a worst case of 0.001 would pass 0.003; a call bounded smaller fits.
    expect(a.take(bound)).toEqual({ entry: 'gpt', scope: 'cost', limit: 0.003 });
    expect(b.take({ promptTokens: 100, completionTokens: 100 })).toBeNull();
    b.settle(answer(200));
    expect(costSpent(cells)).toBeCloseTo(0.003, 12);
    expect(b.take({ promptTokens: 1, completionTokens: 0 })).toEqual({ entry: 'other', scope: 'cost', limit: 0.003 });
  });

  it('counts what a resumed run spent before, and gives back the other budgets when the cost refuses', () => {
    const counts = sharedCounts(1);
    const cells = costCells(0.002);
    const gate = new Gate({ entry: 'gpt', tournament: { counts, index: 0, limit: 10 }, cost: { limitUsd: 0.002, cells, price: { promptPerMillion: 1, completionPerMillion: 1 } } });
    expect(gate.take({ promptTokens: 1, completionTokens: 1 })).toEqual({ entry: 'gpt', scope: 'cost', limit: 0.002 });
    expect(counts[0]).toBe(0);
  });

  it('takes nothing from any budget for a call it refuses', () => {
    const counts = sharedCounts(1);
    const window = rateWindow(10);
    const gate = new Gate({ entry: 'gpt', perGame: 100, tournament: { counts, index: 0, limit: 2 }, rates: [{ scope: 'client-minute', window }] }, () => 0);
    expect(takes(gate, 5).map((r) => r?.scope ?? 'ok')).toEqual(['ok', 'ok', 'tournament', 'tournament', 'tournament']);
    expect(counts[0]).toBe(2);
    expect(windowCalls(window, 0).calls).toBe(2);
    // The other way round: the window refuses, and the tournament's count is given back.
    const full = new Gate({ entry: 'gpt', tournament: { counts, index: 0, limit: 100 }, rates: [{ scope: 'client-minute', window }] }, () => 0);
    expect(takes(full, 10).filter((r) => r === null)).toHaveLength(8);
    expect(counts[0]).toBe(10);
  });

  it('is exact across worker threads: four threads racing for one tournament count and one window', async () => {
    const run = async (spec: GateSpec, tries: number) => {
      const go = sharedCounts(1);
      const workers = Array.from({ length: 4 }, () => tsWorker(new URL('../test/helpers/gate-worker.ts', import.meta.url), { workerData: { spec, tries, go } }));
      try {
        await Promise.all(workers.map((w) => once(w, 'message')));
        const allowed = workers.map(async (w) => (await once(w, 'message'))[0] as number);
        Atomics.store(go, 0, 1);
        Atomics.notify(go, 0);
        return await Promise.all(allowed);
      } finally {
        await Promise.all(workers.map((w) => w.terminate()));
      }
    };
    const counts = sharedCounts(2);
    const byThread = await run({ entry: 'gpt', tournament: { counts, index: 1, limit: 2500 } }, 2000);
    expect(byThread.reduce((a, b) => a + b, 0)).toBe(2500);
    expect(byThread.every((n) => n <= 2000)).toBe(true);
    expect([counts[0], counts[1]]).toEqual([0, 2500]);
    const window = rateWindow(3000);
    const perMinute = await run({ entry: 'gpt', rates: [{ scope: 'client-minute', window }] }, 1000);
    expect(perMinute.reduce((a, b) => a + b, 0)).toBe(3000);
    expect(windowCalls(window, 0).calls).toBe(3000);
  }, 60_000);
});
