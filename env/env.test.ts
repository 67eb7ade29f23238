import { describe, expect, it } from 'vitest';
import { A_DONE, NUM_ACTIONS } from './actions.ts';
import { IllegalActionError } from './engine/index.ts';
import { CzechPubEnv } from './env.ts';
import { HIDDEN } from './events.ts';
import { OBS_SIZE } from './observation/encode.ts';
import { withoutPrivate } from '../test/helpers/public-view.ts';
import { randInt, seedRng } from './rng.ts';

function playOut(env: CzechPubEnv, seed: number, each?: (env: CzechPubEnv) => void): void {
  const rng = seedRng(seed);
  while (!env.done) {
    each?.(env);
    const legal = env.legalActions();
    env.step(legal[randInt(rng, legal.length)]);
  }
}

describe('CzechPubEnv', () => {
  it('runs the agent-environment cycle to a terminal state with win rewards summing to 1', () => {
    const env = new CzechPubEnv({ seed: 5, players: 4 });
    let steps = 0;
    playOut(env, 1, (e) => {
      expect(e.rewards).toEqual([0, 0, 0, 0]);
      expect(e.returns()).toEqual([0, 0, 0, 0]);
      const obs = e.observe(e.actor);
      expect(obs.encoding.length).toBe(OBS_SIZE);
      expect(obs.mask.reduce((a, b) => a + b, 0)).toBe(obs.legalActions.length);
      expect(obs.view.decision.actor).toBe(e.actor);
      steps++;
    });
    expect(env.terminated).toBe(true);
    expect(env.truncated).toBe(false);
    expect(env.actor).toBe(-1);
    expect(env.returns().reduce((a, b) => a + b, 0)).toBeCloseTo(1);
    expect(env.rewards).toEqual(env.returns());
    expect(env.actions.length).toBe(steps);
    expect(() => env.step(A_DONE)).toThrow(IllegalActionError);
  });

  it('rank and score rewards are chosen at reset', () => {
    for (const reward of ['rank', 'score'] as const) {
      const env = new CzechPubEnv({ seed: 9, players: 3, reward });
      playOut(env, 2);
      expect(env.returns().reduce((a, b) => a + b, 0)).toBeCloseTo(0);
    }
    expect(() => new CzechPubEnv({ seed: 1, players: 3, reward: 'nope' as never })).toThrow('reward must be one of');
    expect(() => new CzechPubEnv({ seed: 1, players: 7 })).toThrow('players must be an integer from 2 to 6');
  });

  it('truncates at the decision cap and scores the game as it stands', () => {
    const env = new CzechPubEnv({ seed: 3, players: 4, maxDecisions: 10 });
    playOut(env, 3);
    expect(env.truncated).toBe(true);
    expect(env.terminated).toBe(false);
    expect(env.actions.length).toBe(10);
    expect(env.returns().reduce((a, b) => a + b, 0)).toBeCloseTo(1);
  });

  it('says why a game ended, and each reason matches the final state', () => {
    const seen = new Map<string, number>();
    for (let g = 0; g < 300; g++) {
      const env = new CzechPubEnv({ seed: g, players: 2 + (g % 5) });
      playOut(env, g, (e) => expect(e.endReason).toBeNull());
      const s = env.state;
      const alive = s.out.filter((o) => o === 0).length;
      const reason = env.endReason!;
      seen.set(reason, (seen.get(reason) ?? 0) + 1);
      if (reason === 'all-out') expect(alive).toBe(0);
      if (reason === 'one-left') expect(alive).toBe(1);
      if (reason === 'closing-time') {
        expect(alive).toBeGreaterThan(0);
        expect(env.view(0).closingTime.where).toBe('drawn');
      }
    }
    // Random play ends in every way the rules allow.
    expect([...seen.keys()].sort()).toEqual(['all-out', 'closing-time', 'one-left']);
    const capped = new CzechPubEnv({ seed: 3, players: 4, maxDecisions: 10 });
    playOut(capped, 3);
    expect(capped.endReason).toBe('decision-limit');
  });

  it('an illegal step throws a message naming the action and legal ones, and changes nothing', () => {
    const env = new CzechPubEnv({ seed: 1, players: 4 });
    const before = JSON.stringify(env.toJSON());
    const bad = Array.from({ length: NUM_ACTIONS }, (_, a) => a).find((a) => !env.legalActions().includes(a))!;
    expect(() => env.step(bad)).toThrow(/illegal action \d+ \(.+\) for seat 0 in the play phase; legal: /);
    expect(JSON.stringify(env.toJSON())).toBe(before);
  });

  it("events are filtered per seat: others' draws and taken cards are hidden", () => {
    const env = new CzechPubEnv({ seed: 11, players: 4 });
    playOut(env, 4);
    let hiddenDraws = 0;
    for (let seat = 0; seat < 4; seat++) {
      for (const ev of env.eventLog(seat)) {
        if (ev.k === 'draw') {
          if (ev.seat === seat) expect(ev.cards.length).toBe(ev.count);
          else {
            expect(ev.cards).toEqual([]);
            hiddenDraws++;
          }
        }
        if (ev.k === 'take' && ev.from !== seat && ev.to !== seat) expect(ev.card).toBe(HIDDEN);
      }
    }
    expect(hiddenDraws).toBeGreaterThan(0);
  });

  it('events() returns what a seat saw since its own last decision, its effects included', () => {
    const env = new CzechPubEnv({ seed: 2, players: 3 });
    const rng = seedRng(8);
    for (let i = 0; i < 60 && !env.done; i++) {
      const seat = env.actor;
      const evs = env.events(seat);
      const all = env.eventLog(seat);
      expect(all.slice(all.length - evs.length)).toEqual(evs);
      const legal = env.legalActions();
      env.step(legal[randInt(rng, legal.length)]);
      expect(env.events(seat)).toEqual(env.eventLog(seat).slice(all.length));
    }
  });

  it('askForced asks every eligible player at each window', () => {
    const quiet = new CzechPubEnv({ seed: 4, players: 4 });
    const asking = new CzechPubEnv({ seed: 4, players: 4, askForced: true });
    let singles = 0;
    playOut(asking, 5, (e) => {
      if (e.legalActions().length === 1) singles++;
    });
    playOut(quiet, 5, (e) => expect(e.legalActions().length).toBeGreaterThan(1));
    expect(singles).toBeGreaterThan(0);
  });

  it('clone is independent; toJSON/fromJSON round-trips mid-game and continues identically', () => {
    const env = new CzechPubEnv({ seed: 21, players: 5 });
    const rng = seedRng(9);
    for (let i = 0; i < 40; i++) {
      const legal = env.legalActions();
      env.step(legal[randInt(rng, legal.length)]);
    }
    const c = env.clone();
    const snap = JSON.parse(JSON.stringify(env.toJSON()));
    const revived = CzechPubEnv.fromJSON(snap);
    expect(revived.eventLog(0)).toEqual(env.eventLog(0));
    const before = JSON.stringify(env.state);
    c.step(c.legalActions()[0]);
    expect(JSON.stringify(env.state)).toBe(before);
    playOut(env, 10);
    playOut(revived, 10);
    expect(revived.returns()).toEqual(env.returns());
    expect(JSON.stringify(revived.state)).toBe(JSON.stringify(env.state));
  });

  it('text names the decision, the hand and the legal actions of the seat to act only', () => {
    const env = new CzechPubEnv({ seed: 1, players: 4 });
    const seat = env.actor;
    const mine = env.text(seat);
    expect(mine).toContain(`You are player ${seat}`);
    expect(mine).toContain('Your legal actions:');
    expect(mine).toContain('done playing');
    const other = env.text((seat + 1) % 4);
    expect(other).not.toContain('Your legal actions:');
  });

  it('resample() copies the env for search without touching the original', () => {
    const env = new CzechPubEnv({ seed: 13, players: 4 });
    const before = JSON.stringify(env.state);
    const r = env.resample(env.actor, 'x');
    expect(JSON.stringify(env.state)).toBe(before);
    expect(Array.from(r.encode(env.actor))).toEqual(Array.from(env.encode(env.actor)));
    expect(r.legalActions()).toEqual(env.legalActions());
    expect(() => env.resample(9, 'x')).toThrow('seat must be an integer from 0 to 3');
  });
});

describe('publicView', () => {
  it('is the same whichever seat it is made from, and holds no hand', () => {
    for (const players of [2, 4, 6]) {
      const env = new CzechPubEnv({ seed: `public/${players}`, players, log: false });
      const rng = seedRng(`public/${players}`);
      let checked = 0;
      while (!env.done) {
        const base = env.publicView();
        for (let p = 0; p < players; p++) expect(JSON.stringify(withoutPrivate(env.view(p)))).toBe(JSON.stringify(base));
        expect(base.hand).toBeNull();
        expect(base.table.every((t) => Object.keys(t.known).length === 0)).toBe(true);
        expect(JSON.stringify(base)).not.toMatch(/mayHold/);
        checked++;
        const legal = env.legalActions();
        env.step(legal[randInt(rng, legal.length)]);
      }
      expect(checked).toBeGreaterThan(10);
    }
  });
});
