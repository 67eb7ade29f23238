/**
 * A worker thread that asks one gate (agents/outside-calls.ts) `tries` times, all threads at
 * once: each says it is ready and waits on the shared `go` flag. Posts how many calls it was allowed.
 * Every call is at time 0 of the gate's clock: a window's calls never age out, however slowly the threads run.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Gate, type GateSpec } from '../../agents/outside-calls.ts';

const { spec, tries, go } = workerData as { spec: GateSpec; tries: number; go: Int32Array };
const gate = new Gate(spec, () => 0);
parentPort!.postMessage('ready');
while (Atomics.load(go, 0) === 0) Atomics.wait(go, 0, 0); // a wake-up without the flag set waits on
let allowed = 0;
for (let i = 0; i < tries; i++) if (gate.take() === null) allowed++;
parentPort!.postMessage(allowed);
