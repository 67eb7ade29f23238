/**
 * The policy network on TensorFlow.js (`TfNet`), batched, for rollouts and the PPO update;
 * weights.ts holds the same net in plain arrays. Dense layers use a custom gradient with
 * explicit transposes: the wasm backend runs `matMul` with a transpose flag ~15× slower than
 * a plain one, and tf's own dense gradient uses those flags.
 */
import * as tf from '@tensorflow/tfjs-core';
// tfjs-core alone registers no gradients; the full tfjs package registers them all (globally).
import '@tensorflow/tfjs';
import { MASKED_LOGIT, type NetShape, type NetWeights } from './weights.ts';

export { MASKED_LOGIT, initWeights, JsNet, countParams, type NetShape, type NetWeights } from './weights.ts';

/** y = x·W + b, with a gradient of plain (untransposed-flag) matMuls. */
const customDense = tf.customGrad((...args: unknown[]) => {
  const [x, w, b, save] = args as [tf.Tensor2D, tf.Tensor2D, tf.Tensor1D, tf.GradSaveFunc];
  save([x, w]);
  return {
    value: tf.add(tf.matMul(x, w), b),
    gradFunc: (dy: tf.Tensor | tf.Tensor[], saved: tf.Tensor[]) => {
      const [xs, ws] = saved as [tf.Tensor2D, tf.Tensor2D];
      const g = dy as tf.Tensor2D;
      return [tf.matMul(g, tf.transpose(ws)), tf.matMul(tf.transpose(xs), g), tf.sum(g, 0)];
    },
  };
}) as (x: tf.Tensor2D, w: tf.Variable | tf.Tensor2D, b: tf.Variable | tf.Tensor1D) => tf.Tensor2D;

function plainDense(x: tf.Tensor2D, w: tf.Variable | tf.Tensor2D, b: tf.Variable | tf.Tensor1D): tf.Tensor2D {
  return tf.add(tf.matMul(x, w as tf.Tensor2D), b);
}

/** The net's weights as tf variables, trained in place by the optimizer. */
export class TfNet {
  readonly shape: NetShape;
  readonly vars: tf.Variable[] = [];

  /** `plainDense` differentiates dense layers with tf's own gradient (transposed matMuls): a reference for benchmarks. */
  constructor(weights: NetWeights, private readonly plainDense = false) {
    this.shape = weights.shape;
    for (const l of weights.layers) {
      this.vars.push(tf.variable(tf.tensor2d(l.w, [l.rows, l.cols]), true), tf.variable(tf.tensor1d(l.b), true));
    }
  }

  /** Logits (illegal actions masked to MASKED_LOGIT) and values for a batch. */
  forward(x: tf.Tensor2D, mask: tf.Tensor2D): { logits: tf.Tensor2D; value: tf.Tensor1D } {
    const v = this.vars;
    const dense = this.plainDense ? plainDense : customDense;
    const trunk = this.shape.hidden.length;
    let h = x;
    for (let i = 0; i < trunk; i++) h = tf.tanh(dense(h, v[2 * i] as tf.Variable, v[2 * i + 1] as tf.Variable));
    const raw = dense(h, v[2 * trunk] as tf.Variable, v[2 * trunk + 1] as tf.Variable);
    const logits = tf.where(tf.cast(mask, 'bool'), raw, tf.fill(raw.shape, MASKED_LOGIT)) as tf.Tensor2D;
    const value = tf.reshape(dense(h, v[2 * trunk + 2] as tf.Variable, v[2 * trunk + 3] as tf.Variable), [-1]) as tf.Tensor1D;
    return { logits, value };
  }

  /** A copy of the current weights in plain arrays. */
  weights(): NetWeights {
    const layers: NetWeights['layers'] = [];
    for (let i = 0; i < this.vars.length; i += 2) {
      const [rows, cols] = this.vars[i].shape;
      layers.push({ w: this.vars[i].dataSync() as Float32Array, b: this.vars[i + 1].dataSync() as Float32Array, rows, cols });
    }
    return { shape: this.shape, layers };
  }

  /** Overwrites the variables with `w` (same shape). */
  assign(w: NetWeights): void {
    w.layers.forEach((l, i) => {
      this.vars[2 * i].assign(tf.tensor2d(l.w, [l.rows, l.cols]));
      this.vars[2 * i + 1].assign(tf.tensor1d(l.b));
    });
  }

  dispose(): void {
    for (const v of this.vars) v.dispose();
  }
}

