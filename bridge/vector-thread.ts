/**
 * Worker thread of a ThreadedVectorEnv (vector-threads.ts): one shard's games, stepped on
 * command. Commands come through shared memory; the batch rows and the decision counts go back
 * the same way, and an error's message through the port.
 */
import { workerData } from 'node:worker_threads';
import { LearnerVectorEnv, vectorArraysIn } from './learner-vector.ts';
import { CMD, CTL, CTL_WORDS, STATUS_ERROR, STATUS_OK, type ShardSetup, type ThreadFailure } from './vector-threads.ts';

const d = workerData as ShardSetup;
const ctl = new Int32Array(d.control, 4 * CTL_WORDS * d.index, CTL_WORDS);
const counters = new Float64Array(d.counters, 16 * d.index, 2);
const actions = new Int32Array(d.actions);

function answer(seq: number, error?: unknown): void {
  if (error !== undefined) {
    const failure: ThreadFailure = { message: error instanceof Error ? error.message : String(error), range: error instanceof RangeError };
    d.port.postMessage(failure);
  }
  Atomics.store(ctl, CTL.status, error === undefined ? STATUS_OK : STATUS_ERROR);
  Atomics.store(ctl, CTL.done, seq);
  Atomics.notify(ctl, CTL.done);
}

let env: LearnerVectorEnv | null = null;
try {
  const { firstSlot, numEnvs } = d.options;
  env = new LearnerVectorEnv({ ...d.options, into: vectorArraysIn(d.data, d.total, firstSlot, numEnvs) });
  answer(0);
} catch (e) {
  answer(0, e);
}

let seen = 0;
while (env) {
  // A wait can return with no new command (a wake-up that no store came with): each command
  // is run once, when its sequence number is new.
  while (Atomics.load(ctl, CTL.seq) === seen) Atomics.wait(ctl, CTL.seq, seen);
  seen = Atomics.load(ctl, CTL.seq);
  const cmd = Atomics.load(ctl, CTL.cmd);
  if (cmd === CMD.exit) break;
  try {
    if (cmd === CMD.reset) env.reset();
    else if (cmd === CMD.step) env.stepChecked(actions, d.options.firstSlot);
    else throw new Error(`unknown command ${cmd}`);
    counters[0] = env.learnerDecisions;
    counters[1] = env.engineDecisions;
    answer(seen);
  } catch (e) {
    answer(seen, e);
  }
}
d.port.close();
