import { describe, expect, it } from 'vitest';
import { NUM_ACTIONS } from '../env/actions.ts';
import { OBS_SIZE } from '../env/observation/encode.ts';
import { loadPolicy, shippedModel } from '../agents/index.ts';
import { AFFINE_KERNELS, JsNet } from '../policy/index.ts';
import { collectInputs, differing } from './bench-policy.ts';
import { bufferIo } from './io.ts';
import { main } from './main.ts';

describe('czech-pub bench env', () => {
  it('--json prints exactly one JSON object with positive figures', async () => {
    const io = bufferIo();
    expect(await main(['bench', 'env', '--json', '--seconds', '0.2', '--players', '3'], io)).toBe(0);
    expect(io.stdout).toHaveLength(1);
    const r = JSON.parse(io.stdout[0]) as Record<string, unknown>;
    for (const key of ['decisionsPerSec', 'encodedDecisionsPerSec', 'gamesPerSec', 'decisionsPerGame']) {
      expect(r[key], key).toBeTypeOf('number');
      expect(r[key] as number, key).toBeGreaterThan(0);
    }
    expect(r).toMatchObject({ players: 3, seconds: 0.2, node: process.version, obsSize: OBS_SIZE, numActions: NUM_ACTIONS });
  });

  it('prints a readable table by default', async () => {
    const io = bufferIo();
    expect(await main(['bench', 'env', '--seconds', '0.1'], io)).toBe(0);
    const text = io.stdout.join('\n');
    expect(text).toContain('4 players');
    expect(text).toMatch(/engine only \(legal \+ step\)\s+[\d,]+/);
    expect(text).toMatch(/with encoding \+ mask\s+[\d,]+/);
  });
});

describe('czech-pub bench policy', () => {
  it('--json: both kernels timed on the same inputs, found to agree bit for bit', async () => {
    const io = bufferIo();
    expect(await main(['bench', 'policy', '--json', '--seconds', '0.1', '--inputs', '40', '--players', '2'], io)).toBe(0);
    expect(io.stdout).toHaveLength(1);
    const r = JSON.parse(io.stdout[0]) as Record<string, unknown>;
    expect(r).toMatchObject({ players: 2, inputs: 40, differingInputs: 0 });
    for (const kernel of AFFINE_KERNELS) {
      expect(r[`${kernel}Passes`] as number, kernel).toBeGreaterThan(0);
      expect(r[`${kernel}MicrosecondsPerPass`] as number, kernel).toBeGreaterThan(0);
    }
  });

  it('finds the kernels agreeing bit for bit on the shipped nets at 2–6 players, on the inputs of seeded games', async () => {
    for (let players = 2; players <= 6; players++) {
      const { weights } = loadPolicy(shippedModel(players));
      const nets = [new JsNet(weights, 'wasm'), new JsNet(weights, 'js')];
      expect(nets.map((n) => n.kernel)).toEqual(['wasm', 'js']);
      const inputs = await collectInputs(weights, players, 150);
      expect(inputs.x).toHaveLength(150);
      expect(differing(nets, inputs)).toBe(0);
    }
  });

  it('counts the inputs on which two nets disagree (what makes the command fail)', async () => {
    const { weights } = loadPolicy(shippedModel(4));
    const inputs = await collectInputs(weights, 4, 30);
    expect(differing([new JsNet(weights, 'wasm'), new JsNet(weights, 'js')], inputs)).toBe(0);
    const other = loadPolicy(shippedModel(2)).weights;
    expect(differing([new JsNet(weights, 'wasm'), new JsNet(other, 'wasm')], inputs)).toBe(30);
  });
});
