import { describe, expect, it } from 'vitest';
import { CLOSING_TIME, HAND_TYPES } from '../../env/cards.ts';
import { CzechPubEnv } from '../../env/env.ts';
import { randInt, seedRng, shuffle } from '../../env/rng.ts';
import type { GameState } from '../../env/state.ts';
import { playGame } from '../../eval/game.ts';
import { EnvObservation } from '../observation.ts';
import { RandomAgent } from '../random.ts';
import { createAgent } from '../default-registry.ts';
import type { IsmctsAgent } from './ismcts.ts';

const FAST = 'ismcts:iterations=8';

/** Plays a game of `specs` on a local env, returning the actions taken. */
function play(specs: string[], seed: string): number[] {
  const env = new CzechPubEnv({ seed, players: specs.length });
  const agents = specs.map((s) => createAgent(s));
  agents.forEach((a, seat) => a.reset?.({ seat, players: specs.length, seed: `${seed}/seat${seat}` }));
  while (!env.done) {
    const seat = env.actor;
    env.step(agents[seat].act(new EnvObservation(env, seat)) as number);
  }
  return [...env.actions];
}

/**
 * A copy of `env` that differs only in what `seat` cannot see: unknown cards swapped between
 * other hands, the draw pile reordered (CLOSING TIME kept in place), other dice to come.
 */
function hideDifferently(env: CzechPubEnv, seat: number, seed: string): CzechPubEnv {
  const snap = env.toJSON();
  const s: GameState = JSON.parse(JSON.stringify(snap.state));
  const n = s.players;
  const rng = seedRng(seed);
  // Cards of another hand that no seat knows about.
  const free = (p: number, t: number): number => {
    let known = 0;
    for (let o = 0; o < n; o++) if (o !== p) known = Math.max(known, s.known[(o * n + p) * HAND_TYPES + t]);
    return s.hand[p * HAND_TYPES + t] - known;
  };
  const others = [...Array(n).keys()].filter((p) => p !== seat);
  for (let k = 0; k < 20; k++) {
    const p = others[randInt(rng, others.length)];
    const q = others[randInt(rng, others.length)];
    const tp = randInt(rng, HAND_TYPES);
    const tq = randInt(rng, HAND_TYPES);
    if (p === q || tp === tq || free(p, tp) < 1 || free(q, tq) < 1) continue;
    s.hand[p * HAND_TYPES + tp]--;
    s.hand[q * HAND_TYPES + tp]++;
    s.hand[q * HAND_TYPES + tq]--;
    s.hand[p * HAND_TYPES + tq]++;
  }
  const slots = s.deck.flatMap((c, i) => (c === CLOSING_TIME ? [] : [i]));
  const cards = slots.map((i) => s.deck[i]);
  shuffle(rng, cards);
  slots.forEach((i, k) => (s.deck[i] = cards[k]));
  s.rng = seedRng(`${seed}:dice`);
  return CzechPubEnv.fromJSON({ config: snap.config, state: s, actions: [] });
}

// Searches over whole games: seconds each on a quiet machine, a minute and more on a busy one.
describe('ismcts', { timeout: 300_000 }, () => {
  it('returns only legal actions at 2–6 players', async () => {
    for (let players = 2; players <= 6; players++) {
      const agents = Array.from({ length: players }, (_, seat) => (seat < 2 ? createAgent(FAST) : new RandomAgent()));
      const g = await playGame(agents, { seed: `legal/${players}` }); // throws on an illegal action
      expect(g.agentDecisions[0] + g.agentDecisions[1]).toBeGreaterThan(0);
    }
    // Rollouts by another agent, played to the end.
    await playGame([createAgent('ismcts:iterations=5:rollout=random'), new RandomAgent(), new RandomAgent()], { seed: 'legal/r' });
  });

  it('plays the same game from the same seed', () => {
    const specs = [FAST, 'random', FAST];
    expect(play(specs, 'same/1')).toEqual(play(specs, 'same/1'));
    expect(play(specs, 'same/1')).not.toEqual(play(specs, 'same/2'));
  });

  it('never reads the real hidden state: same observation, same choice', () => {
    const env = new CzechPubEnv({ seed: 'hidden', players: 4 });
    const rng = seedRng('walk');
    let checked = 0;
    for (let step = 0; !env.done && checked < 6; step++) {
      const seat = env.actor;
      const legal = env.legalActions();
      if (legal.length > 1 && step % 7 === 0) {
        const other = hideDifferently(env, seat, `edit/${step}`);
        const same = CzechPubEnv.fromJSON({ config: env.config, state: env.toJSON().state, actions: [] });
        expect(JSON.stringify(other.state)).not.toEqual(JSON.stringify(same.state));
        expect(other.view(seat)).toEqual(same.view(seat));
        expect(other.encode(seat)).toEqual(same.encode(seat));
        const choose = (e: CzechPubEnv) => {
          const a = createAgent(FAST) as IsmctsAgent;
          a.reset({ seat, players: 4, seed: 'g' });
          const action = a.act(new EnvObservation(e, seat));
          return { action, visits: [...a.lastSearch!.rootVisits] };
        };
        expect(choose(other)).toEqual(choose(same));
        checked++;
      }
      env.step(legal[randInt(rng, legal.length)]);
    }
    expect(checked).toBe(6);
  });

  it('skips the search when one action is legal', () => {
    const a = createAgent(FAST) as IsmctsAgent;
    a.reset({ seat: 0, players: 2, seed: 's' });
    const obs = { seat: 0, players: 2, legalActions: [39] } as unknown as EnvObservation;
    expect(a.act(obs)).toBe(39);
    expect(a.lastSearch).toBeNull();
  });

  it('spends the iteration budget, or the time budget on its clock', async () => {
    const { IsmctsAgent } = await import('./ismcts.ts');
    const { parseIsmctsOptions } = await import('./options.ts');
    const env = new CzechPubEnv({ seed: 'budget', players: 3 });
    while (env.legalActions().length < 2) env.step(env.legalActions()[0]);
    const obs = new EnvObservation(env, env.actor);
    const counted = new IsmctsAgent('ismcts:iterations=9', parseIsmctsOptions('x', 'iterations=9:depth=2', createAgent), createAgent);
    counted.reset({ seat: obs.seat, players: 3, seed: 'b' });
    counted.act(obs);
    expect(counted.lastSearch!.iterations).toBe(9);
    expect([...counted.lastSearch!.rootVisits.values()].reduce((x, y) => x + y, 0)).toBe(9);
    let t = 0;
    const timed = new IsmctsAgent('x', parseIsmctsOptions('x', 'timeMs=20:depth=2', createAgent), createAgent, () => (t += 1));
    timed.reset({ seat: obs.seat, players: 3, seed: 'b' });
    expect(obs.legalActions).toContain(timed.act(obs));
    expect(timed.lastSearch!.iterations).toBe(20); // one clock read sets the deadline, one per later iteration
  });
});
