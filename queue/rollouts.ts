/**
 * Training rollouts played by queue workers: the learner's side (a RolloutSource for
 * training/ppo.ts). For each iteration the learner publishes the policy version's weights (and
 * its snapshots') in Redis under the hash of their encoding, then enqueues the iteration's
 * chunks as `rollout` jobs naming the version and the keys; workers read each version's
 * weights once. A chunk comes back as actions, log-probabilities and values, which the learner
 * replays (collect.ts), so what it trains on is what a local run would have.
 *
 * An iteration's chunks are enqueued ahead: as many as the previous iteration used, and one
 * more; a chunk asked for beyond those is enqueued then. Chunks not needed when the iteration
 * has its decisions are taken off the queue. A chunk played by another policy version than
 * the one asked for, or one that fails on a worker, stops the run with the reason.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { ENGINE_VERSION } from '../env/index.ts';
import { encodeWeights, type NetWeights } from '../policy/index.ts';
import type { ChunkGame, IterationChunks, RolloutRequest, RolloutSource } from '../training/index.ts';
import { redisOptions } from './connection.ts';
import { WEIGHTS_PREFIX, type RolloutJob, type RolloutJobResult } from './jobs.ts';
import { JobTracker } from './tracker.ts';

export interface QueueRollouts extends RolloutSource {
  close(): Promise<void>;
}

export interface QueueRolloutsOptions {
  /** Connection trouble and waiting notices (default: nowhere). */
  log?: (line: string) => void;
  /** How often outstanding chunks are looked up besides the completion events (default 3000 ms). */
  sweepMs?: number;
}

/** How long published weights stay in Redis without being asked for again. */
const WEIGHTS_TTL_S = 24 * 3600;
/** How long without a chunk back before the learner says it is still waiting. */
const STALL_NOTICE_MS = 30_000;

interface Iteration {
  request: RolloutRequest;
  keys: Promise<{ policy: string; snapshots: string[] }>;
  results: Map<number, ChunkGame[]>;
  waiting: Map<number, { resolve(g: ChunkGame[]): void; reject(e: Error): void }>;
  /** Chunks enqueued (0 … enqueued − 1) and the last one asked for. */
  enqueued: number;
  asked: number;
  chain: Promise<void>;
  ids: Set<string>;
}

