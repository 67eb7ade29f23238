/**
 * Models of the other players for beliefs (belief.ts): the probability that a seat, at a
 * position it saw, takes a given action. A trained policy gives its own probabilities; a
 * deterministic agent is a one-hot model (its choice is certain, anything else impossible),
 * which is what tests use to make a belief's shift certain.
 */
import { NUM_ACTIONS } from '../../env/index.ts';
import { JsNet, logProb } from '../../policy/index.ts';
import type { Agent, AgentObservation, GameStart } from '../agent.ts';
import type { PpoAgent } from '../ppo/ppo-agent.ts';
import type { SeatInput } from '../ppo/input.ts';

export interface BeliefModel {
  /** The probability that the seat of `obs` takes `action` (one of obs.legalActions) there. */
  probability(obs: AgentObservation, action: number): number;
  /** Called at each game start with the believing seat's game (a policy's adviser is reset with it). */
  reset?(game: GameStart): void;
}

/**
 * A policy net's probabilities (the softmax of its masked logits, as `ppo` samples them):
 * `net()` gives the net now and `input()` what writes its input (a search swaps both at a game start).
 * The input's adviser plays along at every position asked, in the order asked, not only at one
 * seat's decisions in turn: its per-game state (a tie-break generator, a measured pace) is an
 * approximation of what it would be for that seat.
 */
export function netModel(net: () => JsNet, input: () => SeatInput): BeliefModel {
  const logits = new Float32Array(NUM_ACTIONS);
  return {
    probability(obs, action) {
      net().logitsOf(input().input(obs), obs.mask, logits);
      return Math.exp(logProb(logits, obs.mask, 0, NUM_ACTIONS, action));
    },
    reset(game) {
      input().reset(game.seat, game.players, `${game.seed}/belief`, game.ruleset);
    },
  };
}

/** The `ppo` agent's policy as a model (PpoAgent.policy); reset it as the agent is, through the model. */
export function policyModel(agent: PpoAgent): BeliefModel {
  return {
    probability(obs, action) {
      return agent.policy(obs).ranked.find((r) => r.id === action)?.p ?? 0;
    },
    reset(game) {
      agent.reset({ ...game, seed: `${game.seed}/belief` });
    },
  };
}

/** A synchronous agent as a one-hot model: 1 for the action it would choose, 0 for any other. */
export function oneHotModel(agent: Agent): BeliefModel {
  return {
    probability(obs, action) {
      const a = agent.act(obs);
      if (typeof a !== 'number') throw new Error(`a belief's model '${agent.spec}' must answer at once`);
      return a === action ? 1 : 0;
    },
    reset(game) {
      agent.reset?.(game);
    },
  };
}

/**
 * Any synchronous agent as a model: the probabilities it draws from where it says them
 * (`Agent.probabilities`: random, ppo, tabular), else certainty on its choice (oneHotModel).
 */
export function agentModel(agent: Agent): BeliefModel {
  if (!agent.probabilities) return oneHotModel(agent);
  return {
    probability(obs, action) {
      const i = obs.legalActions.indexOf(action);
      return i < 0 ? 0 : agent.probabilities!(obs)[i];
    },
    reset(game) {
      agent.reset?.({ ...game, seed: `${game.seed}/belief` });
    },
  };
}
