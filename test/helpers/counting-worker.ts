/**
 * A bot worker for load tests (bot-pool.ts's `module`): every decision is a fixed piece of
 * work, told as it starts on the BroadcastChannel COUNTING_CHANNEL (counting.ts: the pool's id
 * of the decision, its game and seat, the time it was told it has), then held for HOLD_MS or
 * that time, whichever is less, asleep (a busy machine does not stretch it much, nor does it
 * load the machine), and answered with the first legal action. The order and the told times
 * are what a test asserts on: they do not depend on the machine's speed.
 */
import { BroadcastChannel, parentPort } from 'node:worker_threads';
import type { PoolRequest } from '../../server/bot-worker.ts';
import { COUNTING_CHANNEL, HOLD_MS, type CountedDecision } from './counting.ts';

const port = parentPort!;
const channel = new BroadcastChannel(COUNTING_CHANNEL);
const sleep = new Int32Array(new SharedArrayBuffer(4));
port.on('message', (m: PoolRequest) => {
  if (m.type !== 'decide') return;
  channel.postMessage({ id: m.id, key: m.key, told: m.timeLeftMs } satisfies CountedDecision);
  Atomics.wait(sleep, 0, 0, Math.min(HOLD_MS, m.timeLeftMs));
  port.postMessage({ type: 'action', id: m.id, action: m.legal[0] });
});
port.postMessage({ type: 'ready' });