export async function queueRollouts(url: string, o: QueueRolloutsOptions = {}): Promise<QueueRollouts> {
  // Imported here, not with queue/: only a learner, which has loaded training/ already, needs it.
  const { decodeChunk } = await import('../training/index.ts');
  const run = randomBytes(6).toString('hex');
  const redis = new Redis({ ...redisOptions(url), lazyConnect: true });
  redis.on('error', () => {}); // told once per outage by the tracker's listeners
  const iterations = new Map<number, Iteration>();
  const byId = new Map<string, { it: Iteration; k: number }>();
  let failure: Error | undefined;
  /** Chunks the latest finished iteration used: how many the next enqueues at once. */
  let lastUsed = 3;
  let lastResult = Date.now();

  const fail = (e: Error) => {
    failure ??= e;
    for (const it of iterations.values()) for (const w of it.waiting.values()) w.reject(failure);
  };
  const jobs = new JobTracker<RolloutJob, RolloutJobResult>(url, {
    log: o.log,
    onResult: (id, value) => {
      const at = byId.get(id);
      if (!at) return;
      byId.delete(id);
      lastResult = Date.now();
      const { it, k } = at;
      if (value.version !== it.request.version) {
        fail(new Error(`rollout chunk ${k} of iteration ${it.request.iteration} came back from policy version ${value.version}, not ${it.request.version}`));
        return;
      }
      let games: ChunkGame[];
      try {
        games = decodeChunk(value.games);
      } catch (e) {
        fail(new Error(`rollout chunk ${k} of iteration ${it.request.iteration} came back malformed: ${(e as Error).message}`));
        return;
      }
      const w = it.waiting.get(k);
      if (w) {
        it.waiting.delete(k);
        w.resolve(games);
      } else it.results.set(k, games);
    },
    onFailure: (id, reason) => fail(new Error(`a queue worker failed on rollout chunk ${id}: ${reason}`)),
  });

  /** Weights' keys, by the weights object (snapshots are published once, not every iteration). */
  const encoded = new WeakMap<NetWeights, { key: string; text: string }>();
  const live = new Set<string>();
  const publish = async (w: NetWeights, force = false): Promise<string> => {
    let e = encoded.get(w);
    if (!e) {
      const text = JSON.stringify(encodeWeights(w));
      e = { key: createHash('sha256').update(text).digest('hex'), text };
      encoded.set(w, e);
    }
    // Known to Redis already: its expiry is renewed (and the weights sent again if they are gone).
    if (force || !live.has(e.key) || (await redis.expire(WEIGHTS_PREFIX + e.key, WEIGHTS_TTL_S)) === 0) {
      await redis.set(WEIGHTS_PREFIX + e.key, e.text, 'EX', WEIGHTS_TTL_S);
      live.add(e.key);
    }
    return e.key;
  };
  const publishAll = (r: RolloutRequest, force = false) =>
    Promise.all([publish(r.weights, force), ...r.snapshots.map((s) => publish(s, force))]).then(([policy, ...snapshots]) => ({ policy, snapshots }));

  const enqueueUpTo = (it: Iteration, n: number) => {
    while (it.enqueued < n) {
      const k = it.enqueued++;
      const id = `${run}-${it.request.iteration}-${k}`;
      byId.set(id, { it, k });
      it.ids.add(id);
      it.chain = it.chain
        .then(async () => {
          const keys = await it.keys;
          const data: RolloutJob = { run, engine: ENGINE_VERSION, spec: it.request.spec(k), policy: { version: it.request.version, key: keys.policy }, snapshots: keys.snapshots };
          // Enqueued again after a Redis restart: the weights go back first.
          await jobs.add(id, 'rollout', data, async () => void (await publishAll(it.request, true)));
        })
        .catch((e: Error) => fail(new Error(`could not enqueue rollout chunks: ${e.message}`)));
    }
  };

  // Looks up outstanding chunks now and then (events missed while Redis was away), and says so
  // when none has come back for a while.
  let told = 0;
  const sweeper = setInterval(() => {
    if (failure || jobs.size === 0) {
      lastResult = Date.now();
      return;
    }
    void jobs.sweep(() => failure !== undefined).catch(() => {});
    const quiet = Date.now() - lastResult;
    if (quiet > STALL_NOTICE_MS && Date.now() - told > STALL_NOTICE_MS) {
      told = Date.now();
      void jobs.queue.getWorkersCount().then(
        (n) => o.log?.(`no rollout chunk came back for ${Math.round(quiet / 1000)} s; ${n} worker${n === 1 ? '' : 's'} listening; waiting`),
        () => {},
      );
    }
  }, o.sweepMs ?? 3000);
  sweeper.unref();

  await jobs.ready();
  await redis.connect();
  if ((await jobs.queue.getWorkersCount()) === 0) {
    o.log?.(`no worker is taking jobs from this queue yet: start 'czech-pub worker --queue …' on a machine that reaches it; the rollouts wait for one`);
  }

  return {
    start(request: RolloutRequest): IterationChunks {
      const it: Iteration = {
        request, keys: publishAll(request), results: new Map(), waiting: new Map(), enqueued: 0, asked: -1, chain: Promise.resolve(), ids: new Set(),
      };
      it.keys.catch((e: Error) => fail(new Error(`could not publish the policy's weights: ${e.message}`)));
      iterations.set(request.iteration, it);
      enqueueUpTo(it, lastUsed + 1);
      return {
        request,
        chunk(k: number): Promise<ChunkGame[]> {
          if (failure) return Promise.reject(failure);
          it.asked = Math.max(it.asked, k);
          enqueueUpTo(it, k + 2);
          const ready = it.results.get(k);
          if (ready) {
            it.results.delete(k);
            return Promise.resolve(ready);
          }
          return new Promise((resolve, reject) => it.waiting.set(k, { resolve, reject }));
        },
        close() {
          if (!iterations.has(request.iteration)) return;
          iterations.delete(request.iteration);
          if (it.asked >= 0) lastUsed = it.asked + 1;
          const unused = [...it.ids].filter((id) => byId.has(id));
          for (const id of unused) byId.delete(id);
          // Enqueueing may still be under way: what it adds is taken off after it.
          void it.chain.then(() => jobs.drop(unused)).catch(() => {});
        },
      };
    },
    async close() {
      clearInterval(sweeper);
      await Promise.all([...iterations.values()].map((it) => it.chain));
      await jobs.drop();
      await jobs.close();
      redis.disconnect();
    },
  };
}
