/**
 * Rollout policies: play a sampled world on from the tree's leaf. `random` is built in (it
 * draws from the search's own generator and skips building observations); any other name
 * is a registered agent's spec (greedy, cautious, heuristic, …), one instance per seat,
 * acting through an EnvObservation of its seat in the sampled world, so it sees only what
 * that seat would see there.
 */
import { randInt, type CzechPubEnv, type RngState, type Ruleset } from '../../env/index.ts';
import type { Agent } from '../agent.ts';
import { EnvObservation } from '../observation.ts';

export interface RolloutPolicy {
  /** Whether its choices are worth more than chance (expanded first, kept unless beaten: ismcts.ts). */
  readonly guides: boolean;
  /** Called at the start of each game the searching agent plays (in `seat`). */
  /** `ruleset`: the game's, when not the default (a rollout agent plans with its numbers, a policy refuses other rules). */
  reset(players: number, seed: string, seat: number, ruleset?: Ruleset): void;
  /** An action for the seat to act in `world` (which has more than one legal action). */
  act(world: CzechPubEnv, legal: readonly number[], rng: RngState): number;
}

class RandomRollout implements RolloutPolicy {
  readonly guides = false;
  reset(): void {}
  act(_world: CzechPubEnv, legal: readonly number[], rng: RngState): number {
    return legal[randInt(rng, legal.length)];
  }
}

class AgentRollout implements RolloutPolicy {
  readonly guides = true;
  private agents: Agent[] = [];

  constructor(
    private readonly spec: string,
    private readonly makeAgent: (spec: string) => Agent,
  ) {
    makeAgent(spec); // fail now rather than mid-game
  }

  reset(players: number, seed: string, _seat: number, ruleset?: Ruleset): void {
    this.agents = Array.from({ length: players }, (_, seat) => {
      const a = this.makeAgent(this.spec);
      a.reset?.({ seat, players, seed: `${seed}/rollout${seat}`, ...(ruleset ? { ruleset } : {}) });
      return a;
    });
  }

  act(world: CzechPubEnv, legal: readonly number[]): number {
    const seat = world.actor;
    const a = this.agents[seat].act(new EnvObservation(world, seat, legal));
    if (typeof a !== 'number') throw new Error(`ismcts: rollout agent '${this.spec}' is asynchronous; rollouts need a synchronous agent`);
    return a;
  }
}

/** `random`, or another agent (by spec, made with `makeAgent`) playing every seat. */
export function makeRollout(spec: string, makeAgent: (spec: string) => Agent): RolloutPolicy {
  return spec === 'random' ? new RandomRollout() : new AgentRollout(spec, makeAgent);
}

/**
 * A best response's rollouts (best-response.ts): the searching seat plays its own policy, every
 * other seat the model of the bot it answers.
 */
export class ModelledRollout implements RolloutPolicy {
  private seat = -1;

  constructor(
    private readonly own: RolloutPolicy,
    private readonly model: RolloutPolicy,
  ) {}

  /** The searching seat's expansions and root choice are its own policy's. */
  get guides(): boolean {
    return this.own.guides;
  }

  reset(players: number, seed: string, seat: number, ruleset?: Ruleset): void {
    this.seat = seat;
    this.own.reset(players, seed, seat, ruleset);
    this.model.reset(players, `${seed}/model`, seat, ruleset);
  }

  act(world: CzechPubEnv, legal: readonly number[], rng: RngState): number {
    return (world.actor === this.seat ? this.own : this.model).act(world, legal, rng);
  }
}

/**
 * Where an iteration stops: at the start of the `turns`-th turn after the search's root
 * (0 = at the end of the game). Cutting at a turn's start leaves no cards undigested for
 * the evaluation (value.ts); with one turn, a decision is judged by the digestion it leads
 * to and what it leaves in hands and on the chart.
 */
export class Horizon {
  private turn: number;
  private starts = 0;
  reached = false;

  constructor(world: CzechPubEnv, private readonly turns: number) {
    this.turn = world.state.turn;
  }

  /** Call after every step. */
  update(world: CzechPubEnv): void {
    const t = world.state.turn;
    if (t === this.turn || this.turns === 0) return;
    this.starts += t - this.turn;
    this.turn = t;
    this.reached = this.starts >= this.turns;
  }
}

/** Plays `world` on to the horizon or the end, taking single legal actions without asking the policy. */
export function rollout(world: CzechPubEnv, policy: RolloutPolicy, rng: RngState, horizon: Horizon): void {
  while (!world.done && !horizon.reached) {
    const legal = world.legalActions();
    world.step(legal.length === 1 ? legal[0] : policy.act(world, legal, rng));
    horizon.update(world);
  }
}
