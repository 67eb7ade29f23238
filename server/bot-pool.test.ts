import { afterEach, describe, expect, it } from 'vitest';
import { IsmctsAgent } from '../agents/ismcts/ismcts.ts';
import { CzechPubEnv } from '../env/env.ts';
import { BotPool, DecisionError, searchTimeMs, type Decision } from './bot-pool.ts';
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

  it("keeps a bot's own error words from clients: the decision fails as 'the bot failed', the words kept for the operator's log", async () => {
    const env = new CzechPubEnv({ seed: 'pool-error', players: 3 });
    while (env.legalActions().length < 2) env.step(env.legalActions()[0]);
    const failed = await pool().decide({
      game: 'g', client: 'c', seat: env.actor, spec: 'ppo:/srv/operator-only/missing-model.json',
      start: { seat: env.actor, players: 3, seed: 's' }, config: env.config, actions: env.actions, legal: env.legalActions(),
    }).catch((e: DecisionError) => e);
    expect(failed).toBeInstanceOf(DecisionError);
    expect((failed as DecisionError).message).toBe('the bot failed');
    expect((failed as DecisionError).detail).toContain('/srv/operator-only/missing-model.json');
  }, 60_000);

  it('tells a search the time its decision has: it answers within it by itself, never stopped with its worker', async () => {
    const env = new CzechPubEnv({ seed: 'pool-slow', players: 6 });
    while (env.legalActions().length < 2) env.step(env.legalActions()[0]);
    const d = { seat: env.actor, start: { seat: env.actor, players: 6, seed: 's' }, config: env.config, actions: env.actions, legal: env.legalActions() };
    // What the search is told is its share of the worker's turn while another client waits
    // (turnMs 1000 between two clients: searchTimeMs(500), 450 ms), far below its limit of
    // 120 s: no load makes up the difference, and a hundred million iterations end on no
    // machine within it. An answer with no restart means it stopped at the time it was told.
    const p = new BotPool({ workers: 1, decisionMs: 120_000, turnMs: 1000, memoryMb: 256, maxQueued: 100 });
    pools.push(p);
    await p.warm();
    // A quick decision holds the worker while the search, then another client's decision, queue behind it.
    const first = p.decide({ ...d, game: 'ga', client: 'a', spec: 'random' });
    const search = p.decide({ ...d, game: 'gc', client: 'c', spec: 'ismcts:iterations=100000000:rollout=heuristic' });
    const other = p.decide({ ...d, game: 'gb', client: 'b', spec: 'random' });
    expect(d.legal).toContain(await search);
    await Promise.all([first, other]);
    expect(p.restarts).toBe(0);
  }, 300_000);

  it('stops a decision over its time limit with its worker, and a fresh worker takes the next', async () => {
    // A limit of 2 s: the stubborn decision never ends by itself, and the obedient one (no work)
    // answers well within it however busy the machine; the test asserts which is stopped, not how fast.
    const p = new BotPool({ workers: 1, decisionMs: 2000, memoryMb: 128, maxQueued: 10, module: new URL('../test/helpers/timed-worker.ts', import.meta.url) });
    pools.push(p);
    const d = { game: 'g', client: 'c', seat: 0, start: { seat: 0, players: 2, seed: 's' }, config: { seed: 's', players: 2 } as never, actions: [], legal: [0, 1] };
    await p.warm();
    await expect(p.decide({ ...d, spec: 'stubborn:600000' })).rejects.toThrow('over the 2000 ms decision limit');
    expect(p.restarts).toBe(1);
    await p.warm();
    expect(await p.decide({ ...d, spec: 'obedient:0' })).toBeGreaterThan(0);
    expect(p.restarts).toBe(1);
  }, 60_000);

  it('stops a worker past its heap limit: the decision fails saying so, and the next worker starts afresh', async () => {
    const hog = new BotPool({ workers: 1, decisionMs: 60_000, memoryMb: 64, maxQueued: 10, module: new URL('../test/helpers/hog-worker.ts', import.meta.url) });
    pools.push(hog);
    const d = { game: 'g', client: 'c', seat: 0, spec: 'random', start: { seat: 0, players: 2, seed: 's' }, config: { seed: 's', players: 2 } as never, actions: [], legal: [0, 1] };
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

  it('keeps the event loop free: every search runs on a worker thread, none in this one', async () => {
    // This thread's copy of the search (a worker thread loads its own): count the searches it runs.
    const act = IsmctsAgent.prototype.act;
    let here = 0;
    IsmctsAgent.prototype.act = function (this: IsmctsAgent, ...args: Parameters<typeof act>) {
      here++;
      return act.apply(this, args);
    };
    try {
      const game = { seats: ['ismcts:iterations=20', 'ismcts:iterations=20'], reward: 'win' as const };
      // Without a pool the searches run here: the count sees them.
      await new GameStore(limits, new Catalogue(), null).create({ ...game, seed: 'pool-loop/inline' });
      expect(here).toBeGreaterThan(20);
      here = 0;
      const p = pool(30_000, 1);
      let asked = 0;
      const decide = p.decide.bind(p);
      p.decide = (d) => {
        asked++;
        return decide(d);
      };
      const store = new GameStore(limits, new Catalogue(), p);
      const made = await Promise.all([0, 1].map((i) => store.create({ ...game, seed: `pool-loop/${i}` })));
      expect(made.every((m) => m.game.env.done && m.game.faults.length === 0)).toBe(true);
      expect(asked).toBeGreaterThan(20);
      expect(here).toBe(0);
    } finally {
      IsmctsAgent.prototype.act = act;
    }
  }, 180_000);

  it('fails at once past its queue limit, and after close', async () => {
    const p = new BotPool({ workers: 1, decisionMs: 10_000, memoryMb: 128, maxQueued: 0 });
    pools.push(p);
    const d = { game: 'g', client: 'c', seat: 0, spec: 'random', start: { seat: 0, players: 2, seed: 's' }, config: { seed: 's', players: 2 } as never, actions: [], legal: [0, 1] };
    await expect(p.decide(d)).rejects.toThrow(/bot workers are full/);
    p.close();
    await expect(p.decide(d)).rejects.toThrow(/stopping/);
  });
});

