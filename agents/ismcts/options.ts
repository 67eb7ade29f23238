/** The ismcts agent's options: defaults, one line each, and their validation. */
import { rulesetFingerprint, type Ruleset } from '../../env/index.ts';
import type { Agent } from '../agent.ts';
import { parseOptions } from '../registry.ts';
import { EVALUATIONS, type Evaluation } from './value.ts';
import { VALUE_RULESET_FINGERPRINT } from './value-model.ts';

export const ISMCTS_DEFAULTS = {
  /** Iterations per decision: the deterministic budget (used when timeMs is 0). */
  iterations: 300,
  /** Milliseconds per decision; when > 0 it replaces `iterations` (results then depend on the machine). */
  timeMs: 0,
  /** UCB exploration constant (rewards lie in [0, 1]). */
  c: 0.7,
  /** Rollout policy: `random` or a registered agent's spec (greedy, cautious, heuristic). */
  rollout: 'heuristic',
  /** Progressive widening: a node visited n times has at most ceil(widen·√(n+1)) children; 0 = all at once. */
  widen: 1,
  /** The search's choice: `visits` (most visited) or `value` (best mean among the well-explored). */
  final: 'visits',
  /** Standard errors by which the search's choice must beat the rollout policy's own to replace it; 0 = always the search's. */
  confidence: 1,
  /**
   * Turn starts after the root's turn at which an iteration is scored as it stands (rollout.ts);
   * 0 = play to the end. Not given, it is 0 under any rules but those the learned evaluation
   * was fitted to (cutOffDepth).
   */
  depth: 1,
  /** Evaluation where an iteration is cut off: `learned` (a fitted model) or `chart` (the heuristic's own numbers); value.ts. */
  eval: 'learned' as Evaluation,
  /** Weight of the score-margin term in the backed-up reward (evaluate.ts); 0 = pure win share. */
  scoreWeight: 1,
  /** Points of margin that count as a clear lead in that term. */
  scoreScale: 15,
  /**
   * How the worlds are dealt: `uniform`, alike among the deals consistent with what the seat
   * knows (obs.sampleWorld); `policy`, from a belief that weighs those deals by how likely a
   * model of the players makes the other seats' recorded choices in them (agents/beliefs): the
   * shipped `ppo` policy, or for a best response the model of the bot it answers.
   */
  beliefs: 'uniform',
};

/** The options, and whether the spec gave `depth` itself (not its default). */
export type IsmctsOptions = typeof ISMCTS_DEFAULTS & { readonly depthGiven?: true };

/**
 * Where a game under `ruleset` cuts its iterations off (`opts.depth`), or why it cannot: the
 * learned evaluation's weights were fitted to games under one set of rules (value-model.ts), and
 * under others would judge a cut-off world by another game's numbers. There a depth left to its
 * default plays to the end instead (0), and one asked for with `eval=learned` is refused.
 */
export function cutOffDepth(spec: string, opts: IsmctsOptions, ruleset: Ruleset): number {
  if (opts.depth === 0 || opts.eval !== 'learned' || rulesetFingerprint(ruleset) === VALUE_RULESET_FINGERPRINT) return opts.depth;
  if (!opts.depthGiven) return 0;
  throw new Error(
    `agent '${spec}': its learned evaluation (eval=learned) was fitted to the standard rules, not to this game's (${ruleset.name}); give depth=0 (play each iteration to the end) or eval=chart`,
  );
}

/**
 * Parses `key=value:…` options; a bad value fails naming the spec and the option. `makeAgent`
 * creates agents by spec (a registry's create): the rollout policy is checked with it.
 */
export function parseIsmctsOptions(spec: string, options: string, makeAgent: (spec: string) => Agent): IsmctsOptions {
  const o = parseOptions(spec, options, ISMCTS_DEFAULTS);
  const fail = (key: keyof typeof ISMCTS_DEFAULTS, want: string): never => {
    throw new Error(`agent '${spec}': option '${key}' must be ${want}, got '${o[key]}'`);
  };
  if (!Number.isInteger(o.iterations) || o.iterations < 1) fail('iterations', 'an integer ≥ 1');
  if (o.timeMs < 0) fail('timeMs', '≥ 0');
  if (o.c < 0) fail('c', '≥ 0');
  if (o.final !== 'visits' && o.final !== 'value') fail('final', 'visits or value');
  if (!EVALUATIONS.includes(o.eval)) fail('eval', EVALUATIONS.join(' or '));
  if (o.confidence < 0) fail('confidence', '≥ 0');
  if (o.widen < 0) fail('widen', '≥ 0');
  if (!Number.isInteger(o.depth) || o.depth < 0) fail('depth', 'an integer ≥ 0');
  if (o.scoreWeight < 0 || o.scoreWeight > 1) fail('scoreWeight', 'between 0 and 1');
  if (!(o.scoreScale > 0)) fail('scoreScale', '> 0');
  if (o.beliefs !== 'uniform' && o.beliefs !== 'policy') fail('beliefs', 'uniform or policy');
  if (o.rollout === '' || o.rollout.startsWith('ismcts')) fail('rollout', 'random or a scripted agent (greedy, cautious, heuristic)');
  try {
    if (o.rollout !== 'random') makeAgent(o.rollout);
  } catch (e) {
    fail('rollout', `random or a registered agent's spec (${(e as Error).message})`);
  }
  const given = options.split(':').some((part) => part.startsWith('depth='));
  return given ? { ...o, depthGiven: true } : o;
}
