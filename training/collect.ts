/**
 * Self-play rollouts: `numEnvs` games played side by side. At each new game every seat is
 * given a controller drawn from the opponent pool: the learner (the current policy, whose
 * decisions are recorded for training), a frozen past snapshot of it, or a scripted agent.
 * One seat is always the learner.
 *
 * The games are a VectorEnv (env/vector.ts) stepped one game at a time, which restarts each
 * finished game with the next seed of its slot. Each round, every game is played on
 * (scripted seats act at once) until a seat that needs the net must decide; then one
 * batched forward pass serves every game waiting on the learner, and one per snapshot. A seat's trajectory is its own decisions; when a game ends
 * each learner seat's last decision gets its terminal reward and its advantages are computed
 * (gae.ts). Decisions of games still going when a rollout ends are finalised up to the
 * seat's latest decision, which bootstraps them and is carried into the next rollout.
 */
import * as tf from '@tensorflow/tfjs-core';
import { NUM_ACTIONS } from '../env/actions.ts';
import type { Ruleset } from '../env/ruleset.ts';
import { OBS_SIZE } from '../env/observation/encode.ts';
import { terminalRewards, type RewardScheme } from '../env/rewards.ts';
import { randInt, seedRng, type RngState, nextFloat } from '../env/rng.ts';
import { VectorEnv, type EpisodeResult } from '../env/vector.ts';
import type { Agent } from '../agents/agent.ts';
import { EnvObservation } from '../agents/observation.ts';
import { createAgent } from '../agents/default-registry.ts';
import { gae } from './gae.ts';
import type { TfNet } from './net.ts';
import { sampleMasked } from '../policy/masked.ts';

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

type Controller = { kind: 'learner' } | { kind: 'snapshot'; index: number } | { kind: 'agent'; agent: Agent };

export interface CollectOptions {
  numEnvs: number;
  players: number;
  seed: string | number;
  /** The rules every training game is played under (default: the standard rules). */
  ruleset?: Ruleset;
  pool: PoolEntry[];
  reward: RewardScheme;
  gamma: number;
  lambda: number;
  /** Learner decisions each `collect()` records at least. */
  minSteps: number;
}

/** What one rollout produced, for the log. */
export interface RolloutStats {
  /** Env steps taken by every seat (the learner's, snapshots', scripted agents'). */
  envSteps: number;
  games: number;
  /** Learner seats' mean terminal reward and win share in the games that ended. */
  meanReturn: number;
  winShare: number;
  /** Mean win share of learner seats by the pool entry of the other seats (games against one kind only). */
  winShareVs: Record<string, number>;
}

/** Learner decisions, row by row. */
export class RolloutBuffer {
  readonly obs: Float32Array;
  readonly mask: Uint8Array;
  readonly action: Int32Array;
  readonly logp: Float32Array;
  readonly value: Float32Array;
  readonly adv: Float32Array;
  readonly ret: Float32Array;
  /** Rows whose advantages are final, in the order they were finalised. */
  ready: number[] = [];
  size = 0;

  constructor(readonly capacity: number) {
    this.obs = new Float32Array(capacity * OBS_SIZE);
    this.mask = new Uint8Array(capacity * NUM_ACTIONS);
    this.action = new Int32Array(capacity);
    this.logp = new Float32Array(capacity);
    this.value = new Float32Array(capacity);
    this.adv = new Float32Array(capacity);
    this.ret = new Float32Array(capacity);
  }

  /** Moves `rows` to the front (in order) and drops the rest; returns each kept row's new index by its old one. */
  keepOnly(rows: number[]): Map<number, number> {
    rows.forEach((from, to) => {
      if (from === to) return;
      this.obs.copyWithin(to * OBS_SIZE, from * OBS_SIZE, (from + 1) * OBS_SIZE);
      this.mask.copyWithin(to * NUM_ACTIONS, from * NUM_ACTIONS, (from + 1) * NUM_ACTIONS);
      this.action[to] = this.action[from];
      this.logp[to] = this.logp[from];
      this.value[to] = this.value[from];
    });
    this.size = rows.length;
    this.ready = [];
    return new Map(rows.map((from, to) => [from, to]));
  }
}

export class Collector {
  readonly buffer: RolloutBuffer;
  private readonly games: VectorEnv;
  private readonly controllers: Controller[][] = [];
  private readonly labels: string[] = [];
  /** Per game and seat: buffer rows of the learner's decisions not yet finalised. */
  private readonly open: number[][][] = [];
  private readonly rng: RngState;
  private readonly agents = new Map<string, Agent[]>();
  /** Frozen snapshots `past` draws among: those the latest collect() was given. */
  private snapshots = 0;
  private readonly scratchObs: Float32Array;
  private readonly scratchMask: Uint8Array;
  private stats = this.freshStats();

