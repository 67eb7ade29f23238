/**
 * `ppo`: plays a policy trained by `czech-pub train` (training/). The net runs in plain
 * JavaScript (training/weights.ts), so the agent needs no TensorFlow.js backend and plays
 * synchronously anywhere: tournaments, worker threads, the server.
 *
 *   ppo                      the model shipped in models/ (argmax)
 *   ppo:<checkpoint.json>    a checkpoint file (a run's model.json, or any saved policy)
 *   …:sample=true            sample from the policy instead of taking its most likely action
 */
import { fileURLToPath } from 'node:url';
import { NUM_ACTIONS } from '../../env/actions.ts';
import { nextFloat, seedRng, type RngState } from '../../env/rng.ts';
import { loadCheckpoint, type Checkpoint } from '../../training/checkpoint.ts';
import { JsNet } from '../../training/weights.ts';
import type { Agent, AgentObservation, GameStart } from '../agent.ts';

/** The model that `ppo` alone names. */
export const DEFAULT_MODEL = fileURLToPath(new URL('../../models/ppo-4p.json', import.meta.url));

const cache = new Map<string, Checkpoint>();

/** Loads (once per process) and checks a checkpoint. */
export function loadPolicy(file: string): Checkpoint {
  let c = cache.get(file);
  if (!c) cache.set(file, (c = loadCheckpoint(file)));
  return c;
}

export class PpoAgent implements Agent {
  private readonly net: JsNet;
  private readonly logits = new Float32Array(NUM_ACTIONS);
  private rng: RngState = seedRng('ppo');

  constructor(
    readonly spec: string,
    checkpoint: Pick<Checkpoint, 'weights'>,
    private readonly sample = false,
  ) {
    this.net = new JsNet(checkpoint.weights);
  }

  reset(game: GameStart): void {
    this.rng = seedRng(`ppo/${game.seed}`);
  }

  act(obs: AgentObservation): number {
    const legal = obs.legalActions;
    if (legal.length === 1) return legal[0];
    const logits = this.logits;
    this.net.forward(obs.encoding, obs.mask, logits);
    if (!this.sample) {
      let best = legal[0];
      for (const a of legal) if (logits[a] > logits[best]) best = a;
      return best;
    }
    let max = -Infinity;
    for (const a of legal) max = Math.max(max, logits[a]);
    let total = 0;
    for (const a of legal) total += Math.exp(logits[a] - max);
    let u = nextFloat(this.rng) * total;
    for (const a of legal) {
      u -= Math.exp(logits[a] - max);
      if (u < 0) return a;
    }
    return legal[legal.length - 1];
  }
}
