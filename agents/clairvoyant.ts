/**
 * `clairvoyant`: a measurement reference, not a bot. It is `ismcts` searching the true game
 * (every hand and the draw pile's order as they are), with only the dice to come unknown, so
 * its win rate bounds what hidden-information skill could add (docs/results/2026-12-01-search-strength.md).
 * `clairvoyant-search` is the same reference at `ppo-search`'s strength: that search, on the
 * true game. Tournaments give them the true game (eval/game.ts); the server refuses them, and
 * they are the default of nothing.
 *
 *   clairvoyant[:iterations=N:…]                          the ismcts options
 *   clairvoyant-search[:<checkpoint>][:iterations=N:…]    ppo-search's options
 */
import { parseOptions, type AgentFamily } from './registry.ts';
import { IsmctsAgent } from './ismcts/ismcts.ts';
import { ISMCTS_DEFAULTS, parseIsmctsOptions } from './ismcts/options.ts';
import { createPpoSearch, PPO_SEARCH_DEFAULTS, PpoSearchAgent, searchLabel, searchPrior } from './ppo/index.ts';

export class ClairvoyantAgent extends IsmctsAgent {
  readonly clairvoyant = true as const;
}

/** ppo-search on the true game (every hand and the pile as they are; the dice to come dealt anew). */
export class ClairvoyantSearchAgent extends PpoSearchAgent {
  readonly clairvoyant = true as const;
}

export const CLAIRVOYANT_AGENTS = {
  clairvoyant: {
    description: `measurement only: ismcts that sees every hand and the draw pile, not the dice to come (options: ${Object.keys(ISMCTS_DEFAULTS).join(', ')})`,
    needs: 'world',
    heavy: true,
    prior: (options) => parseOptions('clairvoyant', options, ISMCTS_DEFAULTS).rollout,
    create: (spec, options, registry) => {
      const makeAgent = (s: string) => registry.create(s);
      return new ClairvoyantAgent(spec, parseIsmctsOptions(spec, options, makeAgent), makeAgent);
    },
  },
  'clairvoyant-search': {
    description: `measurement only: ppo-search that sees every hand and the draw pile, not the dice to come: the ceiling at the search's own strength (options: ${Object.keys(PPO_SEARCH_DEFAULTS).join(', ')})`,
    needs: 'world',
    heavy: true,
    label: (options) => searchLabel('clairvoyant-search', options),
    prior: searchPrior,
    create: (spec, options, registry) => createPpoSearch(spec, options, registry, ClairvoyantSearchAgent),
  },
} satisfies AgentFamily;
