/** Worker thread: plays the scheduled games it is sent and posts each result as it finishes. */
import { parentPort, workerData } from 'node:worker_threads';
import type { Agent } from '../agents/agent.ts';
import { agentsFor, type GameSetup } from './agents-for.ts';
import { playGame } from './game.ts';
import type { ScheduledGame } from './schedule.ts';

export type WorkerSetup = GameSetup;

export type WorkerMessage =
  | { type: 'game'; result: unknown }
  | { type: 'idle' }
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
  try {
    for (const g of games) {
      const seated = g.seating.map((entry) => agents[entry]);
      const record = await playGame(seated, {
        seed: g.seed, ruleset: setup.ruleset, askAll: setup.askAll, maxDecisions: setup.maxDecisions,
        now: () => performance.now(),
      });
      port.postMessage({ type: 'game', result: { ...g, ...record } } satisfies WorkerMessage);
    }
    port.postMessage({ type: 'idle' } satisfies WorkerMessage);
  } catch (e) {
    port.postMessage({ type: 'error', message: (e as Error).stack ?? String(e) } satisfies WorkerMessage);
  }
});
