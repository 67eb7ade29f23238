import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { randomActions } from '../test/helpers/masked-actions.ts';
import { NUM_ACTIONS } from '../env/actions.ts';
import { createAgent, registerAgent } from '../agents/default-registry.ts';
import { seedRng } from '../env/rng.ts';
import { LearnerVectorEnv, type LearnerBatchEnv } from './learner-vector.ts';
import { CTL, makeVectorEnv, threadsFor, ThreadedVectorEnv } from './vector-threads.ts';

/**
 * A digest of every batch of `steps` random steps, and the decision counts. With `wake`, every
 * worker thread is woken after each step with no new command, as a spurious wake-up would.
 */
function trace(v: LearnerBatchEnv, steps: number, wake = false) {
  const h = createHash('sha256');
  const rng = seedRng('threads');
  const add = () => {
    for (const x of [v.obs, v.masks, v.rewards, v.wins, v.terminated, v.truncated, v.seats]) h.update(new Uint8Array(x.buffer, x.byteOffset, x.byteLength));
  };
  v.reset();
  add();
  let ended = 0;
  for (let k = 0; k < steps; k++) {
    v.step(randomActions(v, rng));
    if (wake) for (const s of (v as unknown as { shards: { ctl: Int32Array }[] }).shards) Atomics.notify(s.ctl, CTL.seq);
    for (let i = 0; i < v.numEnvs; i++) ended += v.terminated[i] + v.truncated[i];
    add();
  }
  return { digest: h.digest('hex'), ended, learner: v.learnerDecisions, engine: v.engineDecisions };
}

const OPTIONS = { numEnvs: 37, players: 3, seed: 'threads', opponents: 'heuristic' };

describe('vector env on several threads', () => {
  it('steps the same games as one thread: same batches, seeds and counts on 1, 2 and 3 threads', () => {
    const one = trace(new LearnerVectorEnv(OPTIONS), 120);
    expect(one.ended).toBeGreaterThan(5);
    for (const threads of [2, 3]) {
      const v = new ThreadedVectorEnv(OPTIONS, threads);
      try {
        expect(v.threads).toBe(threads);
        expect(trace(v, 120)).toEqual(one);
      } finally {
        v.close();
      }
    }
  }, 120_000);

  it('a worker woken with no new command runs nothing: each command is stepped once', () => {
    const one = trace(new LearnerVectorEnv(OPTIONS), 60);
    const v = new ThreadedVectorEnv(OPTIONS, 3);
    try {
      expect(trace(v, 60, true)).toEqual(one);
    } finally {
      v.close();
    }
  }, 120_000);

  it('checks every action against the whole batch before any game moves, naming the game', () => {
    const v = new ThreadedVectorEnv({ ...OPTIONS, opponents: 'random' }, 2);
    try {
      v.reset();
      const before = Buffer.from(new Uint8Array(v.obs.buffer, v.obs.byteOffset, v.obs.byteLength));
      const rng = seedRng('bad');
      const acts = randomActions(v, rng);
      // A row stepped by the worker thread (the second half of the slots).
      const bad = 30;
      let illegal = 0;
      while (v.masks[bad * NUM_ACTIONS + illegal]) illegal++;
      acts[bad] = illegal;
      expect(() => v.step(acts)).toThrow(new RegExp(`^env ${bad}: action ${illegal} is not legal; legal actions: \\d`));
      expect(Buffer.from(new Uint8Array(v.obs.buffer, v.obs.byteOffset, v.obs.byteLength)).equals(before)).toBe(true);
      expect(v.learnerDecisions).toBe(0);
      acts[bad] = randomActions(v, rng)[bad];
      v.step(acts);
      expect(v.learnerDecisions).toBe(37);
    } finally {
      v.close();
    }
    expect(() => v.step(new Int32Array(37))).toThrow(/closed/);
  }, 60_000);

  it('a thread that cannot make its games fails the env with its reason', () => {
    // Known to this thread's registry only: the worker thread's has never heard of it.
    registerAgent('threads-test-local', { description: 'random, registered in one thread', create: () => createAgent('random') });
    const local = { ...OPTIONS, numEnvs: 32, opponents: 'threads-test-local' };
    expect(new LearnerVectorEnv(local).numEnvs).toBe(32);
    expect(() => new ThreadedVectorEnv(local, 2)).toThrow(/^a vector env thread could not make its games: unknown agent 'threads-test-local'; known agents: .* \(agents added with registerAgent are known only to the thread that added them; threads: 1 plays every game on this one\)$/);
  }, 60_000);

  it("'auto' takes a thread per core up to 4, each with at least 16 games", () => {
    expect(threadsFor('auto', 256, 2)).toBe(2);
    expect(threadsFor('auto', 256, 16)).toBe(4);
    expect(threadsFor('auto', 31, 8)).toBe(1);
    expect(threadsFor('auto', 48, 8)).toBe(3);
    expect(threadsFor(8, 40, 2)).toBe(2);
    expect(makeVectorEnv({ ...OPTIONS, numEnvs: 8 }, 'auto').threads).toBe(1);
    expect(() => makeVectorEnv(OPTIONS, 0)).toThrow(/threads must be 'auto' or a whole number from 1 to 64/);
  });
});
