/** Worker thread: plays the scheduled games it is sent and posts each result as it finishes. */
import { parentPort, workerData } from 'node:worker_threads';
import type { Agent } from '../agents/index.ts';
import { agentsFor, type GameSetup } from './agents-for.ts';
import { playGame, runStop, type RunStop } from './game.ts';
import type { ScheduledGame } from './schedule.ts';

export type WorkerSetup = GameSetup;

export type WorkerMessage =
  | { type: 'game'; result: unknown }
  | { type: 'idle' }
  /** An agent stopped its game on purpose (AgentStopError): the run stops, keeping the games finished. */
  | { type: 'stopped'; message: string; stop: RunStop }
  | { type: 'error'; message: string };

const setup = workerData as WorkerSetup;

const port = parentPort!;
let agents: Agent[] = [];
try {
  agents = agentsFor(setup);
} catch (e) {
  port.postMessage({ type: 'error', message: (e as Error).message } satisfies WorkerMessage);
}

port.on('message', async (games: ScheduledGame[]) => {
  let game: ScheduledGame | undefined;
  try {
    for (const g of games) {
      game = g;
      const seated = g.seating.map((entry) => agents[entry]);
      const record = await playGame(seated, {
        seed: g.seed, ruleset: setup.ruleset, askForced: setup.askForced, maxDecisions: setup.maxDecisions,
        now: () => performance.now(),
      });
      port.postMessage({ type: 'game', result: { ...g, ...record } } satisfies WorkerMessage);
    }
    port.postMessage({ type: 'idle' } satisfies WorkerMessage);
  } catch (e) {
    const stop = game ? runStop(e, game.seating) : null;
    if (stop) {
      port.postMessage({ type: 'stopped', message: (e as Error).message, stop } satisfies WorkerMessage);
    } else {
      port.postMessage({ type: 'error', message: (e as Error).stack ?? String(e) } satisfies WorkerMessage);
    }
  }
});
