import { describe, expect, it } from 'vitest';
import { NUM_ACTIONS } from '../env/actions.ts';
import { OBS_SIZE } from '../env/observation/encode.ts';
import { nextFloat, seedRng } from '../env/rng.ts';
import { AFFINE_KERNELS } from './affine.ts';
import { initWeights, JsNet, MASKED_LOGIT, netInputs, type NetWeights } from './weights.ts';

describe('JsNet', () => {
  it('valueOf gives the value forward returns, for plain and advised nets', () => {
    const rng = seedRng('value-of');
    for (const advice of [undefined, 'heuristic'] as const) {
      const shape = { inputs: netInputs(advice), hidden: [32, 16], actions: NUM_ACTIONS, ...(advice ? { advice } : {}) };
      const w = initWeights(shape, 'value-of');
      // Non-zero value head, so a wrong layer cannot pass by giving 0 twice.
      const head = w.layers[shape.hidden.length + 1];
      for (let i = 0; i < head.w.length; i++) head.w[i] = nextFloat(rng) - 0.5;
      const net = new JsNet(w);
      for (let k = 0; k < 5; k++) {
        const x = Float32Array.from({ length: shape.inputs }, (_, i) => (i < OBS_SIZE && nextFloat(rng) < 0.3 ? nextFloat(rng) : 0));
        const v = net.forward(x, new Uint8Array(NUM_ACTIONS).fill(1), new Float32Array(NUM_ACTIONS));
        expect(v).not.toBe(0);
        expect(net.valueOf(x)).toBe(v);
      }
    }
  });

  it.each(AFFINE_KERNELS)('computes the logits of legal actions exactly as a full dense head would, bit for bit (%s)', (kernel) => {
    // The reference: every layer a full affine into float32, tanh in the trunk, the advice
    // added to every logit, then the mask (what JsNet did before it skipped illegal columns).
    const dense = (l: NetWeights['layers'][number], x: ArrayLike<number>) => {
      const out = Float32Array.from(l.b);
      for (let r = 0; r < l.rows; r++) for (let c = 0; c < l.cols; c++) if (x[r] !== 0) out[c] += x[r] * l.w[r * l.cols + c];
      return out;
    };
    const rng = seedRng('legal-columns');
    // Widths that are and are not multiples of the eight (js) or sixteen (wasm) outputs summed at once.
    for (const [advice, hidden] of [[undefined, [24, 12]], ['heuristic', [32, 16]], ['heuristic', [19, 7]], [undefined, [8, 1]]] as const) {
      const shape = { inputs: netInputs(advice), hidden: [...hidden], actions: NUM_ACTIONS, ...(advice ? { advice } : {}) };
      const w = initWeights(shape, `legal-columns/${advice}`);
      const head = w.layers[shape.hidden.length];
      for (let i = 0; i < head.w.length; i++) head.w[i] = nextFloat(rng) - 0.5; // logits far from equal
      for (let i = 0; i < head.b.length; i++) head.b[i] = nextFloat(rng) - 0.5;
      const net = new JsNet(w, kernel);
      expect(net.kernel).toBe(kernel);
      for (let k = 0; k < 20; k++) {
        const x = Float32Array.from({ length: shape.inputs }, (_, i) => (i < OBS_SIZE ? (nextFloat(rng) < 0.3 ? nextFloat(rng) : 0) : 0));
        if (advice) x[OBS_SIZE + Math.floor(nextFloat(rng) * NUM_ACTIONS)] = 1;
        const mask = Uint8Array.from({ length: NUM_ACTIONS }, () => (nextFloat(rng) < 0.1 ? 1 : 0));
        mask[k] = 1;
        let h: ArrayLike<number> = x;
        for (let i = 0; i < shape.hidden.length; i++) h = dense(w.layers[i], h).map(Math.tanh);
        const want = dense(head, h);
        if (advice) for (let a = 0; a < NUM_ACTIONS; a++) want[a] += w.layers[shape.hidden.length + 2].w[0] * x[OBS_SIZE + a];
        for (let a = 0; a < NUM_ACTIONS; a++) if (!mask[a]) want[a] = MASKED_LOGIT;
        const got = new Float32Array(NUM_ACTIONS);
        const value = net.forward(x, mask, got);
        expect(Array.from(got)).toEqual(Array.from(want));
        expect(value).toBe(dense(w.layers[shape.hidden.length + 1], h)[0]);
        const alone = new Float32Array(NUM_ACTIONS);
        net.logitsOf(x, mask, alone);
        expect(Array.from(alone)).toEqual(Array.from(want));
      }
    }
  });
});
