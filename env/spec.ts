/**
 * What makes results comparable: the versions of the action space and observation
 * encoding, and a fingerprint of the ruleset's content. Checkpoints and tournament results
 * record an EnvSpec and refuse to mix with a different one (`assertCompatible`).
 */
import { ACTION_SPACE_VERSION, NUM_ACTIONS } from './actions.ts';
import { OBS_SIZE, OBSERVATION_VERSION } from './observation/encode.ts';
import { CARD_IDS } from './cards.ts';
import { MAX_PLAYERS, type Ruleset } from './ruleset.ts';

/**
 * The engine's rules behaviour. 2: an X Shot into a beer whose beer is gone makes the poured
 * own shot count towards the shot limit again; the own-turn Shot into a beer needs a beer the
 * player played (docs/rules-notes.md). 3: it needs a shot the player played too (not one
 * given by Mixed-up); the discard pile is shuffled into a new draw pile as soon as the last
 * card is drawn, not when a draw finds the pile empty.
 */
export const ENGINE_VERSION = 3;

export interface EnvSpec {
  engineVersion: number;
  actionSpaceVersion: number;
  observationVersion: number;
  numActions: number;
  observationSize: number;
  maxPlayers: number;
  ruleset: { name: string; fingerprint: string };
}

/** JSON with object keys sorted, so equal rulesets print equally. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/**
 * 32-bit FNV-1a of the ruleset's canonical JSON, as 8 hex digits. The name and the schema
 * version are left out, and the cards are listed by type (their order in CARD_IDS), not by id:
 * the fingerprint follows the rules the engine plays, so renaming a card does not change it.
 */
export function rulesetFingerprint(ruleset: Ruleset): string {
  const { name: _name, version: _version, cards, ...rules } = ruleset;
  const text = canonical({ ...rules, cards: CARD_IDS.map((id) => cards[id]) });
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

export function envSpec(ruleset: Ruleset): EnvSpec {
  return {
    engineVersion: ENGINE_VERSION,
    actionSpaceVersion: ACTION_SPACE_VERSION,
    observationVersion: OBSERVATION_VERSION,
    numActions: NUM_ACTIONS,
    observationSize: OBS_SIZE,
    maxPlayers: MAX_PLAYERS,
    ruleset: { name: ruleset.name, fingerprint: rulesetFingerprint(ruleset) },
  };
}

/**
 * Throws a message naming every difference if `found` was made with another env than `expected`.
 * With `sameEngine: false` (a trained policy loaded to play) the engine version may differ:
 * the policy reads the same observation and picks among the engine's legal actions, so a rules
 * fix does not make it unplayable; resuming its training, or mixing results, needs the same engine.
 */
export function assertCompatible(expected: EnvSpec, found: EnvSpec, what = 'this file', sameEngine = true): void {
  const diffs: string[] = [];
  const check = (label: string, a: unknown, b: unknown) => {
    if (a !== b) diffs.push(`${label} ${String(b)} (this env: ${String(a)})`);
  };
  if (sameEngine) check('engine version', expected.engineVersion, found.engineVersion);
  check('action space version', expected.actionSpaceVersion, found.actionSpaceVersion);
  check('observation version', expected.observationVersion, found.observationVersion);
  check('number of actions', expected.numActions, found.numActions);
  check('observation size', expected.observationSize, found.observationSize);
  check('ruleset fingerprint', expected.ruleset.fingerprint, found.ruleset.fingerprint);
  if (diffs.length > 0) throw new Error(`${what} was made with a different environment: ${diffs.join('; ')}`);
}
