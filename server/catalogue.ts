/**
 * The bots a server fields: named entries, each a fixed agent spec chosen by the operator
 * (config.ts), with the options a client may set and their ranges. A client's bot spec is
 * `name` or `name:key=value:...`; it selects an entry and checks each value against the
 * entry's range or list, so nothing a client sends becomes a file path, a URL, an
 * environment variable's name or a transcript: those stay in the operator's spec.
 *
 * Every entry is built once when the catalogue is made (and with the ends of each range), so a
 * bad entry stops the server at start, not a client's request later. The catalogue holds the
 * ruleset every game of the server is played under; a bot trained under another (a ppo
 * checkpoint, the shipped model under custom rules) is left out, with a notice saying why.
 */
import fs from 'node:fs';
import path from 'node:path';
import { agentKind, createAgent, rulesetMismatch, type Agent } from '../agents/index.ts';
import { DEFAULT_RULESET, rulesetFingerprint, type Ruleset } from '../env/index.ts';
import { ConfigError, DEFAULT_BUDGET, ENTRY_NAME, type Budget, type EntryConfig, type ServerConfig, type Vary } from './config.ts';

/** Where an entry with a strength but no rank stands: after the ranked ones (config.ts ranks are at most 1000). */
const UNRANKED = 1001;

/** Client specs longer than this are refused unread. */
export const MAX_SPEC_LENGTH = 200;

export interface CatalogueEntry {
  name: string;
  /** The registered agent it plays (random, heuristic, ismcts, ppo, llm, http, ...). */
  kind: string;
  description: string;
  /** What players see it called ("Regular"). */
  displayName: string;
  /** How hard it is to beat in players' words ("Medium"), and its place among the entries that have one (weakest first). */
  strength: string | null;
  rank: number | null;
  vary: ReadonlyMap<string, Vary>;
  /** What the agent needs beyond a posted view (agents/registry.ts); such entries cannot serve the act route. */
  needs?: 'world' | 'history';
  /** Its decisions run on the bot worker threads (bot-pool.ts). */
  heavy: boolean;
  /** For bots that call a server elsewhere (llm, http): what this server's clients may spend of it (config.ts). */
  budget?: Budget;
  /** The operator's spec: never shown to clients. */
  readonly spec: string;
}

/** A client's choice, checked: the entry, the options set, its canonical label and the spec to build. */
export interface BotChoice {
  entry: CatalogueEntry;
  /** `name[:key=value...]` with the options in a fixed order: what clients and results see. */
  label: string;
  /** The operator's spec with the client's options appended (later options win). */
  readonly spec: string;
}

/** A client named no entry (404 on the act route) or set an option it may not (400). */
export class BotSpecError extends Error {
  override name = 'BotSpecError';
  constructor(message: string, readonly unknown = false) {
    super(message);
  }
}

const ISMCTS_ROLLOUTS = ['random', 'greedy', 'cautious', 'heuristic'];

/**
 * The entries a server has without a config: every built-in bot, with bounded search budgets.
 * The four a newcomer picks from carry a name and a strength, ranked by the measured ladder
 * (docs/results/2026-12-01-ladder.md: ppo-search 38.6 > ppo 28.6 > heuristic 27.2 > random
 * -27.9; ppo beats three heuristic seats 33.8% of 4-player games, par 25%, README).
 */
export const DEFAULT_ENTRIES: Record<string, EntryConfig> = {
  random: { agent: 'random', description: 'uniform over the legal actions', displayName: 'Beginner', strength: 'Easy', rank: 1 },
  greedy: { agent: 'greedy', description: 'most points this turn (beers, shots, Flattery), ignores every risk', displayName: 'Greedy drinker' },
  cautious: { agent: 'cautious', description: 'weighs points against the roll, the levels and being wasted; avoids abstaining', displayName: 'Cautious drinker' },
  heuristic: { agent: 'heuristic', description: 'plans the turn against the chart and the turns left; pub and X cards at the leader', displayName: 'Regular', strength: 'Medium', rank: 2 },
  ppo: {
    agent: 'ppo', description: 'the shipped policies trained by PPO self-play, one per table size where trained (its most likely action; sample=true samples)',
    displayName: 'Strong', strength: 'Hard', rank: 3, vary: { sample: { values: [false, true] } },
  },
  'ppo-search': {
    agent: 'ppo-search',
    description: 'search on the shipped policy: its prior picks candidates, its value head judges them in resampled worlds (48 iterations a decision unless set)',
    displayName: 'Expert', strength: 'Very hard', rank: 4,
    vary: { iterations: { min: 4, max: 256, integer: true } },
  },
  ismcts: {
    agent: 'ismcts',
    description: 'information-set Monte Carlo tree search (300 iterations a decision unless set)',
    displayName: 'Tree search',
    vary: { iterations: { min: 10, max: 1000, integer: true }, rollout: { values: ISMCTS_ROLLOUTS } },
  },
};

