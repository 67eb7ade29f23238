/**
 * The policy network on TensorFlow.js (`TfNet`), batched, for rollouts and the PPO update;
 * policy/weights.ts holds the same net in plain arrays. Dense layers use a custom gradient with
 * explicit transposes: the wasm backend runs `matMul` with a transpose flag ~15× slower than
 * a plain one, and tf's own dense gradient uses those flags.
 */
import * as tf from '@tensorflow/tfjs-core';
// tfjs-core alone registers no gradients; the full tfjs package registers them all (globally).
import '@tensorflow/tfjs';
import { OBS_SIZE } from '../env/index.ts';
import { MASKED_LOGIT, type NetShape, type NetWeights } from '../policy/index.ts';

type Dense = (x: tf.Tensor2D, w: tf.Variable | tf.Tensor2D, b: tf.Variable | tf.Tensor1D) => tf.Tensor2D;

/**
 * y = x·W + b, with a gradient of plain (untransposed-flag) matMuls. `inputGrad` false is for
 * the first layer: its input is the observation, which needs no gradient, so none is
 * computed (a third of that layer's backward pass).
 */
function makeDense(inputGrad: boolean): Dense {
  return tf.customGrad((...args: unknown[]) => {
    const [x, w, b, save] = args as [tf.Tensor2D, tf.Tensor2D, tf.Tensor1D, tf.GradSaveFunc];
    save([x, w]);
    return {
      value: tf.add(tf.matMul(x, w), b),
      gradFunc: (dy: tf.Tensor | tf.Tensor[], saved: tf.Tensor[]) => {
        const [xs, ws] = saved as [tf.Tensor2D, tf.Tensor2D];
        const g = dy as tf.Tensor2D;
        const dx = inputGrad ? tf.matMul(g, tf.transpose(ws)) : tf.zerosLike(xs);
        return [dx, tf.matMul(tf.transpose(xs), g), tf.sum(g, 0)];
      },
    };
  }) as Dense;
}

const customDense = makeDense(true);
const inputDense = makeDense(false);

function plainDense(x: tf.Tensor2D, w: tf.Variable | tf.Tensor2D, b: tf.Variable | tf.Tensor1D): tf.Tensor2D {
  return tf.add(tf.matMul(x, w as tf.Tensor2D), b);
}

/** Writes the additive mask for a batch: 0 for a legal action, MASKED_LOGIT for an illegal one. */
export function maskBias(mask: ArrayLike<number>, out: Float32Array = new Float32Array(mask.length)): Float32Array {
  for (let i = 0; i < mask.length; i++) out[i] = mask[i] ? 0 : MASKED_LOGIT;
  return out;
}

/** Copies row `from` of stored observations and masks into row `to` of a minibatch, the mask as an additive bias. */
export function gatherRow(obs: Float32Array, mask: Uint8Array, from: number, xs: Float32Array, bias: Float32Array, to: number, inputs: number, actions: number): void {
  xs.set(obs.subarray(from * inputs, (from + 1) * inputs), to * inputs);
  for (let a = 0; a < actions; a++) bias[to * actions + a] = mask[from * actions + a] ? 0 : MASKED_LOGIT;
}

/**
 * A trainable variable holding `initial`, which is then released: a variable shares its
 * initial tensor's data and counts a reference to it, so the tensor must be disposed too or
 * every net made leaks its weights (which, with a net made per rollout, ran the wasm heap out).
 */
function variable(initial: tf.Tensor): tf.Variable {
  const v = tf.variable(initial, true);
  initial.dispose();
  return v;
}

/**
 * The net's weights as tf variables, trained in place by the optimizer: the trunk's layers,
 * then the policy and value heads merged into one matrix (one matMul instead of two, the
 * value's being a single column), split again by `weights()`.
 */
export class TfNet {
  readonly shape: NetShape;
  readonly vars: tf.Variable[] = [];

