/** What travels through the queue: a batch of a tournament's scheduled games and what came of them. */
import type { ScheduledGame } from '../eval/schedule.ts';
import type { GameResult } from '../eval/summary.ts';
import type { WorkerSetup } from '../eval/worker.ts';

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
