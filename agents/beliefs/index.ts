/** Beliefs over the hidden cards from the other seats' choices: the belief and the models of the players it weighs them with. */
export { Belief, BELIEF_DEFAULTS, sampleBelievedWorld, temperedWeights, type BeliefOptions, type BeliefStats, type Weighed } from './belief.ts';
export { agentModel, netModel, oneHotModel, policyModel, type BeliefModel } from './model.ts';