  /** `plainDense` differentiates dense layers with tf's own gradient (transposed matMuls): a reference for benchmarks. */
  constructor(weights: NetWeights, private readonly plainDense = false) {
    this.shape = weights.shape;
    const trunk = weights.shape.hidden.length;
    for (const l of weights.layers.slice(0, trunk)) this.vars.push(variable(tf.tensor2d(l.w, [l.rows, l.cols])), variable(tf.tensor1d(l.b)));
    const pi = weights.layers[trunk];
    const v = weights.layers[trunk + 1];
    const cols = pi.cols + 1;
    const w = new Float32Array(pi.rows * cols);
    for (let r = 0; r < pi.rows; r++) {
      w.set(pi.w.subarray(r * pi.cols, (r + 1) * pi.cols), r * cols);
      w[r * cols + pi.cols] = v.w[r];
    }
    const b = new Float32Array(cols);
    b.set(pi.b);
    b[pi.cols] = v.b[0];
    this.vars.push(variable(tf.tensor2d(w, [pi.rows, cols])), variable(tf.tensor1d(b)));
    if (weights.shape.advice) this.vars.push(variable(tf.tensor1d(weights.layers[trunk + 2].w)));
  }

  /**
   * Logits and values for a batch. With `bias` (from maskBias) illegal actions' logits are
   * pushed to MASKED_LOGIT, as the softmax of the loss needs; without it they are left raw,
   * for callers that skip illegal actions themselves (policy.ts).
   */
  forward(x: tf.Tensor2D, bias?: tf.Tensor2D): { logits: tf.Tensor2D; value: tf.Tensor1D } {
    const v = this.vars;
    const dense = this.plainDense ? plainDense : customDense;
    const trunk = this.shape.hidden.length;
    const actions = this.shape.actions;
    let h = x;
    for (let i = 0; i < trunk; i++) h = tf.tanh((i === 0 && !this.plainDense ? inputDense : dense)(h, v[2 * i] as tf.Variable, v[2 * i + 1] as tf.Variable));
    const out = dense(h, v[2 * trunk] as tf.Variable, v[2 * trunk + 1] as tf.Variable);
    let raw = tf.slice(out, [0, 0], [-1, actions]) as tf.Tensor2D;
    // With advice: plus the gain times the adviser's one-hot (the input's last `actions` columns).
    if (this.shape.advice) raw = tf.add(raw, tf.mul(tf.slice(x, [0, OBS_SIZE], [-1, actions]), v[2 * trunk + 2])) as tf.Tensor2D;
    const logits = bias ? (tf.add(raw, bias) as tf.Tensor2D) : raw;
    const value = tf.reshape(tf.slice(out, [0, actions], [-1, 1]), [-1]) as tf.Tensor1D;
    return { logits, value };
  }

  /** A copy of the current weights in plain arrays. */
  weights(): NetWeights {
    const layers: NetWeights['layers'] = [];
    const trunk = this.shape.hidden.length;
    for (let i = 0; i < 2 * trunk; i += 2) {
      const [rows, cols] = this.vars[i].shape;
      layers.push({ w: this.vars[i].dataSync() as Float32Array, b: this.vars[i + 1].dataSync() as Float32Array, rows, cols });
    }
    const [rows, cols] = this.vars[2 * trunk].shape;
    const w = this.vars[2 * trunk].dataSync() as Float32Array;
    const b = this.vars[2 * trunk + 1].dataSync() as Float32Array;
    const a = cols - 1;
    const pw = new Float32Array(rows * a);
    const vw = new Float32Array(rows);
    for (let r = 0; r < rows; r++) {
      pw.set(w.subarray(r * cols, r * cols + a), r * a);
      vw[r] = w[r * cols + a];
    }
    layers.push({ w: pw, b: b.slice(0, a), rows, cols: a }, { w: vw, b: b.slice(a), rows, cols: 1 });
    if (this.shape.advice) layers.push({ w: this.vars[2 * trunk + 2].dataSync() as Float32Array, b: new Float32Array(1), rows: 1, cols: 1 });
    return { shape: this.shape, layers };
  }

  dispose(): void {
    for (const v of this.vars) v.dispose();
  }
}