  constructor(private readonly opts: CollectOptions) {
    // Rows for a rollout, its overshoot (one round) and the carried decisions of open games.
    this.buffer = new RolloutBuffer(opts.minSteps + opts.numEnvs * (opts.players + 1));
    this.rng = seedRng(`collect/${opts.seed}`);
    this.scratchObs = new Float32Array(opts.numEnvs * OBS_SIZE);
    this.scratchMask = new Uint8Array(opts.numEnvs * NUM_ACTIONS);
    // Observations are written only for the net's decisions, straight into the rollout buffer.
    this.games = new VectorEnv({ numEnvs: opts.numEnvs, players: opts.players, seed: `${opts.seed}/train`, ruleset: opts.ruleset, reward: opts.reward, observe: false });
    this.games.reset();
    for (let i = 0; i < opts.numEnvs; i++) {
      this.controllers.push([]);
      this.labels.push('');
      this.open.push([]);
      this.newGame(i);
    }
  }

  private agentFor(spec: string, seat: number): Agent {
    let list = this.agents.get(spec);
    if (!list) this.agents.set(spec, (list = []));
    // One instance per seat, so agents that keep per-game state never share it.
    while (list.length <= seat) list.push(createAgent(spec));
    return list[seat];
  }

  private draw(): PoolEntry {
    const pool = this.opts.pool;
    let u = nextFloat(this.rng) * pool.reduce((s, e) => s + e.weight, 0);
    for (const e of pool) {
      if (u < e.weight) return e;
      u -= e.weight;
    }
    return pool[pool.length - 1];
  }

  /** Seats the game now in slot i: its controllers, drawn from the pool. */
  private newGame(i: number): void {
    const { players } = this.opts;
    const gameSeed = this.games.seedOf(i);
    const learner = randInt(this.rng, players);
    const names = new Set<string>();
    this.controllers[i] = Array.from({ length: players }, (_, seat): Controller => {
      if (seat === learner) return { kind: 'learner' };
      const e = this.draw();
      names.add(e.name);
      if (e.name === 'self' || (e.name === 'past' && this.snapshots === 0)) return { kind: 'learner' };
      if (e.name === 'past') return { kind: 'snapshot', index: randInt(this.rng, this.snapshots) };
      const agent = this.agentFor(e.name, seat);
      agent.reset?.({ seat, players, seed: `${gameSeed}/seat${seat}`, ruleset: this.opts.ruleset });
      return { kind: 'agent', agent };
    });
    this.labels[i] = names.size === 1 ? [...names][0] : 'mixed';
    this.open[i] = Array.from({ length: players }, () => []);
  }

  private freshStats() {
    return { envSteps: 0, games: 0, returnSum: 0, winSum: 0, seats: 0, vs: new Map<string, [number, number]>() };
  }

  /** Finalises rows of one seat's run: rewards only on the last, if the game ended. */
  private finalise(rows: number[], reward: number, bootstrap: number): void {
    const b = this.buffer;
    const values = rows.map((r) => b.value[r]);
    const rewards = rows.map((_, k) => (k === rows.length - 1 ? reward : 0));
    const adv = new Float32Array(rows.length);
    const ret = new Float32Array(rows.length);
    gae(rewards, values, bootstrap, this.opts.gamma, this.opts.lambda, adv, ret);
    rows.forEach((r, k) => {
      b.adv[r] = adv[k];
      b.ret[r] = ret[k];
      b.ready.push(r);
    });
  }

  private endGame(i: number, result: EpisodeResult): void {
    const { scores, returns } = result;
    const wins = terminalRewards('win', scores);
    const s = this.stats;
    s.games++;
    this.controllers[i].forEach((c, seat) => {
      if (c.kind !== 'learner') return;
      this.finalise(this.open[i][seat], returns[seat], 0);
      s.returnSum += returns[seat];
      s.winSum += wins[seat];
      s.seats++;
      const vs = s.vs.get(this.labels[i]) ?? [0, 0];
      s.vs.set(this.labels[i], [vs[0] + wins[seat], vs[1] + 1]);
    });
    this.newGame(i);
  }

  /** Steps game i; a game that ends is scored and the next one in its slot seated. */
  private step(i: number, action: number): void {
    const result = this.games.stepGame(i, action);
    this.stats.envSteps++;
    if (result) this.endGame(i, result);
  }

  /** Plays game i on until a net-controlled seat has a real choice. */
  private advance(i: number): void {
    for (;;) {
      const env = this.games.game(i);
      const seat = env.currentPlayer;
      const legal = env.legalActions();
      const c = this.controllers[i][seat];
      if (legal.length > 1 && c.kind !== 'agent') return;
      const a = legal.length === 1 ? legal[0] : (c as { agent: Agent }).agent.act(new EnvObservation(env, seat, legal));
      if (typeof a !== 'number') throw new Error('rollouts need synchronous agents in the opponent pool');
      this.step(i, a);
    }
  }

