/** Registers the ismcts agent. */
import { registerAgent } from '../registry.ts';
import { IsmctsAgent } from './ismcts.ts';
import { ISMCTS_DEFAULTS, parseIsmctsOptions } from './options.ts';

export { IsmctsAgent, type SearchStats } from './ismcts.ts';
export { ISMCTS_DEFAULTS, parseIsmctsOptions, type IsmctsOptions } from './options.ts';

registerAgent('ismcts', {
  description: `information-set MCTS (options: ${Object.keys(ISMCTS_DEFAULTS).join(', ')})`,
  needs: 'world',
  heavy: true,
  create: (spec, options) => new IsmctsAgent(spec, parseIsmctsOptions(spec, options)),
});
