import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { nextFloat, seedRng } from '../env/rng.ts';
import { logProb } from '../policy/masked.ts';
import { NUM_ACTIONS } from '../env/actions.ts';
import { OBS_SIZE } from '../env/observation/encode.ts';
import { ADVICE_GAIN_INIT, initWeights, JsNet, netInputs, withAdvice } from '../policy/weights.ts';
import { decodeWeights, encodeWeights } from '../policy/checkpoint.ts';
import { initBackend } from './backend.ts';
import { maskBias, TfNet } from './net.ts';

const shape = { inputs: 10, hidden: [16, 8], actions: 7 };

function batch(rows: number, seed: string) {
  const rng = seedRng(seed);
  const x = Float32Array.from({ length: rows * shape.inputs }, () => (nextFloat(rng) < 0.5 ? 0 : nextFloat(rng)));
  const mask = Uint8Array.from({ length: rows * shape.actions }, (_, i) => (i % shape.actions === 0 || nextFloat(rng) < 0.6 ? 1 : 0));
  return { x, mask };
}

describe('policy network', () => {
  beforeAll(async () => {
    await initBackend('auto');
  }, 120_000); // loads a tensor backend: seconds on a busy machine, past a hook's 10 s default
  it("'auto' is the same backend after a forced one: a test forcing cpu leaves the next run on the first that works", async () => {
    const auto = await initBackend('auto');
    expect((await initBackend('cpu')).name).toBe('cpu');
    expect(tf.getBackend()).toBe('cpu');
    expect(await initBackend('auto')).toBe(auto);
    expect(tf.getBackend()).toBe(auto.name === 'node' ? 'tensorflow' : auto.name);
  }, 120_000);
  it('a net made and disposed leaves no tensor behind, and so do rollouts made of its chunks', async () => {
    const w = initWeights({ inputs: 569, hidden: [16], actions: 198 }, 'leak');
    const before = tf.memory().numTensors;
    for (let i = 0; i < 5; i++) new TfNet(w).dispose();
    expect(tf.memory().numTensors).toBe(before);
    const { LocalRollouts } = await import('./rollouts.ts');
    const { parsePool } = await import('./collect.ts');
    const source = new LocalRollouts();
    for (let it = 1; it <= 3; it++) {
      const chunks = source.start({
        iteration: it, version: it - 1, weights: w, snapshots: [w, w],
        spec: (k) => ({ seed: `leak/${it}/${k}`, games: 2, players: 3, pool: parsePool('self,past,heuristic'), reward: 'rank', snapshots: 2 }),
      });
      await chunks.chunk(0);
      chunks.close();
    }
    expect(tf.memory().numTensors).toBe(before);
  });


  it('initialises the same weights from the same seed, and others from another', () => {
    const a = initWeights(shape, 1);
    expect(initWeights(shape, 1).layers[0].w).toEqual(a.layers[0].w);
    expect(initWeights(shape, 2).layers[0].w).not.toEqual(a.layers[0].w);
  });

  it('gives the same logits and values in plain JavaScript as on TensorFlow.js', () => {
    const w = initWeights(shape, 'js');
    // Perturb the heads so their outputs are not all near zero.
    for (const l of w.layers) for (let i = 0; i < l.b.length; i++) l.b[i] = 0.1 * (i % 3);
    const net = new TfNet(w);
    const js = new JsNet(w);
    const { x, mask } = batch(5, 'jsx');
    const { logits, value } = net.forward(tf.tensor2d(x, [5, shape.inputs]), tf.tensor2d(maskBias(mask), [5, shape.actions]));
    const tl = logits.arraySync() as number[][];
    const tv = value.arraySync() as number[];
    const out = new Float32Array(shape.actions);
    for (let r = 0; r < 5; r++) {
      const v = js.forward(x.subarray(r * shape.inputs, (r + 1) * shape.inputs), mask.subarray(r * shape.actions, (r + 1) * shape.actions), out);
      expect(v).toBeCloseTo(tv[r], 4);
      for (let a = 0; a < shape.actions; a++) expect(out[a]).toBeCloseTo(tl[r][a], 3);
    }
    net.dispose();
  });

  it("computes the same gradients with its custom dense layer as tf's own matMul", () => {
    const w = initWeights(shape, 'grad');
    const net = new TfNet(w);
    const { x, mask } = batch(6, 'gx');
    const xt = tf.tensor2d(x, [6, shape.inputs]);
    const mt = tf.tensor2d(mask, [6, shape.actions], 'int32');
    const loss = () => {
      const { logits, value } = net.forward(xt, tf.tensor2d(maskBias(mask), [6, shape.actions]));
      return tf.add(tf.sum(tf.mul(tf.logSoftmax(logits), tf.cast(mt, 'float32'))), tf.sum(tf.square(value))) as tf.Scalar;
    };
    const ours = tf.variableGrads(loss, net.vars).grads;
    // The same net and weights with tf's own dense gradient.
    const ref = new TfNet(w, true);
    const refLoss = () => {
      const { logits, value } = ref.forward(xt, tf.tensor2d(maskBias(mask), [6, shape.actions]));
      return tf.add(tf.sum(tf.mul(tf.logSoftmax(logits), tf.cast(mt, 'float32'))), tf.sum(tf.square(value))) as tf.Scalar;
    };
    const theirs = tf.variableGrads(refLoss, ref.vars).grads;
    net.vars.forEach((v, i) => {
      const a = ours[v.name].dataSync();
      const b = theirs[ref.vars[i].name].dataSync();
      expect(a.length).toBe(b.length);
      let nonzero = 0;
      for (let k = 0; k < a.length; k++) {
        expect(a[k]).toBeCloseTo(b[k], 4);
        if (Math.abs(b[k]) > 1e-6) nonzero++;
      }
      expect(nonzero).toBeGreaterThan(0);
    });
    ref.dispose();
    net.dispose();
  });

  it('gives illegal actions probability exactly 0, and legal log-probabilities equal to the JS policy’s', () => {
    const net = new TfNet(initWeights(shape, 'mask'));
    const { x, mask } = batch(4, 'mx');
    const { logits } = net.forward(tf.tensor2d(x, [4, shape.inputs]), tf.tensor2d(maskBias(mask), [4, shape.actions]));
    const logp = tf.logSoftmax(logits).arraySync() as number[][];
    // The JS side reads raw logits: only the legal ones, which the mask bias leaves unchanged.
    const raw = Float32Array.from((net.forward(tf.tensor2d(x, [4, shape.inputs])).logits.arraySync() as number[][]).flat());
    for (let r = 0; r < 4; r++) {
      let total = 0;
      for (let a = 0; a < shape.actions; a++) {
        const p = Math.exp(logp[r][a]);
        if (!mask[r * shape.actions + a]) expect(p).toBe(0);
        else {
          total += p;
          expect(logp[r][a]).toBeCloseTo(logProb(raw, mask, r, shape.actions, a), 4);
        }
      }
      expect(total).toBeCloseTo(1, 5);
    }
    // The entropy term stays finite (0 · masked logit, not 0 · −∞).
    const p = tf.exp(tf.logSoftmax(logits));
    for (const e of tf.neg(tf.sum(tf.mul(p, tf.logSoftmax(logits)), 1)).arraySync() as number[]) expect(Number.isFinite(e)).toBe(true);
    net.dispose();
  });

  describe('with advice', () => {
    const adv = { inputs: netInputs('heuristic'), hidden: [16, 8], actions: NUM_ACTIONS, advice: 'heuristic' as const };
    /** Rows of a sparse observation, each with one advised legal action. */
    function advised(rows: number, seed: string) {
      const rng = seedRng(seed);
      const x = new Float32Array(rows * adv.inputs);
      const mask = new Uint8Array(rows * NUM_ACTIONS);
      for (let r = 0; r < rows; r++) {
        for (let i = 0; i < OBS_SIZE; i++) if (nextFloat(rng) < 0.1) x[r * adv.inputs + i] = nextFloat(rng);
        for (let a = 0; a < NUM_ACTIONS; a++) if (nextFloat(rng) < 0.1) mask[r * NUM_ACTIONS + a] = 1;
        const a = Math.floor(nextFloat(rng) * NUM_ACTIONS);
        mask[r * NUM_ACTIONS + a] = 1;
        x[r * adv.inputs + OBS_SIZE + a] = 1;
      }
      return { x, mask };
    }

    it('adds the gain times the advice to the logits, the same in plain JavaScript as on tf, and learns the gain', () => {
      const w = initWeights(adv, 'adv');
      expect(w.layers).toHaveLength(5); // two trunk layers, the heads, the gain
      expect(w.layers[4].w[0]).toBe(ADVICE_GAIN_INIT);
      const net = new TfNet(w);
      const js = new JsNet(w);
      const { x, mask } = advised(4, 'ax');
      const { logits, value } = net.forward(tf.tensor2d(x, [4, adv.inputs]), tf.tensor2d(maskBias(mask), [4, NUM_ACTIONS]));
      const tl = logits.arraySync() as number[][];
      const out = new Float32Array(NUM_ACTIONS);
      for (let r = 0; r < 4; r++) {
        const row = x.subarray(r * adv.inputs, (r + 1) * adv.inputs);
        const v = js.forward(row, mask.subarray(r * NUM_ACTIONS, (r + 1) * NUM_ACTIONS), out);
        expect(v).toBeCloseTo((value.arraySync() as number[])[r], 4);
        for (let a = 0; a < NUM_ACTIONS; a++) if (mask[r * NUM_ACTIONS + a]) expect(out[a]).toBeCloseTo(tl[r][a], 3);
        // A fresh net's head is near uniform: the advised action leads by about the gain.
        const advisedAction = row.subarray(OBS_SIZE).indexOf(1);
        let best = -1;
        for (let a = 0; a < NUM_ACTIONS; a++) if (mask[r * NUM_ACTIONS + a] && (best < 0 || out[a] > out[best])) best = a;
        expect(best).toBe(advisedAction);
      }
      // The gain is a trained variable: raising the advised action's log-probability raises it.
      const xt = tf.tensor2d(x, [4, adv.inputs]);
      const onehot = tf.tensor2d(x.filter((_, i) => i % adv.inputs >= OBS_SIZE), [4, NUM_ACTIONS]);
      const { grads } = tf.variableGrads(() => tf.neg(tf.sum(tf.mul(tf.logSoftmax(net.forward(xt, tf.tensor2d(maskBias(mask), [4, NUM_ACTIONS])).logits), onehot))) as tf.Scalar, net.vars);
      expect(grads[net.vars[net.vars.length - 1].name].dataSync()[0]).toBeLessThan(0);
      // weights() gives back what the net was made of, and the weights survive their JSON form.
      expect(net.weights().layers[4].w[0]).toBe(ADVICE_GAIN_INIT);
      expect(decodeWeights(JSON.parse(JSON.stringify(encodeWeights(net.weights()))), 'w')).toEqual(net.weights());
      net.dispose();
    });

    it('widens a trained net to read advice without changing its own logits', () => {
      const w = initWeights({ inputs: OBS_SIZE, hidden: [16], actions: NUM_ACTIONS }, 'plain');
      const wide = withAdvice(w, 'heuristic');
      expect(wide.shape).toEqual({ inputs: adv.inputs, hidden: [16], actions: NUM_ACTIONS, advice: 'heuristic' });
      const { x, mask } = advised(3, 'wx');
      const before = new Float32Array(NUM_ACTIONS);
      const after = new Float32Array(NUM_ACTIONS);
      for (let r = 0; r < 3; r++) {
        const row = x.subarray(r * adv.inputs, (r + 1) * adv.inputs);
        const m = mask.subarray(r * NUM_ACTIONS, (r + 1) * NUM_ACTIONS);
        const v0 = new JsNet(w).forward(row.subarray(0, OBS_SIZE), m, before);
        const v1 = new JsNet(wide).forward(row, m, after);
        expect(v1).toBeCloseTo(v0, 6);
        for (let a = 0; a < NUM_ACTIONS; a++) if (m[a]) expect(after[a]).toBeCloseTo(before[a] + ADVICE_GAIN_INIT * row[OBS_SIZE + a], 5);
      }
      expect(() => withAdvice(wide, 'heuristic')).toThrow(/already reads heuristic/);
    });

    it('refuses weights whose inputs do not fit their advice', () => {
      const e = encodeWeights(initWeights(adv, 'bad'));
      expect(() => decodeWeights({ ...e, shape: { ...e.shape, advice: undefined } }, 'w')).toThrow(/767 inputs, want 569/);
      expect(() => decodeWeights({ ...e, shape: { ...e.shape, advice: 'oracle' as 'heuristic' } }, 'w')).toThrow(/advice 'oracle' is none of heuristic/);
      expect(() => decodeWeights({ ...e, layers: e.layers.slice(0, 3) }, 'w')).toThrow(/3 layers/);
    });
  });
});
