import { describe, expect, it } from 'vitest';
import { CzechPubEnv } from '../env/env.ts';
import { playGame } from '../eval/game.ts';
import { createAgent } from './default-registry.ts';
import { EnvObservation } from './observation.ts';

/** A game a few decisions in, so hands and pile are dealt and some cards are hidden. */
function midGame(): CzechPubEnv {
  const env = new CzechPubEnv({ seed: 'seer', players: 4 });
  for (let i = 0; i < 12 && !env.done; i++) env.step(env.legalActions()[0]);
  return env;
}

describe('clairvoyant reference', () => {
  it('is shown the true hands and draw pile with fresh dice; every other agent a resampled world', () => {
    const env = midGame();
    const seat = env.actor;
    const truth = env.state;
    const seen = new EnvObservation(env, seat, undefined, true).sampleWorld('w').state;
    expect(seen.hand).toEqual(truth.hand);
    expect(seen.deck).toEqual(truth.deck);
    expect(seen.rng).not.toEqual(truth.rng);
    const fair = new EnvObservation(env, seat).sampleWorld('w').state;
    // Another seat's hidden cards are dealt anew for a fair agent.
    expect(fair.deck).not.toEqual(truth.deck);
  });

  it('is marked, and tournaments hand it the true game while ismcts at the same options stays fair', async () => {
    const seer = createAgent('clairvoyant:iterations=20');
    const fair = createAgent('ismcts:iterations=20');
    expect(seer.clairvoyant).toBe(true);
    expect(fair.clairvoyant).toBeUndefined();
    const a = await playGame([seer, createAgent('heuristic'), createAgent('heuristic')], { seed: 'seer-game' });
    const b = await playGame([fair, createAgent('heuristic'), createAgent('heuristic')], { seed: 'seer-game' });
    expect(a.agentDecisions[0]).toBeGreaterThan(0);
    // Same seed and options, different information: the two searches do not play the same game.
    expect([a.decisions, ...a.scores]).not.toEqual([b.decisions, ...b.scores]);
  });

  it('clairvoyant-search is ppo-search on the true game: marked, labelled, the same options checked', async () => {
    const seer = createAgent('clairvoyant-search:iterations=8');
    const fair = createAgent('ppo-search:iterations=8');
    expect(seer.clairvoyant).toBe(true);
    expect(fair.clairvoyant).toBeUndefined();
    expect(() => createAgent('clairvoyant-search:iterations=0')).toThrow("option 'iterations' must be an integer ≥ 1");
    expect(() => createAgent('ppo-search:rollout=clairvoyant-search')).toThrow("option 'rollout' must be a fast synchronous agent");
    const a = await playGame([seer, createAgent('heuristic'), createAgent('heuristic')], { seed: 'seer-search' });
    const b = await playGame([fair, createAgent('heuristic'), createAgent('heuristic')], { seed: 'seer-search' });
    expect(a.agentDecisions[0]).toBeGreaterThan(0);
    expect([a.decisions, ...a.scores]).not.toEqual([b.decisions, ...b.scores]);
  }, 60_000);
});
