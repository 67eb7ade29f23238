/**
 * `tabular:<policy.json>`: a policy given as a table of action probabilities per information
 * state, as `czech-pub cfr` writes it for a ruleset small enough to walk whole (the micro one).
 * The agent keys its information state as the tree walker does (env/observation/infoset.ts):
 * it folds in every event it is shown since the game began, its hand at each decision and the
 * action it took, so it reads the events (`readsEvents`). It samples its action from the row of
 * its key; a key the table lacks (a game under other rules or table size, which the file's
 * fingerprint and player count refuse first) is played uniformly and counted (`misses`).
 */
import fs from 'node:fs';
import {
  CARD_IDS, foldAction, foldDecision, foldEvents, infoKeyStart, nextFloat, rulesetFingerprint, seedRng, type RngState, type Ruleset,
} from '../env/index.ts';
import type { Agent, AgentObservation, GameStart } from './agent.ts';
import { parseOptions, type AgentFamily } from './registry.ts';

export const TABULAR_FORMAT = 'czech-pub-tabular-policy/1';

/** A tabular policy as written to policy.json. */
export interface TabularPolicyFile {
  format: typeof TABULAR_FORMAT;
  ruleset: { name: string; fingerprint: string };
  players: number;
  /** How the table was made (e.g. the solver, its iterations and NashConv). */
  source: Record<string, unknown>;
  /** By information-state key: the legal actions, ascending, and their probabilities. */
  table: Record<string, { actions: number[]; probs: number[] }>;
}

export function tabularPolicyFile(ruleset: Ruleset, players: number, source: Record<string, unknown>, table: TabularPolicyFile['table']): TabularPolicyFile {
  return { format: TABULAR_FORMAT, ruleset: { name: ruleset.name, fingerprint: rulesetFingerprint(ruleset) }, players, source, table };
}

/** Reads and checks a policy file; the error names what is wrong with it. */
export function readTabularPolicy(file: string): TabularPolicyFile {
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`cannot read the tabular policy ${file}: ${(e as Error).message}`);
  }
  const p = data as Partial<TabularPolicyFile> | null;
  if (p?.format !== TABULAR_FORMAT) throw new Error(`${file} is not a tabular policy (format '${TABULAR_FORMAT}')`);
  if (!Number.isInteger(p.players) || typeof p.ruleset?.fingerprint !== 'string' || typeof p.table !== 'object' || p.table === null) {
    throw new Error(`${file}: a tabular policy needs players, ruleset.fingerprint and table`);
  }
  for (const [key, row] of Object.entries(p.table)) {
    const ok = Array.isArray(row?.actions) && Array.isArray(row.probs) && row.actions.length === row.probs.length && row.probs.every((x) => x >= 0);
    if (!ok) throw new Error(`${file}: row ${key} needs actions and probabilities of the same length`);
  }
  return p as TabularPolicyFile;
}

export class TabularAgent implements Agent {
  readonly readsEvents = true;
  readonly rulesetFingerprint: string;
  private key = '';
  private rng: RngState = seedRng('tabular');
  /** Decisions whose key the table lacked (played uniformly). */
  misses = 0;
  decisions = 0;

  constructor(
    readonly spec: string,
    private readonly policy: TabularPolicyFile,
  ) {
    this.rulesetFingerprint = policy.ruleset.fingerprint;
  }

  reset(game: GameStart): void {
    if (game.players !== this.policy.players) {
      throw new Error(`agent '${this.spec}' is a policy for ${this.policy.players} players, not ${game.players}`);
    }
    this.key = infoKeyStart(game.seat);
    this.rng = seedRng(`tabular/${game.seed}`);
    this.misses = 0;
    this.decisions = 0;
  }

  /** The probabilities of `legal` at the information state `key`, or null where the table has no such row. */
  rowAt(key: string, legal: readonly number[]): number[] | null {
    const row = this.policy.table[key];
    if (!row || row.actions.length !== legal.length || row.actions.some((a, i) => a !== legal[i])) return null;
    const sum = row.probs.reduce((a, b) => a + b, 0);
    return sum > 0 ? row.probs.map((p) => p / sum) : null;
  }

  act(obs: AgentObservation): number {
    this.decisions++;
    const legal = obs.legalActions;
    const key = this.keyAt(obs);
    const row = this.rowAt(key, legal);
    if (!row) this.misses++;
    const probs = row ?? legal.map(() => 1 / legal.length);
    let u = nextFloat(this.rng);
    let action = legal[legal.length - 1];
    for (let i = 0; i < legal.length; i++) {
      u -= probs[i];
      if (u < 0) {
        action = legal[i];
        break;
      }
    }
    this.key = foldAction(key, action);
    return action;
  }

  /** The key of this decision: what the seat was shown since its last one, then its hand. Does not move the agent on. */
  private keyAt(obs: AgentObservation): string {
    const seen = foldEvents(this.key, obs.seat, obs.events);
    return foldDecision(seen, CARD_IDS.map((id) => obs.view.hand[id]));
  }
}

export const TABULAR_AGENTS = {
  tabular: {
    description: 'a table of action probabilities per information state: tabular:<policy.json> (czech-pub cfr writes one)',
    needs: 'history',
    label: (options) => `tabular:${options.split(':')[0].split(/[\\/]/).filter(Boolean).pop()!.replace(/\.json$/, '')}`,
    create: (spec, options) => {
      const parts = options === '' ? [] : options.split(':');
      const file = parts.length > 0 && !parts[0].includes('=') ? parts.shift()! : '';
      if (file === '') throw new Error(`agent '${spec}' names its table: tabular:<policy.json>`);
      parseOptions(spec, parts.join(':'), {});
      return new TabularAgent(spec, readTabularPolicy(file));
    },
  },
} satisfies AgentFamily;
