/** The ppo agent: `ppo`, `ppo:<checkpoint>`, `ppo:<checkpoint>:sample=true`. */
import { parseOptions, type AgentFamily } from '../registry.ts';
import { DEFAULT_MODEL, loadPolicy, PpoAgent } from './ppo-agent.ts';

export { DEFAULT_MODEL, loadPolicy, PpoAgent } from './ppo-agent.ts';

export const PPO_AGENTS = {
  ppo: {
    description: 'a trained policy: ppo (the shipped model) or ppo:<checkpoint.json>[:sample=true]',
    // A checkpoint by its file's name, not its path.
    label: (options) => {
      const parts = options === '' ? [] : options.split(':');
      const file = parts.length > 0 && !parts[0].includes('=') ? parts.shift()! : '';
      const name = file === '' ? '' : `:${file.split(/[\\/]/).filter(Boolean).pop()!.replace(/\.json$/, '')}`;
      return `ppo${name}${parts.map((p) => `:${p}`).join('')}`;
    },
    create: (spec, options) => {
      // The first part without '=' is the checkpoint's path; the rest are options.
      const parts = options === '' ? [] : options.split(':');
      const file = parts.length > 0 && !parts[0].includes('=') ? parts.shift()! : DEFAULT_MODEL;
      const o = parseOptions(spec, parts.join(':'), { sample: false });
      let policy;
      try {
        policy = loadPolicy(file);
      } catch (err) {
        throw new Error(`agent '${spec}': ${(err as Error).message}${file === DEFAULT_MODEL ? ' (the shipped model is missing: train one with czech-pub train and name it as ppo:<run dir>/model.json)' : ''}`);
      }
      return new PpoAgent(spec, policy, o.sample);
    },
  },
} satisfies AgentFamily;
