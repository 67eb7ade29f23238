import { describe, expect, it } from 'vitest';
import { NUM_ACTIONS } from '../env/actions.ts';
import { OBS_SIZE } from '../env/observation/encode.ts';
import { nextFloat, seedRng } from '../env/rng.ts';
import { initWeights, JsNet, netInputs } from './weights.ts';

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
});
