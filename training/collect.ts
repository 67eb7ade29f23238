/**
 * Self-play rollouts, in chunks: a chunk is a few whole games played side by side under one
 * policy version, fixed by its seed. Where a chunk is played (this thread, a worker thread, a
 * queue worker on another machine) does not change what comes of it, so a rollout is the same
 * wherever its chunks ran; an iteration takes chunks in order until it has its decisions.
 *
 * Playing (`ChunkPlayer`): at the start of a chunk every game's seats are given controllers
 * drawn from the opponent pool: the learner (the policy being trained, whose decisions are
 * recorded), a frozen past snapshot of it, or a scripted agent; one seat is always the
 * learner. Games are played on (scripted seats act at once) until a seat that needs a net must
 * decide; then one batched forward pass serves every game waiting on the learner, and one per
 * snapshot.
 *
 * What a chunk sends back is small: per game, every seat's actions (one byte each) and, per
 * recorded decision, the log-probability and value the policy gave it. The learner replays the
 * games from their seeds (`replayChunk`) and encodes the observations itself, instead of
 * receiving 569 floats and a mask per decision (`bench queue` measures both). The replay checks
 * the final scores against the player's, so a worker on another engine cannot slip in games
 * that are not the learner's.
 *
 * A seat's trajectory is its own decisions; the game's terminal reward goes on its last one and
 * advantages come from gae.ts. Games are whole, so nothing is bootstrapped.
 */
import * as tf from '@tensorflow/tfjs-core';
import {
  HAND_TYPES, MAX_PLAYERS, nextFloat, NUM_ACTIONS, OBS_SIZE, randInt, seedRng, terminalRewards, VectorEnv, type GameState, type RewardScheme,
  type RngState, type Ruleset,
} from '../env/index.ts';
import { agentSeed, createAgent, EnvObservation, SeatInputs, type Agent, type SeatInput } from '../agents/index.ts';
import { decodeFloats, encodeFloats, sampleMasked, type NetShape } from '../policy/index.ts';
import { gae } from './gae.ts';
import type { TfNet } from './net.ts';

/** One pool entry: `self` (the learner), `past` (a frozen snapshot) or an agent spec, with a weight. */
export interface PoolEntry {
  name: string;
  weight: number;
}

/** Parses `4*self,2*past,heuristic` (weight 1 when no `N*` prefix). */
export function parsePool(text: string): PoolEntry[] {
  const entries = text.split(',').map((part) => {
    const m = /^\s*(?:(\d+(?:\.\d+)?)\s*\*)?\s*(.+?)\s*$/.exec(part);
    if (!m || m[2] === '') throw new Error(`opponent pool: cannot read '${part}' (want e.g. 4*self,2*past,heuristic)`);
    const weight = m[1] === undefined ? 1 : Number(m[1]);
    if (!(weight > 0)) throw new Error(`opponent pool: weight of '${m[2]}' must be > 0`);
    if (m[2] !== 'self' && m[2] !== 'past') createAgent(m[2]); // an unknown spec fails here, listing the known ones
    return { name: m[2], weight };
  });
  if (entries.length === 0) throw new Error('opponent pool is empty');
  return entries;
}

/** What fixes a chunk, besides the nets: everything here travels to whoever plays it. */
export interface ChunkSpec {
  /** Seeds the chunk's deals, seating and sampling. */
  seed: string;
  /** Games in the chunk, played side by side. */
  games: number;
  players: number;
  ruleset?: Ruleset;
  pool: PoolEntry[];
  reward: RewardScheme;
  /** Snapshots `past` draws among (0: `past` seats are played by the learner). */
  snapshots: number;
}

/** One game of a chunk, as the player sends it back. */
export interface ChunkGame {
  /** Seats whose decisions were recorded: the learner's and those played by the learner's policy (`self`). */
  recorded: number[];
  /** Who the other seats were: one pool entry's name, or 'mixed'. */
  label: string;
  /** Every seat's actions in order, forced ones included. */
  actions: Uint8Array;
  /** Per recorded decision, in order: the policy's log-probability of the action taken, and its value. */
  logp: Float32Array;
  value: Float32Array;
  /** Final scores, which the replay must reproduce. */
  scores: number[];
}

/** A chunk's games as JSON (for a worker thread's message or a queue job's result). */
export interface EncodedChunkGame {
  recorded: number[];
  label: string;
  actions: string;
  logp: string;
  value: string;
  scores: number[];
}

