/** The scripted baselines (greedy, cautious, heuristic). */
import { parseOptions, type AgentFamily } from '../registry.ts';
import { CAUTIOUS_DEFAULTS, CautiousAgent } from './cautious.ts';
import { GreedyAgent } from './greedy.ts';
import { HEURISTIC_DEFAULTS, HeuristicAgent } from './heuristic.ts';

export const SCRIPTED_AGENTS = {
  greedy: {
    description: 'most points this turn (beers, shots, Flattery), ignores every risk',
    create: (spec, options) => {
      parseOptions(spec, options, {});
      return new GreedyAgent();
    },
  },
  cautious: {
    description: 'points weighed against the roll, levels and being wasted; avoids abstaining; sensible responses',
    create: (spec, options) => new CautiousAgent(spec, parseOptions(spec, options, CAUTIOUS_DEFAULTS)),
  },
  heuristic: {
    description: 'plans the turn against the chart and the turns left, plays pub and X cards at the leader, endgame-aware',
    create: (spec, options) => new HeuristicAgent(spec, parseOptions(spec, options, HEURISTIC_DEFAULTS)),
  },
} satisfies AgentFamily;
