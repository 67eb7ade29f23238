/**
 * `czech-pub nashconv`: how far an agent is from unexploitable, exactly, on a ruleset small
 * enough to walk whole (the micro one). The game tree, every deal, draw and die roll included,
 * is walked once (eval/exact/tree.ts); each agent's action probabilities are read at every
 * information set; then each seat's best-response value against the others playing the agent,
 * and NashConv, the sum of what the best responses gain. Prints the tree's size and the time
 * each part took; --out writes the figures as JSON.
 */
import fs from 'node:fs';
import { createAgent } from '../agents/index.ts';
import { MICRO_RULESET, type Ruleset } from '../env/index.ts';
import { agentPolicy, exploitability, GameTree, TREE_DEFAULTS, treePolicyProblem, TreeTooLargeError, type Exploitability } from '../eval/index.ts';
import { EXIT_FAILURE, EXIT_OK, UsageError, type Io } from './io.ts';
import { helpText, parseOptions, PLAYERS_MAX, PLAYERS_MIN, type CommandSpec } from './options.ts';

export const NASHCONV_FORMAT = 'czech-pub-nashconv/1';

/** The walk's memory bound: a tree past it is refused (about 2.4 KB a node at 3 players). */
export const MAX_NODES_OPTION = {
  type: 'int', arg: 'N', min: 1, max: 50_000_000, default: TREE_DEFAULTS.maxNodes, help: 'refuse a game tree of more nodes than this (memory: about 2.4 KB a node)',
} as const;

export const NASHCONV = {
  name: 'nashconv',
  synopsis: '--agent SPEC[,SPEC…] [--players N] [options]',
  description: `Computes exactly how exploitable agents are on a ruleset small enough to walk whole (micro):
walks the game tree, chance included, and for each agent (every seat playing it) prints each
seat's value, its best-response value against the others and the gain, and NashConv (the sum
of the gains; 0 at a Nash equilibrium). Payoffs are the win share (1 shared among tied winners)
unless --reward says otherwise. Prints the tree's size and the time taken.`,
  options: {
    agent: { type: 'list', arg: 'SPEC,…', required: true, help: 'agent specs: random, heuristic, ppo:<model.json>[:sample=true], tabular:<policy.json>, …' },
    players: { type: 'int', arg: 'N', min: PLAYERS_MIN, max: PLAYERS_MAX, default: 2, help: 'players at the table' },
    ruleset: { type: 'ruleset', default: MICRO_RULESET, help: 'the ruleset: micro, or a JSON file of one as small' },
    reward: { type: 'choice', arg: 'R', choices: ['win', 'rank', 'score'], default: 'win', help: 'the payoff at the end (env/rewards.ts)' },
    out: { type: 'string', arg: 'FILE', default: '', defaultText: 'none', help: 'also write the figures to this JSON file' },
    'max-nodes': MAX_NODES_OPTION,
  },
} as const satisfies CommandSpec;

export interface NashConvRecord {
  format: typeof NASHCONV_FORMAT;
  ruleset: string;
  players: number;
  reward: string;
  tree: { nodes: number; ends: number; chanceOutcomes: number; infosets: number[]; seconds: number };
  agents: ({ agent: string; seconds: number } & Exploitability)[];
}

/** The walked tree of a command's options, its size said in one line; a tree too large is the user's to shrink. */
export function walkTree(ruleset: Ruleset, players: number, reward: 'win' | 'rank' | 'score', maxNodes: number, io: Io): { tree: GameTree; seconds: number } {
  const start = performance.now();
  let tree: GameTree;
  try {
    tree = new GameTree({ players, ruleset, reward, maxNodes });
  } catch (e) {
    if (e instanceof TreeTooLargeError) throw new UsageError(`ruleset ${ruleset.name} at ${players} players: ${e.message}`);
    throw e;
  }
  const seconds = (performance.now() - start) / 1000;
  const perSeat = [...Array(players).keys()].map((s) => tree.infosetsOf(s).length);
  io.out(
    `tree of ${ruleset.name} at ${players} players: ${tree.nodes.toLocaleString('en')} nodes (${tree.ends.toLocaleString('en')} ends, ` +
      `${tree.outcomes.toLocaleString('en')} chance outcomes), information sets ${perSeat.map((n) => n.toLocaleString('en')).join(' / ')} by seat; ` +
      `walked in ${seconds.toFixed(1)} s`,
  );
  return { tree, seconds };
}

export function nashConvLine(agent: string, e: Exploitability, seconds: number): string {
  const f = (v: number) => v.toFixed(4);
  const nc = e.nashConv !== 0 && e.nashConv < 1e-3 ? e.nashConv.toExponential(3) : e.nashConv.toFixed(5);
  return `${agent}: NashConv ${nc}; by seat value / best response / gain: ` +
    `${e.values.map((v, s) => `${f(v)} / ${f(e.bestResponse[s])} / ${f(e.gains[s])}`).join(', ')} (${seconds.toFixed(1)} s)`;
}

export async function nashconvCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseOptions(NASHCONV, args);
  if (!parsed) {
    io.out(helpText(NASHCONV));
    return EXIT_OK;
  }
  const { agent: specs, players, reward, out, maxNodes } = parsed.values;
  // Every agent made and seated once before the walk, so a spec that cannot play here fails at once.
  for (const spec of specs) {
    const problem = treePolicyProblem(spec);
    if (problem) throw new UsageError(problem);
    try {
      createAgent(spec).reset?.({ seat: 0, players, seed: 'check', ruleset: parsed.ruleset });
    } catch (e) {
      throw new UsageError(`${spec}: ${(e as Error).message}`);
    }
  }
  const { tree, seconds } = walkTree(parsed.ruleset, players, reward, maxNodes, io);
  const record: NashConvRecord = {
    format: NASHCONV_FORMAT,
    ruleset: parsed.ruleset.name,
    players,
    reward,
    tree: { nodes: tree.nodes, ends: tree.ends, chanceOutcomes: tree.outcomes, infosets: [...Array(players).keys()].map((s) => tree.infosetsOf(s).length), seconds: +seconds.toFixed(2) },
    agents: [],
  };
  let failed = false;
  for (const spec of specs) {
    const start = performance.now();
    try {
      const e = exploitability(tree, agentPolicy(tree, spec));
      const took = (performance.now() - start) / 1000;
      io.out(nashConvLine(spec, e, took));
      record.agents.push({ agent: spec, seconds: +took.toFixed(2), ...e });
    } catch (err) {
      io.err(`${spec}: ${(err as Error).message}`);
      failed = true;
    }
  }
  if (out !== '') fs.writeFileSync(out, `${JSON.stringify(record, null, 2)}\n`);
  return failed ? EXIT_FAILURE : EXIT_OK;
}