export function encodeChunk(games: readonly ChunkGame[]): EncodedChunkGame[] {
  return games.map((g) => ({
    recorded: g.recorded, label: g.label, scores: g.scores,
    actions: Buffer.from(g.actions.buffer, g.actions.byteOffset, g.actions.byteLength).toString('base64'),
    logp: encodeFloats(g.logp), value: encodeFloats(g.value),
  }));
}

export function decodeChunk(games: readonly EncodedChunkGame[]): ChunkGame[] {
  return games.map((g, j) => {
    const logp = decodeFloats(g.logp, undefined, `chunk game ${j} log-probabilities`);
    const value = decodeFloats(g.value, logp.length, `chunk game ${j} values`);
    return { recorded: g.recorded, label: g.label, scores: g.scores, actions: new Uint8Array(Buffer.from(g.actions, 'base64')), logp, value };
  });
}

type Controller = { kind: 'learner' } | { kind: 'snapshot'; index: number } | { kind: 'agent'; agent: Agent };

if (NUM_ACTIONS > 256) throw new Error('chunks send actions as bytes: NUM_ACTIONS must stay ≤ 256');

/** Plays chunks; keeps its scripted agents and scratch buffers from one chunk to the next. */
export class ChunkPlayer {
  private readonly agents = new Map<string, Agent[]>();
  private obs = new Float32Array(0);
  private mask = new Uint8Array(0);
  /** The nets' inputs of every (game slot, seat), kept from one chunk to the next while the net's shape stays. */
  private inputs: SeatInputs | null = null;

  private agentFor(spec: string, seat: number): Agent {
    let list = this.agents.get(spec);
    if (!list) this.agents.set(spec, (list = []));
    // One instance per seat, so agents that keep per-game state never share it.
    while (list.length <= seat) list.push(createAgent(spec));
    return list[seat];
  }

  play(spec: ChunkSpec, net: TfNet, snapshots: readonly TfNet[]): ChunkGame[] {
    if (snapshots.length !== spec.snapshots) throw new Error(`chunk wants ${spec.snapshots} snapshots, got ${snapshots.length}`);
    const n = spec.games;
    const rng = seedRng(`chunk/${spec.seed}`);
    const games = new VectorEnv({ numEnvs: n, players: spec.players, seed: spec.seed, ruleset: spec.ruleset, reward: spec.reward, observe: false });
    games.reset();
    const width = net.shape.inputs;
    if (this.obs.length < n * width) {
      this.obs = new Float32Array(n * width);
      this.mask = new Uint8Array(n * NUM_ACTIONS);
    }
    if (!this.inputs || !sameShape(this.inputs.shape, net.shape) || this.inputs.players !== spec.players) this.inputs = new SeatInputs(net.shape, spec.players);
    const seating = Array.from({ length: n }, (_, i) => this.seat(spec, games.seedOf(i), rng, i));
    const actions: number[][] = seating.map(() => []);
    const logp: number[][] = seating.map(() => []);
    const value: number[][] = seating.map(() => []);
    const out: (ChunkGame | null)[] = seating.map(() => null);
    let left = n;

    const step = (i: number, a: number) => {
      actions[i].push(a);
      const end = games.stepGame(i, a);
      if (!end) return;
      out[i] = {
        recorded: seating[i].recorded, label: seating[i].label, scores: end.scores,
        actions: Uint8Array.from(actions[i]), logp: Float32Array.from(logp[i]), value: Float32Array.from(value[i]),
      };
      left--;
    };
    /** Plays game i on until a net-controlled seat has a real choice (or the game ends). */
    const advance = (i: number) => {
      while (out[i] === null) {
        const env = games.game(i);
        const seat = env.actor;
        const legal = env.legalActions();
        const c = seating[i].controllers[seat];
        if (legal.length > 1 && c.kind !== 'agent') return;
        const a = legal.length === 1 ? legal[0] : (c as { agent: Agent }).agent.act(new EnvObservation(env, seat, legal));
        if (typeof a !== 'number') throw new Error('rollouts need synchronous agents in the opponent pool');
        step(i, a);
      }
    };
    const learnerEnvs: number[] = [];
    const bySnapshot = new Map<number, number[]>();
    while (left > 0) {
      learnerEnvs.length = 0;
      bySnapshot.clear();
      for (let i = 0; i < n; i++) {
        advance(i);
        if (out[i] !== null) continue;
        const c = seating[i].controllers[games.actors[i]];
        if (c.kind === 'learner') learnerEnvs.push(i);
        else if (c.kind === 'snapshot') {
          const list = bySnapshot.get(c.index) ?? [];
          list.push(i);
          bySnapshot.set(c.index, list);
        }
      }
      if (learnerEnvs.length > 0) {
        const r = this.forward(games, learnerEnvs, net, seating);
        learnerEnvs.forEach((i, j) => {
          const choice = sampleMasked(r.logits, this.mask, j, NUM_ACTIONS, rng);
          logp[i].push(choice.logp);
          value[i].push(r.values[j]);
          step(i, choice.action);
        });
      }
      for (const [index, envs] of bySnapshot) {
        const { logits } = this.forward(games, envs, snapshots[index], seating);
        envs.forEach((i, j) => step(i, sampleMasked(logits, this.mask, j, NUM_ACTIONS, rng).action));
      }
    }
    return out as ChunkGame[];
  }

