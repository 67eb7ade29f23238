import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { CzechPubEnv } from '../env/env.ts';
import { BotPool } from './bot-pool.ts';
import { Catalogue } from './catalogue.ts';
import { GameStore } from './games.ts';

const pools: BotPool[] = [];
function pool(decisionMs = 30_000, workers = 1) {
  const p = new BotPool({ workers, decisionMs, memoryMb: 256, maxQueued: 100 });
  pools.push(p);
  return p;
}
afterEach(() => {
  for (const p of pools.splice(0)) p.close();
});

const limits = { maxGames: 100, maxGamesPerClient: 100, idleMs: 600_000, maxOpenGames: 10 };
const seats = ['ismcts:iterations=20', 'heuristic', 'ismcts:iterations=20:rollout=greedy'];

describe('bot worker pool', () => {
  it('plays heavy bots on worker threads exactly as in this thread: the same game, action for action', async () => {
    const inline = await new GameStore(limits, new Catalogue(), null).create({ seats, seed: 'pool-same', reward: 'win' });
    const pooled = await new GameStore(limits, new Catalogue(), pool()).create({ seats, seed: 'pool-same', reward: 'win' });
    expect(inline.game.env.done).toBe(true);
    expect(pooled.game.faults).toEqual([]);
    expect(pooled.game.env.actions).toEqual(inline.game.env.actions);
  }, 120_000);

  it('stops a decision over its time limit with its worker, and a fresh worker takes the next', async () => {
    const env = new CzechPubEnv({ seed: 'pool-slow', players: 3 });
    while (env.legalActions().length < 2) env.step(env.legalActions()[0]);
    const d = { game: 'g', seat: env.currentPlayer, start: { seat: env.currentPlayer, players: 3, seed: 's' }, config: env.config, actions: env.actions, legal: env.legalActions() };
    const p = pool(40);
    await expect(p.decide({ ...d, spec: 'ismcts:iterations=1000' })).rejects.toThrow('over the 40 ms decision limit');
    expect(p.restarts).toBe(1);
    expect(d.legal).toContain(await p.decide({ ...d, spec: 'random' }));
  }, 60_000);

  it('stops a worker past its heap limit: the decision fails saying so, and the next worker starts afresh', async () => {
    const hog = new BotPool({ workers: 1, decisionMs: 60_000, memoryMb: 64, maxQueued: 10, module: new URL('../test/helpers/hog-worker.ts', import.meta.url) });
    pools.push(hog);
    const d = { game: 'g', seat: 0, spec: 'random', start: { seat: 0, players: 2, seed: 's' }, config: { seed: 's', players: 2 } as never, actions: [], legal: [0, 1] };
    await expect(hog.decide(d)).rejects.toThrow('over the 64 MB memory limit');
    expect(hog.restarts).toBe(1);
    // A fresh worker took its place and met the next decision (this one holds memory too).
    await expect(hog.decide(d)).rejects.toThrow('over the 64 MB memory limit');
    expect(hog.restarts).toBe(2);
  }, 60_000);

  it('a decision the workers cannot take plays the first legal action, recorded with the game, and the game goes on', async () => {
    const full = new BotPool({ workers: 1, decisionMs: 10_000, memoryMb: 128, maxQueued: 0 });
    pools.push(full);
    const { game } = await new GameStore(limits, new Catalogue(), full).create({ seats: ['ismcts', 'random'], seed: 'pool-full', reward: 'win' });
    expect(game.env.done).toBe(true);
    expect(game.faults.length).toBeGreaterThan(0);
    expect(game.faults.every((f) => f.seat === 0 && /bot workers are full/.test(f.reason))).toBe(true);
  });

  it('keeps the event loop free while searches run', async () => {
    const h = monitorEventLoopDelay({ resolution: 5 });
    h.enable();
    const store = new GameStore(limits, new Catalogue(), pool(30_000, 1));
    await Promise.all([0, 1].map((i) => store.create({ seats: ['ismcts:iterations=100', 'ismcts:iterations=100'], seed: `pool-loop/${i}`, reward: 'win' })));
    h.disable();
    // The searches (a whole game's worth, seconds) ran elsewhere: the loop's longest stall stays short.
    expect(h.max / 1e6).toBeLessThan(200);
  }, 180_000);

  it('fails at once past its queue limit, and after close', async () => {
    const p = new BotPool({ workers: 1, decisionMs: 10_000, memoryMb: 128, maxQueued: 0 });
    pools.push(p);
    const d = { game: 'g', seat: 0, spec: 'random', start: { seat: 0, players: 2, seed: 's' }, config: { seed: 's', players: 2 } as never, actions: [], legal: [0, 1] };
    await expect(p.decide(d)).rejects.toThrow(/bot workers are full/);
    p.close();
    await expect(p.decide(d)).rejects.toThrow(/stopping/);
  });
});
