/**
 * The training parts of `czech-pub bench queue`.
 *
 * `rolloutTransfer`: how a rollout chunk is best sent from a worker to the learner. Chunks of
 * the default training setup (default network, random-initialised; default pool) are sent
 * both ways and taken in by the learner: as the worker sends them (actions, log-probabilities
 * and values; the learner replays the games and encodes the observations), and as the rows the
 * learner trains on (observation floats and mask per decision, base64 in JSON). Reports bytes
 * per learner decision and the learner's time to take a decision in, each way.
 *
 * `trainingThroughput`: a few default PPO iterations in this process with rollouts played here,
 * then through the queue at staleness 0 and 1; learner decisions per second of each.
 */
import { NUM_ACTIONS, OBS_SIZE } from '../env/index.ts';
import { decodeFloats, encodeFloats, initWeights } from '../policy/index.ts';
import {
  ChunkPlayer, decodeChunk, encodeChunk, parsePool, replayChunk, RolloutBuffer, RolloutTally, TfNet, train, TRAIN_DEFAULTS,
  UNBOUNDED_STEPS, type ChunkSpec, type RolloutSource,
} from '../training/index.ts';

export interface TransferFigures {
  chunks: number;
  decisions: number;
  /** Bytes of JSON per learner decision, and the learner's microseconds per decision to take it in. */
  compactBytesPerDecision: number;
  fullBytesPerDecision: number;
  compactUsPerDecision: number;
  fullUsPerDecision: number;
}

function chunkSpec(k: number): ChunkSpec {
  const o = TRAIN_DEFAULTS;
  return { seed: `bench-transfer/${k}`, games: o.numEnvs, players: o.players, ruleset: o.ruleset, pool: parsePool(o.opponents), reward: o.reward, snapshots: 0 };
}

export function rolloutTransfer(chunks: number): TransferFigures {
  const o = TRAIN_DEFAULTS;
  const net = new TfNet(initWeights({ inputs: OBS_SIZE, hidden: o.hidden, actions: NUM_ACTIONS }, 'bench-transfer'));
  const player = new ChunkPlayer();
  const compact: string[] = [];
  const full: string[] = [];
  let decisions = 0;
  for (let k = 0; k < chunks; k++) {
    const spec = chunkSpec(k);
    const games = player.play(spec, net, []);
    compact.push(JSON.stringify(encodeChunk(games)));
    // The same chunk as training rows: what a worker would send instead.
    const b = new RolloutBuffer();
    replayChunk(spec, games, b, o.gamma, o.lambda, new RolloutTally());
    decisions += b.size;
    full.push(JSON.stringify({
      obs: encodeFloats(b.obs.subarray(0, b.size * OBS_SIZE)), mask: Buffer.from(b.mask.subarray(0, b.size * NUM_ACTIONS)).toString('base64'),
      action: Buffer.from(b.action.buffer, 0, b.size * 4).toString('base64'), logp: encodeFloats(b.logp.subarray(0, b.size)),
      value: encodeFloats(b.value.subarray(0, b.size)), adv: encodeFloats(b.adv.subarray(0, b.size)), ret: encodeFloats(b.ret.subarray(0, b.size)),
    }));
  }
  net.dispose();
  const bytes = (xs: string[]) => xs.reduce((n, x) => n + Buffer.byteLength(x), 0) / decisions;
  // The learner's side, each way, into one reused buffer; the faster of three passes.
  const time = (f: () => void) => {
    let best = Infinity;
    for (let pass = 0; pass < 3; pass++) {
      const t0 = performance.now();
      f();
      best = Math.min(best, performance.now() - t0);
    }
    return (best * 1000) / decisions;
  };
  const into = new RolloutBuffer(decisions);
  const compactUs = time(() => {
    into.clear();
    const tally = new RolloutTally();
    compact.forEach((text, k) => replayChunk(chunkSpec(k), decodeChunk(JSON.parse(text)), into, o.gamma, o.lambda, tally));
  });
  const fullUs = time(() => {
    into.clear();
    for (const text of full) {
      const j = JSON.parse(text);
      const logp = decodeFloats(j.logp);
      const n = logp.length;
      const r0 = into.size;
      for (let r = 0; r < n; r++) into.push();
      into.obs.set(decodeFloats(j.obs, n * OBS_SIZE), r0 * OBS_SIZE);
      into.mask.set(Buffer.from(j.mask, 'base64'), r0 * NUM_ACTIONS);
      into.action.set(new Int32Array(new Uint8Array(Buffer.from(j.action, 'base64')).buffer), r0);
      into.logp.set(logp, r0);
      into.value.set(decodeFloats(j.value, n), r0);
      into.adv.set(decodeFloats(j.adv, n), r0);
      into.ret.set(decodeFloats(j.ret, n), r0);
    }
  });
  return {
    chunks, decisions,
    compactBytesPerDecision: Math.round(bytes(compact) * 10) / 10,
    fullBytesPerDecision: Math.round(bytes(full)),
    compactUsPerDecision: Math.round(compactUs * 100) / 100,
    fullUsPerDecision: Math.round(fullUs * 100) / 100,
  };
}

export interface TrainingFigures {
  where: string;
  staleness: number;
  iterationsCounted: number;
  /** Learner decisions trained on per second of wall time (the first iteration not counted). */
  decisionsPerSec: number;
}

/** Default PPO for `iterations` iterations (the first, a warm-up, not counted). */
export async function trainingThroughput(where: string, iterations: number, staleness: number, rollouts?: RolloutSource): Promise<TrainingFigures> {
  let n = 0;
  const r = await train({ ...TRAIN_DEFAULTS, staleness, totalSteps: UNBOUNDED_STEPS }, { rollouts, shouldStop: () => n++ >= iterations });
  const first = r.metrics[0];
  const last = r.metrics[r.metrics.length - 1];
  return {
    where, staleness, iterationsCounted: r.metrics.length - 1,
    decisionsPerSec: Math.round((last.steps - first.steps) / (last.seconds - first.seconds)),
  };
}
