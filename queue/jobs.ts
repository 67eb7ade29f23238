/**
 * What travels through the queue. Two kinds of job share it (and its workers), told apart by
 * the job's name: `games`, a batch of a tournament's scheduled games, and `rollout`, one chunk
 * of a training iteration's self-play games (training/collect.ts).
 */
import type { GameResult, ScheduledGame, WorkerSetup } from '../eval/index.ts';
import type { ChunkSpec, EncodedChunkGame } from '../training/index.ts';

export interface GamesJob {
  /** The submitting run: its jobs are named `${run}-${n}`. */
  run: string;
  setup: WorkerSetup;
  games: ScheduledGame[];
}

export interface GamesJobResult {
  results: GameResult[];
  /** Time the worker thread spent playing the batch (its start-up excluded), for sizing batches. */
  ms: number;
}

export interface RolloutJob {
  /** The submitting training run: its jobs are named `${run}-${iteration}-${chunk}`. */
  run: string;
  /** The engine version the learner replays with: a worker on another refuses the job. */
  engine: number;
  spec: ChunkSpec;
  /** The policy version playing, and the Redis key of its weights (weightsKey). */
  policy: { version: number; key: string };
  /** Keys of the snapshots' weights, in the order `past` draws among them. */
  snapshots: string[];
}

export interface RolloutJobResult {
  /** The policy version that played (the job's). */
  version: number;
  games: EncodedChunkGame[];
  /** Time the worker thread spent on the chunk. */
  ms: number;
}

/** Where a net's weights are kept in Redis while jobs need them: by the hash of their encoding. */
export const WEIGHTS_PREFIX = 'czech-pub:weights:';
