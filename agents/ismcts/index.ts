/** The ismcts agent. */
import type { AgentFamily } from '../registry.ts';
import { IsmctsAgent } from './ismcts.ts';
import { ISMCTS_DEFAULTS, parseIsmctsOptions } from './options.ts';

export { IsmctsAgent, type SearchStats } from './ismcts.ts';
export { ISMCTS_DEFAULTS, parseIsmctsOptions, type IsmctsOptions } from './options.ts';

export const ISMCTS_AGENTS = {
  ismcts: {
    description: `information-set MCTS (options: ${Object.keys(ISMCTS_DEFAULTS).join(', ')})`,
    needs: 'world',
    heavy: true,
    // Its rollout policy is another agent's spec, made by the same registry.
    create: (spec, options, registry) => {
      const makeAgent = (s: string) => registry.create(s);
      return new IsmctsAgent(spec, parseIsmctsOptions(spec, options, makeAgent), makeAgent);
    },
  },
} satisfies AgentFamily;
