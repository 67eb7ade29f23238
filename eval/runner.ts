/**
 * Runs scheduled games, in-process or on a pool of worker threads. Each game depends only
 * on its own seed and seating (agents are reset per game with a seed derived from it), so
 * the results are the same whatever the number of workers; they are keyed by game index.
 */
import type { ResourceLimits, Worker } from 'node:worker_threads';
import { addUsage, emptyUsage, type Agent, type AgentUsage } from '../agents/index.ts';
import { agentsFor, gameSetup } from './agents-for.ts';
import { playGame, runStop, type RunStop } from './game.ts';
import { tsWorker } from './ts-worker.ts';
import type { ScheduledGame } from './schedule.ts';
import type { GameResult } from './summary.ts';
import type { WorkerMessage, WorkerSetup } from './worker.ts';

export interface RunOptions extends WorkerSetup {
  games: readonly ScheduledGame[];
  /** 0 plays in this thread. */
  workers: number;
  /**
   * In this thread (workers 0): games played at once, each with its own agent instances.
   * For agents that wait on the network (LLM, HTTP), whose requests then overlap; results
   * are still keyed by game index.
   */
  parallel?: number;
  /** Called for each finished game, in the order they finish. */
  onGame?: (result: GameResult) => void;
  /** Aborting stops handing out games; games in progress are dropped, finished ones kept. */
  signal?: AbortSignal;
  /** Heap limits of each worker thread (a worker past them fails the run). */
  resourceLimits?: ResourceLimits;
}

export interface RunOutcome {
  results: GameResult[];
  interrupted: boolean;
  /** The error of an agent that stopped its game (e.g. a model server failing every decision; in this thread, any error); the run stopped there. */
  stoppedBy?: string;
  /** Which entry stopped the run and why, when it stopped on purpose (AgentStopError). */
  stop?: RunStop;
  /**
   * Per entry, what model agents spent on games that did not finish (dropped when the run
   * stopped): the server answered those requests too. In this thread only (workers 0).
   */
  unfinishedUsage?: (AgentUsage | null)[];
}

async function runInThread(o: RunOptions): Promise<RunOutcome> {
  const results: GameResult[] = [];
  let next = 0;
  let interrupted = false;
  let stoppedBy: string | undefined;
  let stop: RunStop | null = null;
  const lanesAgents: Agent[][] = [];
  /** Usage of games finished after the stop, by entry. */
  const spent: [number, AgentUsage][] = [];
  // Each lane plays games one after another with its own agents; lanes run concurrently.
  const lane = async () => {
    const agents = agentsFor(o);
    lanesAgents.push(agents);
    while (next < o.games.length) {
      if (o.signal?.aborted || stoppedBy !== undefined) {
        interrupted = true;
        return;
      }
      const g = o.games[next++];
      let record;
      try {
        record = await playGame(g.seating.map((e) => agents[e]), {
          seed: g.seed, ruleset: o.ruleset, askForced: o.askForced, maxDecisions: o.maxDecisions, now: () => performance.now(),
        });
      } catch (e) {
        // An agent that throws stops the run: this game is dropped, finished ones are kept.
        if (stoppedBy === undefined) {
          stoppedBy = (e as Error).message;
          stop = runStop(e, g.seating);
        }
        interrupted = true;
        return;
      }
      if (stoppedBy !== undefined) {
        // Finished after the stop: not counted, as in worker mode; what it spent is.
        record.usage?.forEach((u, seat) => void (u && spent.push([g.seating[seat], u])));
        return;
      }
      const result = { ...g, ...record };
      results.push(result);
      o.onGame?.(result);
    }
  };
  const lanes = Math.max(1, Math.min(o.parallel ?? 1, o.games.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  const unfinishedUsage = leftUsage(o.entries.length, lanesAgents, spent);
  return {
    results, interrupted, ...(stoppedBy !== undefined ? { stoppedBy } : {}), ...(stop ? { stop } : {}),
    ...(unfinishedUsage.some((u) => u !== null) ? { unfinishedUsage } : {}),
  };
}

/** Per entry, the usage agents hold that no finished game took: that of the games dropped at a stop. */
function leftUsage(entries: number, lanesAgents: readonly Agent[][], spent: readonly [number, AgentUsage][]): (AgentUsage | null)[] {
  return Array.from({ length: entries }, (_, e) => {
    let sum: AgentUsage | null = null;
    const held = [...new Set(lanesAgents.map((agents) => agents[e]))].map((a) => a.takeUsage?.());
    for (const u of [...held, ...spent.filter(([entry]) => entry === e).map(([, x]) => x)]) {
      if (!u || u.requests === 0) continue;
      sum ??= emptyUsage();
      addUsage(sum, u);
      sum.model ??= u.model;
    }
    return sum;
  });
}

/** The module a game thread runs (worker.ts): runGames starts it, and so does a queue worker's thread pool. */
export const GAME_WORKER_MODULE = new URL('./worker.ts', import.meta.url);

function startWorker(setup: WorkerSetup, resourceLimits?: ResourceLimits): Worker {
  return tsWorker(GAME_WORKER_MODULE, { workerData: setup, resourceLimits });
}

export async function runGames(o: RunOptions): Promise<RunOutcome> {
  if (o.workers <= 0 || o.games.length === 0) return runInThread(o);
  const setup = gameSetup(o);
  const count = Math.min(o.workers, o.games.length);
  // Small chunks keep the workers evenly loaded and an interrupt prompt.
  const chunk = Math.max(1, Math.min(16, Math.floor(o.games.length / (count * 8))));
  let next = 0;
  const results: GameResult[] = [];
  const workers: Worker[] = [];
  return new Promise<RunOutcome>((resolve, reject) => {
    let busy = 0;
    let settled = false;
    const finish = (error?: Error, stopped?: { message: string; stop: RunStop }) => {
      if (settled) return;
      settled = true;
      for (const w of workers) void w.terminate();
      if (error) reject(error);
      else if (stopped) resolve({ results, interrupted: true, stoppedBy: stopped.message, stop: stopped.stop });
      else resolve({ results, interrupted: o.signal?.aborted === true });
    };
    const feed = (w: Worker) => {
      if (o.signal?.aborted || next >= o.games.length) {
        if (busy === 0) finish();
        return;
      }
      busy++;
      w.postMessage(o.games.slice(next, next + chunk));
      next += chunk;
    };
    o.signal?.addEventListener('abort', () => finish(), { once: true });
    for (let i = 0; i < count; i++) {
      const w = startWorker(setup, o.resourceLimits);
      workers.push(w);
      w.on('message', (m: WorkerMessage) => {
        // After an interrupt, games still in flight from a terminating worker are dropped, so
        // the results and what onGame has written (games.jsonl) stay the same set.
        if (settled) return;
        if (m.type === 'game') {
          const r = m.result as GameResult;
          results.push(r);
          o.onGame?.(r);
        } else if (m.type === 'idle') {
          busy--;
          feed(w);
        } else if (m.type === 'stopped') {
          // As in this thread: the games finished so far are kept, those in progress elsewhere dropped.
          finish(undefined, m);
        } else {
          finish(new Error(`tournament worker failed: ${m.message}`));
        }
      });
      w.on('error', (e) => finish(e));
      feed(w);
    }
  });
}
