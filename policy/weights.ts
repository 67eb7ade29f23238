/**
 * The policy network's weights in plain Float32Arrays, their seeded initialisation, and a
 * forward pass without TensorFlow.js (`JsNet`) for one observation at a time, its affine layers
 * in WebAssembly or plain JavaScript (policy/affine.ts: the same figures either way). The `ppo`
 * agent plays with JsNet, so it needs no TensorFlow.js backend and runs synchronously anywhere,
 * tournament workers included; the trainer runs the same weights batched on tf (training/net.ts).
 *
 * The net: an MLP trunk (tanh) shared by a policy head (one logit per action; illegal
 * actions are masked) and a value head.
 */
import { nextFloat, NUM_ACTIONS, OBS_SIZE, seedRng } from '../env/index.ts';
import { type Affine, type AffineKernel, affineLayers, type Layer } from './affine.ts';

/**
 * Agents whose choice a net may read as advice: the input is then the observation followed
 * by a one-hot over the actions of what that agent would play (agents/ppo/input.ts writes it).
 * A net with advice learns where to depart from its adviser instead of relearning all it knows.
 */
export const ADVISERS = ['heuristic'] as const;
export type Adviser = (typeof ADVISERS)[number];

export interface NetShape {
  inputs: number;
  hidden: number[];
  actions: number;
  /** The adviser whose choice follows the observation in the input; absent: the observation alone. */
  advice?: Adviser;
}

/**
 * A net with advice adds `gain` × the adviser's one-hot to its logits (a skip connection past
 * the trunk, one learned scalar kept as a last 1×1 layer): at this starting gain its most likely
 * action is the adviser's wherever the rest of the net has not learned otherwise, and sampling
 * still tries the others (about 1 decision in 7 at ten legal actions).
 */
export const ADVICE_GAIN_INIT = 4;

/** Input width of a net: the observation encoding, and the adviser's one-hot when it has one. */
export function netInputs(advice?: Adviser): number {
  return OBS_SIZE + (advice ? NUM_ACTIONS : 0);
}

/** Layers in order: trunk layers, then the policy head, then the value head, then (with advice) the 1×1 advice gain. */
export interface NetWeights {
  shape: NetShape;
  layers: Layer[];
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
  if (shape.advice) layers.push(gainLayer(ADVICE_GAIN_INIT));
  return { shape, layers };
}

function gainLayer(gain: number): Layer {
  return { w: Float32Array.of(gain), b: new Float32Array(1), rows: 1, cols: 1 };
}

/**
 * The same net reading `advice` as well: the first layer gets zero weights for the advice
 * inputs and the logits the advice gain, so it plays as before wherever the adviser's pull
 * (ADVICE_GAIN_INIT) does not outweigh its own preference. For fine-tuning a trained policy with advice.
 */
export function withAdvice(w: NetWeights, advice: Adviser): NetWeights {
  if (w.shape.advice) throw new Error(`the net already reads ${w.shape.advice}'s advice`);
  const inputs = netInputs(advice);
  const first = w.layers[0];
  const wide = new Float32Array(inputs * first.cols);
  wide.set(first.w);
  const layers = [{ ...first, w: wide, rows: inputs }, ...w.layers.slice(1), gainLayer(ADVICE_GAIN_INIT)];
  return { shape: { ...w.shape, inputs, advice }, layers };
}

export function countParams(w: NetWeights): number {
  return w.layers.reduce((n, l) => n + l.w.length + l.b.length, 0);
}

/**
 * Forward pass for one observation: writes the masked logits into `logits` and returns the
 * value. Scratch buffers are reused across calls. `kernel` chooses the affine layers' code
 * (default: WebAssembly where it is there); the figures are the same bit for bit.
 */
export class JsNet {
  private readonly bufs: Float32Array[];
  private readonly value = new Float32Array(1);
  private readonly affine: Affine;

  constructor(
    readonly weights: NetWeights,
    kernel?: AffineKernel,
  ) {
    this.bufs = weights.shape.hidden.map((n) => new Float32Array(n));
    this.affine = affineLayers(weights.layers, kernel);
  }

  /** The affine layers' code this net runs. */
  get kernel(): AffineKernel {
    return this.affine.kernel;
  }

  forward(x: ArrayLike<number>, mask: ArrayLike<number>, logits: Float32Array): number {
    const h = this.logitsOf(x, mask, logits);
    this.affine.run(this.weights.shape.hidden.length + 1, h, this.value);
    return this.value[0];
  }

  /**
   * The masked logits alone (what forward writes), without the value head: for a player, who
   * needs only its policy. Only the legal actions' logits are computed (the rest are masked
   * anyway), each summed in the order and float32 rounding of a full affine, so the figures
   * are the same bit for bit at a fraction of the head's cost (a few legal actions of 198).
   * Returns the trunk's last hidden layer (a scratch buffer).
   */
  logitsOf(x: ArrayLike<number>, mask: ArrayLike<number>, logits: Float32Array): ArrayLike<number> {
    const { layers, shape } = this.weights;
    const h = this.trunk(x);
    const trunk = shape.hidden.length;
    const { w, b, rows, cols } = layers[trunk];
    const gain = shape.advice ? layers[trunk + 2].w[0] : 0;
    for (let a = 0; a < logits.length; a++) {
      if (!mask[a]) {
        logits[a] = MASKED_LOGIT;
        continue;
      }
      let acc = b[a];
      for (let r = 0; r < rows; r++) {
        const hr = h[r];
        if (hr !== 0) acc = Math.fround(acc + hr * w[r * cols + a]);
      }
      logits[a] = shape.advice ? Math.fround(acc + gain * x[OBS_SIZE + a]) : acc;
    }
    return h;
  }

  /** The value alone (what forward returns), without the policy head's logits. */
  valueOf(x: ArrayLike<number>): number {
    const h = this.trunk(x);
    this.affine.run(this.weights.shape.hidden.length + 1, h, this.value);
    return this.value[0];
  }

  /** The trunk's last hidden layer for `x` (a scratch buffer). */
  private trunk(x: ArrayLike<number>): ArrayLike<number> {
    let h: ArrayLike<number> = x;
    for (let i = 0; i < this.weights.shape.hidden.length; i++) {
      this.affine.run(i, h, this.bufs[i]);
      const out = this.bufs[i];
      for (let j = 0; j < out.length; j++) out[j] = Math.tanh(out[j]);
      h = out;
    }
    return h;
  }
}
