/**
 * The seeds agents are reset with, derived one way from the game's seed.
 *
 * Whoever knows a game's seed knows every hand and the order of the draw pile, so an agent
 * (an outside bot, a model's transcript, a log line) must never be handed something the seed
 * can be read from. Each seat's seed is a keyed hash (HMAC-SHA-256, keyed by the game's seed)
 * of the seat's number: the same game seed always gives the same agent seeds, so a seeded
 * tournament still replays exactly, but nothing an agent holds leads back to the deal.
 */
import { createHmac } from 'node:crypto';

const hash = (key: string, what: string): string => createHmac('sha256', key).update(what).digest('base64url');

/** The seed the agent at `seat` is reset with in the game dealt from `gameSeed`. */
export function agentSeed(gameSeed: string | number, seat: number): string {
  return hash(String(gameSeed), `czech-pub/agent-seed/seat${seat}`).slice(0, 22);
}

/**
 * An opaque name for the game an agent plays, made from its own seed: what an outside bot is
 * told so it can keep its state per game, without learning any seed.
 */
export function opaqueGameId(agentSeedValue: string): string {
  return hash(agentSeedValue, 'czech-pub/opaque-game-id').slice(0, 16);
}
