/**
 * Where an iteration's chunks are played: a `RolloutSource`. The trainer asks for an
 * iteration's chunks with the policy version (and snapshots) they are to be played with, then
 * takes them in order until it has its decisions; chunk k of an iteration is fixed by its spec
 * and nets, so any source gives the same ones. `LocalRollouts` plays them in this thread when
 * asked; the job queue's source (queue/rollouts.ts) has workers play them ahead.
 */
import type { NetWeights } from '../policy/index.ts';
import { ChunkPlayer, type ChunkGame, type ChunkSpec } from './collect.ts';
import { TfNet } from './net.ts';

/** The module a chunk thread runs (chunk-worker.ts): a queue worker plays the chunks it is sent on such threads. */
export const CHUNK_WORKER_MODULE = new URL('./chunk-worker.ts', import.meta.url);

export interface RolloutRequest {
  iteration: number;
  /** The policy version the chunks are played with: how many iterations it has been trained. */
  version: number;
  weights: NetWeights;
  /** The frozen snapshots `past` seats draw among, as they were at that version. */
  snapshots: readonly NetWeights[];
  /** Chunk k's spec. */
  spec(k: number): ChunkSpec;
}

export interface IterationChunks {
  readonly request: RolloutRequest;
  /** Chunk k's games (asked for in order 0, 1, 2, …). */
  chunk(k: number): Promise<ChunkGame[]>;
  /** No more chunks are wanted: what was asked for ahead is dropped. */
  close(): void;
}

export interface RolloutSource {
  /** Starts an iteration's chunks: a source may begin playing them at once. */
  start(request: RolloutRequest): IterationChunks;
}

/** Plays chunks in this thread, each when it is asked for. */
export class LocalRollouts implements RolloutSource {
  private readonly player = new ChunkPlayer();

  start(request: RolloutRequest): IterationChunks {
    let nets: { policy: TfNet; snapshots: TfNet[] } | null = null;
    return {
      request,
      chunk: async (k) => {
        nets ??= { policy: new TfNet(request.weights), snapshots: request.snapshots.map((w) => new TfNet(w)) };
        return this.player.play(request.spec(k), nets.policy, nets.snapshots);
      },
      close: () => {
        nets?.policy.dispose();
        nets?.snapshots.forEach((n) => n.dispose());
        nets = null;
      },
    };
  }
}
