/**
 * A bot worker for the pool's scheduling tests: a decision's spec says how long it takes.
 * `stubborn:N` computes for N ms whatever it is told; `obedient:N` for N ms or the time it is
 * told it has, whichever is less (as ismcts does). The answer is the time it was told (ms).
 */
import { parentPort } from 'node:worker_threads';
import type { PoolRequest } from '../../server/bot-worker.ts';

const port = parentPort!;
port.on('message', (m: PoolRequest) => {
  if (m.type !== 'decide') return;
  const [kind, ms] = m.spec.split(':');
  const end = performance.now() + (kind === 'obedient' ? Math.min(Number(ms), m.timeLeftMs) : Number(ms));
  while (performance.now() < end);
  port.postMessage({ type: 'action', id: m.id, action: Math.floor(m.timeLeftMs) });
});
port.postMessage({ type: 'ready' });
