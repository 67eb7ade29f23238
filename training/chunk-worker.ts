/**
 * Worker thread: plays rollout chunks (collect.ts) for a queue worker. It starts a
 * TensorFlow.js backend once, says which, then answers each chunk it is sent. Nets are kept by
 * their weights' key, so a policy version's weights cross over once; the reply lists the keys
 * still kept, and the sender sends only the others next time.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { decodeWeights, type EncodedWeights } from '../policy/index.ts';
import { initBackend, type BackendChoice } from './backend.ts';
import { ChunkPlayer, encodeChunk, type ChunkSpec, type EncodedChunkGame } from './collect.ts';
import { TfNet } from './net.ts';

export interface ChunkThreadSetup {
  backend: BackendChoice;
}

export interface ChunkRequest {
  spec: ChunkSpec;
  policy: string;
  snapshots: string[];
  /** Weights of the keys above the thread does not keep yet. */
  weights: Record<string, EncodedWeights>;
}

export type ChunkThreadMessage =
  | { type: 'ready'; backend: string }
  | { type: 'chunk'; games: EncodedChunkGame[]; ms: number; kept: string[] }
  | { type: 'error'; message: string };

/** Nets kept between chunks: a policy version, its snapshots and a few older ones. */
const KEEP = 12;

const port = parentPort!;
const setup = workerData as ChunkThreadSetup;
const player = new ChunkPlayer();
/** Nets by key, least recently used first. */
const nets = new Map<string, TfNet>();

function netFor(key: string, weights: ChunkRequest['weights']): TfNet {
  let net = nets.get(key);
  if (!net) {
    const w = weights[key];
    if (!w) throw new Error(`weights ${key} were neither sent nor kept`);
    net = new TfNet(decodeWeights(w, `weights ${key}`));
  }
  nets.delete(key);
  nets.set(key, net);
  return net;
}

const started = initBackend(setup.backend).then(
  (b) => port.postMessage({ type: 'ready', backend: b.name } satisfies ChunkThreadMessage),
  (e: Error) => port.postMessage({ type: 'error', message: `no TensorFlow.js backend: ${e.message}` } satisfies ChunkThreadMessage),
);

port.on('message', async (m: ChunkRequest) => {
  await started;
  try {
    const t0 = performance.now();
    const snapshots = m.snapshots.map((k) => netFor(k, m.weights));
    const policy = netFor(m.policy, m.weights);
    const games = player.play(m.spec, policy, snapshots);
    const ms = performance.now() - t0;
    while (nets.size > KEEP) {
      const [key, net] = nets.entries().next().value as [string, TfNet];
      nets.delete(key);
      net.dispose();
    }
    port.postMessage({ type: 'chunk', games: encodeChunk(games), ms, kept: [...nets.keys()] } satisfies ChunkThreadMessage);
  } catch (e) {
    port.postMessage({ type: 'error', message: (e as Error).stack ?? String(e) } satisfies ChunkThreadMessage);
  }
});
