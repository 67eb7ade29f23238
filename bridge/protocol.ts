/**
 * The bridge's wire format: how another process (the Python package, python/czech_pub) drives
 * the engine over a pair of pipes. Every message, either way, is one frame:
 *
 *   u32 little-endian payload length, then the payload
 *
 * A request's payload is an op code (u8) and the op's body; a response's is a status (u8: OK
 * or ERROR) and a body (for ERROR, the message in UTF-8). Numbers are little-endian;
 * observations go as raw float32 and masks as raw uint8, never as JSON (JSON carries only the
 * rare configuration messages: creating an env, INFO).
 *
 * A client's first request is INFO, its handshake: the answer names the protocol's version and
 * the package's (czech-pub-gym's), and the Python package refuses an engine whose either
 * differs from its own (a wheel carries its own engine, built from the same sources).
 *
 * The op codes, the status codes, the frame limit and the protocol's version are also in
 * python/czech_pub/_protocol.py; bridge/bridge.test.ts fails if the two disagree.
 */

/** The version of this wire format: a change to any op's body, answer or meaning bumps it. */
export const PROTOCOL_VERSION = 1;

export const OP = {
  /** → JSON {protocol, package, engineVersion, …sizes, agents}: the handshake (see above). */
  INFO: 1,
  /** JSON {players, seed?, ruleset?, reward?, askForced?} → u32 handle. */
  ENV_NEW: 2,
  /** u32 handle, JSON {seed?} → turn record. */
  ENV_RESET: 3,
  /** u32 handle, i32 action → turn record. */
  ENV_STEP: 4,
  /** u32 handle, i32 seat (−1: the seat to act) → UTF-8 text of that seat's view. */
  ENV_RENDER: 5,
  /** u32 handle, u8 seat → float32[OBS] observation, u8[ACTIONS] mask (zero unless the seat acts). */
  ENV_OBSERVE: 6,
  /** u32 handle → nothing. */
  CLOSE: 7,
  /**
   * JSON {numEnvs, players, seed, opponents, seat?, ruleset?, reward?, threads?} → u32 handle,
   * u32 threads it steps on ('auto' when absent: vector-threads.ts).
   */
  VEC_NEW: 10,
  /** u32 handle → batch. */
  VEC_RESET: 11,
  /** u32 handle, i32[numEnvs] actions → batch. */
  VEC_STEP: 12,
} as const;

export const STATUS = { OK: 0, ERROR: 1 } as const;

/** The largest request payload accepted (a vector step of 1,000,000 actions fits). */
export const MAX_REQUEST_BYTES = 8 * 1024 * 1024;

/**
 * Turn record (ENV_RESET, ENV_STEP): u8 seat to act (255 once the game is over), u8 flags
 * (1 terminated, 2 truncated), u8 players, u8 0, f32[players] rewards of the step just taken,
 * then the seat to act's float32[OBS] observation and u8[ACTIONS] mask (zeros once over).
 *
 * Batch (VEC_RESET, VEC_STEP), for numEnvs = N, arrays one after another:
 * float32[N×OBS] observations, u8[N×ACTIONS] masks, f32[N] rewards, f32[N] win shares (the
 * learner's share of first place in a game that just ended, else 0), u8[N] terminated,
 * u8[N] truncated, u8[N] learner seats, then u32 decisions the engine stepped for this call
 * (the learner's, the bots' and forced ones); observation rows of a game that just ended
 * belong to the game that replaced it.
 */
export const NO_SEAT = 255;
