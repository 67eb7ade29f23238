/**
 * Checkpoints: one JSON file holding the policy's weights (little-endian float32, base64) and
 * what is needed to trust them: the env spec (action-space, observation and engine versions,
 * ruleset fingerprint), the ruleset itself, the trainer's options, iteration, step count and
 * latest metrics. Loading checks the format and the env spec, and refuses a mismatch naming
 * each difference. Files are written atomically: to a temporary file in the same directory,
 * flushed, then renamed over the old one, so a crash mid-save leaves the previous file whole.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { assertCompatible, DEFAULT_RULESET, envSpec, parseRuleset, rulesetFingerprint, type EnvSpec, type Ruleset } from '../env/index.ts';
import { ADVISERS, netInputs, type NetShape, type NetWeights } from './weights.ts';

export const CHECKPOINT_FORMAT = 'czech-pub-gym/policy';
export const CHECKPOINT_VERSION = 1;

export interface Checkpoint {
  format: typeof CHECKPOINT_FORMAT;
  formatVersion: number;
  env: EnvSpec;
  ruleset: Ruleset;
  /** Player count the policy was trained for (it plays any count the observation allows). */
  players: number;
  iteration: number;
  steps: number;
  options: Record<string, unknown>;
  metrics: Record<string, unknown>;
  createdAt: string;
  weights: NetWeights;
}

const layerSchema = z.object({ rows: z.number().int().positive(), cols: z.number().int().positive(), w: z.string(), b: z.string() });
const fileSchema = z.object({
  format: z.literal(CHECKPOINT_FORMAT),
  formatVersion: z.number().int(),
  env: z.object({
    engineVersion: z.number(),
    actionSpaceVersion: z.number(),
    observationVersion: z.number(),
    numActions: z.number(),
    observationSize: z.number(),
    maxPlayers: z.number(),
    ruleset: z.object({ name: z.string(), fingerprint: z.string() }),
  }),
  ruleset: z.record(z.string(), z.unknown()),
  players: z.number().int(),
  iteration: z.number().int(),
  steps: z.number(),
  options: z.record(z.string(), z.unknown()),
  metrics: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  shape: z.object({ inputs: z.number().int(), hidden: z.array(z.number().int()), actions: z.number().int(), advice: z.enum(ADVISERS).optional() }),
  layers: z.array(layerSchema),
});

/** float32 values as base64 (little-endian bytes); also used for the trainer's state (run.ts). */
export function encodeFloats(a: Float32Array): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
}

/** The inverse of encodeFloats; with `expected`, a wrong length fails naming `what`. */
export function decodeFloats(text: string, expected?: number, what = 'data'): Float32Array {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length % 4 !== 0 || (expected !== undefined && bytes.length !== expected * 4)) {
    throw new Error(`${what}: expected ${expected ?? 'whole'} floats, found ${bytes.length / 4}`);
  }
  const out = new Float32Array(bytes.length / 4);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}

/** A net's weights as JSON: the shape, and each layer's size and floats (encodeFloats). */
export interface EncodedWeights {
  shape: NetShape;
  layers: { rows: number; cols: number; w: string; b: string }[];
}

/** Also used for the trainer's snapshots (run.ts). */
export function encodeWeights(w: NetWeights): EncodedWeights {
  return { shape: w.shape, layers: w.layers.map((l) => ({ rows: l.rows, cols: l.cols, w: encodeFloats(l.w), b: encodeFloats(l.b) })) };
}

/** The inverse of encodeWeights, checking every layer's size against the shape; errors name `what`. */
/** `inputs`: the width the net must read (a policy's: the observation, and its advice); a training-only net (a table critic) gives its own. */
export function decodeWeights(j: EncodedWeights, what: string, inputs = netInputs(j.shape.advice)): NetWeights {
  if (j.shape.advice !== undefined && !(ADVISERS as readonly string[]).includes(j.shape.advice)) {
    throw new Error(`${what} is malformed: advice '${j.shape.advice}' is none of ${ADVISERS.join(', ')}`);
  }
  if (j.shape.inputs !== inputs) {
    throw new Error(`${what} is malformed: ${j.shape.inputs} inputs, want ${inputs}${inputs === netInputs(j.shape.advice) ? ` (the observation${j.shape.advice ? ` and ${j.shape.advice}'s advice` : ''})` : ''}`);
  }
  const dims = [j.shape.inputs, ...j.shape.hidden];
  const expected = [...dims.slice(0, -1).map((d, i) => [d, dims[i + 1]]), [dims[dims.length - 1], j.shape.actions], [dims[dims.length - 1], 1]];
  if (j.shape.advice) expected.push([1, 1]); // the advice gain
  if (j.layers.length !== expected.length) throw new Error(`${what} is malformed: ${j.layers.length} layers for shape ${JSON.stringify(j.shape)}`);
  const layers = j.layers.map((l, i) => {
    const [rows, cols] = expected[i];
    if (l.rows !== rows || l.cols !== cols) throw new Error(`${what} is malformed: layer ${i} is ${l.rows}×${l.cols}, want ${rows}×${cols}`);
    return { rows, cols, w: decodeFloats(l.w, rows * cols, `${what} layer ${i} weights`), b: decodeFloats(l.b, cols, `${what} layer ${i} biases`) };
  });
  return { shape: j.shape, layers };
}

