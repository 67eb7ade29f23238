import { describe, expect, it } from 'vitest';
import { Catalogue } from './catalogue.ts';
import { ApiError, GameStore, type LiveGame, type StoreLimits } from './games.ts';

function store(maxGames = 2, idleMs = 60_000, maxGamesPerClient = 100, more: Partial<StoreLimits> = {}) {
  const clock = { t: 1_000_000 };
  return { clock, games: new GameStore({ maxGames, idleMs, maxGamesPerClient, maxOpenGames: 2, ...more }, new Catalogue(), null, () => clock.t) };
}

/**
 * A store whose clock moves 1 ms at each reading: its bots' slices (INLINE_SLICE_MS, measured
 * on the store's clock when a test gives one) end after a count of readings, so every few
 * decisions, however fast or busy the machine.
 */
function tickingStore(more: Partial<StoreLimits> = {}) {
  const clock = { t: 1_000_000 };
  return { clock, games: new GameStore({ maxGames: 10, idleMs: 600_000, maxGamesPerClient: 100, maxOpenGames: 2, ...more }, new Catalogue(), null, () => (clock.t += 1)) };
}

/** Calls `f` at every turn of the event loop (setImmediate: no real time has to pass) until the returned stop is called. */
function everyTurn(f: () => void): () => void {
  let on = true;
  const turn = () => {
    if (!on) return;
    f();
    setImmediate(turn);
  };
  setImmediate(turn);
  return () => void (on = false);
}

const status = (f: () => unknown): number | null => {
  try {
    f();
    return null;
  } catch (e) {
    return e instanceof ApiError ? e.status : -1;
  }
};

