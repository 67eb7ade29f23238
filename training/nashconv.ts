/**
 * NashConv during training, on a ruleset small enough to walk whole (the micro one): at each
 * evaluation the trainer's net is read at every information set of the game tree (walked once
 * per run, eval/exact) and its exact NashConv computed, both for the policy it samples from
 * (what is trained) and for its most likely actions (how `ppo` plays by default), in the
 * payoff the learner maximises (--reward; `czech-pub nashconv --reward` gives the same figure).
 * A number that needs no reference bot, so learners compare on it.
 */
import { PpoAgent } from '../agents/index.ts';
import { MICRO_RULESET, rulesetFingerprint, type RewardScheme, type Ruleset } from '../env/index.ts';
import { agentPolicy, exploitability, GameTree } from '../eval/index.ts';
import type { NetWeights } from '../policy/index.ts';

export interface NashConvPoint {
  /** NashConv of the policy the net samples from. */
  sampled: number;
  /** NashConv of its most likely actions. */
  argmax: number;
}

/** Whether a run under `ruleset` measures NashConv at its evaluations: under the micro ruleset. */
export function measuresNashConv(ruleset: Ruleset | undefined): boolean {
  return ruleset !== undefined && rulesetFingerprint(ruleset) === rulesetFingerprint(MICRO_RULESET);
}

export class NashConvMeter {
  private tree: GameTree | null = null;

  constructor(
    private readonly ruleset: Ruleset,
    private readonly players: number,
    /** The payoff the learner maximises: NashConv is measured in it. */
    private readonly reward: RewardScheme,
  ) {}

  measure(weights: NetWeights): NashConvPoint {
    this.tree ??= new GameTree({ players: this.players, ruleset: this.ruleset, reward: this.reward });
    const of = (sample: boolean) => exploitability(this.tree!, agentPolicy(this.tree!, 'ppo', () => new PpoAgent('ppo:current', { weights }, sample))).nashConv;
    return { sampled: of(true), argmax: of(false) };
  }
}
