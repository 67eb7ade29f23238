/**
 * `czech-pub bench policy`: the trained policy's forward pass, one observation at a time, in
 * each of its kernels (policy/affine.ts). The inputs are real: the shipped net's own inputs at
 * the decisions of seeded games among `heuristic` seats. Each kernel runs its passes in turns
 * (js, wasm, js, wasm, ...) so a machine whose speed drifts weighs on both alike; before timing,
 * every input's logits and value are compared bit for bit between the kernels.
 */
import { cpus } from 'node:os';
import { createAgent, loadPolicy, SeatInput, shippedModel, type Agent, type AgentObservation } from '../agents/index.ts';
import { NUM_ACTIONS } from '../env/index.ts';
import { playGame } from '../eval/index.ts';
import { AFFINE_KERNELS, JsNet, type AffineKernel, type NetWeights } from '../policy/index.ts';
import { warmupSeconds } from './bench-env.ts';
import { EXIT_FAILURE, EXIT_OK, type Io } from './io.ts';
import { helpText, parseOptions, PLAYERS_MAX, PLAYERS_MIN, type CommandSpec } from './options.ts';
import { formatNumber, formatTable } from './table.ts';

export const BENCH_POLICY = {
  name: 'bench policy',
  description: `Measures the shipped policy net's forward pass (the logits of the legal actions and
the value, one observation at a time, as the ppo and ppo-search agents run it) in each
kernel: WebAssembly SIMD and plain JavaScript. The inputs are the net's own at the
decisions of seeded games among heuristic seats; both kernels are first checked to give
the same figures, bit for bit, on every one. Each kernel then runs for about T seconds,
in turns with the other, after a short warm-up.`,
  options: {
    players: { type: 'int', arg: 'N', min: PLAYERS_MIN, max: PLAYERS_MAX, default: 4, help: 'the shipped net for this many players' },
    seconds: { type: 'number', arg: 'T', min: 0, above: true, max: 3600, default: 3, help: 'seconds of timing per kernel' },
    inputs: { type: 'int', arg: 'N', min: 1, max: 100000, default: 2000, help: 'inputs to collect and cycle through' },
    json: { type: 'flag', help: 'print one JSON object instead of a table' },
  },
} as const satisfies CommandSpec;

interface Inputs {
  x: Float32Array[];
  mask: Uint8Array[];
}

/** The net's inputs at the first `count` decisions of seeded games among heuristic seats. */
export async function collectInputs(weights: NetWeights, players: number, count: number): Promise<Inputs> {
  const got: Inputs = { x: [], mask: [] };
  for (let game = 0; got.x.length < count; game++) {
    const seats: Agent[] = Array.from({ length: players }, () => {
      const input = new SeatInput(weights.shape);
      const h = createAgent('heuristic');
      return {
        spec: 'heuristic',
        reset: (g) => {
          input.reset(g.seat, g.players, g.seed, g.ruleset);
          h.reset?.(g);
        },
        act: (obs: AgentObservation) => {
          if (got.x.length < count) {
            got.x.push(Float32Array.from(input.input(obs)));
            got.mask.push(Uint8Array.from(obs.mask));
          }
          return h.act(obs);
        },
      };
    });
    await playGame(seats, { seed: `bench-policy/${game}` });
  }
  return got;
}

/** Inputs on which the kernels' logits or value differ in any bit. */
export function differing(nets: JsNet[], inputs: Inputs): number {
  const out = nets.map(() => new Float32Array(NUM_ACTIONS));
  let differ = 0;
  inputs.x.forEach((x, i) => {
    const values = nets.map((net, k) => net.forward(x, inputs.mask[i], out[k]));
    const same = values.every((v) => Object.is(v, values[0])) && out.every((o) => Buffer.from(o.buffer).equals(Buffer.from(out[0].buffer)));
    if (!same) differ++;
  });
  return differ;
}

