import { describe, expect, it } from 'vitest';
import { Catalogue } from './catalogue.ts';
import { ApiError, GameStore, type LiveGame } from './games.ts';

function store(maxGames = 2, idleMs = 60_000, maxGamesPerClient = 100) {
  const clock = { t: 1_000_000 };
  return { clock, games: new GameStore({ maxGames, idleMs, maxGamesPerClient, maxOpenGames: 2 }, new Catalogue(), null, () => clock.t) };
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

  it('counts only games in progress against a client, and makes room for new games by dropping the finished game asked about least recently', async () => {
    const { clock, games } = store(3, 60_000, 1);
    // All-bot games finish at once: they never count against the client.
    const finished: LiveGame[] = [];
    for (let i = 0; i < 3; i++) {
      clock.t += 10;
      finished.push((await games.create({ seats: ['random', 'random'], seed: `f${i}`, reward: 'win', client: 'c' })).game);
    }
    clock.t += 10;
    games.get(finished[0].id); // asked about: kept longer than finished[1]
    const { game } = await games.create({ seats: ['remote', 'random'], seed: 'live', reward: 'win', client: 'c' });
    expect(games.size).toBe(3);
    expect(status(() => games.get(finished[1].id))).toBe(404);
    expect(status(() => games.get(finished[0].id))).toBeNull();
    // One game in progress is this client's quota; a full store of games in progress refuses everyone.
    await expect(games.create({ seats: ['remote', 'random'], seed: 'x', reward: 'win', client: 'c' })).rejects.toMatchObject({ status: 429 });
    await games.create({ seats: ['remote', 'random'], seed: 'y', reward: 'win', client: 'd' });
    await games.create({ seats: ['remote', 'random'], seed: 'z', reward: 'win', client: 'e' });
    await expect(games.create({ seats: ['remote', 'random'], seed: 'w', reward: 'win', client: 'f' })).rejects.toMatchObject({ status: 429, message: expect.stringMatching(/too many live games/) });
    expect(game.settled).toBe(false);
  });

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
