/**
 * `clairvoyant`: a measurement reference, not a bot. It is `ismcts` searching the true game
 * (every hand and the draw pile's order as they are), with only the dice to come unknown, so
 * its win rate bounds what hidden-information skill could add (docs/results/2026-12-01-search-strength.md).
 * Tournaments give it the true game (eval/game.ts); the server refuses it, and it is the
 * default of nothing.
 *
 *   clairvoyant[:iterations=N:…]   the ismcts options
 */
import type { AgentFamily } from './registry.ts';
import { IsmctsAgent } from './ismcts/ismcts.ts';
import { ISMCTS_DEFAULTS, parseIsmctsOptions } from './ismcts/options.ts';

export class ClairvoyantAgent extends IsmctsAgent {
  readonly clairvoyant = true as const;
}

export const CLAIRVOYANT_AGENTS = {
  clairvoyant: {
    description: `measurement only: ismcts that sees every hand and the draw pile, not the dice to come (options: ${Object.keys(ISMCTS_DEFAULTS).join(', ')})`,
    needs: 'world',
    heavy: true,
    create: (spec, options, registry) => {
      const makeAgent = (s: string) => registry.create(s);
      return new ClairvoyantAgent(spec, parseIsmctsOptions(spec, options, makeAgent), makeAgent);
    },
  },
} satisfies AgentFamily;
