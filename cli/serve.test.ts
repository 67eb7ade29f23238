import { describe, expect, it } from 'vitest';
import { defaultStateDir } from './serve.ts';

describe('serve keeps games by default', () => {
  it("in the user's state folder: XDG_STATE_HOME when absolute, else ~/.local/state; LOCALAPPDATA on Windows", () => {
    expect(defaultStateDir({ XDG_STATE_HOME: '/srv/state' }, 'linux', '/home/a')).toBe('/srv/state/czech-pub/games');
    expect(defaultStateDir({}, 'linux', '/home/a')).toBe('/home/a/.local/state/czech-pub/games');
    // A relative XDG_STATE_HOME is ignored, as the XDG base directory spec says.
    expect(defaultStateDir({ XDG_STATE_HOME: 'state' }, 'darwin', '/Users/a')).toBe('/Users/a/.local/state/czech-pub/games');
    expect(defaultStateDir({ LOCALAPPDATA: 'C:\\Users\\a\\AppData\\Local' }, 'win32', 'C:\\Users\\a')).toBe('C:\\Users\\a\\AppData\\Local\\czech-pub\\games');
    expect(defaultStateDir({}, 'win32', 'C:\\Users\\a')).toBe('C:\\Users\\a\\AppData\\Local\\czech-pub\\games');
  });
});