function describeVary(v: Vary): string {
  return 'values' in v ? v.values.map(String).join('|') : `${v.min}..${v.max}${v.integer ? '' : ' (any number)'}`;
}

/** The value a spec part takes for option `v`, or an error message. */
function checkValue(v: Vary, raw: string): string | null {
  if ('values' in v) return v.values.some((x) => String(x) === raw) ? null : `must be one of ${v.values.map(String).join(', ')}`;
  if (!/^-?\d+(\.\d+)?$/.test(raw)) return `must be a number from ${v.min} to ${v.max}`;
  const n = Number(raw);
  if (v.integer && !Number.isInteger(n)) return `must be a whole number from ${v.min} to ${v.max}`;
  if (n < v.min || n > v.max) return `must be from ${v.min} to ${v.max}`;
  return null;
}

export interface CatalogueOptions {
  /** The rules every game is played under (default: the standard rules). */
  ruleset?: Ruleset;
  /** Told of each entry left out (a bot trained under another ruleset). */
  notice?: (line: string) => void;
}

export class Catalogue {
  private readonly entries = new Map<string, CatalogueEntry>();
  private readonly bare = new Map<string, BotChoice>();
  readonly ruleset: Ruleset;
  /** Names of the entries left out because they were made for another ruleset. */
  readonly leftOut: string[] = [];

  constructor(config: ServerConfig = {}, o: CatalogueOptions = {}) {
    this.ruleset = o.ruleset ?? DEFAULT_RULESET;
    const merged = new Map<string, EntryConfig>();
    if (config.defaults !== false) for (const [name, e] of Object.entries(DEFAULT_ENTRIES)) merged.set(name, e);
    if (config.models) for (const [name, e] of modelEntries(config.models)) merged.set(name, e);
    for (const [name, e] of Object.entries(config.bots ?? {})) {
      if (e === null) merged.delete(name);
      else merged.set(name, e);
    }
    for (const [name, e] of merged) {
      const entry = checkedEntry(name, e, this.ruleset);
      if (entry) this.entries.set(name, entry);
      else {
        this.leftOut.push(name);
        o.notice?.(`bot '${name}' left out: it was trained under another ruleset than this server's ${this.ruleset.name} (fingerprint ${rulesetFingerprint(this.ruleset)})`);
      }
    }
    for (const [name, entry] of this.entries) this.bare.set(name, { entry, label: name, spec: entry.spec });
    if (this.entries.size === 0) throw new ConfigError('the catalogue has no bots: keep the defaults or define some under "bots"');
  }

  get names(): string[] {
    return [...this.entries.keys()];
  }

  /**
   * What GET /v1/bots shows: names, descriptions and what a client may set, never the
   * operator's spec. Entries with a strength come first, weakest first; the rest follow in
   * the catalogue's order.
   */
  list() {
    const ranked = [...this.entries.values()].filter((e) => e.strength !== null).sort((a, b) => (a.rank ?? UNRANKED) - (b.rank ?? UNRANKED));
    const rest = [...this.entries.values()].filter((e) => e.strength === null);
    return [...ranked, ...rest].map((e) => ({
      name: e.name,
      displayName: e.displayName,
      strength: e.strength,
      agent: e.kind,
      description: e.description,
      options: Object.fromEntries(e.vary),
      servesPostedViews: e.needs === undefined,
      // The live-game rule of games.ts: a bot that reads the world must run on the bot workers.
      seatsLiveGames: e.needs !== 'world' || e.heavy,
      heavy: e.heavy,
    }));
  }

