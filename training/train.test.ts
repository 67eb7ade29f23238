import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agents/default-registry.ts';
import { playGame } from '../eval/game.ts';
import { loadCheckpoint } from '../policy/checkpoint.ts';
import { TRAIN_DEFAULTS, type TrainOptions } from './options.ts';
import { readRunOptions, runTraining } from './run.ts';

function tiny(out: string, seed = 7): TrainOptions {
  return {
    ...TRAIN_DEFAULTS, seed, out, hidden: [16], numEnvs: 8, rolloutSteps: 256, minibatch: 128, epochs: 2,
    totalSteps: 700, evalEvery: 2, evalDeals: 1, evalOpponents: ['random'], checkpointEvery: 1, snapshotEvery: 1, backend: 'auto',
  };
}

describe('training', () => {
  it('a tiny run finishes, logs every iteration and writes a checkpoint an agent can play', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'train-'));
    const lines: string[] = [];
    const r = await runTraining(tiny(out), { log: (l) => lines.push(l) });
    expect(lines.some((l) => /^backend: (node|wasm|cpu)/.test(l))).toBe(true);
    expect(path.basename(r.dir)).toMatch(/^czechpub__ppo__7__\d+$/);
    expect(r.metrics.length).toBeGreaterThanOrEqual(2);
    for (const m of r.metrics) {
      expect(Number.isFinite(m.policyLoss) && Number.isFinite(m.valueLoss) && m.entropy > 0).toBe(true);
    }
    const files = fs.readdirSync(r.dir).sort();
    expect(files).toEqual(['curve.svg', 'metrics.jsonl', 'model.json', 'options.json', 'trainer.json']);
    const kinds = fs.readFileSync(path.join(r.dir, 'metrics.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).kind);
    expect(kinds.filter((k) => k === 'iteration').length).toBe(r.metrics.length);
    expect(kinds).toContain('eval');
    expect(fs.readFileSync(path.join(r.dir, 'curve.svg'), 'utf8')).toMatch(/^<svg[\s\S]*<\/svg>$/);
    const ckpt = loadCheckpoint(path.join(r.dir, 'model.json'));
    expect(ckpt.iteration).toBe(r.metrics.length);
    const agent = createAgent(`ppo:${path.join(r.dir, 'model.json')}`);
    const g = await playGame([agent, createAgent('random'), createAgent('random'), createAgent('random')], { seed: 'ppo-plays' });
    expect(g.agentDecisions[0]).toBeGreaterThan(0);
  });

  it('is deterministic for a seed, and --resume continues the run', async () => {
    const a = await runTraining(tiny(fs.mkdtempSync(path.join(os.tmpdir(), 'train-a-')), 11));
    const b = await runTraining(tiny(fs.mkdtempSync(path.join(os.tmpdir(), 'train-b-')), 11));
    const wa = loadCheckpoint(path.join(a.dir, 'model.json')).weights;
    const wb = loadCheckpoint(path.join(b.dir, 'model.json')).weights;
    expect(wb.layers.map((l) => [...l.w])).toEqual(wa.layers.map((l) => [...l.w]));
    expect(b.metrics.map((m) => m.policyLoss)).toEqual(a.metrics.map((m) => m.policyLoss));

    // --init: a new run from a's weights (fresh optimizer, iteration 1 first); at a vanishing
    // learning rate it ends where it began.
    const logs: string[] = [];
    const init = await runTraining({ ...tiny(fs.mkdtempSync(path.join(os.tmpdir(), 'train-init-')), 12), init: path.join(a.dir, 'model.json'), lr: 1e-12, totalSteps: 300 }, { log: (l) => logs.push(l) });
    expect(logs.some((l) => l.startsWith(`starting from the weights of ${path.join(a.dir, 'model.json')}`))).toBe(true);
    expect(init.metrics[0].iteration).toBe(1);
    const wi = loadCheckpoint(path.join(init.dir, 'model.json')).weights;
    wi.layers.forEach((l, i) => l.w.forEach((x, j) => expect(Math.abs(x - wa.layers[i].w[j])).toBeLessThan(1e-6)));

    const before = loadCheckpoint(path.join(a.dir, 'model.json'));
    const resumed = await runTraining({ ...readRunOptions(a.dir), totalSteps: before.steps + 300 }, {}, a.dir);
    expect(resumed.dir).toBe(a.dir);
    expect(resumed.metrics[0].iteration).toBe(before.iteration + 1);
    const after = loadCheckpoint(path.join(a.dir, 'model.json'));
    expect(after.steps).toBeGreaterThan(before.steps);
    expect(after.weights.layers[0].w).not.toEqual(before.weights.layers[0].w);
  });

  it('trains a net that reads advice; --init adds advice to a plain net; --resume keeps it', async () => {
    const logs: string[] = [];
    const a = await runTraining({ ...tiny(fs.mkdtempSync(path.join(os.tmpdir(), 'train-adv-')), 13), advice: 'heuristic', imitate: 'heuristic', imitateSteps: 300 }, { log: (l) => logs.push(l) });
    expect(logs.some((l) => l.startsWith('network: 767 (observation 569 + heuristic\'s advice)'))).toBe(true);
    const ck = loadCheckpoint(path.join(a.dir, 'model.json'));
    expect(ck.weights.shape.advice).toBe('heuristic');
    // The advice gain was trained (it moved from where it started).
    expect(ck.weights.layers[ck.weights.layers.length - 1].w[0]).not.toBe(4);
    const g = await playGame([createAgent(`ppo:${path.join(a.dir, 'model.json')}`), createAgent('heuristic'), createAgent('heuristic')], { seed: 'advised-plays' });
    expect(g.agentDecisions[0]).toBeGreaterThan(0);
    const resumed = await runTraining({ ...readRunOptions(a.dir), totalSteps: ck.steps + 300 }, {}, a.dir);
    expect(resumed.metrics[0].iteration).toBe(ck.iteration + 1);
    expect(loadCheckpoint(path.join(a.dir, 'model.json')).weights.shape.advice).toBe('heuristic');

    const plain = await runTraining(tiny(fs.mkdtempSync(path.join(os.tmpdir(), 'train-plain-')), 14));
    const widened = await runTraining({ ...tiny(fs.mkdtempSync(path.join(os.tmpdir(), 'train-widen-')), 15), init: path.join(plain.dir, 'model.json'), advice: 'heuristic', totalSteps: 300 });
    const w = loadCheckpoint(path.join(widened.dir, 'model.json')).weights;
    expect(w.shape).toMatchObject({ inputs: 767, advice: 'heuristic' });
    // A starting net whose advice disagrees with the options is refused.
    await expect(runTraining({ ...tiny(fs.mkdtempSync(path.join(os.tmpdir(), 'train-clash-')), 16), init: path.join(a.dir, 'model.json'), advice: 'none' })).rejects.toThrow(/reads heuristic advice, the options say none/);
  });

  it('--critic table trains a critic beside the net: its figures logged, kept in trainer.json, resumed; the policy reads its seat only', async () => {
    const logs: string[] = [];
    const o = { ...tiny(fs.mkdtempSync(path.join(os.tmpdir(), 'train-critic-')), 17), critic: 'table' as const, criticHidden: [8] };
    const a = await runTraining(o, { log: (l) => logs.push(l) });
    expect(logs.some((l) => l.startsWith('table critic: 684 (observation 569 + the other seats\' hands 115) → 8 → 1 value'))).toBe(true);
    for (const m of a.metrics) expect(Number.isFinite(m.criticLoss) && Number.isFinite(m.criticExplainedVariance)).toBe(true);
    const ck = loadCheckpoint(path.join(a.dir, 'model.json'));
    // The checkpoint is the policy alone, of the usual shape.
    expect(ck.weights.shape).toMatchObject({ inputs: 569, hidden: [16] });
    const state = JSON.parse(fs.readFileSync(path.join(a.dir, 'trainer.json'), 'utf8'));
    expect(state.critic.weights.shape).toMatchObject({ inputs: 684, hidden: [8], actions: 1 });
    expect(state.critic.optimizer.length).toBeGreaterThan(0);
    const resumed = await runTraining({ ...readRunOptions(a.dir), totalSteps: ck.steps + 300 }, {}, a.dir);
    expect(resumed.metrics[0].iteration).toBe(ck.iteration + 1);
    const after = JSON.parse(fs.readFileSync(path.join(a.dir, 'trainer.json'), 'utf8'));
    expect(after.critic.weights.layers[0].w).not.toEqual(state.critic.weights.layers[0].w);
    // Without the critic the same seed trains another policy: the advantages came from it.
    const plain = await runTraining({ ...o, critic: 'seat', out: fs.mkdtempSync(path.join(os.tmpdir(), 'train-critic-seat-')) });
    expect(plain.metrics[0].policyLoss).not.toBe(a.metrics[0].policyLoss);
    expect(plain.metrics[0].criticLoss).toBeUndefined();
  });
});