  private forward(games: VectorEnv, envs: number[], net: TfNet, seating: { inputs: (SeatInput | null)[] }[]) {
    const width = net.shape.inputs;
    envs.forEach((i, j) => {
      games.writeObservation(i, this.obs, j * width, this.mask, j * NUM_ACTIONS);
      if (!net.shape.advice) return;
      const env = games.game(i);
      const seat = env.actor;
      seating[i].inputs[seat]!.writeAdvice(new EnvObservation(env, seat), this.obs, j * width);
    });
    return infer(net, this.obs.subarray(0, envs.length * width), envs.length);
  }

  /** Draws the controllers of one game's seats from the pool. */
  private seat(spec: ChunkSpec, gameSeed: string, rng: RngState, slot: number) {
    const { players, pool } = spec;
    const total = pool.reduce((s, e) => s + e.weight, 0);
    const draw = (): PoolEntry => {
      let u = nextFloat(rng) * total;
      for (const e of pool) {
        if (u < e.weight) return e;
        u -= e.weight;
      }
      return pool[pool.length - 1];
    };
    const learner = randInt(rng, players);
    const names = new Set<string>();
    const controllers = Array.from({ length: players }, (_, seat): Controller => {
      if (seat === learner) return { kind: 'learner' };
      const e = draw();
      names.add(e.name);
      if (e.name === 'self' || (e.name === 'past' && spec.snapshots === 0)) return { kind: 'learner' };
      if (e.name === 'past') return { kind: 'snapshot', index: randInt(rng, spec.snapshots) };
      const agent = this.agentFor(e.name, seat);
      agent.reset?.({ seat, players, seed: agentSeed(gameSeed, seat), ruleset: spec.ruleset });
      return { kind: 'agent', agent };
    });
    const recorded = controllers.flatMap((c, seat) => (c.kind === 'learner' ? [seat] : []));
    // Seats a net plays read its input, the adviser's choice with it where the net has one.
    const inputs = controllers.map((c, seat) => (c.kind === 'agent' ? null : this.inputs!.start(slot, seat, agentSeed(gameSeed, seat), spec.ruleset)));
    return { controllers, recorded, inputs, label: names.size === 1 ? [...names][0] : 'mixed' };
  }
}

/**
 * What a table critic reads beyond the seat's observation: every other seat's hand, by card
 * type (/ 4, as the observation scales its own), in slots relative to the seat (slot k − 1 is
 * the seat k places to its left; slots past the table are zero). Training only: it is never a
 * seat's input, and no policy reads it.
 */
export const HIDDEN_HANDS_WIDTH = (MAX_PLAYERS - 1) * HAND_TYPES;

export function writeHiddenHands(s: Readonly<GameState>, seat: number, players: number, out: Float32Array, offset: number): void {
  out.fill(0, offset, offset + HIDDEN_HANDS_WIDTH);
  for (let k = 1; k < players; k++) {
    const other = (seat + k) % players;
    for (let t = 0; t < HAND_TYPES; t++) out[offset + (k - 1) * HAND_TYPES + t] = s.hand[other * HAND_TYPES + t] / 4;
  }
}

/** One seat's decisions in one game (the buffer's rows, in order) and the reward on the last. */
export interface Episode {
  rows: number[];
  reward: number;
}

