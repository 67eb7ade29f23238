/**
 * A game picked from a tournament's games.jsonl: one JSON object a line, the game number
 * counting lines from 1. The line gives its replay link (`replay`) or the record's fields
 * (players, seed, askAll, ruleset, actions; eval/replay-record.ts); the server checks either.
 */

/** The record's fields, as the server takes them. */
const RECORD_KEYS = ['players', 'seed', 'askAll', 'ruleset', 'actions'];

/**
 * @param {string} text  the file's contents
 * @param {number} game  1-based
 * @returns {{ what: { link: string } | { record: Record<string, unknown> }, seats?: string[] }}
 */
export function gameFromJsonl(text, game) {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (!Number.isInteger(game) || game < 1 || game > lines.length) throw new Error(`the file has games 1 to ${lines.length}; game ${game} is not one of them`);
  let line;
  try {
    line = JSON.parse(lines[game - 1]);
  } catch {
    throw new Error(`line ${game} of the file is not JSON`);
  }
  const seats = Array.isArray(line.agents) && line.agents.every((/** @type {unknown} */ a) => typeof a === 'string') ? line.agents : undefined;
  if (typeof line.replay === 'string') return { what: { link: line.replay }, seats };
  const source = line.record && typeof line.record === 'object' ? line.record : line;
  const missing = RECORD_KEYS.filter((k) => !(k in source));
  if (missing.length > 0) throw new Error(`game ${game} has no replay link and no record (missing ${missing.join(', ')})`);
  return { what: { record: Object.fromEntries(RECORD_KEYS.map((k) => [k, source[k]])) }, seats };
}
