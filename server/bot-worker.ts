/**
 * A bot worker thread (bot-pool.ts): rebuilds the game from its config and actions and asks
 * the seat's agent for a decision. Agents are kept per game and seat between decisions (the
 * pool sends a game's seats to the same worker), as a seat's agent is kept in the main thread.
 * The agent is told the time its decision has left, so a search can stop before the pool
 * stops the worker.
 */
import { parentPort } from 'node:worker_threads';
import { createAgent, EnvObservation, type Agent, type GameStart } from '../agents/index.ts';
import { CzechPubEnv, type EnvSnapshot } from '../env/index.ts';
import { LruMap } from './lru.ts';

export type PoolRequest =
  | {
    type: 'decide'; id: number; key: string; spec: string; start: GameStart;
    config: EnvSnapshot['config']; actions: number[]; seat: number; legal: number[];
    /** What is left of the decision's budget for the agent's own use (bot-pool.ts, searchTimeMs). */
    timeLeftMs: number;
  }
  | { type: 'drop'; prefix: string };

export type PoolReply =
  | { type: 'ready' }
  | { type: 'action'; id: number; action: number }
  | { type: 'error'; id: number; message: string };

/** Agents of games the pool never dropped (a server stopped uncleanly) go first past this. */
const MAX_AGENTS = 4096;

const port = parentPort!;
const agents = new LruMap<string, Agent>(MAX_AGENTS);

port.on('message', async (m: PoolRequest) => {
  if (m.type === 'drop') {
    for (const key of agents.keys()) if (key.startsWith(m.prefix)) agents.delete(key);
    return;
  }
  const stopBy = performance.now() + m.timeLeftMs;
  try {
    const agent = agents.use(m.key, () => {
      const a = createAgent(m.spec);
      a.reset?.(m.start);
      return a;
    });
    const env = new CzechPubEnv({ ...m.config, log: agent.readsEvents === true });
    for (const a of m.actions) env.step(a);
    const action = await agent.act(new EnvObservation(env, m.seat, m.legal), { timeLeftMs: Math.max(1, stopBy - performance.now()) });
    port.postMessage({ type: 'action', id: m.id, action } satisfies PoolReply);
  } catch (e) {
    port.postMessage({ type: 'error', id: m.id, message: (e as Error).message } satisfies PoolReply);
  }
});

port.postMessage({ type: 'ready' } satisfies PoolReply);
