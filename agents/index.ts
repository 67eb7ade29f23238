/** Agents: the interface, the registry, every shipped agent, and the registry built from them. */
export * from './agent.ts';
export * from './registry.ts';
export * from './outside-calls.ts';
export * from './default-registry.ts';
export { EnvObservation } from './observation.ts';
export { RandomAgent } from './random.ts';
export { agentSeed, opaqueGameId } from './seed.ts';
