/**
 * The trained-policy agents: `ppo` plays the policy's most likely action (or samples it);
 * `ppo-search` searches on top of it (search.ts). Both take the shipped models, one per table
 * size where there is one, or a checkpoint file named first: `ppo:<checkpoint>[:options]`.
 */
import { parseOptionParts, parseOptions, type AgentFamily, type AgentRegistry } from '../registry.ts';
import { DEFAULT_MODEL, loadPolicy, PpoAgent, shippedModel } from './ppo-agent.ts';
import { HORIZONS, PPO_SEARCH_DEFAULTS, PpoSearchAgent } from './search.ts';

export { DEFAULT_MODEL, loadPolicy, PpoAgent, shippedModel } from './ppo-agent.ts';
export { PPO_SEARCH_DEFAULTS, PpoSearchAgent, type SearchCandidate, type SearchLine } from './search.ts';

/** The checkpoint a spec names (its first part without '='), the options after it, and the label's name. */
function splitSpec(options: string): { file: string; rest: string; named: string } {
  const parts = options === '' ? [] : options.split(':');
  const file = parts.length > 0 && !parts[0].includes('=') ? parts.shift()! : '';
  // A checkpoint by its file's name, not its path.
  const named = file === '' ? '' : `:${file.split(/[\\/]/).filter(Boolean).pop()!.replace(/\.json$/, '')}`;
  return { file, rest: parts.join(':'), named };
}

function load(spec: string, file: string) {
  try {
    return loadPolicy(file === '' ? DEFAULT_MODEL : file);
  } catch (err) {
    throw new Error(`agent '${spec}': ${(err as Error).message}${file === '' ? ' (the shipped model is missing: train one with czech-pub train and name it as ppo:<run dir>/model.json)' : ''}`);
  }
}

/** For the shipped models (no file named): the model of each table size. All are trained under the standard rules. */
const bySize = (file: string) => (file === '' ? (players: number) => loadPolicy(shippedModel(players)) : undefined);

/**
 * The search's options split at ':', a rollout's checkpoint kept with it: in
 * `rollout=ppo:models/ppo-micro-2p.json:iterations=8` the bare part after `rollout=` is the
 * rollout's (no option of the search is a bare flag, so nothing else could claim it).
 */
function searchParts(rest: string): string[] {
  const parts: string[] = [];
  for (const part of rest === '' ? [] : rest.split(':')) {
    const last = parts.length - 1;
    if (!part.includes('=') && last >= 0 && parts[last].startsWith('rollout=')) parts[last] += `:${part}`;
    else parts.push(part);
  }
  return parts;
}

/** `ppo-search` (and the clairvoyant reference's search, `Search` = its class) from a spec's options, checked. */
export function createPpoSearch(spec: string, options: string, registry: AgentRegistry, Search: typeof PpoSearchAgent = PpoSearchAgent): PpoSearchAgent {
  const { file, rest } = splitSpec(options);
  const o = parseOptionParts(spec, searchParts(rest), PPO_SEARCH_DEFAULTS);
  const fail = (key: string, want: string): never => {
    throw new Error(`agent '${spec}': option '${key}' must be ${want}, got '${o[key as keyof typeof o]}'`);
  };
  if (!Number.isInteger(o.iterations) || o.iterations < 1) fail('iterations', 'an integer ≥ 1');
  if (!(o.mass > 0 && o.mass <= 1)) fail('mass', 'in (0, 1]');
  if (!Number.isInteger(o.candidates) || o.candidates < 1) fail('candidates', 'an integer ≥ 1');
  if (!(o.confidence >= 0)) fail('confidence', '≥ 0');
  if (!(HORIZONS as readonly string[]).includes(o.horizon)) fail('horizon', HORIZONS.join(' or '));
  if (o.rollout === '' || o.rollout.startsWith('ppo-search') || o.rollout.startsWith('clairvoyant') || o.rollout.startsWith('ismcts')) {
    fail('rollout', 'a fast synchronous agent (heuristic, cautious, greedy, random, ppo)');
  }
  const makeAgent = (s: string) => registry.create(s);
  try {
    makeAgent(o.rollout);
  } catch (e) {
    fail('rollout', `a registered agent's spec (${(e as Error).message})`);
  }
  return new Search(spec, load(spec, file), o, makeAgent, bySize(file));
}

/** The search's prior: the policy of its checkpoint, as `ppo` plays it. */
export function searchPrior(options: string): string {
  const { file } = splitSpec(options);
  return file === '' ? 'ppo' : `ppo:${file}`;
}

/** The search's label: the checkpoint by its file's name, then the options. */
export function searchLabel(kind: string, options: string): string {
  const { named, rest } = splitSpec(options);
  return `${kind}${named}${rest === '' ? '' : `:${rest}`}`;
}

export const PPO_AGENTS = {
  ppo: {
    description: 'a trained policy: ppo (the shipped models) or ppo:<checkpoint.json>[:sample=true]',
    label: (options) => {
      const { named, rest } = splitSpec(options);
      return `ppo${named}${rest === '' ? '' : `:${rest}`}`;
    },
    create: (spec, options) => {
      const { file, rest } = splitSpec(options);
      const o = parseOptions(spec, rest, { sample: false });
      return new PpoAgent(spec, load(spec, file), o.sample, bySize(file));
    },
  },
  'ppo-search': {
    description: `search on the trained policy: its prior picks candidates, its value head judges them in resampled worlds (options: ${Object.keys(PPO_SEARCH_DEFAULTS).join(', ')})`,
    needs: 'world',
    heavy: true,
    label: (options) => searchLabel('ppo-search', options),
    prior: searchPrior,
    create: (spec, options, registry) => createPpoSearch(spec, options, registry),
  },
} satisfies AgentFamily;
