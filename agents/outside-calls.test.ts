import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { tsWorker } from '../eval/ts-worker.ts';
import { costCells, costSpent, Gate, minuteCell, readMinute, sharedCounts, type CallSpend, type GateSpec } from './outside-calls.ts';

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

  it('counts a client\'s calls in fixed one-minute windows, shared by every gate on the cell', () => {
    const clock = { t: 5 * 60_000 + 10 };
    const cell = minuteCell();
    const spec: GateSpec = { entry: 'relay', clientMinute: { cell, limit: 4 } };
    const a = new Gate(spec, () => clock.t);
    const b = new Gate(spec, () => clock.t);
    expect(takes(a, 3).every((r) => r === null)).toBe(true);
    expect(b.take()).toBeNull();
    expect(b.take()).toEqual({ entry: 'relay', scope: 'client-minute', limit: 4 });
    expect(a.take()).not.toBeNull();
    clock.t = 6 * 60_000 - 1; // still the same minute
    expect(a.take()).not.toBeNull();
    expect(readMinute(cell)).toEqual({ minute: 5, count: 4 });
    clock.t = 6 * 60_000; // the next window
    expect(takes(b, 6).filter((r) => r === null)).toHaveLength(4);
    expect(readMinute(cell)).toEqual({ minute: 6, count: 4 });
    // Another client's cell is its own.
    const other = new Gate({ entry: 'relay', clientMinute: { cell: minuteCell(), limit: 4 } }, () => clock.t);
    expect(other.take()).toBeNull();
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
    const cell = minuteCell();
    const gate = new Gate({ entry: 'gpt', perGame: 100, tournament: { counts, index: 0, limit: 2 }, clientMinute: { cell, limit: 10 } }, () => 0);
    expect(takes(gate, 5).map((r) => r?.scope ?? 'ok')).toEqual(['ok', 'ok', 'tournament', 'tournament', 'tournament']);
    expect(counts[0]).toBe(2);
    expect(readMinute(cell).count).toBe(2);
  });

  it('is exact across worker threads: four threads racing for one tournament count and one minute cell', async () => {
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
    const cell = minuteCell();
    const perMinute = await run({ entry: 'gpt', clientMinute: { cell, limit: 3000 } }, 1000);
    expect(perMinute.reduce((a, b) => a + b, 0)).toBe(3000);
    expect(readMinute(cell).count).toBe(3000);
  }, 60_000);
});
