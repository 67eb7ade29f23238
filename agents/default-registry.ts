/**
 * The agents this project ships, listed in one place, and the registry built from that list,
 * through which the CLI, tournaments and their workers, the trainer and the server create
 * agents. Importing `createAgent` (or the others) from here is all a caller needs: no
 * side-effect import to remember, and a missing import is a type error.
 *
 * A library user adds an agent with `registerAgent(name, factory)`; it is then known to
 * everything that creates agents in this thread (a tournament's worker threads build their
 * own registry from this list, so there a new agent needs a family of its own here).
 */
import type { Agent } from './agent.ts';
import { HTTP_AGENTS } from './http/index.ts';
import { ISMCTS_AGENTS } from './ismcts/index.ts';
import { CLAIRVOYANT_AGENTS } from './clairvoyant.ts';
import { LLM_AGENTS } from './llm/index.ts';
import { PPO_AGENTS } from './ppo/index.ts';
import { RANDOM_AGENTS } from './random.ts';
import { AgentRegistry, type AgentFactory, type AgentFamily } from './registry.ts';
import { SCRIPTED_AGENTS } from './scripted/index.ts';
import { TABULAR_AGENTS } from './tabular.ts';

/** Every shipped family of agents, in the order listings show them. */
export const AGENT_FAMILIES: readonly AgentFamily[] = [RANDOM_AGENTS, SCRIPTED_AGENTS, ISMCTS_AGENTS, PPO_AGENTS, TABULAR_AGENTS, LLM_AGENTS, HTTP_AGENTS, CLAIRVOYANT_AGENTS];

export const agentRegistry = new AgentRegistry(AGENT_FAMILIES);

/** Creates an agent from its spec; an unknown name fails listing the known ones. */
export function createAgent(spec: string): Agent {
  return agentRegistry.create(spec);
}

/** Adds an agent to the registry everything here creates agents from. */
export function registerAgent(name: string, factory: AgentFactory): void {
  agentRegistry.register(name, factory);
}

export function knownAgents(): { name: string; description: string }[] {
  return agentRegistry.known();
}

/** What tables call the agents of a run (AgentRegistry.labels). */
export function agentLabels(specs: readonly string[]): string[] {
  return agentRegistry.labels(specs);
}

/** Whether a game with these agents has a seat that is not an engine bot (AgentRegistry.anyOutside): then it asks forced decisions too. */
export function anyOutsideAgent(specs: readonly string[]): boolean {
  return agentRegistry.anyOutside(specs);
}

/** The factory registered under an agent name (the part of a spec before the first ':'), if any. */
export function agentKind(name: string): Readonly<AgentFactory> | undefined {
  return agentRegistry.kind(name);
}
