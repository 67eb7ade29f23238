/**
 * A finished game as a replay: the deal's seed, the table size, the rules and every action in
 * order. Seed and actions are the whole game (the engine is deterministic), so a tournament's
 * games.jsonl line, a link in its report and the web viewer all carry this and nothing more.
 *
 * The link form is one URL-safe string (a fragment, never a path):
 *
 *   r1.<players>.<askForced 0|1>.<ruleset fingerprint>.<seed, base64url UTF-8>.<actions, base64url bytes>
 *   r2.<the same five parts>.<seat labels, base64url UTF-8, one a line>
 *
 * r2 adds who sat in each seat (a tournament's agent labels, display text only), so a viewer
 * can name the seats; a record without labels is written as r1, and r1 links still open.
 * Every action id fits a byte (NUM_ACTIONS ≤ 256). Decoding checks each part and names the
 * one that is wrong; replaying checks every action against the engine's legal ones.
 */
import { CzechPubEnv, DEFAULT_MAX_DECISIONS, DEFAULT_RULESET, NUM_ACTIONS, rulesetFingerprint, type Ruleset } from '../env/index.ts';

export interface ReplayRecord {
  players: number;
  seed: string;
  askForced: boolean;
  /** The fingerprint of the ruleset the game was played under (env/spec.ts). */
  ruleset: string;
  actions: number[];
  /** Who sat in each seat (display text: 1–200 characters, no control characters), when known. */
  seats?: string[];
}

/** The longest replay accepted: a game the env would have cut off is no longer. */
export const MAX_REPLAY_ACTIONS = DEFAULT_MAX_DECISIONS;
/** The longest seed a replay (and so a game: its replay must fit a link) may have, in UTF-16 code units (what zod's max counts). */
export const MAX_SEED_CHARS = 200;
export const MAX_SEAT_LABEL = 200;
const VERSIONS = ['r1', 'r2'] as const;

/** Why a seat label cannot go into a link, or null when it can. */
export function seatLabelFault(label: string): string | null {
  if (typeof label !== 'string' || label.length === 0 || label.length > MAX_SEAT_LABEL) return `a seat label is 1–${MAX_SEAT_LABEL} characters`;
  if (/[\u0000-\u001f\u007f]/.test(label)) return 'a seat label has no control characters';
  return null;
}

export class ReplayFormatError extends Error {
  override name = 'ReplayFormatError';
}

/** A label as a link carries it: display text, so a control character becomes a space and a long one is cut. */
const linkLabel = (label: string): string => label.replace(/[\u0000-\u001f\u007f]/g, ' ').slice(0, MAX_SEAT_LABEL) || '?';