describe('bot worker pool: scheduling', () => {
  const timed = (decisionMs: number, turnMs?: number) => {
    const p = new BotPool({ workers: 1, decisionMs, turnMs, memoryMb: 128, maxQueued: 100, module: new URL('../test/helpers/timed-worker.ts', import.meta.url) });
    pools.push(p);
    return p;
  };
  const decision = (client: string, spec: string, game = `${client}-game`, wanted?: () => boolean): Decision => ({
    game, client, seat: 0, spec, start: { seat: 0, players: 2, seed: 's' }, config: { seed: 's', players: 2 } as never, actions: [], legal: [0, 1], wanted,
  });
  /** The worker is started: the tests' orders begin with it ready. */
  const warm = (p: BotPool) => p.warm();

  it('serves clients in turn: one client\'s backlog delays another\'s decision by at most the one running', async () => {
    const p = timed(60_000, 1); // every turn one decision
    await warm(p);
    const order: string[] = [];
    const send = (client: string, k: number) => p.decide(decision(client, 'stubborn:20')).then(() => order.push(`${client}${k}`));
    const all = [1, 2, 3, 4, 5, 6].map((k) => send('a', k));
    all.push(send('b', 1), send('b', 2));
    await Promise.all(all);
    expect(order).toEqual(['a1', 'b1', 'a2', 'b2', 'a3', 'a4', 'a5', 'a6']);
  }, 30_000);

  it("gives a client's decisions in a row one turn, at most one budget of worker time, while another client keeps the worker busy", async () => {
    // A budget of 2000 ms: h's 400 ms decisions end far within it (a busy machine stops none); what is counted is the work each was told.
    const p = timed(2000);
    await warm(p);
    const order: string[] = [];
    /** Worker time each of h's decisions was let run: the 400 ms it asks, or less if told less. */
    const work = new Map<string, number>();
    let flooding = true;
    let h = 0;
    const heavy = async (): Promise<void> => {
      while (flooding) {
        const k = ++h;
        const told = await p.decide(decision('h', 'obedient:400', `h${k % 3}`)).catch(() => 0);
        work.set(`h${k}`, Math.min(400, told));
        order.push(`h${k}`);
      }
    };
    const floods = [heavy(), heavy()];
    await new Promise((r) => setTimeout(r, 100));
    const arrived = order.length;
    for (const k of [1, 2, 3]) {
      await p.decide(decision('l', 'obedient:5', 'l'));
      order.push(`l${k}`);
    }
    flooding = false;
    await Promise.all(floods);
    const at = order.indexOf('l1');
    expect(order.slice(at, at + 3)).toEqual(['l1', 'l2', 'l3']);
    // What l waited for: the h decisions that ended after it asked, before its turn. They are
    // the rest of h's turn, told only what the turn had left: together at most one budget.
    const before = order.slice(arrived, at);
    expect(before.every((x) => x.startsWith('h'))).toBe(true);
    expect(before.reduce((sum, x) => sum + work.get(x)!, 0)).toBeLessThanOrEqual(2000);
  }, 30_000);

  it('starts the budget when a decision starts: one that waited past it is told the whole of it', async () => {
    const p = timed(3000);
    await warm(p);
    // Ten decisions of 400 ms in a row hold the worker past the eleventh's budget while it waits
    // (their time is wall-clock, so a busy machine only lengthens the wait). Each works for a
    // small part of the budget (400 ms, then 100 ms, of 3000), so none comes near its limit:
    // what is asserted is the time each was told, not how long anything took.
    const before = Array.from({ length: 10 }, () => p.decide(decision('a', 'stubborn:400')));
    const waited = p.decide(decision('a', 'obedient:100'));
    const told = await Promise.all([...before, waited]);
    // Alone on the worker, each was told its whole budget, the last one too, and nothing was stopped.
    expect(new Set(told)).toEqual(new Set([searchTimeMs(3000)]));
    expect(p.restarts).toBe(0);
  }, 60_000);

  it('stops a decision over its budget with its worker while another waits, and runs the one waiting on a fresh worker', async () => {
    const p = timed(2000, 1); // a turn is one decision: clients take the worker in turn
    await warm(p);
    const events: string[] = [];
    const hog = p.decide(decision('a', 'stubborn:5000')).catch((e: Error) => {
      events.push('hog stopped');
      return e;
    });
    // b waits behind the hog past its own budget: it is not failed for it, it runs once a worker is free.
    const waiter = p.decide(decision('b', 'tally')).then((n) => {
      events.push('waiter ran');
      return n;
    });
    expect(((await hog) as Error).message).toContain('over the 2000 ms decision limit');
    expect(await waiter).toBe(0); // the first decision of the fresh worker
    expect(events).toEqual(['hog stopped', 'waiter ran']);
    expect(p.restarts).toBe(1);
  }, 30_000);

  it('holds 19 flooding clients to one turn each ahead of a twentieth: its decisions never fail, each waits at most one turn per other client', async () => {
    // 20 clients share 1000 ms of worker: a turn is the least there is (MIN_TURN_LEFT_MS), one decision.
    const p = timed(1000);
    await warm(p);
    const ran: string[] = []; // one worker: the order decisions end in is the order they ran in
    let flooding = true;
    const floods = Array.from({ length: 19 }, (_, c) => Array.from({ length: 4 }, async (_, g) => {
      while (flooding) {
        await p.decide(decision(`c${c}`, 'obedient:20', `c${c}/g${g}`));
        ran.push(`c${c}`);
      }
    })).flat();
    while (ran.length < 100) await new Promise((r) => setTimeout(r, 10));
    const asked = ran.length;
    const told: number[] = [];
    for (let k = 0; k < 5; k++) {
      told.push(await p.decide(decision('victim', 'obedient:20')));
      ran.push('victim');
    }
    flooding = false;
    await Promise.all(floods);
    const mine = ran.flatMap((x, i) => (x === 'victim' ? [i] : []));
    // Its first decision, from a client never served, went right after the one running.
    expect(mine[0] - asked).toBeLessThanOrEqual(1);
    // Each next one waited for at most one decision of each other client, all of whom were served after it.
    for (let k = 1; k < mine.length; k++) {
      const between = ran.slice(mine[k - 1] + 1, mine[k]);
      expect(between.length, `before victim's decision ${k}`).toBeLessThanOrEqual(19);
      expect(new Set(between).size).toBe(between.length);
    }
    // Each was told its share of the worker (1000 ms / 20 clients, less what it keeps for its answer), none failed.
    expect(told).toEqual(Array(5).fill(searchTimeMs(50)));
    expect(p.restarts).toBe(0);
  }, 60_000);

  it("makes room in a full queue from the client holding the most waiting decisions: its newest fails, another client's goes in", async () => {
    const p = new BotPool({ workers: 1, decisionMs: 60_000, memoryMb: 128, maxQueued: 4, module: new URL('../test/helpers/timed-worker.ts', import.meta.url) });
    pools.push(p);
    await warm(p);
    const settled: string[] = [];
    const send = (client: string, k: number) => p.decide(decision(client, 'stubborn:100', `${client}${k}`)).then(
      () => void settled.push(`${client}${k} ran`),
      (e: Error) => void settled.push(`${client}${k}: ${e.message}`),
    );
    const all = [send('a', 1), send('a', 2), send('a', 3), send('b', 1)];
    // Full: b holds one, a two waiting (and one running), so a's newest makes room for b's second; a third of a's is refused.
    all.push(send('b', 2), send('a', 4));
    await Promise.all(all);
    expect(settled).toContain('a3: the bot workers are full (4 decisions waiting)');
    expect(settled).toContain('a4: the bot workers are full (4 decisions waiting)');
    expect(settled.filter((x) => x.endsWith('ran')).sort()).toEqual(['a1 ran', 'a2 ran', 'b1 ran', 'b2 ran']);
  }, 30_000);

  it("drops an abandoned game's queued decisions unrun, and serves the next game's at once", async () => {
    const p = timed(60_000);
    await warm(p);
    let wanted = true;
    const running = p.decide(decision('a', 'stubborn:200', 'g0'));
    const abandoned = [1, 2, 3].map(() => p.decide(decision('a', 'stubborn:500', 'g1', () => wanted)));
    const gone = [1, 2].map(() => p.decide(decision('a', 'stubborn:500', 'g2')));
    const next = p.decide(decision('a', 'tally', 'g3'));
    const lost = Promise.allSettled([...abandoned, ...gone]);
    wanted = false;
    p.drop('g2');
    for (const r of await lost) expect(r.status === 'rejected' && r.reason instanceof DecisionError && r.reason.code).toBe('dropped');
    await running;
    // g3's decision was the next the worker ran: before it, g0's alone, none of the five dropped.
    expect(await next).toBe(1);
    expect(p.queued).toBe(0);
  }, 30_000);
});
