/** Agents: the interface, the registry, and every agent (importing this registers them). */
export * from './agent.ts';
export * from './registry.ts';
export { EnvObservation } from './observation.ts';
export { RandomAgent } from './random.ts';
import './scripted/index.ts';
import './ismcts/index.ts';
import './ppo/index.ts';
import './llm/index.ts';
import './http/index.ts';
