/**
 * `best-response`: ismcts that knows how the other seats play. Every other seat's move, in the
 * tree and in rollouts, is drawn from a model of the bot it answers (that bot itself by default:
 * one instance per seat, acting through an EnvObservation of its seat in the sampled world, so
 * it sees only what that seat would see there, and sampling where the bot samples); the
 * searching seat keeps UCB and its own rollout policy. A single-observer search against a
 * fixed opponent: an approximate best response, whose win rate against the bot over par is a
 * lower bound on how exploitable the bot is (`czech-pub exploit --search`).
 *
 * Its own rollout policy is the model too, unless `rollout` is given: its first choice at each
 * decision is then the bot's own (kept unless the search finds better, `confidence`), so it
 * starts at about par against the bot and what it wins above is what the search found. With a weaker
 * rollout policy than the bot (ismcts's `heuristic` against `ppo`) it would start below par
 * and measure the gap between the policies rather than the bot's exploitability.
 *
 *   best-response:[ismcts options:]model=SPEC
 *
 * `model` comes last and takes the rest of the spec, colons and all
 * (`best-response:iterations=200:model=ppo:models/ppo-2p.json:sample=true`). It must answer at
 * once and must not search: a search run inside the search is nested search, far too slow; a
 * search is modelled by its prior instead (`AgentFactory.prior`: ppo for ppo-search, the
 * rollout policy for ismcts), which `modelFor` picks.
 *
 * The model lives through one game per seat, as the bot would, but is asked at decisions of
 * sampled worlds in search order, not at the game's own: a bot whose per-game state follows
 * the game (the heuristic's measured pace, a sampling bot's generator) is modelled only
 * approximately. What the search finds is a response to the model; its figure is measured
 * against the bot itself.
 */
import type { Agent } from '../agent.ts';
import { parseOptions, type AgentFamily, type AgentRegistry } from '../registry.ts';
import { IsmctsAgent } from './ismcts.ts';
import { ISMCTS_DEFAULTS, parseIsmctsOptions, type IsmctsOptions } from './options.ts';
import { makeRollout } from './rollout.ts';
import { agentModel } from '../beliefs/model.ts';

export class BestResponseAgent extends IsmctsAgent {
  constructor(
    spec: string,
    opts: IsmctsOptions,
    /** The spec of the model every other seat plays. */
    readonly model: string,
    makeAgent: (spec: string) => Agent,
    now?: () => number,
  ) {
    // With beliefs=policy, the belief weighs deals by the same model the other seats play.
    super(spec, opts, makeAgent, now, makeRollout(model, makeAgent), opts.beliefs === 'policy' ? agentModel(makeAgent(model)) : undefined);
  }
}

function splitName(spec: string): { name: string; options: string } {
  const i = spec.indexOf(':');
  return i < 0 ? { name: spec, options: '' } : { name: spec.slice(0, i), options: spec.slice(i + 1) };
}

/** A best response's options: the search's, then the model's spec (everything from `model=` on). */
export function splitModel(spec: string, options: string): { search: string; model: string } {
  const parts = options === '' ? [] : options.split(':');
  const k = parts.findIndex((p) => p.startsWith('model='));
  if (k < 0) throw new Error(`agent '${spec}': option 'model' is required, last: the spec of the bot it answers (e.g. best-response:iterations=200:model=heuristic)`);
  const model = [parts[k].slice('model='.length), ...parts.slice(k + 1)].join(':');
  if (model === '') throw new Error(`agent '${spec}': option 'model' must name an agent`);
  return { search: parts.slice(0, k).join(':'), model };
}

/** Why `model` cannot play the other seats inside a search, or null when it can. */
function modelProblem(model: string, registry: AgentRegistry): string | null {
  const { name, options } = splitName(model);
  const kind = registry.kind(name);
  if (!kind) return null; // registry.create names the known ones
  if (kind.heavy) {
    const prior = kind.prior?.(options);
    return `'${model}' searches: running it inside the search would be nested search, far too slow; model it by a fast policy${prior ? ` (its prior: ${prior})` : ''}`;
  }
  if (kind.outside) return `'${model}' calls a server elsewhere; a model is asked thousands of times a decision and must answer at once`;
  return null;
}

/**
 * The model a best response to `target` plays the other seats with: the target itself, or for
 * a search its prior (`prior` true). Throws where neither will do.
 */
export function modelFor(target: string, registry: AgentRegistry): { model: string; prior: boolean } {
  if (modelProblem(target, registry) === null) return { model: target, prior: false };
  const { name, options } = splitName(target);
  const prior = registry.kind(name)?.prior?.(options);
  if (prior === undefined || modelProblem(prior, registry) !== null) throw new Error(`'${target}' cannot be modelled by itself or a prior of its own: ${modelProblem(target, registry)}`);
  return { model: prior, prior: true };
}

/** The best response's spec for a search budget (`iterations`, or `timeMs` > 0), further search options and a model. */
export function bestResponseSpec(budget: { iterations: number } | { timeMs: number }, model: string, options = ''): string {
  const b = 'timeMs' in budget ? `timeMs=${budget.timeMs}` : `iterations=${budget.iterations}`;
  return `best-response:${b}${options === '' ? '' : `:${options}`}:model=${model}`;
}

const rolloutGiven = (search: string) => search.split(':').some((o) => o.startsWith('rollout='));

/** A path in a spec by its file's name, as tables show checkpoints. */
const short = (part: string) => (/[\\/]/.test(part) ? part.split(/[\\/]/).filter(Boolean).pop()!.replace(/\.json$/, '') : part);

export const BEST_RESPONSE_AGENTS = {
  'best-response': {
    description: 'measurement: ismcts in which every other seat plays a model of the bot it answers, and its own rollouts too by default (options: the ismcts ones, then model=SPEC last)',
    needs: 'world',
    heavy: true,
    label: (options) => `best-response:${options.split(':').map(short).join(':')}`,
    prior: (options) => {
      const { search, model } = splitModel('best-response', options);
      return rolloutGiven(search) ? parseOptions('best-response', search, ISMCTS_DEFAULTS).rollout : model;
    },
    create: (spec, options, registry) => {
      const { search, model } = splitModel(spec, options);
      const makeAgent = (s: string) => registry.create(s);
      const problem = modelProblem(model, registry);
      if (problem) throw new Error(`agent '${spec}': option 'model': ${problem}`);
      try {
        makeAgent(model);
      } catch (e) {
        throw new Error(`agent '${spec}': option 'model': ${(e as Error).message}`);
      }
      const opts = parseIsmctsOptions(spec, search, makeAgent);
      return new BestResponseAgent(spec, rolloutGiven(search) ? opts : { ...opts, rollout: model }, model, makeAgent);
    },
  },
} satisfies AgentFamily;
