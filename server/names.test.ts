import { describe, expect, it } from 'vitest';
import { Catalogue } from './catalogue.ts';
import { GameStore } from './games.ts';
import { displayName, MAX_NAME, seatNames } from './names.ts';
import { AWAY_MS, tablePresence } from './presence.ts';

describe('display names', () => {
  it('are trimmed, spaces made one, bounded, and refused with control or invisible characters', () => {
    expect(displayName.parse('  Anna   Nováková ')).toBe('Anna Nováková');
    expect(displayName.parse('x'.repeat(MAX_NAME))).toHaveLength(MAX_NAME);
    for (const bad of ['', '   ', 'x'.repeat(MAX_NAME + 1), 'a\u0000b', 'evil\u202Eeman', 'zero\u200Bwidth', 'bell\u0007']) {
      expect(displayName.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    // Markup is only text: the name is kept as typed, and the page shows it as text.
    expect(displayName.parse('<b>Bob</b>')).toBe('<b>Bob</b>');
  });

  it('call people by their name or "Player N", and bots by their entry, numbered when several share one', () => {
    const c = new Catalogue();
    expect(seatNames(['remote', 'heuristic', 'ppo:sample=true', 'remote'], ['Anna'], c)).toEqual(['Anna', 'Regular', 'Strong', 'Player 3']);
    expect(seatNames(['heuristic', 'remote', 'heuristic', 'random'], [], c)).toEqual(['Regular 1', 'Player 1', 'Regular 2', 'Beginner']);
    // A label the catalogue does not hold (a tournament's replay) stands as it is.
    expect(seatNames(['mystery:x=1', 'remote'], [], c)).toEqual(['mystery:x=1', 'Player 1']);
    expect(new Catalogue({ bots: { heuristic: { agent: 'heuristic', displayName: 'Barfly', strength: 'Medium' } } }).resolve('heuristic').entry.displayName).toBe('Barfly');
  });
});

describe('names and presence at a live game', () => {
  const newStore = () => {
    const clock = { t: 1_000_000 };
    return { clock, store: new GameStore({ maxGames: 10, idleMs: 3600_000, maxGamesPerClient: 10, maxOpenGames: 2 }, new Catalogue(), null, () => clock.t) };
  };

  it("names only 'remote' seats at creation; a joiner names themselves; presence follows asks and streams", async () => {
    const { clock, store } = newStore();
    await expect(store.create({ seats: ['remote', 'random'], names: [null, 'Bot'], seed: 's', reward: 'win' })).rejects.toMatchObject({ status: 400 });
    await expect(store.create({ seats: ['remote', 'open', 'random'], names: [null, 'Early'], reward: 'win', seed: 's' })).rejects.toMatchObject({ status: 400 });
    const { game, tokens } = await store.create({ seats: ['remote', 'open', 'random', 'remote'], names: ['Anna'], reward: 'win', seed: 's' });
    expect(game.names).toEqual(['Anna', 'Player 1', 'Beginner', 'Player 3']);
    expect(tablePresence(game, clock.t)).toEqual(['connected', 'open', 'bot', 'connected']);

    const joined = store.join(game, undefined, 'someone', 'Bára');
    expect(joined.seat).toBe(1);
    expect(game.names[1]).toBe('Bára');
    expect(tablePresence(game, clock.t)[1]).toBe('connected');

    clock.t += AWAY_MS + 1;
    expect(tablePresence(game, clock.t)).toEqual(['away', 'away', 'bot', 'away']);
    // Asking with a seat's token brings it back; an open event stream keeps it there.
    store.viewerOf(game, tokens.find((t) => t.seat === 3)!.token);
    game.presence.streams[0]++;
    expect(tablePresence(game, clock.t)).toEqual(['connected', 'away', 'bot', 'connected']);
    clock.t += AWAY_MS + 1;
    expect(tablePresence(game, clock.t)).toEqual(['connected', 'away', 'bot', 'away']);
    // The watch token is nobody's seat.
    store.viewerOf(game, game.watchToken);
    expect(tablePresence(game, clock.t)).toEqual(['connected', 'away', 'bot', 'away']);
  });
});