  /** Checks a client's bot spec against the catalogue. */
  resolve(raw: string): BotChoice {
    // A bare entry name, the common case on the act route: its choice is made once.
    const bare = this.bare.get(raw);
    if (bare) return bare;
    if (raw.length > MAX_SPEC_LENGTH) throw new BotSpecError(`a bot spec is at most ${MAX_SPEC_LENGTH} characters`);
    const [name, ...parts] = raw.split(':');
    const entry = this.entries.get(name);
    if (!entry) throw new BotSpecError(`unknown bot ${JSON.stringify(name)}; this server's bots: ${this.names.join(', ')}`, true);
    const set = new Map<string, string>();
    for (const part of parts) {
      const eq = part.indexOf('=');
      const key = eq < 0 ? part : part.slice(0, eq);
      const v = entry.vary.get(key);
      if (!v) {
        const allowed = [...entry.vary.keys()];
        throw new BotSpecError(`bot '${name}': ${JSON.stringify(key)} is not an option clients may set${allowed.length ? `; options: ${allowed.map((k) => `${k}=${describeVary(entry.vary.get(k)!)}`).join(', ')}` : ' (it has none)'}`);
      }
      if (eq < 0) throw new BotSpecError(`bot '${name}': option '${key}' needs a value (${key}=${describeVary(v)})`);
      if (set.has(key)) throw new BotSpecError(`bot '${name}': option '${key}' is given twice`);
      const value = part.slice(eq + 1);
      const wrong = checkValue(v, value);
      if (wrong) throw new BotSpecError(`bot '${name}': option '${key}' ${wrong}, got ${JSON.stringify(value.slice(0, 40))}`);
      // One spelling per value (010 and 10.0 are 10), so one bot has one label.
      set.set(key, 'values' in v ? value : String(Number(value)));
    }
    const options = [...set].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `:${k}=${v}`).join('');
    return { entry, label: name + options, spec: entry.spec + options };
  }

  /** The agent a checked choice plays. Its errors name the client's label, never the operator's spec. */
  create(choice: BotChoice): Agent {
    try {
      return createAgent(choice.spec);
    } catch (e) {
      throw new BotSpecError((e as Error).message.split(choice.spec).join(choice.label).split(choice.entry.spec).join(choice.entry.name));
    }
  }
}

/** Builds an entry and tries it: with its defaults and at the ends of every range. Null for a bot made for another ruleset. */
function checkedEntry(name: string, e: EntryConfig, ruleset: Ruleset): CatalogueEntry | null {
  const kindName = e.agent.split(':')[0];
  const kind = agentKind(kindName);
  const fail = (msg: string): never => {
    throw new ConfigError(`bot '${name}': ${msg}`);
  };
  if (!kind) fail(`unknown agent '${kindName}'`);
  const vary = new Map(Object.entries(e.vary ?? {}));
  let callsOut = false;
  const tries = [e.agent];
  for (const [key, v] of vary) for (const x of 'values' in v ? v.values : [v.min, v.max]) tries.push(`${e.agent}:${key}=${x}`);
  for (const spec of tries) {
    let agent: Agent;
    try {
      agent = createAgent(spec);
    } catch (err) {
      return fail((err as Error).message);
    }
    // The clairvoyant reference sees hidden cards where it can: never a bot anyone plays against.
    if (agent.clairvoyant) fail(`'${kindName}' is a measurement reference that sees hidden cards, not a bot to serve`);
    if (rulesetMismatch(agent, ruleset)) return null;
    callsOut ||= typeof agent.useGate === 'function';
  }
  if (e.budget && !callsOut) fail(`a budget is for bots that call a server elsewhere (llm, http); '${kindName}' calls none`);
  return {
    name, kind: kindName, description: e.description ?? kind!.description, displayName: e.displayName ?? name, strength: e.strength ?? null, rank: e.rank ?? null, vary, needs: kind!.needs, heavy: kind!.heavy === true, spec: e.agent,
    ...(callsOut ? { budget: { ...DEFAULT_BUDGET, ...e.budget } } : {}),
  };
}

/** One `ppo` entry per checkpoint NAME.json in the folder (names that are valid entry names). */
function modelEntries(dir: string): [string, EntryConfig][] {
  let files: string[];
  try {
    files = fs.readdirSync(dir);
  } catch (e) {
    throw new ConfigError(`cannot read the models folder ${dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const out: [string, EntryConfig][] = [];
  for (const f of files.sort()) {
    const name = f.endsWith('.json') ? f.slice(0, -5) : '';
    if (!ENTRY_NAME.test(name) || !fs.statSync(path.join(dir, f)).isFile()) continue;
    const file = path.resolve(dir, f);
    if (file.includes(':')) throw new ConfigError(`model ${file}: a path with ':' cannot be named in a spec; rename it`);
    out.push([name, { agent: `ppo:${file}`, description: `trained policy '${name}' (models folder)`, vary: { sample: { values: [false, true] } } }]);
  }
  return out;
}
