/**
 * A bot worker for the pool's scheduling tests: a decision's spec says how long it takes.
 * `stubborn:N` computes for N ms whatever it is told; `obedient:N` for N ms or the time it is
 * told it has, whichever is less (as ismcts does). The answer is the time it was told (ms).
 * `tally` answers at once with the number of decisions this worker ran before it.
 */
import { parentPort } from 'node:worker_threads';
import type { PoolRequest } from '../../server/bot-worker.ts';

const port = parentPort!;
let ran = 0;
port.on('message', (m: PoolRequest) => {
  if (m.type !== 'decide') return;
  const [kind, ms] = m.spec.split(':');
  if (kind === 'tally') {
    port.postMessage({ type: 'action', id: m.id, action: ran++ });
    return;
  }
  ran++;
  const end = performance.now() + (kind === 'obedient' ? Math.min(Number(ms), m.timeLeftMs) : Number(ms));
  while (performance.now() < end);
  port.postMessage({ type: 'action', id: m.id, action: Math.floor(m.timeLeftMs) });
});
port.postMessage({ type: 'ready' });
