import { describe, expect, it } from 'vitest';
import { ApiError, GameStore } from './games.ts';

function store(maxGames = 2, idleMs = 60_000) {
  const clock = { t: 1_000_000 };
  return { clock, games: new GameStore({ maxGames, idleMs }, () => clock.t) };
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
});
