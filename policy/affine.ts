/**
 * The policy net's affine layers, out = x·W + b, for one observation at a time, in two kernels
 * that give the same figures bit for bit:
 *
 * - `js`: plain JavaScript, runs anywhere;
 * - `wasm`: WebAssembly SIMD (policy/affine.wat): a forward pass of a shipped net 2.2–2.3×
 *   as fast (37.5–41.7 against 83.5–97.5 µs, `czech-pub bench policy`, 6 Dec 2026). The
 *   default wherever WebAssembly SIMD is there (Node 16.4 and later, current browsers).
 *
 * The arithmetic both follow: each output is its bias plus the nonzero inputs' products, added in
 * row order, each product and sum taken in float64 and the sum rounded to float32 after every
 * addition (the arithmetic of accumulating into a Float32Array row by row). Observations are
 * sparse (about 108 nonzero inputs of 767), so only the nonzero rows are visited.
 */
import { AFFINE_WASM_BASE64 } from './affine-wasm.ts';

/** One affine layer: `rows` inputs, `cols` outputs, W row-major (input r's weights at r·cols…). */
export interface Layer {
  w: Float32Array;
  b: Float32Array;
  rows: number;
  cols: number;
}

/** The kernels, fastest first. */
export const AFFINE_KERNELS = ['wasm', 'js'] as const;
export type AffineKernel = (typeof AFFINE_KERNELS)[number];

/** The affine layers of one net: `run(i, x, out)` computes layer i's x·W + b into out. */
export interface Affine {
  readonly kernel: AffineKernel;
  run(i: number, x: ArrayLike<number>, out: Float32Array): void;
}

/** Row indices of an input's nonzero entries (jsAffine's scratch: one forward pass at a time). */
let nonzero = new Int32Array(1024);

/**
 * The JavaScript kernel. Eight outputs are summed at once in locals (over the nonzero rows,
 * found first) rather than in the array: the locals stay in registers (74–81 against 109–116
 * µs a trunk summing in the array, 6 Dec 2026).
 */
export function jsAffine(l: Layer, x: ArrayLike<number>, out: Float32Array): void {
  const { w, b, rows, cols } = l;
  if (nonzero.length < rows) nonzero = new Int32Array(rows);
  const nz = nonzero;
  let n = 0;
  for (let r = 0; r < rows; r++) if (x[r] !== 0) nz[n++] = r;
  const f = Math.fround;
  let c = 0;
  for (; c + 8 <= cols; c += 8) {
    let a0 = b[c], a1 = b[c + 1], a2 = b[c + 2], a3 = b[c + 3], a4 = b[c + 4], a5 = b[c + 5], a6 = b[c + 6], a7 = b[c + 7];
    for (let k = 0; k < n; k++) {
      const r = nz[k];
      const xr = x[r];
      const i = r * cols + c;
      a0 = f(a0 + xr * w[i]);
      a1 = f(a1 + xr * w[i + 1]);
      a2 = f(a2 + xr * w[i + 2]);
      a3 = f(a3 + xr * w[i + 3]);
      a4 = f(a4 + xr * w[i + 4]);
      a5 = f(a5 + xr * w[i + 5]);
      a6 = f(a6 + xr * w[i + 6]);
      a7 = f(a7 + xr * w[i + 7]);
    }
    out[c] = a0;
    out[c + 1] = a1;
    out[c + 2] = a2;
    out[c + 3] = a3;
    out[c + 4] = a4;
    out[c + 5] = a5;
    out[c + 6] = a6;
    out[c + 7] = a7;
  }
  for (; c < cols; c++) {
    let a = b[c];
    for (let k = 0; k < n; k++) a = f(a + x[nz[k]] * w[nz[k] * cols + c]);
    out[c] = a;
  }
}

class JsLayers implements Affine {
  readonly kernel = 'js';
  constructor(private readonly layers: readonly Layer[]) {}
  run(i: number, x: ArrayLike<number>, out: Float32Array): void {
    jsAffine(this.layers[i], x, out);
  }
}

/** Columns the WebAssembly kernel sums at once; each layer's rows are padded to a multiple. */
const BLOCK = 16;

type KernelFn = (w: number, b: number, stride: number, x: number, nz: number, n: number, out: number) => void;

let compiled: WebAssembly.Module | null | undefined;

/** The kernel's module, or null where WebAssembly or its SIMD is missing. */
function wasmModule(): WebAssembly.Module | null {
  if (compiled !== undefined) return compiled;
  compiled = null;
  if (typeof WebAssembly !== 'object') return compiled;
  const bytes = Uint8Array.from(atob(AFFINE_WASM_BASE64), (ch) => ch.charCodeAt(0));
  if (WebAssembly.validate(bytes)) compiled = new WebAssembly.Module(bytes);
  return compiled;
}

