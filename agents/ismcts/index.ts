/** The ismcts agent, and the best response built on it. */
import { parseOptions, type AgentFamily } from '../registry.ts';
import { BEST_RESPONSE_AGENTS } from './best-response.ts';
import { IsmctsAgent } from './ismcts.ts';
import { ISMCTS_DEFAULTS, parseIsmctsOptions } from './options.ts';

export { BestResponseAgent, bestResponseSpec, modelFor } from './best-response.ts';
export { IsmctsAgent, type SearchStats } from './ismcts.ts';
export { ISMCTS_DEFAULTS, parseIsmctsOptions, type IsmctsOptions } from './options.ts';

export const ISMCTS_AGENTS = {
  ismcts: {
    description: `information-set MCTS (options: ${Object.keys(ISMCTS_DEFAULTS).join(', ')})`,
    needs: 'world',
    heavy: true,
    // Its own moves are the rollout policy's unless the search finds better (ismcts.ts).
    prior: (options) => parseOptions('ismcts', options, ISMCTS_DEFAULTS).rollout,
    // Its rollout policy is another agent's spec, made by the same registry.
    create: (spec, options, registry) => {
      const makeAgent = (s: string) => registry.create(s);
      return new IsmctsAgent(spec, parseIsmctsOptions(spec, options, makeAgent), makeAgent);
    },
  },
  ...BEST_RESPONSE_AGENTS,
} satisfies AgentFamily;
