import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { affineModuleText, assembleAffine } from '../scripts/build-affine-wasm.ts';
import { AFFINE_WASM_BASE64 } from './affine-wasm.ts';
import { affineLayers, defaultKernel, jsAffine, WASM_MAX_BYTES, type Layer } from './affine.ts';
import { readFileSync } from 'node:fs';

/** Bit patterns, so -0 and 0 (and every NaN) are told apart. */
const bits = (a: ArrayLike<number>) => Array.from(new Uint32Array(Float32Array.from(a).buffer));

// An input entry: mostly zero (observations are sparse), else ones, signed zeros, small,
// large and subnormal float32 values, and (for plain arrays) doubles float32 cannot hold.
const entry = fc.oneof(
  { weight: 6, arbitrary: fc.constant(0) },
  { weight: 2, arbitrary: fc.constantFrom(1, -0, -1, 2, 3) },
  { weight: 3, arbitrary: fc.float({ noNaN: true, noDefaultInfinity: true, min: -1e4, max: 1e4 }) },
  { weight: 1, arbitrary: fc.constantFrom(1e-40, -3e-39, 1.1754942e-38, 3.4e37) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, min: -10, max: 10 }) },
);
const weight = fc.oneof(fc.float({ noNaN: true, noDefaultInfinity: true, min: -4, max: 4 }), fc.constantFrom(0, -0, 1e-41, 1e30));

const layerAndInputs = fc
  .record({ rows: fc.integer({ min: 1, max: 80 }), cols: fc.integer({ min: 1, max: 70 }) })
  .chain(({ rows, cols }) =>
    fc.record({
      layer: fc.record({
        w: fc.array(weight, { minLength: rows * cols, maxLength: rows * cols }).map((a) => Float32Array.from(a)),
        b: fc.array(weight, { minLength: cols, maxLength: cols }).map((a) => Float32Array.from(a)),
        rows: fc.constant(rows),
        cols: fc.constant(cols),
      }),
      inputs: fc.array(fc.tuple(fc.array(entry, { minLength: rows, maxLength: rows }), fc.boolean()), { minLength: 1, maxLength: 4 }),
    }),
  );

describe('affine kernels', () => {
  it('ships the bytes its WebAssembly source assembles to', async () => {
    const bytes = await assembleAffine();
    expect(Buffer.from(AFFINE_WASM_BASE64, 'base64').equals(Buffer.from(bytes))).toBe(true);
    const committed = readFileSync(new URL('./affine-wasm.ts', import.meta.url), 'utf8');
    expect(committed).toBe(affineModuleText(bytes));
  });

  it('runs WebAssembly by default here, and plain JavaScript when asked', () => {
    const l: Layer = { w: Float32Array.of(1, 2), b: Float32Array.of(0.5), rows: 2, cols: 1 };
    expect(defaultKernel()).toBe('wasm');
    expect(affineLayers([l]).kernel).toBe('wasm');
    expect(affineLayers([l], 'js').kernel).toBe('js');
  });

  it('falls back to JavaScript for a net whose copy would pass WASM_MAX_BYTES', () => {
    // The sizes alone decide (nothing is copied): a layer claiming 2^17 × 2^11 float64 weights.
    const huge: Layer = { w: new Float32Array(1), b: new Float32Array(1), rows: 2 ** 17, cols: 2 ** 11 };
    expect(2 ** 17 * 2 ** 11 * 8).toBeGreaterThan(WASM_MAX_BYTES);
    expect(affineLayers([huge], 'wasm').kernel).toBe('js');
    const fits: Layer = { w: new Float32Array(2 ** 10), b: new Float32Array(2 ** 5), rows: 2 ** 5, cols: 2 ** 5 };
    expect(affineLayers([fits], 'wasm').kernel).toBe('wasm');
  });

  it('gives the same bits in both kernels, over generated layers and inputs', () => {
    fc.assert(
      fc.property(layerAndInputs, ({ layer, inputs }) => {
        const wasm = affineLayers([layer], 'wasm');
        for (const [entries, typed] of inputs) {
          const x = typed ? Float32Array.from(entries) : entries;
          const want = new Float32Array(layer.cols);
          const got = new Float32Array(layer.cols).fill(7);
          jsAffine(layer, x, want);
          wasm.run(0, x, got);
          expect(bits(got)).toEqual(bits(want));
        }
      }),
      { seed: 20261206, numRuns: 300 },
    );
  });

  it('rounds to float32 after every addition, not once at the end', () => {
    // 1 + 2^-24 + 2^-24: float32 after each addition gives 1 (each half-ulp rounds to even);
    // rounding once at the end would give 1 + 2^-23.
    const l: Layer = { w: Float32Array.of(2 ** -24, 2 ** -24), b: Float32Array.of(1), rows: 2, cols: 1 };
    const out = new Float32Array(1);
    affineLayers([l], 'wasm').run(0, [1, 1], out);
    expect(out[0]).toBe(1);
  });
});
