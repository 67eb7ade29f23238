/**
 * The policy network's weights in plain Float32Arrays, their seeded initialisation, and a
 * plain-JavaScript forward pass (`JsNet`) for one observation at a time. The `ppo` agent
 * plays with JsNet, so it needs no TensorFlow.js backend and runs synchronously anywhere,
 * tournament workers included; the trainer runs the same weights batched on tf (training/net.ts).
 *
 * The net: an MLP trunk (tanh) shared by a policy head (one logit per action; illegal
 * actions are masked) and a value head.
 */
import { nextFloat, seedRng } from '../env/rng.ts';

export interface NetShape {
  inputs: number;
  hidden: number[];
  actions: number;
}

/** Layers in order: trunk layers, then the policy head, then the value head. */
export interface NetWeights {
  shape: NetShape;
  layers: { w: Float32Array; b: Float32Array; rows: number; cols: number }[];
}

/** Logit given to illegal actions: exp of it underflows to exactly 0 in float32, and 0 · it stays finite (−∞ would give NaN). */
export const MASKED_LOGIT = -1e9;

function normal(rng: ReturnType<typeof seedRng>): number {
  const u = Math.max(nextFloat(rng), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * nextFloat(rng));
}

/**
 * Seeded initial weights (drawn with the env's generator, so they are the same on every
 * backend): scaled normal with gain √2 in the trunk, 0.01 for the policy head (a near-uniform
 * first policy) and 1 for the value head, as CleanRL's PPO initialises them; zero biases.
 */
export function initWeights(shape: NetShape, seed: string | number): NetWeights {
  const rng = seedRng(`net/${seed}`);
  const dims = [shape.inputs, ...shape.hidden];
  const layers: NetWeights['layers'] = [];
  const make = (rows: number, cols: number, gain: number) => {
    const w = new Float32Array(rows * cols);
    const sd = gain / Math.sqrt(rows);
    for (let i = 0; i < w.length; i++) w[i] = sd * normal(rng);
    layers.push({ w, b: new Float32Array(cols), rows, cols });
  };
  for (let i = 0; i + 1 < dims.length; i++) make(dims[i], dims[i + 1], Math.SQRT2);
  const last = dims[dims.length - 1];
  make(last, shape.actions, 0.01);
  make(last, 1, 1);
  return { shape, layers };
}

export function countParams(w: NetWeights): number {
  return w.layers.reduce((n, l) => n + l.w.length + l.b.length, 0);
}

/**
 * Plain-JS forward pass for one observation: writes the masked logits into `logits` and
 * returns the value. Scratch buffers are reused across calls.
 */
export class JsNet {
  private readonly bufs: Float32Array[];
  private readonly value = new Float32Array(1);

  constructor(readonly weights: NetWeights) {
    this.bufs = weights.shape.hidden.map((n) => new Float32Array(n));
  }

  forward(x: ArrayLike<number>, mask: ArrayLike<number>, logits: Float32Array): number {
    const { layers, shape } = this.weights;
    let h: ArrayLike<number> = x;
    for (let i = 0; i < shape.hidden.length; i++) {
      affine(layers[i], h, this.bufs[i]);
      const out = this.bufs[i];
      for (let j = 0; j < out.length; j++) out[j] = Math.tanh(out[j]);
      h = out;
    }
    const trunk = shape.hidden.length;
    affine(layers[trunk], h, logits);
    for (let a = 0; a < logits.length; a++) if (!mask[a]) logits[a] = MASKED_LOGIT;
    affine(layers[trunk + 1], h, this.value);
    return this.value[0];
  }
}

function affine(l: NetWeights['layers'][number], x: ArrayLike<number>, out: Float32Array): void {
  out.set(l.b);
  const { w, cols } = l;
  for (let r = 0; r < l.rows; r++) {
    const xr = x[r];
    if (xr === 0) continue; // observations are sparse
    const base = r * cols;
    for (let c = 0; c < cols; c++) out[c] += xr * w[base + c];
  }
}