/** Where a net's layers lie in its WebAssembly memory (byte offsets), and the bytes in all. */
interface Placement {
  at: { w: number; b: number; out: number; stride: number; rows: number }[];
  x: number;
  nz: number;
  bytes: number;
}

function place(layers: readonly Layer[]): Placement {
  let end = 0;
  const take = (bytes: number) => ((end += bytes), end - bytes);
  const at = layers.map((l) => {
    const stride = Math.ceil(l.cols / BLOCK) * BLOCK;
    return { w: take(l.rows * stride * 8), b: take(stride * 8), out: take(stride * 8), stride, rows: l.rows };
  });
  const rows = Math.max(...layers.map((l) => l.rows));
  const x = take(rows * 8);
  const nz = take(rows * 4);
  return { at, x, nz, bytes: end };
}

/**
 * The most memory a net's WebAssembly copy may take: offsets stay below 2^31, far from the
 * kernel's 32-bit address arithmetic wrapping. (The shipped nets take 2.1 MB; a net past
 * this runs in JavaScript.)
 */
export const WASM_MAX_BYTES = 2 ** 30;

/**
 * The WebAssembly kernel for one net: its own instance, whose memory holds the layers' weights
 * and biases promoted to float64 (exactly), an output area per layer, and one input area and
 * row list shared by the layers. Nets on the same layers share it: a pass runs to its end
 * before another begins.
 */
class WasmLayers implements Affine {
  readonly kernel = 'wasm';
  private readonly fn: KernelFn;
  private readonly f64: Float64Array;
  private readonly i32: Int32Array;
  private readonly at: Placement['at'];
  private readonly x: number;
  private readonly nz: number;

  /** Throws a RangeError where the memory cannot grow to the net's size. */
  constructor(module: WebAssembly.Module, layers: readonly Layer[], { at, x, nz, bytes }: Placement) {
    const instance = new WebAssembly.Instance(module, {});
    const memory = instance.exports.memory as WebAssembly.Memory;
    memory.grow(Math.max(0, Math.ceil(bytes / 65536) - memory.buffer.byteLength / 65536));
    this.at = at;
    this.x = x;
    this.nz = nz;
    this.f64 = new Float64Array(memory.buffer);
    this.i32 = new Int32Array(memory.buffer);
    this.fn = instance.exports.affine as KernelFn;
    layers.forEach((l, i) => {
      const { w, b, stride } = at[i];
      for (let r = 0; r < l.rows; r++) this.f64.set(l.w.subarray(r * l.cols, (r + 1) * l.cols), w / 8 + r * stride);
      this.f64.set(l.b, b / 8);
    });
  }

  run(i: number, x: ArrayLike<number>, out: Float32Array): void {
    const { w, b, out: o, stride, rows } = this.at[i];
    const { f64, i32 } = this;
    const xs = this.x / 8;
    const nz = this.nz / 4;
    let n = 0;
    for (let r = 0; r < rows; r++) {
      const v = x[r];
      if (v !== 0) {
        f64[xs + r] = v;
        i32[nz + n++] = r;
      }
    }
    this.fn(w, b, stride, this.x, this.nz, n, o);
    const from = o / 8;
    for (let c = 0; c < out.length; c++) out[c] = f64[from + c];
  }
}

/** The kernel used where none is named: `wasm` where it is there, else `js`. */
export function defaultKernel(): AffineKernel {
  return wasmModule() ? 'wasm' : 'js';
}

/** Each net's WebAssembly layers, made once: agents are made afresh for every game and rollout. */
const made = new WeakMap<readonly Layer[], WasmLayers>();

/**
 * The affine layers of a net in the kernel asked for (`wasm` falls back to `js` where it is
 * missing, or where the net's copy would pass WASM_MAX_BYTES or find no memory). The `wasm` kernel reads the weights when the first net on these layers is made:
 * weights changed in place after that are not seen (a trainer hands over new arrays).
 */
export function affineLayers(layers: readonly Layer[], kernel: AffineKernel = defaultKernel()): Affine {
  const module = kernel === 'wasm' ? wasmModule() : null;
  if (!module) return new JsLayers(layers);
  let net = made.get(layers);
  if (net) return net;
  const placement = place(layers);
  if (placement.bytes > WASM_MAX_BYTES) return new JsLayers(layers);
  try {
    net = new WasmLayers(module, layers, placement);
  } catch (err) {
    if (err instanceof RangeError) return new JsLayers(layers); // no memory for the copy: the same figures, slower
    throw err;
  }
  made.set(layers, net);
  return net;
}