  /**
   * Plays until at least `minSteps` learner decisions are recorded since the last call, and
   * finalises everything that can be. Returns the rows ready for training (buffer.ready).
   */
  collect(net: TfNet, snapshots: readonly TfNet[]): RolloutStats {
    this.snapshots = snapshots.length;
    const { numEnvs: n, minSteps } = this.opts;
    const b = this.buffer;
    const learnerEnvs: number[] = [];
    const bySnapshot = new Map<number, number[]>();
    let recorded = 0;
    while (recorded < minSteps) {
      learnerEnvs.length = 0;
      bySnapshot.clear();
      for (let i = 0; i < n; i++) {
        this.advance(i);
        const c = this.controllers[i][this.games.currentPlayer[i]];
        if (c.kind === 'learner') learnerEnvs.push(i);
        else if (c.kind === 'snapshot') {
          const list = bySnapshot.get(c.index) ?? [];
          list.push(i);
          bySnapshot.set(c.index, list);
        }
      }
      if (learnerEnvs.length > 0) {
        // The learner's rows are contiguous, so the batch is a view of the buffer.
        const r0 = b.size;
        const k = learnerEnvs.length;
        learnerEnvs.forEach((i, j) => this.games.writeObservation(i, b.obs, (r0 + j) * OBS_SIZE, b.mask, (r0 + j) * NUM_ACTIONS));
        const { logits, values } = infer(net, b.obs.subarray(r0 * OBS_SIZE, (r0 + k) * OBS_SIZE), k);
        const masks = b.mask.subarray(r0 * NUM_ACTIONS, (r0 + k) * NUM_ACTIONS);
        b.size += k;
        recorded += k;
        learnerEnvs.forEach((i, j) => {
          const r = r0 + j;
          const choice = sampleMasked(logits, masks, j, NUM_ACTIONS, this.rng);
          b.action[r] = choice.action;
          b.logp[r] = choice.logp;
          b.value[r] = values[j];
          // Recorded before the step, which may end the game and finalise the seat's rows.
          this.open[i][this.games.currentPlayer[i]].push(r);
          this.step(i, choice.action);
        });
      }
      for (const [index, envs] of bySnapshot) {
        const k = envs.length;
        envs.forEach((i, j) => this.games.writeObservation(i, this.scratchObs, j * OBS_SIZE, this.scratchMask, j * NUM_ACTIONS));
        const { logits } = infer(snapshots[index], this.scratchObs.subarray(0, k * OBS_SIZE), k);
        envs.forEach((i, j) => this.step(i, sampleMasked(logits, this.scratchMask, j, NUM_ACTIONS, this.rng).action));
      }
    }
    // Games still going: every decision but each seat's latest is final, bootstrapped by it.
    for (let i = 0; i < n; i++) {
      for (const rows of this.open[i]) {
        if (rows.length < 2) continue;
        const last = rows[rows.length - 1];
        this.finalise(rows.slice(0, -1), 0, b.value[last]);
        rows.splice(0, rows.length - 1);
      }
    }
    const s = this.stats;
    const out: RolloutStats = {
      envSteps: s.envSteps,
      games: s.games,
      meanReturn: s.seats > 0 ? s.returnSum / s.seats : NaN,
      winShare: s.seats > 0 ? s.winSum / s.seats : NaN,
      winShareVs: Object.fromEntries([...s.vs].map(([k, [w, c]]) => [k, w / c])),
    };
    this.stats = this.freshStats();
    return out;
  }

  /** After the update: keeps only the open games' carried decisions, renumbered. */
  startNextRollout(): void {
    const carried: number[] = [];
    for (const seats of this.open) for (const rows of seats) carried.push(...rows);
    carried.sort((a, b) => a - b);
    const index = this.buffer.keepOnly(carried);
    for (const seats of this.open) for (let s = 0; s < seats.length; s++) seats[s] = seats[s].map((r) => index.get(r)!);
  }
}

/**
 * One forward pass for k rows; returns the logits and values as plain arrays. The logits are
 * unmasked: sampleMasked reads only the legal ones, which a mask bias would leave unchanged.
 */
export function infer(net: TfNet, obs: Float32Array, k: number): { logits: Float32Array; values: Float32Array } {
  // Read the results outside tidy: tidy walks whatever it returns, typed arrays element by element.
  const { logits, value } = tf.tidy(() => net.forward(tf.tensor2d(obs, [k, OBS_SIZE])));
  const out = { logits: logits.dataSync() as Float32Array, values: value.dataSync() as Float32Array };
  logits.dispose();
  value.dispose();
  return out;
}
