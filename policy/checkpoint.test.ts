import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NUM_ACTIONS } from '../env/actions.ts';
import { OBS_SIZE } from '../env/observation/encode.ts';
import { DEFAULT_RULESET } from '../env/ruleset.ts';
import { nextFloat, seedRng } from '../env/rng.ts';
import { rulesetFingerprint } from '../env/spec.ts';
import { loadCheckpoint, parseCheckpoint, saveCheckpoint, serializeCheckpoint, writeFileAtomic } from './checkpoint.ts';
import { initWeights, JsNet } from './weights.ts';

const weights = initWeights({ inputs: OBS_SIZE, hidden: [16], actions: NUM_ACTIONS }, 'ckpt');
const meta = { ruleset: DEFAULT_RULESET, players: 4, iteration: 3, steps: 1234, options: { lr: 1e-3 }, metrics: { entropy: 1.5 }, createdAt: '2026-11-29T00:00:00Z', weights };

function tmpDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'ckpt-'));
}

describe('checkpoints', () => {
  it('round-trips to identical outputs', () => {
    const file = path.join(tmpDir(), 'model.json');
    saveCheckpoint(file, meta);
    const back = loadCheckpoint(file);
    expect(back.iteration).toBe(3);
    expect(back.steps).toBe(1234);
    expect(back.env.observationSize).toBe(OBS_SIZE);
    const rng = seedRng('obs');
    const x = Float32Array.from({ length: OBS_SIZE }, () => (nextFloat(rng) < 0.8 ? 0 : nextFloat(rng)));
    const mask = Uint8Array.from({ length: NUM_ACTIONS }, (_, a) => (a % 3 === 0 ? 1 : 0));
    const a = new Float32Array(NUM_ACTIONS);
    const b = new Float32Array(NUM_ACTIONS);
    const va = new JsNet(weights).forward(x, mask, a);
    const vb = new JsNet(back.weights).forward(x, mask, b);
    expect(vb).toBe(va);
    expect(b).toEqual(a);
  });

  it('refuses a checkpoint made for another observation version or ruleset, naming the difference', () => {
    const j = JSON.parse(serializeCheckpoint(meta));
    j.env.observationVersion += 1;
    expect(() => parseCheckpoint(JSON.stringify(j), 'old.json')).toThrow(/old\.json was made with a different environment: observation version/);
    const k = JSON.parse(serializeCheckpoint(meta));
    k.env.ruleset.fingerprint = 'deadbeef';
    expect(() => parseCheckpoint(JSON.stringify(k), 'other.json')).toThrow(/ruleset fingerprint deadbeef/);
    const f = JSON.parse(serializeCheckpoint(meta));
    f.formatVersion = 99;
    expect(() => parseCheckpoint(JSON.stringify(f), 'new.json')).toThrow(/format version 99/);
  });

  it('plays a checkpoint from ruleset schema 1 (card zelena, the old fingerprint) under the same rules', () => {
    const j = JSON.parse(serializeCheckpoint(meta));
    const { peppermint, ...others } = j.ruleset.cards;
    j.ruleset = { ...j.ruleset, version: 1, cards: { ...others, zelena: peppermint } };
    j.env.ruleset.fingerprint = '8810fa91';
    const read = parseCheckpoint(JSON.stringify(j), 'v1.json');
    expect(read.env.ruleset.fingerprint).toBe(rulesetFingerprint(DEFAULT_RULESET));
    expect(read.ruleset.cards.peppermint).toEqual(peppermint);
    j.ruleset.cards.beer.count += 1;
    expect(() => parseCheckpoint(JSON.stringify(j), 'v1-other.json')).toThrow(/v1-other\.json was made with a different environment: ruleset fingerprint/);
  });

  it('refuses files that are not checkpoints or are damaged', () => {
    expect(() => parseCheckpoint('{"a":', 'x.json')).toThrow(/not a checkpoint \(not JSON/);
    expect(() => parseCheckpoint('{"format":"something"}', 'x.json')).toThrow(/not a czech-pub-gym policy checkpoint/);
    const j = JSON.parse(serializeCheckpoint(meta));
    j.layers[0].w = j.layers[0].w.slice(0, 100);
    expect(() => parseCheckpoint(JSON.stringify(j), 'cut.json')).toThrow(/cut\.json layer 0 weights: expected/);
    expect(() => loadCheckpoint('/nonexistent/model.json')).toThrow(/cannot read checkpoint .*ENOENT/);
    // Refused before reading: a device that never ends, a folder.
    expect(() => loadCheckpoint('/dev/zero')).toThrow(/not a regular file/);
    expect(() => loadCheckpoint(tmpDir())).toThrow(/not a regular file/);
  });

  it('writes atomically: the old file stays whole until the new one is complete, and no temporary file is left', () => {
    const dir = tmpDir();
    const file = path.join(dir, 'model.json');
    writeFileAtomic(file, 'first');
    writeFileAtomic(file, 'second');
    expect(fs.readFileSync(file, 'utf8')).toBe('second');
    expect(fs.readdirSync(dir)).toEqual(['model.json']);
    // A write that fails part-way (here: the text cannot be written) leaves the old file.
    expect(() => writeFileAtomic(file, { toString: () => { throw new Error('disk full'); } } as unknown as string)).toThrow();
    expect(fs.readFileSync(file, 'utf8')).toBe('second');
    expect(fs.readdirSync(dir)).toEqual(['model.json']);
  });
});
