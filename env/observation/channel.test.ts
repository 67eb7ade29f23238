import { describe, expect, it } from 'vitest';
import { decodeAction } from '../actions.ts';
import { CzechPubEnv } from '../env.ts';
import { randInt, seedRng } from '../rng.ts';
import { SeatChannel } from './channel.ts';

/** The hand card each kind of X card and answer plays; the order or pub card for a play. */
const X_CARD: Record<string, string> = {
  knock: 'knocked_over', mixed: 'mixed_up', warm: 'warm_beer', pour_front: 'shot_into_beer', pour_hand: 'shot_into_beer',
  excuse_cancel: 'excuse_me', excuse_left: 'excuse_me', excuse_right: 'excuse_me',
};

describe('SeatChannel.choices', () => {
  it('names the hand card every play, X card and Excuse me plays, one the seat holds; none for the rest', () => {
    const seen = new Set<string>();
    for (let g = 0; g < 12; g++) {
      const env = new CzechPubEnv({ seed: `plays${g}`, players: 3 + (g % 3) });
      const rng = seedRng(`plays${g}:moves`);
      while (!env.done) {
        const seat = env.actor;
        const hand = env.view(seat).hand as Record<string, number>;
        for (const c of new SeatChannel(env, seat).choices()) {
          const d = decodeAction(c.id);
          const want = d.group === 'order' || d.group === 'pub' ? undefined : X_CARD[d.kind] ?? null;
          if (want === null) expect(c.plays, d.kind).toBeUndefined();
          else {
            if (want !== undefined) expect(c.plays, d.kind).toBe(want);
            expect(hand[c.plays!], `${d.kind} plays ${c.plays}`).toBeGreaterThan(0);
            seen.add(d.kind);
          }
        }
        const legal = env.legalActions();
        env.step(legal[randInt(rng, legal.length)]);
      }
    }
    for (const k of ['order', 'flattery', 'knock', 'mixed', 'warm', 'pour_front', 'excuse_cancel']) expect(seen, k).toContain(k);
  });
});