/** The link form of a record. */
export function encodeReplay(r: ReplayRecord): string {
  for (const a of r.actions) if (!Number.isInteger(a) || a < 0 || a >= NUM_ACTIONS) throw new ReplayFormatError(`action ${a} is not an action id`);
  const parts: (string | number)[] = [
    r.seats ? 'r2' : 'r1',
    r.players,
    r.askForced ? 1 : 0,
    r.ruleset,
    Buffer.from(r.seed, 'utf8').toString('base64url'),
    Buffer.from(Uint8Array.from(r.actions)).toString('base64url'),
  ];
  if (r.seats) {
    if (r.seats.length !== r.players) throw new ReplayFormatError(`${r.seats.length} seat labels for ${r.players} players`);
    parts.push(Buffer.from(r.seats.map(linkLabel).join('\n'), 'utf8').toString('base64url'));
  }
  return parts.join('.');
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** A record from its link form; throws ReplayFormatError naming the part that is wrong. */
export function decodeReplay(link: string): ReplayRecord {
  const labelRoom = Math.ceil((6 * (MAX_SEAT_LABEL * 4 + 1) * 4) / 3);
  if (typeof link !== 'string' || link.length > 16 + MAX_SEED_CHARS * 2 + Math.ceil((MAX_REPLAY_ACTIONS * 4) / 3) + labelRoom + 64) {
    throw new ReplayFormatError('a replay link must be a string of at most a few thousand characters');
  }
  const parts = link.split('.');
  const version = parts[0];
  if (!(VERSIONS as readonly string[]).includes(version)) throw new ReplayFormatError(`unknown replay link version '${version.slice(0, 8)}' (want one of ${VERSIONS.join(', ')})`);
  const want = version === 'r1' ? 6 : 7;
  if (parts.length !== want) throw new ReplayFormatError(`an ${version} replay link has ${want} parts separated by '.', this one has ${parts.length}`);
  const [, players, askForced, ruleset, seed, actions, labels] = parts;
  if (!/^[2-6]$/.test(players)) throw new ReplayFormatError('the replay link\'s players must be 2–6');
  if (askForced !== '0' && askForced !== '1') throw new ReplayFormatError('the replay link\'s askForced must be 0 or 1');
  if (!/^[0-9a-f]{1,64}$/.test(ruleset)) throw new ReplayFormatError('the replay link\'s ruleset must be a fingerprint (hex digits)');
  if (!BASE64URL.test(seed) || !BASE64URL.test(actions)) throw new ReplayFormatError('the replay link\'s seed and actions must be base64url');
  const seedText = Buffer.from(seed, 'base64url').toString('utf8');
  if (seedText.length === 0 || seedText.length > MAX_SEED_CHARS) throw new ReplayFormatError(`the replay link's seed must be 1–${MAX_SEED_CHARS} characters`);
  const bytes = Buffer.from(actions, 'base64url');
  if (bytes.length > MAX_REPLAY_ACTIONS) throw new ReplayFormatError(`a replay has at most ${MAX_REPLAY_ACTIONS} actions`);
  const ids = Array.from(bytes);
  const bad = ids.findIndex((a) => a >= NUM_ACTIONS);
  if (bad >= 0) throw new ReplayFormatError(`the replay link's action ${bad} (${ids[bad]}) is not an action id`);
  const record: ReplayRecord = { players: Number(players), seed: seedText, askForced: askForced === '1', ruleset, actions: ids };
  if (labels === undefined) return record;
  if (!BASE64URL.test(labels)) throw new ReplayFormatError("the replay link's seat labels must be base64url");
  const seats = Buffer.from(labels, 'base64url').toString('utf8').split('\n');
  if (seats.length !== record.players) throw new ReplayFormatError(`the replay link has ${seats.length} seat labels for ${record.players} players`);
  const fault = seats.map(seatLabelFault).find((f) => f !== null);
  if (fault) throw new ReplayFormatError(`the replay link's seat labels: ${fault}`);
  return { ...record, seats };
}

/**
 * The game of a record replayed to its end under `ruleset` (the standard rules unless given),
 * with the event log kept. Throws ReplayFormatError when the record was played under other
 * rules, names the first illegal action (its step and the legal ones), and refuses a record
 * whose actions stop before the game is over.
 */
export function replayGame(
  r: ReplayRecord,
  ruleset: Ruleset = DEFAULT_RULESET,
  /** Takes each checked action: a caller that records every step (the server's replay frames) steps once, here. */
  step: (env: CzechPubEnv, action: number) => void = (env, a) => env.step(a),
): CzechPubEnv {
  const fingerprint = rulesetFingerprint(ruleset);
  if (r.ruleset !== fingerprint) throw new ReplayFormatError(`the replay was played under ruleset ${r.ruleset}, this one is ${fingerprint}`);
  if (r.actions.length > MAX_REPLAY_ACTIONS) throw new ReplayFormatError(`a replay has at most ${MAX_REPLAY_ACTIONS} actions`);
  const env = new CzechPubEnv({ seed: r.seed, players: r.players, ruleset, askForced: r.askForced, maxDecisions: MAX_REPLAY_ACTIONS, log: true });
  r.actions.forEach((a, i) => {
    if (env.done) throw new ReplayFormatError(`the game is over after ${i} actions, the replay has ${r.actions.length}`);
    const legal = env.legalActions();
    if (!legal.includes(a)) throw new ReplayFormatError(`action ${a} at step ${i} is not legal there (legal: ${legal.join(', ')})`);
    step(env, a);
  });
  if (!env.done) throw new ReplayFormatError(`the replay stops after ${r.actions.length} actions, before the game is over`);
  return env;
}

/** The record of a game played to its end in `env` (its seed as the env was reset with). */
export function recordOf(env: CzechPubEnv, seed: string, askForced: boolean, ruleset: Ruleset = DEFAULT_RULESET): ReplayRecord {
  return { players: env.players, seed, askForced, ruleset: rulesetFingerprint(ruleset), actions: env.actions.slice() };
}