/** Writes `text` to `file` atomically (temporary file, fsync, rename). */
export function writeFileAtomic(file: string, text: string): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    const fd = fs.openSync(tmp, 'w');
    try {
      fs.writeSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

export function serializeCheckpoint(c: Omit<Checkpoint, 'format' | 'formatVersion' | 'env'>): string {
  const { weights, ...meta } = c;
  return JSON.stringify({
    format: CHECKPOINT_FORMAT,
    formatVersion: CHECKPOINT_VERSION,
    env: envSpec(c.ruleset),
    ...meta,
    ...encodeWeights(weights),
  });
}

export function saveCheckpoint(file: string, c: Omit<Checkpoint, 'format' | 'formatVersion' | 'env'>): void {
  writeFileAtomic(file, serializeCheckpoint(c));
}

/**
 * Parses a checkpoint, checking its format, version and env against `ruleset` (default: the
 * standard rules; null: the ruleset it was trained under, whichever it is, for a player that
 * checks the game's rules itself, agents/agent.ts rulesetMismatch). To `play`, a checkpoint
 * from an older engine version is accepted (see assertCompatible); to `resume` training, the
 * engine must be the same.
 */
export function parseCheckpoint(
  text: string, what: string, ruleset: Ruleset | null = DEFAULT_RULESET, purpose: 'play' | 'resume' = 'play',
): Checkpoint {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`${what} is not a checkpoint (not JSON: ${(err as Error).message})`);
  }
  const format = (raw as { format?: unknown } | null)?.format;
  if (format !== CHECKPOINT_FORMAT) throw new Error(`${what} is not a czech-pub-gym policy checkpoint (format ${JSON.stringify(format)})`);
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${what} is malformed: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const f = parsed.data;
  if (f.formatVersion !== CHECKPOINT_VERSION) {
    throw new Error(`${what} has checkpoint format version ${f.formatVersion}; this build reads version ${CHECKPOINT_VERSION}`);
  }
  let own: Ruleset;
  try {
    own = parseRuleset(f.ruleset);
  } catch (err) {
    throw new Error(`${what} holds an invalid ruleset: ${(err as Error).message}`);
  }
  // A file from before ruleset schema 2 holds a fingerprint made another way (cards by id, the
  // schema version counted); its ruleset, read as version 2, is the one to fingerprint.
  const env = f.ruleset.version === 1
    ? { ...(f.env as EnvSpec), ruleset: { name: own.name, fingerprint: rulesetFingerprint(own) } }
    : (f.env as EnvSpec);
  assertCompatible(envSpec(ruleset ?? own), env, what, purpose === 'resume');
  return {
    format: CHECKPOINT_FORMAT,
    formatVersion: f.formatVersion,
    env,
    ruleset: own,
    players: f.players,
    iteration: f.iteration,
    steps: f.steps,
    options: f.options,
    metrics: f.metrics,
    createdAt: f.createdAt,
    weights: decodeWeights(f, what),
  };
}

/** Larger than any net this project trains (the shipped one is about 1 MB): refused unread. */
export const MAX_CHECKPOINT_BYTES = 256 * 1024 * 1024;

export function loadCheckpoint(file: string, ruleset?: Ruleset | null, purpose: 'play' | 'resume' = 'play'): Checkpoint {
  let text: string;
  try {
    // A device, a pipe or a folder is no checkpoint: check before reading (reading /dev/zero never ends).
    const st = fs.statSync(file);
    if (!st.isFile()) throw new Error(`checkpoint ${file} is not a regular file`);
    if (st.size > MAX_CHECKPOINT_BYTES) throw new Error(`checkpoint ${file} is ${st.size} bytes, over the ${MAX_CHECKPOINT_BYTES}-byte limit`);
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if (!(err as NodeJS.ErrnoException).code) throw err;
    throw new Error(`cannot read checkpoint ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return parseCheckpoint(text, `checkpoint ${file}`, ruleset, purpose);
}