export interface PolicyBenchResult {
  players: number;
  inputs: number;
  differing: number;
  seconds: number;
  /** Per kernel: passes made and the seconds they took. */
  kernels: { kernel: AffineKernel; passes: number; seconds: number }[];
}

export async function benchPolicy(players: number, seconds: number, count: number): Promise<PolicyBenchResult> {
  const { weights } = loadPolicy(shippedModel(players));
  const inputs = await collectInputs(weights, players, count);
  const nets = AFFINE_KERNELS.map((k) => new JsNet(weights, k));
  const diff = differing(nets, inputs);
  const logits = new Float32Array(NUM_ACTIONS);
  let next = 0;
  const run = (net: JsNet, ms: number) => {
    let passes = 0;
    const t0 = performance.now();
    do {
      for (let k = 0; k < 50; k++, passes++, next = (next + 1) % inputs.x.length) net.forward(inputs.x[next], inputs.mask[next], logits);
    } while (performance.now() - t0 < ms);
    return { passes, seconds: (performance.now() - t0) / 1000 };
  };
  for (const net of nets) run(net, warmupSeconds(seconds) * 1000);
  const kernels = nets.map((net) => ({ kernel: net.kernel, passes: 0, seconds: 0 }));
  const turns = 10;
  for (let turn = 0; turn < turns; turn++) {
    nets.forEach((net, k) => {
      const r = run(net, (seconds * 1000) / turns);
      kernels[k].passes += r.passes;
      kernels[k].seconds += r.seconds;
    });
  }
  return { players, inputs: inputs.x.length, differing: diff, seconds, kernels };
}

const microseconds = (k: PolicyBenchResult['kernels'][number]) => (k.seconds * 1e6) / k.passes;

export function benchPolicyRecord(r: PolicyBenchResult): Record<string, number | string> {
  const rec: Record<string, number | string> = { players: r.players, inputs: r.inputs, differingInputs: r.differing, seconds: r.seconds };
  for (const k of r.kernels) {
    rec[`${k.kernel}MicrosecondsPerPass`] = Number(microseconds(k).toFixed(2));
    rec[`${k.kernel}Passes`] = k.passes;
  }
  return { ...rec, node: process.version, cpu: cpus()[0]?.model ?? 'unknown', date: new Date().toISOString() };
}

export async function benchPolicyCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseOptions(BENCH_POLICY, args);
  if (!parsed) {
    io.out(helpText(BENCH_POLICY));
    return EXIT_OK;
  }
  const { players, seconds, inputs, json } = parsed.values;
  if (!json) io.err(`Collecting ${inputs} inputs, then about ${Math.ceil(2 * (seconds + warmupSeconds(seconds)))} s of timing...`);
  const r = await benchPolicy(players, seconds, inputs);
  // Kernels that disagree are a fault, not a figure: the command fails.
  const status = r.differing === 0 ? EXIT_OK : EXIT_FAILURE;
  if (json) {
    io.out(JSON.stringify(benchPolicyRecord(r)));
    return status;
  }
  const js = r.kernels.find((k) => k.kernel === 'js')!;
  io.out(`Policy forward pass: the shipped ${players}-player net, ${r.inputs} inputs from seeded games, one core, Node ${process.version}`);
  io.out(
    r.differing === 0
      ? `The kernels agree bit for bit on all ${r.inputs} inputs.`
      : `THE KERNELS DIFFER on ${r.differing} of ${r.inputs} inputs: a fault (policy/affine.ts promises the same bits).`,
  );
  io.out('');
  const rows = r.kernels.map((k) => [k.kernel, formatNumber(microseconds(k), 1), formatNumber(k.passes / k.seconds), `${(microseconds(js) / microseconds(k)).toFixed(2)}×`]);
  for (const line of formatTable(['kernel', 'µs a pass', 'passes/s', 'speed against js'], rows)) io.out(line);
  return status;
}
