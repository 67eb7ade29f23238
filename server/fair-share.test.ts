import { describe, expect, it } from 'vitest';
import { fairVictim, type VictimRule } from './fair-share.ts';

/** A place: its client's name and number, when it was last used, whether it is in use. */
type Place = { id: string; used: number; busy?: boolean };
const rule: VictimRule<Place> = { free: (p) => !p.busy, before: (a, b) => a.used < b.used };
const places = (client: string, ...used: (number | 'busy')[]): [string, Place[]] =>
  [client, used.map((u, i) => ({ id: `${client}${i}`, used: u === 'busy' ? 0 : u, busy: u === 'busy' }))];

describe('fair shares of a full server', () => {
  it("takes the least recently used free place of the client holding the most", () => {
    const held = [places('a', 5, 1, 9), places('b', 0, 2), places('c', 3)];
    expect(fairVictim(held, 'new', rule)?.id).toBe('a1');
  });

  it('passes over a client whose places are all in use for the next biggest', () => {
    const held = [places('a', 'busy', 'busy', 'busy'), places('b', 7, 2), places('c', 1)];
    expect(fairVictim(held, 'new', rule)?.id).toBe('b1');
  });

  it('never takes from a client holding as many as the asker or fewer; its own only when allowed', () => {
    const held = [places('a', 5, 1), places('b', 0, 2), places('c', 3)];
    expect(fairVictim(held, 'b', rule)).toBeNull(); // a holds as many as b
    expect(fairVictim(held, 'c', rule)?.id).toBe('b0'); // a and b hold more than c: b's oldest comes first
    expect(fairVictim(held, 'b', { ...rule, own: true })?.id).toBe('b0');
    expect(fairVictim([places('a', 4, 4), places('b', 1)], 'b', { ...rule, own: true })?.id).toBe('a0'); // a holds more: a's before b's own
    expect(fairVictim([places('a', 'busy', 'busy'), places('b', 1)], 'b', { ...rule, own: true })?.id).toBe('b0');
  });

  it('moves places from the biggest holders towards an equal share, never back', () => {
    // Ten newcomers in turn take a place each from clients holding 5, 4 and 1: every place
    // taken is from a client holding more than the asker, so the counts only even out.
    const held = new Map([places('a', 1, 2, 3, 4, 5), places('b', 1, 2, 3, 4), places('c', 1)]);
    for (let k = 0; k < 10; k++) {
      const asker = `n${k}`;
      const p = fairVictim(held, asker, rule);
      if (!p) break;
      const owner = [...held].find(([, ps]) => ps.includes(p))![0];
      expect(held.get(owner)!.length).toBeGreaterThan(held.get(asker)?.length ?? 0);
      held.set(owner, held.get(owner)!.filter((x) => x !== p));
      held.set(asker, [{ id: asker, used: 100 + k }]);
    }
    expect([...held.values()].map((ps) => ps.length).every((n) => n <= 2)).toBe(true);
    expect([...held.values()].reduce((n, ps) => n + ps.length, 0)).toBe(10);
  });
});
