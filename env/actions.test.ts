import { describe, expect, it } from 'vitest';
import { ACTION_GROUPS, actionKey, decodeAction, describeAction, NUM_ACTIONS } from './actions.ts';
import { encodeAction } from './action-codec.ts';

describe('ACTION_GROUPS', () => {
  it('covers every action id exactly once, in order', () => {
    let next = 0;
    for (const g of ACTION_GROUPS) {
      expect(g.first).toBe(next);
      expect(g.last).toBeGreaterThanOrEqual(g.first);
      next = g.last + 1;
    }
    expect(next).toBe(NUM_ACTIONS);
  });
});

describe('action names', () => {
  it('give every id a key of its kind and its parts', () => {
    expect(actionKey(0)).toBe('play:beer');
    expect(actionKey(12)).toBe('play:same:+3');
    expect(actionKey(17)).toBe('play:flattery:becherovka');
    expect(actionKey(28)).toBe('play:dont_want_it');
    expect(actionKey(62)).toBe('discard:warm_beer');
    expect(actionKey(75 + 27)).toBe('x:mixed_up:rum>tea');
    expect(actionKey(183)).toBe('x:shot_into_beer:hand:fernet');
    expect(actionKey(196)).toBe('shot_choice:small_beer');
    expect(actionKey(-1)).toBe('invalid:-1');
  });

  it('say targets by offset, and by seat when the seat and player count are known', () => {
    expect(describeAction(35)).toBe("play That's my order at the player 2 seats to your left");
    expect(describeAction(35, 3, 4)).toBe("play That's my order at player 1 (the player 2 seats to your left)");
    expect(describeAction(195)).toBe('discard a Beer and lose points');
    expect(describeAction(198)).toBe('invalid action 198');
  });

  it('say targets by the table\'s names for a reader: "you" for the reader, the direction only to the one acting', () => {
    const names = ['Anna', 'Strong 1', 'Strong 2', 'Regular'];
    expect(describeAction(35, 3, 4, { names, viewer: 3 })).toBe("play That's my order at Strong 1 (2 seats to your left)");
    expect(describeAction(35, 3, 4, { names, viewer: 0 })).toBe("play That's my order at Strong 1");
    expect(describeAction(35, 3, 4, { names, viewer: 1 })).toBe("play That's my order at you");
    expect(describeAction(35, 3, 4, { names, viewer: null })).toBe("play That's my order at Strong 1");
    const left = encodeAction({ kind: 'excuse_left' });
    expect(describeAction(left, 2, 4, { names, viewer: 2 })).toBe('Excuse me: redirect to your left neighbour');
    expect(describeAction(left, 2, 4, { names, viewer: 0 })).toBe('Excuse me: redirect to their left neighbour');
    // No name or number of a seat is left for a reader anywhere in the action space.
    for (let a = 0; a < NUM_ACTIONS; a++) expect(describeAction(a, 1, 4, { names, viewer: 0 })).not.toMatch(/player \d|seats to your left|on your left/);
  });

  it('group ids by the codec\'s groups', () => {
    for (const g of ACTION_GROUPS) {
      const groups = new Set<string>();
      for (let a = g.first; a <= g.last; a++) groups.add(decodeAction(a).group);
      expect(groups.size).toBe(1);
    }
    expect(ACTION_GROUPS.map((g) => g.kind)).toEqual(['Orders', 'Pub cards', 'End of playing', 'Discard', 'Pass', 'X cards', 'Excuse me', 'Shot choice']);
  });
});
