/** A bot worker that answers 'ready', then on every decision holds memory until its heap limit stops it. */
import { parentPort } from 'node:worker_threads';

const port = parentPort!;
const held: number[][] = [];
port.on('message', (m: { type: string }) => {
  if (m.type !== 'decide') return;
  for (;;) held.push(new Array(1 << 16).fill(held.length));
});
port.postMessage({ type: 'ready' });
