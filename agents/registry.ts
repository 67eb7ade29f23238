/**
 * Agents by spec string, usable everywhere (CLI, tournaments, the trainer, the server):
 * `name` or `name:options`, where options are `key=value` pairs separated by `:`
 * (e.g. `ismcts:iterations=500:rollout=greedy`), or one argument for agents that take a
 * path or address (`ppo:<checkpoint>`, `http:<url>`).
 *
 * An AgentRegistry maps names to factories. Each family of agents (scripted/, ismcts/, …)
 * exports its factories as an AgentFamily and registers nothing on import; the project's
 * registry is built from the list of families in one place, default-registry.ts.
 */
import type { Agent } from './agent.ts';

export interface AgentFactory {
  /** One line for listings. */
  description: string;
  /**
   * What the agent needs beyond a seat's view: 'world' (it searches copies of a locally held
   * game), 'history' (it reads the events since its last decision). Such agents cannot answer
   * a posted view (the server's stateless act route).
   */
  needs?: 'world' | 'history';
  /** Its decisions are long computations: a server runs them off the event loop, on worker threads. */
  heavy?: boolean;
  /**
   * It is not an engine bot: its decisions come from elsewhere (a model, someone's server).
   * A game with such a seat asks every seat at every window (`askForced`), so that what the
   * agent is told never shows who held what (docs/environment.md, "Forced decisions").
   */
  outside?: boolean;
  /** The agent's name in tables, from its spec's options, when the spec holds where things are (a path, a URL) rather than what the agent is. */
  label?(options: string): string;
  /**
   * For a search: the spec of the fast policy its moves keep closest to (its prior, or its
   * rollout policy), from its spec's options. A best response (agents/ismcts/best-response.ts)
   * models a search by it, since running the search inside its own search would be far too slow.
   */
  prior?(options: string): string;
  /** `registry` is the one creating the agent, for agents built from other agents' specs (ismcts's rollout policy). */
  create(spec: string, options: string, registry: AgentRegistry): Agent;
}

/** A family's factories by agent name: what each family's index.ts exports. */
export type AgentFamily = Readonly<Record<string, AgentFactory>>;

export class UnknownAgentError extends Error {
  override name = 'UnknownAgentError';
}

/** The name part of a spec (before the first ':') and its options (after it). */
function splitSpec(spec: string): { name: string; options: string } {
  const t = spec.trim();
  const i = t.indexOf(':');
  return i < 0 ? { name: t, options: '' } : { name: t.slice(0, i), options: t.slice(i + 1) };
}

export class AgentRegistry {
  private readonly factories = new Map<string, AgentFactory>();

  constructor(families: readonly AgentFamily[] = []) {
    for (const family of families) for (const [name, factory] of Object.entries(family)) this.register(name, factory);
  }

  /** Adds an agent; its name is what specs start with, so it holds no ':' or space, and is new. */
  register(name: string, factory: AgentFactory): void {
    if (!/^[^:\s]+$/.test(name)) throw new Error(`agent name '${name}' must be non-empty, without ':' or spaces`);
    if (this.factories.has(name)) throw new Error(`agent '${name}' is already registered`);
    this.factories.set(name, factory);
  }

  known(): { name: string; description: string }[] {
    return [...this.factories].map(([name, f]) => ({ name, description: f.description }));
  }

  /** The factory registered under an agent name (the part of a spec before the first ':'), if any. */
  kind(name: string): Readonly<AgentFactory> | undefined {
    return this.factories.get(name);
  }

  /**
   * What tables call the agents of a run: each spec's label (the factory's, else the spec), made
   * unique by a number where two different specs would read the same.
   */
  labels(specs: readonly string[]): string[] {
    const labelOf = (spec: string) => {
      const { name, options } = splitSpec(spec);
      const f = this.factories.get(name);
      return f?.label ? f.label(options) : spec.trim();
    };
    const distinct = [...new Set(specs)];
    const base = distinct.map(labelOf);
    const named = new Map(distinct.map((spec, k) => {
      const same = distinct.filter((_, j) => base[j] === base[k]);
      return [spec, same.length > 1 ? `${base[k]} (${same.indexOf(spec) + 1})` : base[k]];
    }));
    return specs.map((s) => named.get(s)!);
  }

  /** Whether any of the specs names an agent that is not an engine bot (`outside`); unknown names count as not. */
  anyOutside(specs: readonly string[]): boolean {
    return specs.some((spec) => this.factories.get(splitSpec(spec).name)?.outside === true);
  }

  /** Creates an agent from its spec; an unknown name fails listing the known ones. */
  create(spec: string): Agent {
    const { name, options } = splitSpec(spec);
    const f = this.factories.get(name);
    if (!f) {
      throw new UnknownAgentError(`unknown agent '${spec}'; known agents: ${[...this.factories.keys()].join(', ')}`);
    }
    return f.create(spec.trim(), options, this);
  }
}

/**
 * Parses `key=value` options separated by `:` against defaults, converting to the defaults'
 * types; unknown keys and bad values fail naming the spec.
 */
export function parseOptions<T extends Record<string, number | string | boolean>>(spec: string, options: string, defaults: T): T {
  return parseOptionParts(spec, options === '' ? [] : options.split(':'), defaults);
}

/**
 * Parses options already split into `key=value` parts (a value may then hold colons, as a
 * URL does); a part without `=` sets a flag to true.
 */
export function parseOptionParts<T extends Record<string, number | string | boolean>>(spec: string, parts: readonly string[], defaults: T): T {
  const out: Record<string, number | string | boolean> = { ...defaults };
  for (const part of parts) {
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    const raw = eq < 0 ? 'true' : part.slice(eq + 1);
    // Own keys only: 'constructor', '__proto__' or 'toString' are no agent's options.
    if (!Object.hasOwn(defaults, key)) {
      throw new Error(`agent '${spec}': unknown option '${key}'; options: ${Object.keys(defaults).join(', ') || 'none'}`);
    }
    const d = defaults[key];
    if (typeof d === 'number') {
      const v = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(v)) throw new Error(`agent '${spec}': option '${key}' must be a number, got '${raw}'`);
      out[key] = v;
    } else if (typeof d === 'boolean') {
      if (raw !== 'true' && raw !== 'false') throw new Error(`agent '${spec}': option '${key}' must be true or false, got '${raw}'`);
      out[key] = raw === 'true';
    } else {
      out[key] = raw;
    }
  }
  return out as T;
}
