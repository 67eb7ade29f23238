/**
 * `czech-pub cfr`: solves a ruleset small enough to walk whole (micro) by CFR+ (eval/exact/
 * cfr.ts) for a time budget, and writes the average strategy as an agent usable everywhere
 * (`tabular:DIR/policy.json`) with its NashConv curve over iterations (curve.json, curve.svg,
 * beside random's NashConv for scale). The policy file is written again at every point of the
 * curve, so a run stopped early keeps what it had reached.
 */
import fs from 'node:fs';
import path from 'node:path';
import { tabularPolicyFile } from '../agents/index.ts';
import { MICRO_RULESET } from '../env/index.ts';
import { exploitability, logLogSvg, policyTable, solve, uniformPolicy, type CfrCurvePoint } from '../eval/index.ts';
import { EXIT_OK, UsageError, type Io } from './io.ts';
import { MAX_NODES_OPTION, walkTree } from './nashconv.ts';
import { helpText, parseOptions, PLAYERS_MAX, PLAYERS_MIN, type CommandSpec } from './options.ts';

export const CFR_FORMAT = 'czech-pub-cfr/1';

/** A NashConv in a line: small ones in exponent form, so that 4e-7 does not read as 0. */
const fmt = (v: number) => (v !== 0 && v < 1e-3 ? v.toExponential(3) : v.toFixed(6));

export const CFR = {
  name: 'cfr',
  synopsis: '[--players N] [--minutes M] [--out DIR] [options]',
  description: `Solves a ruleset small enough to walk whole (micro) by CFR+ for --minutes (or --iterations), and
writes the average strategy to DIR/policy.json, an agent every command can seat as
tabular:DIR/policy.json, with its exact NashConv over iterations (DIR/curve.json, DIR/curve.svg)
beside random's. At 2 players CFR+ converges to a Nash equilibrium; at 3 nothing guarantees it.`,
  options: {
    players: { type: 'int', arg: 'N', min: PLAYERS_MIN, max: PLAYERS_MAX, default: 2, help: 'players at the table' },
    minutes: { type: 'number', arg: 'M', min: 0, above: true, max: 1e5, default: 10, help: 'minutes of solving (the NashConv measurements not counted)' },
    iterations: { type: 'int', arg: 'N', min: 1, max: 1e9, defaultText: 'no limit', help: 'stop after this many iterations (deterministic: the same policy on any machine)' },
    ruleset: { type: 'ruleset', default: MICRO_RULESET, help: 'the ruleset: micro, or a JSON file of one as small' },
    reward: { type: 'choice', arg: 'R', choices: ['win', 'rank', 'score'], default: 'win', help: 'the payoff at the end (env/rewards.ts)' },
    out: { type: 'folder', default: 'cfr', help: 'where policy.json, curve.json and curve.svg are written: a new or empty folder' },
    'max-nodes': MAX_NODES_OPTION,
  },
} as const satisfies CommandSpec;

export interface CfrRecord {
  format: typeof CFR_FORMAT;
  ruleset: string;
  players: number;
  reward: string;
  tree: { nodes: number; infosets: number; seconds: number };
  randomNashConv: number;
  curve: CfrCurvePoint[];
  final: { iterations: number; seconds: number; nashConv: number; values: number[]; gains: number[] };
}

export async function cfrCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseOptions(CFR, args);
  if (!parsed) {
    io.out(helpText(CFR));
    return EXIT_OK;
  }
  const { players, minutes, iterations, reward, out, maxNodes } = parsed.values;
  if (fs.existsSync(out) && fs.readdirSync(out).length > 0) throw new UsageError(`--out ${out} already holds files; name a new or empty folder`);
  const ruleset = parsed.ruleset;
  const { tree, seconds } = walkTree(ruleset, players, reward, maxNodes, io);
  const random = exploitability(tree, uniformPolicy(tree)).nashConv;
  io.out(`random's NashConv: ${random.toFixed(5)}; solving for ${minutes} minutes${iterations ? ` or ${iterations} iterations` : ''}`);
  fs.mkdirSync(out, { recursive: true });
  const record: CfrRecord = {
    format: CFR_FORMAT,
    ruleset: ruleset.name,
    players,
    reward,
    tree: { nodes: tree.nodes, infosets: tree.infosets.length, seconds: +seconds.toFixed(2) },
    randomNashConv: random,
    curve: [],
    final: { iterations: 0, seconds: 0, nashConv: random, values: [], gains: [] },
  };
  const write = (point: CfrCurvePoint, policy: Float64Array) => {
    const source = { solver: 'CFR+', iterations: point.iterations, seconds: +point.seconds.toFixed(2), nashConv: point.nashConv };
    fs.writeFileSync(path.join(out, 'policy.json'), `${JSON.stringify(tabularPolicyFile(ruleset, players, source, policyTable(tree, policy)))}\n`);
    fs.writeFileSync(path.join(out, 'curve.json'), `${JSON.stringify(record, null, 2)}\n`);
    fs.writeFileSync(
      path.join(out, 'curve.svg'),
      logLogSvg(
        `CFR+ on ${ruleset.name}, ${players} players: NashConv of the average strategy`,
        'iterations',
        'NashConv',
        [{ name: `${players} players`, points: record.curve.map((p) => ({ x: p.iterations, y: p.nashConv })) }],
        [{ name: `random ${random.toFixed(3)}`, y: random }, { name: 'a tenth of random', y: random / 10 }],
      ),
    );
  };
  // Every point is written as it comes, the last being the end's: a run stopped early keeps what it reached.
  solve(tree, {
    seconds: minutes * 60,
    maxIterations: iterations,
    onPoint: (p, policy, e) => {
      const point = { ...p, seconds: +p.seconds.toFixed(3) };
      record.curve.push(point);
      record.final = { iterations: p.iterations, seconds: point.seconds, nashConv: e.nashConv, values: e.values, gains: e.gains };
      io.out(`  iteration ${p.iterations}: NashConv ${fmt(p.nashConv)} (${(p.nashConv / random).toExponential(2)} of random's) after ${p.seconds.toFixed(1)} s`);
      write(p, policy);
    },
  });
  const final = record.final;
  io.out(
    `CFR+ ${final.iterations} iterations in ${final.seconds.toFixed(1)} s: NashConv ${fmt(final.nashConv)}, ` +
      `${(final.nashConv / random).toExponential(2)} of random's. Policy in ${path.join(out, 'policy.json')} (seat it as tabular:${path.join(out, 'policy.json')}); curve in ${out}/curve.svg`,
  );
  return EXIT_OK;
}
