/**
 * An agent of the registry as a policy on a walked tree (tree.ts): its action probabilities at
 * every information set, read from the seat's own observation there (built by the seat channel
 * from a state of one of the set's histories, which all show the seat the same).
 *
 * Where the agent says what it draws from (`Agent.probabilities`: random, ppo) those are the
 * probabilities; a table (`tabular`) is read by the set's key; any other agent is asked once
 * per set, after a reset seeded by the set's key, and its answer counts as certain: a
 * deterministic bot is a one-hot. Agents that search copies of the game, read a history or ask
 * a server are refused: their choice at an information state is not a fixed distribution.
 */
import { createAgent, EnvObservation, TabularAgent, agentKind, type Agent } from '../../agents/index.ts';
import { CzechPubEnv, DEFAULT_MAX_DECISIONS } from '../../env/index.ts';
import { checkPolicy } from './best-response.ts';
import type { GameTree } from './tree.ts';

/** Why `spec` cannot be read as a policy on a tree, or null when it can. */
export function treePolicyProblem(spec: string): string | null {
  const name = spec.trim().split(':')[0];
  const kind = agentKind(name);
  if (!kind) return null; // createAgent names the known ones
  if (name === 'tabular') return null;
  if (kind.outside) return `agent '${spec}' asks a server: its action probabilities are not known at each information state`;
  if (kind.needs === 'world') return `agent '${spec}' searches copies of the game: its choice at an information state is not a fixed distribution`;
  if (kind.needs === 'history') return `agent '${spec}' reads the game's history, which a tree walk does not replay`;
  return null;
}

/**
 * The policy of the agent `spec` at every information set of `tree`, every seat played by its
 * own copy; `make` creates the copies where they are not the registry's (the trainer's net).
 */
export function agentPolicy(tree: GameTree, spec: string, make: () => Agent = () => createAgent(spec)): Float64Array {
  const problem = treePolicyProblem(spec);
  if (problem) throw new Error(problem);
  const ruleset = tree.rules.ruleset;
  const agents: Agent[] = [...Array(tree.players).keys()].map((seat) => {
    const agent = make();
    agent.reset?.({ seat, players: tree.players, seed: `exact/${seat}`, ruleset });
    return agent;
  });
  const config = { seed: 0, players: tree.players, ruleset, reward: tree.reward, askForced: false, maxDecisions: DEFAULT_MAX_DECISIONS, log: false };
  const policy = new Float64Array(tree.policySize);
  for (const set of tree.infosets) {
    const agent = agents[set.seat];
    let probs: number[] | null = null;
    if (agent instanceof TabularAgent) {
      probs = agent.rowAt(set.key, set.legal);
      if (!probs) throw new Error(`agent '${spec}' has no row for an information set of this tree (seat ${set.seat}): it was made for another tree`);
    } else {
      const env = CzechPubEnv.fromJSON({ config, state: set.state, actions: [] });
      const obs = new EnvObservation(env, set.seat, set.legal);
      if (agent.probabilities) probs = agent.probabilities(obs);
      else {
        agent.reset?.({ seat: set.seat, players: tree.players, seed: `exact/${set.key}`, ruleset });
        const a = agent.act(obs);
        if (typeof a !== 'number') throw new Error(`agent '${spec}' answers asynchronously: a tree walk asks synchronous agents`);
        probs = set.legal.map((x) => (x === a ? 1 : 0));
      }
    }
    for (let k = 0; k < set.legal.length; k++) policy[set.offset + k] = probs[k];
  }
  checkPolicy(tree, policy);
  return policy;
}

/** A policy on `tree` as the rows of a tabular policy file (agents/tabular.ts): by information-state key. */
export function policyTable(tree: GameTree, policy: Float64Array, digits = 6): Record<string, { actions: number[]; probs: number[] }> {
  const table: Record<string, { actions: number[]; probs: number[] }> = {};
  const scale = 10 ** digits;
  for (const set of tree.infosets) {
    table[set.key] = { actions: set.legal, probs: set.legal.map((_, k) => Math.round(policy[set.offset + k] * scale) / scale) };
  }
  return table;
}