/** Learner decisions, row by row: what one PPO update trains on. */
export class RolloutBuffer {
  obs = new Float32Array(0);
  /** With a table critic: each row's hidden hands (HIDDEN_HANDS_WIDTH floats), else empty. */
  hidden = new Float32Array(0);
  /** The seats' episodes, for advantages computed anew from another baseline. */
  readonly episodes: Episode[] = [];
  mask = new Uint8Array(0);
  action = new Int32Array(0);
  logp = new Float32Array(0);
  value = new Float32Array(0);
  adv = new Float32Array(0);
  ret = new Float32Array(0);
  size = 0;

  /** `width`: floats per row of `obs`, the net's input (netInputs); `hiddenHands`: also record what a table critic reads. */
  constructor(capacity = 1024, readonly width = OBS_SIZE, readonly hiddenHands = false) {
    this.grow(capacity);
  }

  clear(): void {
    this.size = 0;
    this.episodes.length = 0;
  }

  /** Appends a row (growing the arrays as needed) and returns its index. */
  push(): number {
    if (this.size === this.action.length) this.grow(2 * this.action.length);
    return this.size++;
  }

  private grow(capacity: number): void {
    const widen = <T extends Float32Array | Uint8Array | Int32Array>(a: T, make: (n: number) => T, width: number): T => {
      const b = make(capacity * width);
      b.set(a.subarray(0, this.size * width));
      return b;
    };
    this.obs = widen(this.obs, (k) => new Float32Array(k), this.width);
    if (this.hiddenHands) this.hidden = widen(this.hidden, (k) => new Float32Array(k), HIDDEN_HANDS_WIDTH);
    this.mask = widen(this.mask, (k) => new Uint8Array(k), NUM_ACTIONS);
    this.action = widen(this.action, (k) => new Int32Array(k), 1);
    this.logp = widen(this.logp, (k) => new Float32Array(k), 1);
    this.value = widen(this.value, (k) => new Float32Array(k), 1);
    this.adv = widen(this.adv, (k) => new Float32Array(k), 1);
    this.ret = widen(this.ret, (k) => new Float32Array(k), 1);
  }
}

/** What a rollout's games came to, for the log. */
export interface RolloutStats {
  /** Env steps taken by every seat (the learner's, snapshots', scripted agents'). */
  envSteps: number;
  games: number;
  /** Learner seats' mean terminal reward and win share. */
  meanReturn: number;
  winShare: number;
  /** Mean win share of learner seats by the pool entry of the other seats (games against one kind only). */
  winShareVs: Record<string, number>;
}

/** Adds up chunks' games into RolloutStats. */
export class RolloutTally {
  private envSteps = 0;
  private games = 0;
  private returnSum = 0;
  private winSum = 0;
  private seats = 0;
  private readonly vs = new Map<string, [number, number]>();

  add(label: string, envSteps: number, recorded: readonly number[], scores: readonly number[], returns: readonly number[]): void {
    const wins = terminalRewards('win', scores);
    this.envSteps += envSteps;
    this.games++;
    for (const seat of recorded) {
      this.returnSum += returns[seat];
      this.winSum += wins[seat];
      this.seats++;
      const vs = this.vs.get(label) ?? [0, 0];
      this.vs.set(label, [vs[0] + wins[seat], vs[1] + 1]);
    }
  }

  stats(): RolloutStats {
    return {
      envSteps: this.envSteps,
      games: this.games,
      meanReturn: this.seats > 0 ? this.returnSum / this.seats : NaN,
      winShare: this.seats > 0 ? this.winSum / this.seats : NaN,
      winShareVs: Object.fromEntries([...this.vs].map(([k, [w, c]]) => [k, w / c])),
    };
  }
}

/**
 * Replays a chunk's games from its spec, in order, appending every recorded decision to
 * `buffer` with its observation, mask, action, log-probability, value, advantage and return;
 * with `upTo`, stops after the game that brings the buffer to that many rows (the rest are not
 * used). Returns the games used. A game that does not replay as sent (an illegal action, a
 * different end) is an error naming it.
 */
