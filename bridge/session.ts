/**
 * One bridge client's state and its request handler: payload in, payload out (protocol.ts).
 * No I/O here, so tests drive it directly; bridge/stdio.ts moves the frames.
 *
 * Every error becomes an ERROR response with a message about the request (an unknown handle,
 * an illegal action naming the legal ones, a bad option) and leaves the envs as they were.
 */
import { knownAgents } from '../agents/index.ts';
import {
  CzechPubEnv, DEFAULT_RULESET, envSpec, NAMED_RULESETS, NUM_ACTIONS, OBS_SIZE, parseRuleset, REWARD_SCHEMES, SeatChannel, type RewardScheme,
  type Ruleset,
} from '../env/index.ts';
import { PACKAGE } from '../eval/index.ts';
import type { LearnerBatchEnv } from './learner-vector.ts';
import { makeVectorEnv, parseThreads, threadsFor, type Threads } from './vector-threads.ts';
import { NO_SEAT, OP, PROTOCOL_VERSION, STATUS } from './protocol.ts';

/** Envs one client may hold at once. */
export const MAX_HANDLES = 4096;
/** Threads (beyond the bridge's own) the vector envs of one client may hold at once. */
export const MAX_VECTOR_WORKERS = 16;

/** A request that cannot be served: its message goes back to the client. */
class BadRequest extends Error {}

export class BridgeSession {
  private readonly handles = new Map<number, CzechPubEnv | LearnerBatchEnv>();
  /** Engine decisions of each vector env already reported. */
  private readonly counted = new WeakMap<LearnerBatchEnv, number>();
  /** Worker threads the open vector envs hold. */
  private workers = 0;
  private next = 1;
  /**
   * Responses are built here: the payload starts at offset 7 (the status byte), after room for
   * the frame's length, so that its data (from 8) is float32-aligned.
   */
  private out = aligned(1 << 16);

  /**
   * Serves one request payload. The returned buffer is valid until the next call, and the 4
   * bytes before it in its memory are free for the frame's length (stdio.ts writes it there).
   */
  handle(req: Buffer): Buffer {
    try {
      if (req.length < 1) throw new BadRequest('empty request');
      return this.serve(req[0], req.subarray(1));
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      const text = Buffer.from(msg, 'utf8');
      const b = this.reserve(8 + text.length);
      b[7] = STATUS.ERROR;
      text.copy(b, 8);
      return b.subarray(7, 8 + text.length);
    }
  }

  get open(): number {
    return this.handles.size;
  }

  private reserve(n: number): Buffer {
    if (this.out.length < n) this.out = aligned(Math.max(n, this.out.length * 2));
    return this.out;
  }

  private ok(body: Buffer | string): Buffer {
    const data = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    const b = this.reserve(8 + data.length);
    b[7] = STATUS.OK;
    data.copy(b, 8);
    return b.subarray(7, 8 + data.length);
  }

