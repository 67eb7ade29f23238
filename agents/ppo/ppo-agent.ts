/**
 * `ppo`: plays a policy trained by `czech-pub train` (training/). The net runs in plain
 * JavaScript (policy/weights.ts), so the agent needs no TensorFlow.js backend and plays
 * synchronously anywhere: tournaments, worker threads, the server.
 *
 *   ppo                      the models shipped in models/ (argmax): ppo-{P}p.json for a table
 *                            of P players where there is one, else ppo-4p.json
 *   ppo:<checkpoint.json>    a checkpoint file (a run's model.json, or any saved policy)
 *   …:sample=true            sample from the policy instead of taking its most likely action
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_RULESET, NUM_ACTIONS, seedRng, type RngState } from '../../env/index.ts';
import { argmaxMasked, JsNet, loadCheckpoint, logProb, sampleMasked, type Checkpoint } from '../../policy/index.ts';
import { rulesetMismatch, type Agent, type AgentObservation, type GameStart } from '../agent.ts';
import { SeatInput } from './input.ts';

/**
 * The shipped models' folder: models/ two folders up from this module in a checkout
 * (agents/ppo/) and in the compiled package (dist/agents/ppo/, where build-package.mjs copies
 * them to dist/models/), and models/ beside the single-file engine, whose modules all have its
 * URL (scripts/bundle-bridge.mjs copies them there).
 */
const MODELS = ['../../models/', './models/'].map((rel) => new URL(rel, import.meta.url)).find((dir) => fs.existsSync(new URL('ppo-4p.json', dir))) ?? new URL('../../models/', import.meta.url);

/** The model that `ppo` alone plays at a table size without a model of its own. */
export const DEFAULT_MODEL = fileURLToPath(new URL('ppo-4p.json', MODELS));

/** The shipped model for a table of `players`: its own if one was shipped, else DEFAULT_MODEL. */
export function shippedModel(players: number): string {
  const own = fileURLToPath(new URL(`ppo-${players}p.json`, MODELS));
  return fs.existsSync(own) ? own : DEFAULT_MODEL;
}

const cache = new Map<string, Checkpoint>();

/** Loads (once per process) and checks a checkpoint, trained under any ruleset: the agent refuses to play under another. */
export function loadPolicy(file: string): Checkpoint {
  let c = cache.get(file);
  if (!c) cache.set(file, (c = loadCheckpoint(file, null)));
  return c;
}

/**
 * The net a policy agent plays a game with: refuses a game under other rules than its
 * checkpoint's (callers check before a game, tournaments and the server's catalogue; this is
 * the last line), and for the shipped models takes the table size's own (`bySize`).
 */
export function netForGame(agent: Agent, game: GameStart, net: JsNet, bySize?: (players: number) => Pick<Checkpoint, 'weights'>): JsNet {
  const mismatch = rulesetMismatch(agent, game.ruleset ?? DEFAULT_RULESET);
  if (mismatch) throw new Error(mismatch);
  if (!bySize) return net;
  const weights = bySize(game.players).weights;
  return weights === net.weights ? net : new JsNet(weights);
}

export class PpoAgent implements Agent {
  private net: JsNet;
  private readonly logits = new Float32Array(NUM_ACTIONS);
  private rng: RngState = seedRng('ppo');
  private input: SeatInput;
  /** The ruleset its checkpoint was trained under (none for a net being trained). */
  readonly rulesetFingerprint?: string;

  constructor(
    readonly spec: string,
    checkpoint: Pick<Checkpoint, 'weights'> & Partial<Pick<Checkpoint, 'env'>>,
    private readonly sample = false,
    /** For the shipped `ppo`: the checkpoint for a table of this many players (at each reset). */
    private readonly bySize?: (players: number) => Pick<Checkpoint, 'weights'>,
  ) {
    this.net = new JsNet(checkpoint.weights);
    this.input = new SeatInput(checkpoint.weights.shape);
    this.rulesetFingerprint = checkpoint.env?.ruleset.fingerprint;
  }

  reset(game: GameStart): void {
    this.net = netForGame(this, game, this.net, this.bySize);
    if (this.input.shape !== this.net.weights.shape) this.input = new SeatInput(this.net.weights.shape);
    this.input.reset(game.seat, game.players, game.seed, game.ruleset);
    this.rng = seedRng(`ppo/${game.seed}`);
  }
  act(obs: AgentObservation): number {
    const legal = obs.legalActions;
    if (legal.length === 1) return legal[0];
    const mask = obs.mask;
    this.net.logitsOf(this.input.input(obs), mask, this.logits);
    // The trainer's own masked policy (policy/masked.ts), so play matches what was trained.
    return this.sample ? sampleMasked(this.logits, mask, 0, NUM_ACTIONS, this.rng).action : argmaxMasked(this.logits, mask, 0, NUM_ACTIONS);
  }

  /**
   * The policy at `obs`, asked as `act` asks it (the agent's state moves on the same): its most
   * likely action and every legal action's probability, most likely first (ties by id).
   */
  /** What `act` draws from: the policy's distribution when it samples, else certainty on its most likely action. */
  probabilities(obs: AgentObservation): number[] {
    const { action, ranked } = this.policy(obs);
    if (!this.sample) return obs.legalActions.map((a) => (a === action ? 1 : 0));
    const p = new Map(ranked.map((r) => [r.id, r.p]));
    return obs.legalActions.map((a) => p.get(a)!);
  }

  policy(obs: AgentObservation): { action: number; ranked: { id: number; p: number }[] } {
    const legal = obs.legalActions;
    if (legal.length === 1) return { action: legal[0], ranked: [{ id: legal[0], p: 1 }] };
    const mask = obs.mask;
    this.net.logitsOf(this.input.input(obs), mask, this.logits);
    const ranked = legal.map((id) => ({ id, p: Math.exp(logProb(this.logits, mask, 0, NUM_ACTIONS, id)) })).sort((x, y) => y.p - x.p || x.id - y.id);
    return { action: argmaxMasked(this.logits, mask, 0, NUM_ACTIONS), ranked };
  }
}