describe('GameStore limits', () => {
  it('expires a game left idle longer than idleMs (404 after), and each request keeps a game alive', async () => {
    const { clock, games } = store();
    const { game: kept } = await games.create({ seats: ['remote', 'random'], seed: 'a', reward: 'win' });
    const { game: left } = await games.create({ seats: ['remote', 'random'], seed: 'b', reward: 'win' });
    for (let i = 0; i < 3; i++) {
      clock.t += 40_000;
      expect(status(() => games.get(kept.id))).toBeNull();
    }
    expect(status(() => games.get(left.id))).toBe(404);
    expect(games.size).toBe(1);
  });

  it('never expires a game a request is waiting on, however long its bots take; idle after, it goes', async () => {
    // A bot decided in a worker (a stand-in pool): its decision takes as long as the test says.
    const decided: (() => void)[] = [];
    const pool = {
      decide: (d: { legal: readonly number[] }) => new Promise<number>((done) => decided.push(() => done(d.legal[0]))),
      drop: () => undefined,
    } as unknown as ConstructorParameters<typeof GameStore>[2];
    const clock = { t: 1_000_000 };
    const games = new GameStore({ maxGames: 10, idleMs: 60_000, maxGamesPerClient: 10, maxOpenGames: 2 }, new Catalogue(), pool, () => clock.t);
    const made = games.create({ seats: ['ismcts', 'remote'], seed: 'slow-bot', reward: 'win', signal: new AbortController().signal });
    let finished = false;
    void made.then(() => (finished = true));
    let decisions = 0;
    while (!finished) {
      if (decided.length === 0) {
        await new Promise((r) => setImmediate(r));
        continue;
      }
      clock.t += 100_000; // each decision longer than idleMs
      games.expire(true);
      expect(games.size).toBe(1);
      decided.shift()!();
      decisions++;
    }
    expect(decisions).toBeGreaterThan(1);
    const { game } = await made;
    expect(status(() => games.get(game.id))).toBeNull();
    // Nobody waits on it now: left idle, it goes.
    clock.t += 60_001;
    games.expire(true);
    expect(status(() => games.get(game.id))).toBe(404);
  });

  it('refuses a game over the limit with 429, and an expired game frees its place at once', async () => {
    const { clock, games } = store(1);
    await games.create({ seats: ['remote', 'random'], seed: 'a', reward: 'win' });
    await expect(games.create({ seats: ['remote', 'random'], seed: 'b', reward: 'win' })).rejects.toMatchObject({ status: 429 });
    clock.t += 60_001;
    // Less than a second after the last sweep would not sweep again, but at the limit it must.
    await expect(games.create({ seats: ['remote', 'random'], seed: 'c', reward: 'win' })).resolves.toBeDefined();
    expect(games.size).toBe(1);
  });

  it('limits live games per client: one client at its quota gets 429, another client still gets games', async () => {
    const { clock, games } = store(100, 60_000, 2);
    for (let i = 0; i < 2; i++) await games.create({ seats: ['remote', 'random'], seed: `a${i}`, reward: 'win', client: 'greedy-client' });
    await expect(games.create({ seats: ['remote', 'random'], seed: 'a2', reward: 'win', client: 'greedy-client' }))
      .rejects.toMatchObject({ status: 429, message: expect.stringMatching(/you have 2 games in progress/) });
    await expect(games.create({ seats: ['remote', 'random'], seed: 'b', reward: 'win', client: 'other' })).resolves.toBeDefined();
    // Its games expire, and the client may start new ones.
    clock.t += 60_001;
    await expect(games.create({ seats: ['remote', 'random'], seed: 'a3', reward: 'win', client: 'greedy-client' })).resolves.toBeDefined();
  });

  it('counts games finished at creation against their client: at its quota its own finished game asked about least recently makes room', async () => {
    const { clock, games } = store(100, 60_000, 2);
    const other = (await games.create({ seats: ['random', 'random'], seed: 'other', reward: 'win', client: 'd' })).game;
    const mine: LiveGame[] = [];
    for (let i = 0; i < 5; i++) {
      clock.t += 10;
      mine.push((await games.create({ seats: ['random', 'random'], seed: `f${i}`, reward: 'win', client: 'c' })).game);
      if (i === 3) {
        clock.t += 5;
        games.get(mine[2].id); // asked about: kept longer than mine[3], made after it
      }
    }
    expect(mine.every((g) => g.env.done)).toBe(true);
    // c holds two games at most: the last one made and the one it asked about.
    expect(games.size).toBe(3);
    expect(mine.map((g) => status(() => games.get(g.id)))).toEqual([404, 404, null, 404, null]);
    expect(status(() => games.get(other.id))).toBeNull();
    // Two games in progress fill c's quota: nothing of its own is finished, so it is refused.
    for (const seed of ['p0', 'p1']) await games.create({ seats: ['remote', 'random'], seed, reward: 'win', client: 'c' });
    await expect(games.create({ seats: ['remote', 'random'], seed: 'x', reward: 'win', client: 'c' }))
      .rejects.toMatchObject({ status: 429, message: expect.stringMatching(/you have 2 games in progress.*maxGamesPerClient/) });
  });

  it('makes room in a full store from the client holding the most, its game asked about least recently, never a game in use', async () => {
    const { clock, games } = store(4, 600_000, 100, { botIdleMs: 1000 });
    const game = (client: string, seed: string) => games.create({ seats: ['remote', 'random'], seed, reward: 'win', client }).then((r) => r.game);
    const theirs = (await games.create({ seats: ['remote', 'random'], seed: 'theirs', reward: 'win', client: 'd' })).game;
    const mine: LiveGame[] = [];
    for (let i = 0; i < 3; i++) {
      clock.t += 2000;
      mine.push(await game('c', `m${i}`));
    }
    clock.t += 2000;
    games.get(mine[0].id); // asked about: in use for botIdleMs
    // Full. A newcomer's game takes the place of c's (it holds the most) asked about least
    // recently and not in use; d's game, the oldest of all, stays.
    const newcomer = await game('e', 'e0');
    expect([theirs, ...mine].map((g) => status(() => games.get(g.id)))).toEqual([null, null, 404, null]);
    // Every game asked about just now: all in use, nothing may go.
    clock.t += 10;
    await expect(game('f', 'f0')).rejects.toMatchObject({ status: 429, message: expect.stringMatching(/too many live games \(limit 4, maxGames\): room is made only from a client holding more games than you/) });
    // Past botIdleMs, c, holding two, gives its game not in use (mine[0] was just asked about) before d or e, holding one.
    clock.t += 1001;
    games.get(mine[0].id);
    await game('f', 'f1');
    expect([theirs, mine[0], mine[2], newcomer].map((g) => status(() => games.get(g.id)))).toEqual([null, null, 404, null]);
    // Holding as many as anyone, d makes room with its own game, and so does c with a replay.
    clock.t += 1001;
    await game('d', 'd1');
    expect(status(() => games.get(theirs.id))).toBe(404);
    const replayed = games.adopt(() => theirs.env, ['a', 'b'], 'c');
    expect(status(() => games.get(replayed.id))).toBeNull();
    expect(status(() => games.get(mine[0].id))).toBe(404);
  });

  it('makes room in a full lobby from the client holding the most open games, one nobody joined, never from a client holding as many as the asker', async () => {
    const { clock, games } = store(100, 600_000, 100, { maxOpenGames: 4, maxOpenGamesPerClient: 3, botIdleMs: 1000 });
    const open = (client: string, seed: string) => games.create({ seats: ['open', 'random', 'open'], seed, reward: 'win', client }).then((r) => r.game);
    const a = [await open('a', 'a0'), await open('a', 'a1'), await open('a', 'a2')];
    const b = await open('b', 'b0');
    games.join(a[0], undefined, 'joiner'); // joined: a person sits there
    // Full, and every game made within botIdleMs: in use.
    await expect(open('c', 'c0')).rejects.toMatchObject({ status: 429, message: expect.stringMatching(/the lobby holds 4 games with open seats, the most it may \(maxOpenGames\); room is made only from a client holding more of them than you/) });
    clock.t += 1001;
    await open('c', 'c0'); // a's oldest nobody joined goes
    expect([...a, b].map((g) => status(() => games.get(g.id)))).toEqual([null, 404, null, null]);
    clock.t += 1001;
    await open('c', 'c1'); // a (2) still holds more than c (1)
    expect(status(() => games.get(a[2].id))).toBe(404);
    clock.t += 1001;
    // a holds 1 (joined), b 1, c 2: c is refused a third place, d gets one of c's.
    await expect(open('c', 'c2')).rejects.toMatchObject({ status: 429 });
    await expect(open('d', 'd0')).resolves.toBeDefined();
    expect(games.lobby().map((g) => g.client).sort()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('limits the games with open seats one client holds, and the seats one client joins in games in progress', async () => {
    const { games } = store(100, 60_000, 100, { maxOpenGames: 10, maxOpenGamesPerClient: 1, maxJoinedSeatsPerClient: 1 });
    const a = (await games.create({ seats: ['open', 'random'], seed: 'o1', reward: 'win', client: 'host' })).game;
    await expect(games.create({ seats: ['open', 'random'], seed: 'o2', reward: 'win', client: 'host' }))
      .rejects.toMatchObject({ status: 429, message: expect.stringMatching(/you have 1 games with open seats in the lobby.*maxOpenGamesPerClient/) });
    const b = (await games.create({ seats: ['random', 'open'], seed: 'o3', reward: 'win', client: 'host2' })).game;
    const { seat, token } = games.join(a, undefined, 'joiner');
    expect(games.seatOf(a, token)).toBe(seat);
    expect(status(() => games.join(b, undefined, 'joiner'))).toBe(429);
    expect(() => games.join(b, undefined, 'joiner')).toThrow(/you hold 1 seats joined from the lobby.*maxJoinedSeatsPerClient/);
    expect(b.open.size).toBe(1); // the refused join took nothing
    // The host's game no longer waits in the lobby once joined: it may open another.
    await expect(games.create({ seats: ['open', 'random'], seed: 'o4', reward: 'win', client: 'host' })).resolves.toBeDefined();
    // Once the joined game is over, the seat no longer counts.
    while (!a.env.done) await games.act(a, seat, a.env.legalActions()[0]);
    expect(games.join(b, undefined, 'joiner').seat).toBe(1);
  });

  it('plays bots in this thread a slice at a time: the event loop turns between their decisions (slices counted on the store\'s clock)', async () => {
    const { games } = tickingStore();
    const seen = new Set<number>();
    let game: LiveGame | undefined;
    const made = games.create({ seats: ['ppo', 'ppo', 'ppo', 'ppo'], seed: 'slices', reward: 'win' }).then((r) => (game = r.game));
    let turns = 0;
    // The game is not known until it is made; what each turn of the loop sees is how far the bots got.
    const stop = everyTurn(() => {
      turns++;
      for (const g of (games as unknown as { games: Map<string, LiveGame> }).games.values()) seen.add(g.env.actions.length);
    });
    await made;
    stop();
    expect(game!.env.done).toBe(true);
    const final = game!.env.actions.length;
    const between = [...seen].filter((n) => n > 0 && n < final);
    expect(turns).toBeGreaterThan(5);
    expect(between.length).toBeGreaterThan(5);
  }, 300_000);

  it('stops the bots of a game nobody wants (the request gone, no ask for botIdleMs), and starts them when someone asks', async () => {
    // The store's clock: slices end by its readings, and the test moves it past botIdleMs once the request is gone.
    const { clock, games } = tickingStore({ botIdleMs: 1000 });
    const gone = new AbortController();
    let game: LiveGame | undefined;
    const stop = everyTurn(() => {
      for (const g of (games as unknown as { games: Map<string, LiveGame> }).games.values()) game = g;
      if (game && game.env.actions.length > 20 && !gone.signal.aborted) {
        gone.abort();
        clock.t += 1001;
      }
    });
    await games.create({ seats: ['ppo', 'ppo', 'ppo'], seed: 'idle', reward: 'win', signal: gone.signal });
    stop();
    expect(game!.env.done).toBe(false);
    expect(game!.paused).toBe(true);
    const stopped = game!.env.actions.length;
    await new Promise((r) => setTimeout(r, 100));
    expect(game!.env.actions.length).toBe(stopped);
    // Asked about: it plays on to the end.
    games.get(game!.id);
    expect(game!.paused).toBe(false);
    await game!.queue;
    expect(game!.env.done).toBe(true);
  }, 300_000);

  it("tells a game's listeners when it expires (event streams then close)", async () => {
    const { clock, games } = store();
    const { game } = await games.create({ seats: ['remote', 'random'], seed: 'l', reward: 'win' });
    const heard: (string | undefined)[] = [];
    game.listeners.add((gone) => heard.push(gone));
    clock.t += 60_001;
    games.expire(true);
    expect(heard).toEqual(['gone']);
  });

  it('seats only catalogue bots, and names them by their labels', async () => {
    const { games } = store();
    const { game } = await games.create({ seats: ['remote', 'ismcts:rollout=greedy:iterations=20'], seed: 'c', reward: 'win' });
    expect(game.seats).toEqual(['remote', 'ismcts:iterations=20:rollout=greedy']);
    for (const bad of ['ppo:/etc/passwd', ' random', 'RANDOM', 'ismcts:iterations=100000000', 'random:__proto__=1', 'llm:gpt']) {
      await expect(games.create({ seats: ['remote', bad], seed: 'd', reward: 'win' })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/^seats\[1\]: /) });
    }
  });
});