  private serve(op: number, body: Buffer): Buffer {
    switch (op) {
      case OP.INFO:
        return this.ok(JSON.stringify({ protocol: PROTOCOL_VERSION, package: PACKAGE.version, ...envSpec(DEFAULT_RULESET), agents: knownAgents().map((a) => a.name) }));
      case OP.ENV_NEW: {
        const o = json(body);
        const players = int(o.players, 'players');
        const ruleset = rulesetOf(o.ruleset);
        const { min, max } = ruleset.players;
        if (players < min || players > max) throw new BadRequest(`players must be from ${min} to ${max}, got ${players}`);
        const env = new CzechPubEnv({ seed: seedOf(o.seed), players, ruleset, reward: rewardOf(o.reward), askForced: o.askForced === true, log: false });
        return this.ok(u32(this.add(env)));
      }
      case OP.ENV_RESET: {
        const env = this.env(body);
        const o = json(body.subarray(4));
        const c = env.config;
        env.reset({ seed: o.seed === undefined ? c.seed : seedOf(o.seed), players: c.players, ruleset: c.ruleset, reward: c.reward, askForced: c.askForced, maxDecisions: c.maxDecisions, log: false });
        return this.turn(env);
      }
      case OP.ENV_STEP: {
        const env = this.env(body);
        if (body.length !== 8) throw new BadRequest('step: expected a handle and one int32 action');
        if (env.done) throw new BadRequest('the game is over: reset it before stepping');
        const a = body.readInt32LE(4);
        const legal = env.legalActions();
        if (!legal.includes(a)) throw new BadRequest(`action ${a} is not legal for seat ${env.actor}; legal actions: ${legal.join(', ')}`);
        env.stepLegal(a);
        return this.turn(env);
      }
      case OP.ENV_RENDER: {
        const env = this.env(body);
        const seat = body.length >= 8 ? body.readInt32LE(4) : -1;
        const who = seat === -1 ? (env.done ? 0 : env.actor) : this.seat(env, seat);
        return this.ok(new SeatChannel(env, who).text()!);
      }
      case OP.ENV_OBSERVE: {
        const env = this.env(body);
        if (body.length !== 5) throw new BadRequest('observe: expected a handle and one u8 seat');
        const seat = this.seat(env, body[4]);
        // Status at 7, the observation from 8 (4-byte aligned), then the mask.
        const b = this.reserve(8 + OBS_SIZE * 4 + NUM_ACTIONS);
        b[7] = STATUS.OK;
        SeatChannel.encodeSeat(env, seat, new Float32Array(b.buffer, b.byteOffset + 8, OBS_SIZE));
        SeatChannel.maskSeat(env, seat, new Uint8Array(b.buffer, b.byteOffset + 8 + OBS_SIZE * 4, NUM_ACTIONS));
        return b.subarray(7, 8 + OBS_SIZE * 4 + NUM_ACTIONS);
      }
      case OP.CLOSE: {
        const h = body.length === 4 ? body.readUInt32LE(0) : -1;
        const x = this.handles.get(h);
        if (!x) throw new BadRequest(`no env with handle ${h}`);
        this.drop(h, x);
        return this.ok(Buffer.alloc(0));
      }
      case OP.VEC_NEW: {
        const o = json(body);
        const ruleset = rulesetOf(o.ruleset);
        if (typeof o.opponents !== 'string' || o.opponents === '') throw new BadRequest('opponents must be an agent spec (or one per other seat, comma-separated)');
        const seat = o.seat === undefined || o.seat === 'rotate' ? 'rotate' : int(o.seat, 'seat');
        const numEnvs = int(o.numEnvs, 'numEnvs');
        const threads = this.threadsOf(o.threads, numEnvs);
        // Checked before its threads start, not after.
        this.room();
        let v: LearnerBatchEnv;
        try {
          v = makeVectorEnv({ numEnvs, players: int(o.players, 'players'), seed: seedOf(o.seed), opponents: o.opponents, seat, ruleset, reward: rewardOf(o.reward) }, threads);
        } catch (e) {
          throw new BadRequest((e as Error).message);
        }
        this.counted.set(v, 0);
        this.workers += v.threads - 1;
        const h = this.add(v);
        const out = Buffer.alloc(8);
        out.writeUInt32LE(h, 0);
        out.writeUInt32LE(v.threads, 4);
        return this.ok(out);
      }
      case OP.VEC_RESET: {
        const v = this.vec(body);
        v.reset();
        return this.batch(v);
      }
      case OP.VEC_STEP: {
        const v = this.vec(body);
        if (body.length !== 4 + 4 * v.numEnvs) throw new BadRequest(`vector step: expected ${v.numEnvs} int32 actions, got ${(body.length - 4) / 4}`);
        const actions = new Int32Array(v.numEnvs);
        for (let i = 0; i < v.numEnvs; i++) actions[i] = body.readInt32LE(4 + 4 * i);
        try {
          v.step(actions);
        } catch (e) {
          if (e instanceof RangeError) throw new BadRequest(e.message);
          throw e;
        }
        return this.batch(v);
      }
      default:
        throw new BadRequest(`unknown op ${op}`);
    }
  }

  /** Ends every env (their threads with them): the client has gone. */
  close(): void {
    for (const [h, x] of this.handles) this.drop(h, x);
  }

  private drop(h: number, x: CzechPubEnv | LearnerBatchEnv): void {
    this.handles.delete(h);
    if (!(x instanceof CzechPubEnv)) {
      this.workers -= x.threads - 1;
      x.close();
    }
  }

  /**
   * The threads a new vector env gets: as asked ('auto' when absent), within what this
   * client's other vector envs leave of MAX_VECTOR_WORKERS ('auto' takes fewer; a number over
   * it is refused).
   */
  private threadsOf(given: unknown, numEnvs: number): Threads {
    let v: Threads;
    try {
      v = parseThreads(given);
    } catch (e) {
      throw new BadRequest((e as Error).message);
    }
    const free = MAX_VECTOR_WORKERS - this.workers;
    if (v === 'auto') return Math.max(1, Math.min(threadsFor('auto', numEnvs), free + 1));
    if (v - 1 > free) throw new BadRequest(`threads: ${v} would pass this client's limit of ${MAX_VECTOR_WORKERS} worker threads (${this.workers} in use); close a vector env first`);
    return v;
  }

  /** Throws unless this client may open another env. */
  private room(): void {
    if (this.handles.size >= MAX_HANDLES) throw new BadRequest(`too many open envs (${MAX_HANDLES}); close some first`);
  }

  private add(x: CzechPubEnv | LearnerBatchEnv): number {
    this.room();
    const h = this.next++;
    this.handles.set(h, x);
    return h;
  }

  private env(body: Buffer): CzechPubEnv {
    const x = this.lookup(body);
    if (!(x instanceof CzechPubEnv)) throw new BadRequest(`handle ${body.readUInt32LE(0)} is a vector env, not a single game`);
    return x;
  }

