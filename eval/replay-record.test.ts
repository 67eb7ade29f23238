import { describe, expect, it } from 'vitest';
import { createAgent } from '../agents/default-registry.ts';
import { CzechPubEnv } from '../env/env.ts';
import { EnvObservation } from '../agents/observation.ts';
import { decodeReplay, encodeReplay, MAX_REPLAY_ACTIONS, recordOf, replayGame, ReplayFormatError } from './replay-record.ts';

function finishedGame(seed: string, players: number): CzechPubEnv {
  const env = new CzechPubEnv({ seed, players });
  const agents = Array.from({ length: players }, (_, seat) => {
    const a = createAgent('heuristic');
    a.reset?.({ seat, players, seed: `${seed}/${seat}` });
    return a;
  });
  while (!env.done) env.step(agents[env.actor].act(new EnvObservation(env, env.actor)) as number);
  return env;
}

describe('replay records', () => {
  it('round-trip through the link form and replay to the same final scores', () => {
    for (const players of [2, 4, 6]) {
      const env = finishedGame(`rec/${players}`, players);
      const rec = recordOf(env, `rec/${players}`, false);
      const link = encodeReplay(rec);
      expect(link).toMatch(/^r1\.[2-6]\.[01]\.[0-9a-f]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
      const back = decodeReplay(link);
      expect(back).toEqual(rec);
      expect(replayGame(back).scores()).toEqual(env.scores());
    }
  });

  it('refuses a malformed link, naming the part', () => {
    const rec = recordOf(finishedGame('rec/bad', 3), 'rec/bad', false);
    const link = encodeReplay(rec);
    const parts = link.split('.');
    const withPart = (i: number, v: string) => parts.map((p, j) => (j === i ? v : p)).join('.');
    expect(() => decodeReplay('nonsense')).toThrow(/version 'nonsense'/);
    expect(() => decodeReplay(`${link}.x`)).toThrow(/an r1 replay link has 6 parts.*has 7/);
    expect(() => decodeReplay(withPart(0, 'r9'))).toThrow(/version/);
    expect(() => decodeReplay(withPart(1, '7'))).toThrow(/players must be 2–6/);
    expect(() => decodeReplay(withPart(2, 'x'))).toThrow(/askForced/);
    expect(() => decodeReplay(withPart(3, 'ZZ'))).toThrow(/fingerprint/);
    expect(() => decodeReplay(withPart(4, 'a+b'))).toThrow(/base64url/);
    expect(() => decodeReplay(withPart(4, ''))).toThrow(/seed must be/);
    expect(() => decodeReplay(withPart(5, Buffer.from([250]).toString('base64url')))).toThrow(/not an action id/);
    expect(() => decodeReplay('x'.repeat(100_000))).toThrow(ReplayFormatError);
    expect(() => decodeReplay(withPart(5, Buffer.alloc(MAX_REPLAY_ACTIONS + 1).toString('base64url')))).toThrow(/at most/);
  });

  it('replays only legal, complete games under their own rules', () => {
    const rec = recordOf(finishedGame('rec/legal', 4), 'rec/legal', false);
    const wrong = rec.actions.slice();
    const env = new CzechPubEnv({ seed: rec.seed, players: 4 });
    const illegal = Array.from({ length: 198 }, (_, a) => a).find((a) => !env.legalActions().includes(a))!;
    wrong[0] = illegal;
    expect(() => replayGame({ ...rec, actions: wrong })).toThrow(new RegExp(`action ${illegal} at step 0 is not legal there \\(legal: `));
    expect(() => replayGame({ ...rec, actions: rec.actions.slice(0, 10) })).toThrow(/stops after 10 actions, before the game is over/);
    expect(() => replayGame({ ...rec, actions: [...rec.actions, 0] })).toThrow(/game is over after/);
    expect(() => replayGame({ ...rec, ruleset: 'abc' })).toThrow(/played under ruleset abc/);
  });

  it('carries the seats\' labels in an r2 link, and still opens r1 links', () => {
    const env = finishedGame('rec/labels', 3);
    const rec = recordOf(env, 'rec/labels', false);
    const seats = ['heuristic', 'ismcts:iterations=20', 'llm:model=ü 🍺'];
    const link = encodeReplay({ ...rec, seats });
    expect(link).toMatch(/^r2\.3\.0\.[0-9a-f]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(decodeReplay(link)).toEqual({ ...rec, seats });
    expect(replayGame(decodeReplay(link)).scores()).toEqual(env.scores());
    // An r1 link (as reports written before labels hold) decodes to the same game, without labels.
    const old = encodeReplay(rec);
    expect(old.startsWith('r1.')).toBe(true);
    expect(old).toBe(link.split('.').slice(0, 6).join('.').replace(/^r2/, 'r1'));
    expect(decodeReplay(old)).toEqual(rec);
    expect('seats' in decodeReplay(old)).toBe(false);
    // Labels are display text: a control character becomes a space, a long one is cut to 200.
    expect(decodeReplay(encodeReplay({ ...rec, seats: ['a\nb', 'x'.repeat(300), 'c'] })).seats).toEqual(['a b', 'x'.repeat(200), 'c']);
    expect(() => encodeReplay({ ...rec, seats: ['a', 'b'] })).toThrow(/2 seat labels for 3 players/);
    // A hand-made r2 link is checked: the count, the characters, the encoding.
    const parts = link.split('.');
    const labels = (text: string) => [...parts.slice(0, 6), Buffer.from(text, 'utf8').toString('base64url')].join('.');
    expect(() => decodeReplay(labels('a\nb'))).toThrow(/2 seat labels for 3 players/);
    expect(() => decodeReplay(labels('a\nb\x07\nc'))).toThrow(/control characters/);
    expect(() => decodeReplay(labels('a\n\nc'))).toThrow(/1–200 characters/);
    expect(() => decodeReplay([...parts.slice(0, 6), 'a+b'].join('.'))).toThrow(/labels must be base64url/);
    expect(() => decodeReplay(parts.slice(0, 6).join('.'))).toThrow(/an r2 replay link has 7 parts/);
  });
});
