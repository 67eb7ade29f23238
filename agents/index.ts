/**
 * Agents: what every other folder imports of agents/. The interface an agent implements and
 * the observation it is given (built by the seat channel), the spec-string registry and the
 * default one holding every shipped family (`createAgent`), the limits on outside calls (gates,
 * budgets, the errors that stop a run), per-game agent seeds, usage tallies, and the few
 * agent classes and helpers other folders name directly: the PPO agent and its input rows
 * (which the trainer fills), the LLM agent and its prompts, the best response's spec and model
 * (what `exploit --search` plays).
 */
export * from './agent.ts';
export * from './registry.ts';
export * from './outside-calls.ts';
export * from './default-registry.ts';
export { EnvObservation, maskOf } from './observation.ts';
export { RandomAgent } from './random.ts';
export { readTabularPolicy, TABULAR_FORMAT, TabularAgent, tabularPolicyFile, type TabularPolicyFile } from './tabular.ts';
export { agentSeed, opaqueGameId } from './seed.ts';
export { addUsage, emptyUsage } from './usage.ts';
export { BestResponseAgent, bestResponseSpec, modelFor } from './ismcts/index.ts';
export { loadPolicy, PpoAgent, shippedModel } from './ppo/ppo-agent.ts';
export { SeatInput, SeatInputs } from './ppo/input.ts';
export { agentModel, Belief, BELIEF_DEFAULTS, netModel, oneHotModel, policyModel, sampleBelievedWorld, temperedWeights, type BeliefModel, type BeliefOptions, type BeliefStats, type Weighed } from './beliefs/index.ts';
export type { SearchCandidate, SearchLine } from './ppo/index.ts';
export { PPO_SEARCH_DEFAULTS } from './ppo/search.ts';
export { LLM_DEFAULTS, LlmAgent, LlmServerError, LlmStopError, onLlmFault } from './llm/llm-agent.ts';
export { callBound, LEDGER_COUNTS, readLedger, type LedgerTotals } from './llm/ledger.ts';
export { classifyReply, FAULT_POLICY, REPLY_FAULTS, type Reply, type ReplyFault } from './llm/reply.ts';
export { decisionPrompt, systemPrompt } from './llm/prompt.ts';
