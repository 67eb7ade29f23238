import { describe, expect, it } from 'vitest';
import { A_PASS, CzechPubEnv, randInt, seedRng, type RngState } from '../../env/index.ts';
import type { AgentObservation } from '../agent.ts';
import { createAgent } from '../default-registry.ts';
import { EnvObservation } from '../observation.ts';
import type { PpoAgent } from '../ppo/ppo-agent.ts';
import type { PpoSearchAgent } from '../ppo/search.ts';
import { Belief, sampleBelievedWorld, temperedWeights } from './belief.ts';
import { policyModel, type BeliefModel } from './model.ts';

const J = (x: unknown) => JSON.stringify(x);
const isReaction = (obs: AgentObservation) => obs.view.decision.kind === 'reaction';

/** In a reaction window plays its first X card if it has one, else passes; elsewhere any legal action. */
function eager(obs: AgentObservation, rng: RngState): number {
  const legal = obs.legalActions;
  if (isReaction(obs)) return legal.find((a) => a !== A_PASS) ?? A_PASS;
  return legal[randInt(rng, legal.length)];
}

/** The eager player as a model: one-hot in reaction windows (it passes only when it holds no X card it could play), indifferent elsewhere. */
const eagerModel: BeliefModel = {
  probability(obs, action) {
    if (!isReaction(obs)) return 1 / obs.legalActions.length;
    return (obs.legalActions.find((a) => a !== A_PASS) ?? A_PASS) === action ? 1 : 0;
  },
};

/** A game with every seat asked at every decision, played by eager players, to a decision of seat 0 just after another seat passed in a reaction window it could have played in, in some deal. */
function positions(count: number): CzechPubEnv[] {
  const out: CzechPubEnv[] = [];
  for (let g = 0; out.length < count && g < 200; g++) {
    const env = new CzechPubEnv({ seed: `eager/${g}`, players: 4, askForced: true, log: false });
    const rng = seedRng(`eager/${g}/play`);
    let passed = false;
    while (!env.done && env.actions.length < 400) {
      const seat = env.actor;
      const obs = new EnvObservation(env, seat);
      if (seat === 0 && passed && env.actions.length > 30 && obs.legalActions.length > 1) {
        out.push(env);
        break;
      }
      const a = eager(obs, rng);
      if (seat !== 0 && isReaction(obs) && a === A_PASS) passed = true;
      if (seat !== 0 && a !== A_PASS) passed = false;
      env.step(a);
    }
  }
  return out;
}

describe('a belief from the other seats’ choices', () => {
  it('never gives a seat that passed an X card it could have played then, where the uniform deal does', () => {
    let shifted = 0;
    let worlds = 0;
    for (const env of positions(4)) {
      const obs = new EnvObservation(env, 0);
      const belief = new Belief(obs, eagerModel, 'eager', { candidates: 16, window: 3, floor: 0 });
      const weighed = belief.weighted();
      expect(belief.stats().fallback).toBe(false);
      const past = obs.past(3);
      weighed.forEach((w, i) => {
        const c = past.candidate(`eager/c${i}`);
        expect(J(c.world.state)).toBe(J(w.world.state));
        // Where a seat passed in a reaction window, this world gave it an X card it could have played.
        const couldPlay = c.positions.some((p) => p.action === A_PASS && isReaction(new EnvObservation(p.world, p.seat, p.legal)) && p.legal.length > 1);
        if (couldPlay) {
          expect(w.weight).toBe(0);
          shifted++;
        } else if (!w.impossible) {
          expect(w.weight).toBeGreaterThan(0);
          worlds++;
        }
      });
    }
    // The uniform deal gave some of them one (and the belief dropped those), and kept others in play.
    expect(shifted).toBeGreaterThan(5);
    expect(worlds).toBeGreaterThan(5);
  });

  it('draws the same world for the same seeds, and another for another seed', () => {
    const [env] = positions(1);
    const model = () => {
      const m = policyModel(createAgent('ppo') as PpoAgent);
      m.reset!({ seat: 0, players: 4, seed: 'same' });
      return m;
    };
    const a = new Belief(new EnvObservation(env, 0), model(), 'pool');
    const b = new Belief(new EnvObservation(env, 0), model(), 'pool');
    expect(J(b.weighted().map((w) => w.weight))).toBe(J(a.weighted().map((w) => w.weight)));
    expect(J(b.sample('w0').state)).toBe(J(a.sample('w0').state));
    expect(J(a.sample('w1').state)).not.toBe(J(a.sample('w0').state));
    // The one-call form holds one belief per observation and options.
    const obs = new EnvObservation(env, 0);
    const m = model();
    const first = sampleBelievedWorld(obs, m, 'w0', { seed: 'pool' });
    expect(J(first.state)).toBe(J(a.sample('w0').state));
    expect(J(sampleBelievedWorld(obs, m, 'w1', { seed: 'pool' }).state)).toBe(J(a.sample('w1').state));
  });

  it('keeps worlds in play by tempering: the effective sample size is at least the share asked', () => {
    const logs = [0, -1, -5, -20, -40, -Infinity, -60, -3];
    const ess = (w: number[]) => w.reduce((s, x) => s + x, 0) ** 2 / w.reduce((s, x) => s + x * x, 0);
    for (const share of [0, 0.25, 0.5, 0.9]) {
      const w = temperedWeights(logs, share);
      expect(w[5]).toBe(0);
      expect(ess(w)).toBeGreaterThanOrEqual(share * 7 - 1e-6);
    }
    // Already diverse enough: Bayes' rule itself.
    expect(temperedWeights([0, -0.1, -0.2], 0.5)).toEqual([0, -0.1, -0.2].map((l) => Math.exp(l)));
    expect(temperedWeights([-Infinity, -Infinity], 0.5)).toEqual([0, 0]);
  });
});

describe('ppo-search beliefs', () => {
  /** The actions a search agent takes at every decision of one game against heuristic seats. */
  async function actions(spec: string, seed: string): Promise<number[]> {
    const agents = [createAgent(spec), ...[1, 2, 3].map(() => createAgent('heuristic'))];
    const env = new CzechPubEnv({ seed, players: 4, log: false });
    agents.forEach((a, seat) => a.reset?.({ seat, players: 4, seed: `${seed}/${seat}` }));
    const taken: number[] = [];
    while (!env.done && env.actions.length < 45) {
      const seat = env.actor;
      const a = await agents[seat].act(new EnvObservation(env, seat));
      if (seat === 0) taken.push(a);
      env.step(a);
    }
    return taken;
  }

  it('beliefs=uniform is the search as it was; beliefs=policy plays legally and the same for the same seed', async () => {
    const base = await actions('ppo-search:iterations=4', 'beliefs/search');
    expect(await actions('ppo-search:iterations=4:beliefs=uniform', 'beliefs/search')).toEqual(base);
    const policy = await actions('ppo-search:iterations=4:beliefs=policy', 'beliefs/search');
    expect(await actions('ppo-search:iterations=4:beliefs=policy', 'beliefs/search')).toEqual(policy);
    expect(policy.length).toBeGreaterThan(3);
  }, 60_000);

  it('refuses another kind of belief', () => {
    expect(() => createAgent('ppo-search:beliefs=oracle')).toThrow(/'beliefs' must be uniform or policy/);
    expect((createAgent('ppo-search:beliefs=policy') as PpoSearchAgent).spec).toBe('ppo-search:beliefs=policy');
  });
});
