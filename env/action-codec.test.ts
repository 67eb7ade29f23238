import { describe, expect, it } from 'vitest';
import {
  A_DONE, A_EXCUSE_RIGHT, A_FLATTERY, A_LDAS, A_MIXED, A_SAME, A_SHOT_DISCARD, A_SHOT_SMALL, A_SIBX_FRONT, A_SIBX_HAND,
  A_WARM, decodeAction, encodeAction, isActionId, NUM_ACTIONS, type ActionKind,
} from './action-codec.ts';
import { EXCUSE_ME, FLATTERY, LETS_DO_A_SHOT, SAME, SMALL_BEER, TEA, VODKA } from './cards.ts';

const ALL = Array.from({ length: NUM_ACTIONS }, (_, a) => a);

describe('action codec', () => {
  it('keeps version 1 of the layout: 198 ids, each kind at its base', () => {
    const bases: Partial<Record<ActionKind, number>> = {};
    for (const a of ALL) bases[decodeAction(a).kind] ??= a;
    expect(NUM_ACTIONS).toBe(198);
    expect(bases).toEqual({
      order: 0, same: 10, flattery: 15, sib: 20, lets_do_a_shot: 21, shots_everyone: 26, brawl: 27, dont_want: 28,
      insult: 29, thats_my: 34, done: 39, discard: 40, stop_discard: 63, pass: 64, knock: 65, mixed: 75, warm: 175,
      pour_front: 177, pour_hand: 182, excuse_cancel: 187, excuse_left: 188, excuse_right: 189, shot_discard: 190,
      shot_beer: 195, shot_small: 196, shot_nothing: 197,
    });
  });

  it('encodes every decoded id back to itself, and no two ids decode alike', () => {
    const forms = new Set<string>();
    for (const a of ALL) {
      const d = decodeAction(a);
      expect(encodeAction(d)).toBe(a);
      expect(Object.isFrozen(d)).toBe(true);
      forms.add(JSON.stringify(d));
    }
    expect(forms.size).toBe(NUM_ACTIONS);
  });

  it('gives each kind and each group one run of ids', () => {
    const kinds: string[] = [];
    const groups: string[] = [];
    for (const a of ALL) {
      const d = decodeAction(a);
      if (kinds[kinds.length - 1] !== d.kind) kinds.push(d.kind);
      if (groups[groups.length - 1] !== d.group) groups.push(d.group);
    }
    expect(new Set(kinds).size).toBe(kinds.length);
    expect(groups).toEqual(['order', 'pub', 'done', 'discard', 'pass', 'x', 'excuse', 'shot_choice']);
  });

  it('splits ids into their parts', () => {
    expect(decodeAction(A_SAME + 2)).toEqual({ kind: 'same', group: 'pub', card: SAME, target: 3, shot: -1, give: -1 });
    expect(decodeAction(A_LDAS)).toMatchObject({ kind: 'lets_do_a_shot', card: LETS_DO_A_SHOT, target: 1 });
    expect(decodeAction(A_FLATTERY + 4)).toMatchObject({ kind: 'flattery', card: FLATTERY, shot: 4 });
    expect(decodeAction(A_MIXED + 2 * 10 + 7)).toMatchObject({ kind: 'mixed', group: 'x', card: 2, give: 7 });
    expect(decodeAction(A_WARM + 1)).toMatchObject({ kind: 'warm', card: SMALL_BEER });
    expect(decodeAction(A_SIBX_FRONT + 1)).toMatchObject({ kind: 'pour_front', card: 3, shot: 1 });
    expect(decodeAction(A_SIBX_HAND + 4)).toMatchObject({ kind: 'pour_hand', card: VODKA, shot: 4 });
    expect(decodeAction(A_EXCUSE_RIGHT)).toMatchObject({ kind: 'excuse_right', group: 'excuse', card: EXCUSE_ME, target: -1 });
    expect(decodeAction(A_SHOT_DISCARD + 4)).toMatchObject({ kind: 'shot_discard', group: 'shot_choice', card: VODKA, shot: 4 });
    expect(decodeAction(A_DONE)).toEqual({ kind: 'done', group: 'done', card: -1, target: 0, shot: -1, give: -1 });
  });

  it('encodes from just the parts that tell the id', () => {
    expect(encodeAction({ kind: 'order', card: TEA })).toBe(TEA);
    expect(encodeAction({ kind: 'same', target: 2 })).toBe(A_SAME + 1);
    expect(encodeAction({ kind: 'flattery', shot: 3 })).toBe(A_FLATTERY + 3);
    expect(encodeAction({ kind: 'pour_hand', card: VODKA })).toBe(A_SIBX_HAND + 4);
    expect(encodeAction({ kind: 'mixed', card: 2, give: 7 })).toBe(A_MIXED + 27);
    expect(encodeAction({ kind: 'shot_small' })).toBe(A_SHOT_SMALL);
  });

  it('refuses ids that are not actions', () => {
    for (const a of [-1, NUM_ACTIONS, 2.5, Number.NaN, Infinity]) {
      expect(isActionId(a)).toBe(false);
      expect(() => decodeAction(a)).toThrow(RangeError);
    }
    expect(ALL.every(isActionId)).toBe(true);
  });

  it('refuses forms that name no id or several', () => {
    const bad: unknown[] = [
      { kind: 'order' }, // ten ids
      { kind: 'mixed', card: 2 }, // ten ids
      { kind: 'order', card: FLATTERY }, // not an order
      { kind: 'same', target: 6 }, // offsets go to 5
      { kind: 'same', target: 0 },
      { kind: 'flattery', shot: 2, card: TEA }, // parts that contradict
      { kind: 'done', target: 1 }, // a part the kind does not have
      { kind: 'warm', card: TEA },
      { kind: 'play' },
    ];
    for (const form of bad) expect(() => encodeAction(form as Parameters<typeof encodeAction>[0])).toThrow(RangeError);
  });
});