export function replayChunk(
  spec: ChunkSpec, games: readonly ChunkGame[], buffer: RolloutBuffer, gamma: number, lambda: number, tally: RolloutTally, upTo = Infinity,
  shape?: NetShape,
): number {
  if (games.length !== spec.games) throw new Error(`chunk ${spec.seed}: ${games.length} games sent, ${spec.games} played`);
  const env = new VectorEnv({ numEnvs: spec.games, players: spec.players, seed: spec.seed, ruleset: spec.ruleset, reward: spec.reward, observe: false });
  env.reset();
  const width = buffer.width;
  if ((shape?.inputs ?? OBS_SIZE) !== width) throw new Error(`replay: a buffer of ${width}-float rows for a net of ${shape?.inputs ?? OBS_SIZE} inputs`);
  // The recorded seats' inputs, rebuilt as the player wrote them (their advisers asked at the same decisions).
  const inputs = shape?.advice ? new SeatInputs(shape, spec.players) : null;
  let used = 0;
  for (const [i, g] of games.entries()) {
    if (buffer.size >= upTo) break;
    used++;
    const fail = (why: string) => new Error(`chunk ${spec.seed} game ${i} does not replay (${why}): was it played on another engine version?`);
    const open: number[][] = Array.from({ length: spec.players }, () => []);
    const recorded = new Set(g.recorded);
    const seatInputs = Array.from({ length: spec.players }, (_, seat) => (inputs && recorded.has(seat) ? inputs.start(0, seat, agentSeed(env.seedOf(i), seat), spec.ruleset) : null));
    let k = 0;
    let end = null;
    for (let t = 0; t < g.actions.length; t++) {
      if (end) throw fail('actions after the end');
      const game = env.game(i);
      const seat = game.actor;
      if (recorded.has(seat) && game.legalActions().length > 1) {
        if (k >= g.logp.length) throw fail('more recorded decisions than log-probabilities');
        const r = buffer.push();
        env.writeObservation(i, buffer.obs, r * width, buffer.mask, r * NUM_ACTIONS);
        seatInputs[seat]?.writeAdvice(new EnvObservation(game, seat), buffer.obs, r * width);
        if (buffer.hiddenHands) writeHiddenHands(env.stateOf(i), seat, spec.players, buffer.hidden, r * HIDDEN_HANDS_WIDTH);
        buffer.action[r] = g.actions[t];
        buffer.logp[r] = g.logp[k];
        buffer.value[r] = g.value[k];
        k++;
        open[seat].push(r);
      }
      try {
        end = env.stepGame(i, g.actions[t]);
      } catch (e) {
        throw fail((e as Error).message);
      }
    }
    if (!end) throw fail('the game did not end');
    if (k !== g.logp.length) throw fail(`${g.logp.length} log-probabilities for ${k} recorded decisions`);
    if (end.scores.some((s, seat) => s !== g.scores[seat])) throw fail(`scores ${end.scores.join(',')}, sent ${g.scores.join(',')}`);
    for (const seat of g.recorded) {
      finalise(buffer, open[seat], end.returns[seat], gamma, lambda);
      if (open[seat].length > 0) buffer.episodes.push({ rows: open[seat], reward: end.returns[seat] });
    }
    tally.add(g.label, g.actions.length, g.recorded, end.scores, end.returns);
  }
  return used;
}

function sameShape(a: NetShape, b: NetShape): boolean {
  return a.inputs === b.inputs && a.advice === b.advice;
}

/** Advantages and returns of one seat's decisions in a finished game: the reward on the last. */
function finalise(b: RolloutBuffer, rows: number[], reward: number, gamma: number, lambda: number): void {
  episodeGae(rows, reward, b.value, gamma, lambda, b.adv, b.ret);
}

/** GAE over one episode's rows with the baseline `values` (by row), into `adv` and `ret` (by row). */
export function episodeGae(rows: readonly number[], reward: number, values: Float32Array, gamma: number, lambda: number, adv: Float32Array, ret: Float32Array): void {
  if (rows.length === 0) return;
  const v = rows.map((r) => values[r]);
  const rewards = rows.map((_, k) => (k === rows.length - 1 ? reward : 0));
  const a = new Float32Array(rows.length);
  const g = new Float32Array(rows.length);
  gae(rewards, v, 0, gamma, lambda, a, g);
  rows.forEach((r, k) => {
    adv[r] = a[k];
    ret[r] = g[k];
  });
}

/**
 * One forward pass for k rows; returns the logits and values as plain arrays. The logits are
 * unmasked: sampleMasked reads only the legal ones, which a mask bias would leave unchanged.
 */
export function infer(net: TfNet, obs: Float32Array, k: number): { logits: Float32Array; values: Float32Array } {
  // Read the results outside tidy: tidy walks whatever it returns, typed arrays element by element.
  const { logits, value } = tf.tidy(() => net.forward(tf.tensor2d(obs, [k, net.shape.inputs])));
  const out = { logits: logits.dataSync() as Float32Array, values: value.dataSync() as Float32Array };
  logits.dispose();
  value.dispose();
  return out;
}
