/** `random`: uniform over the legal actions, from a generator seeded per game. */
import { randInt, seedRng, type RngState } from '../env/index.ts';
import type { Agent, AgentObservation, GameStart } from './agent.ts';
import { parseOptions, type AgentFamily } from './registry.ts';

export class RandomAgent implements Agent {
  readonly spec = 'random';
  private rng: RngState = seedRng('random');

  reset(game: GameStart): void {
    this.rng = seedRng(`random/${game.seed}`);
  }

  act(obs: AgentObservation): number {
    return obs.legalActions[randInt(this.rng, obs.legalActions.length)];
  }

  probabilities(obs: AgentObservation): number[] {
    return obs.legalActions.map(() => 1 / obs.legalActions.length);
  }
}

export const RANDOM_AGENTS = {
  random: {
    description: 'uniform over the legal actions',
    create: (spec, options) => {
      parseOptions(spec, options, {});
      return new RandomAgent();
    },
  },
} satisfies AgentFamily;
