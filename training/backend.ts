/**
 * Picks the TensorFlow.js backend at run time. `@tensorflow/tfjs-node` (native libtensorflow)
 * is an optional dependency: its install script downloads libtensorflow from outside the npm
 * registry, so on machines without that access it is simply absent. `auto` tries it, then the
 * WebAssembly backend (SIMD; its .wasm files ship inside the npm package), then the pure-JS
 * cpu backend, which is 10–40× slower than wasm.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs-core';

export const BACKENDS = ['auto', 'node', 'wasm', 'cpu'] as const;
export type BackendChoice = (typeof BACKENDS)[number];

export interface BackendInfo {
  /** What runs: 'node' (libtensorflow), 'wasm' or 'cpu'. */
  name: 'node' | 'wasm' | 'cpu';
  /** Why earlier choices were passed over, for the run log. */
  skipped: string[];
}

const require = createRequire(import.meta.url);
/** What runs now. */
let current: BackendInfo | null = null;
/** What `auto` started, once it has: the first that works here, whatever was forced since. */
let best: BackendInfo | null = null;

async function tryNode(): Promise<void> {
  // The native package registers the 'tensorflow' backend on import.
  const name = '@tensorflow/tfjs-node';
  await import(name);
  if (!(await tf.setBackend('tensorflow'))) throw new Error('tfjs-node loaded but its backend did not start');
}

async function tryWasm(): Promise<void> {
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  const dist = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'));
  wasm.setWasmPaths(dist + path.sep);
  if (!(await tf.setBackend('wasm'))) throw new Error('the wasm backend did not start');
}

async function tryCpu(): Promise<void> {
  await import('@tensorflow/tfjs-backend-cpu');
  if (!(await tf.setBackend('cpu'))) throw new Error('the cpu backend did not start');
}

const STARTERS = { node: tryNode, wasm: tryWasm, cpu: tryCpu } as const;

/**
 * Starts the chosen backend (or the first that works, for `auto`) and returns what runs.
 * A forced choice that fails throws with the reason. Calling again with the choice that runs
 * is free. `auto` always means the same backend in a process, the first that works: after a
 * forced `cpu` (as a test may force), `auto` goes back to wasm rather than keep the 10–40×
 * slower cpu for every run that follows.
 */
export async function initBackend(choice: BackendChoice = 'auto'): Promise<BackendInfo> {
  if (!BACKENDS.includes(choice)) throw new Error(`unknown backend '${choice}' (known: ${BACKENDS.join(', ')})`);
  if (choice !== 'auto' && current?.name === choice) return current;
  if (choice === 'auto' && best) {
    if (current !== best) {
      await STARTERS[best.name]();
      await tf.ready();
      current = best;
    }
    return best;
  }
  const order = choice === 'auto' ? (['node', 'wasm', 'cpu'] as const) : [choice];
  const skipped: string[] = [];
  for (const name of order) {
    try {
      await STARTERS[name]();
      await tf.ready();
      current = { name, skipped };
      if (choice === 'auto') best = current;
      return current;
    } catch (err) {
      const why = `${name}: ${(err as Error).message.split('\n')[0]}`;
      if (choice !== 'auto') throw new Error(`backend '${name}' is not available here (${why})`);
      skipped.push(why);
    }
  }
  throw new Error(`no TensorFlow.js backend could start (${skipped.join('; ')})`);
}

/** One line for logs: "wasm (node skipped: …)". */
export function describeBackend(b: BackendInfo): string {
  return b.skipped.length === 0 ? b.name : `${b.name} (skipped ${b.skipped.join('; ')})`;
}