  private vec(body: Buffer): LearnerBatchEnv {
    const x = this.lookup(body);
    if (x instanceof CzechPubEnv) throw new BadRequest(`handle ${body.readUInt32LE(0)} is a single game, not a vector env`);
    return x;
  }

  private lookup(body: Buffer) {
    if (body.length < 4) throw new BadRequest('expected a u32 handle');
    const h = body.readUInt32LE(0);
    const x = this.handles.get(h);
    if (!x) throw new BadRequest(`no env with handle ${h}`);
    return x;
  }

  private seat(env: CzechPubEnv, seat: number): number {
    if (!(Number.isInteger(seat) && seat >= 0 && seat < env.players)) throw new BadRequest(`seat must be from 0 to ${env.players - 1}, got ${seat}`);
    return seat;
  }

  /** The turn record (protocol.ts). */
  private turn(env: CzechPubEnv): Buffer {
    const players = env.players;
    const head = 4 + 4 * players;
    const size = 8 + head + OBS_SIZE * 4 + NUM_ACTIONS;
    const b = this.reserve(size);
    // Status at 7, the record from 8: the observation (at 8 + head) stays 4-byte aligned.
    b[7] = STATUS.OK;
    const done = env.done;
    const seat = done ? NO_SEAT : env.actor;
    b[8] = seat;
    b[9] = (env.terminated ? 1 : 0) | (env.truncated ? 2 : 0);
    b[10] = players;
    b[11] = 0;
    const rewards = env.rewards;
    for (let p = 0; p < players; p++) b.writeFloatLE(rewards[p] ?? 0, 12 + 4 * p);
    const obs = new Float32Array(b.buffer, b.byteOffset + 8 + head, OBS_SIZE);
    const mask = new Uint8Array(b.buffer, b.byteOffset + 8 + head + OBS_SIZE * 4, NUM_ACTIONS);
    if (done) {
      obs.fill(0);
      mask.fill(0);
    } else {
      SeatChannel.encodeSeat(env, seat, obs);
      SeatChannel.maskSeat(env, seat, mask);
    }
    return b.subarray(7, size);
  }

  /** The batch (protocol.ts). */
  private batch(v: LearnerBatchEnv): Buffer {
    const stepped = new Uint32Array([v.engineDecisions - this.counted.get(v)!]);
    this.counted.set(v, v.engineDecisions);
    const parts: ArrayBufferView[] = [v.obs, v.masks, v.rewards, v.wins, v.terminated, v.truncated, v.seats, stepped];
    const size = parts.reduce((s, p) => s + p.byteLength, 0);
    const b = this.reserve(8 + size);
    b[7] = STATUS.OK;
    let at = 8;
    for (const p of parts) {
      b.set(new Uint8Array(p.buffer, p.byteOffset, p.byteLength), at);
      at += p.byteLength;
    }
    return b.subarray(7, at);
  }
}

function json(body: Buffer): Record<string, unknown> {
  if (body.length === 0) return {};
  let v: unknown;
  try {
    v = JSON.parse(body.toString('utf8'));
  } catch {
    throw new BadRequest('the request body is not valid JSON');
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new BadRequest('the request body must be a JSON object');
  return v as Record<string, unknown>;
}

function int(v: unknown, name: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new BadRequest(`${name} must be a whole number, got ${JSON.stringify(v)}`);
  return v;
}

function seedOf(v: unknown): string {
  if (v === undefined || v === null) return '0';
  if ((typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v.length <= 200)) return String(v);
  throw new BadRequest('seed must be a number or a string of at most 200 characters');
}

function rewardOf(v: unknown): RewardScheme {
  if (v === undefined) return 'win';
  if (typeof v === 'string' && (REWARD_SCHEMES as readonly string[]).includes(v)) return v as RewardScheme;
  throw new BadRequest(`reward must be one of ${REWARD_SCHEMES.join(', ')}, got ${JSON.stringify(v)}`);
}

/** A ruleset object, or a shipped ruleset's name (`micro`, `standard`): a name is looked up, never read from anywhere. */
function rulesetOf(v: unknown): Ruleset {
  if (v === undefined || v === null) return DEFAULT_RULESET;
  if (typeof v === 'string') {
    if (Object.hasOwn(NAMED_RULESETS, v)) return NAMED_RULESETS[v];
    throw new BadRequest(`ruleset must be a ruleset object or one of ${Object.keys(NAMED_RULESETS).join(', ')}, got ${JSON.stringify(v.slice(0, 40))}`);
  }
  try {
    return parseRuleset(v);
  } catch (e) {
    throw new BadRequest(`ruleset: ${(e as Error).message}`);
  }
}

/** A buffer of its own memory (not Node's shared pool), so offsets in it are offsets in its ArrayBuffer. */
function aligned(n: number): Buffer {
  return Buffer.from(new ArrayBuffer(n));
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n, 0);
  return b;
}
