import { describe, expect, it } from 'vitest';
import { Catalogue } from './catalogue.ts';
import { GameStore } from './games.ts';
import { displayName, MAX_NAME, nameFault, seatNames } from './names.ts';
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

  it('refuse every invisible, bidi-control, zero-width and control character, alone or inside a name, and names of blanks or marks alone', () => {
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
    /** Refused anywhere: each hides or reorders the text around it, or draws nothing. */
    const never = [
      ...range(0x00, 0x1f), ...range(0x7f, 0x9f), // C0, DEL, C1
      ...range(0x202a, 0x202e), ...range(0x2066, 0x2069), 0x200e, 0x200f, 0x061c, // bidi controls
      ...range(0x200b, 0x200d), 0x2060, 0xfeff, 0x00ad, 0x180e, ...range(0xe0020, 0xe007f), // zero-width, soft hyphen, tags
      0x2028, 0x2029, // line and paragraph separators
      0x3164, 0x2800, 0x115f, 0x1160, 0xffa0, // blank-looking letters and the blank braille pattern
      0xe000, 0xd800, // private use, a lone surrogate
    ];
    /** Refused alone (nothing shows), taken after a letter: combining marks, variation selectors, spaces. */
    const notAlone = [0x0301, 0x0308, 0x20dd, 0x034f, ...range(0xfe00, 0xfe0f), 0xe0100, 0x3000, 0x00a0, 0x2003, 0x0020];
    for (const cp of never) {
      const c = String.fromCodePoint(cp);
      const hex = cp.toString(16);
      for (const name of [c, c + c, `Anna${c}`, `${c}Anna`, `An${c}na`]) {
        expect(nameFault(name), `U+${hex} in ${JSON.stringify(name)}`).not.toBeNull();
        expect(displayName.safeParse(name).success, `U+${hex} in ${JSON.stringify(name)}`).toBe(false);
      }
    }
    for (const cp of notAlone) {
      const c = String.fromCodePoint(cp);
      const hex = cp.toString(16);
      for (const name of [c, c + c + c]) {
        expect(nameFault(name), `U+${hex} alone`).not.toBeNull();
        expect(displayName.safeParse(name).success, `U+${hex} alone`).toBe(false);
      }
      expect(nameFault(`Ann${c}a`), `U+${hex} inside`).toBeNull();
    }
    // Names of several kinds of blank together are blank too.
    expect(nameFault('\u3000\u0301\ufe0f')).not.toBeNull();
    // Ordinary international names: each passes as it is.
    for (const name of ['Bára Nováková', 'Řehoř Šťastný', 'Jürgen', 'Zoë', '李小龍', '山田　太郎', '김민준', 'محمد', 'Σωκράτης', 'Ана', 'नमस्ते', '🦊', 'Kat 😀', '❤️ Bo', 'e\u0301lan', "O'Brien", '<b>Bob</b>']) {
      expect(nameFault(name), name).toBeNull();
      expect(displayName.safeParse(name).success, name).toBe(true);
    }
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
