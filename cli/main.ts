/**
 * The `czech-pub` command line: an adapter over env/ that parses arguments, runs one
 * subcommand and returns the exit code (0 ok, 1 failure, 2 bad usage). No rules live here.
 * Each command declares its options once (options.ts); every usage error is one line on
 * standard error, with the hint to --help on the same line.
 */
import { benchCommand } from './bench.ts';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, processIo, UsageError, type Io } from './io.ts';
import { playCommand } from './play.ts';
import { replayCommand } from './replay.ts';
import { tournamentCommand } from './tournament.ts';
import { versionText } from './version.ts';

type Run = (args: readonly string[], io: Io) => number | Promise<number>;

/** Each command parses its own arguments and prints its own --help. */
const COMMANDS: Record<string, { summary: string; run: Run }> = {
  play: { summary: 'play one seeded game between bots, or against them (--human), and print it', run: playCommand },
  replay: { summary: 'tell a finished game of a games.jsonl file (or a replay link) turn by turn', run: replayCommand },
  bench: { summary: 'measure speed: bench env, policy, train, queue, bridge or api', run: benchCommand },
  tournament: { summary: 'play agents against each other and rank them', run: tournamentCommand },
  leaderboard: { summary: 'one table of ratings over several runs, anchored so that tables compare', run: async (args, io) => (await import('./leaderboard.ts')).leaderboardCommand(args, io) },
  report: { summary: "make a run's reports again from its folder, playing nothing", run: async (args, io) => (await import('./report.ts')).reportCommand(args, io) },
  ladder: { summary: 'rate agents against each other across table sizes in one leaderboard', run: async (args, io) => (await import('./ladder.ts')).ladderCommand(args, io) },
  nashconv: { summary: 'exact exploitability (NashConv) of agents on a ruleset small enough to walk whole (micro)', run: async (args, io) => (await import('./nashconv.ts')).nashconvCommand(args, io) },
  cfr: { summary: 'solve a small ruleset (micro) by CFR+: a tabular policy and its NashConv curve', run: async (args, io) => (await import('./cfr.ts')).cfrCommand(args, io) },
  // Loaded on demand: they bring in TensorFlow.js, the LLM client, the server or BullMQ, which the others do not need.
  train: { summary: 'train a policy by PPO self-play', run: async (args, io) => (await import('./train.ts')).trainCommand(args, io) },
  exploit: { summary: "bound how exploitable a bot is: train a policy against it (or --search: a search that knows it), measure its win rate over par", run: async (args, io) => (await import('./exploit.ts')).exploitCommand(args, io) },
  recipe: { summary: 'train a model for a table size from scratch in one command, and measure it against heuristic', run: async (args, io) => (await import('./recipe.ts')).recipeCommand(args, io) },
  distill: { summary: 'expert iteration: train the policy on its search\'s choices, then search on the new policy', run: async (args, io) => (await import('./distill.ts')).distillCommand(args, io) },
  'llm-bench': { summary: 'benchmark language models against bots', run: async (args, io) => (await import('./llm-bench.ts')).llmBenchCommand(args, io) },
  serve: { summary: 'serve the HTTP API and the web page', run: async (args, io) => (await import('./serve.ts')).serveCommand(args, io) },
  bridge: { summary: 'serve the engine to another process (the Python package) over stdin/stdout', run: async (args, io) => (await import('./bridge.ts')).bridgeCommand(args, io) },
  worker: { summary: 'play queued tournament games and training rollouts (--queue) on this machine', run: async (args, io) => (await import('./worker.ts')).workerCommand(args, io) },
};

export const USAGE = `Usage: czech-pub <command> [options]

Commands:
${Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(12)}${c.summary}`).join('\n')}

Run 'czech-pub <command> --help' for a command's options; 'czech-pub --version' for the versions.`;

/** One line, whatever the message holds. */
const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();

export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [cmd, ...rest] = argv;
  if (cmd === undefined) {
    io.err(USAGE);
    return EXIT_USAGE;
  }
  if (cmd === '--help' || cmd === '-h' || cmd === 'help') {
    io.out(USAGE);
    return EXIT_OK;
  }
  if (cmd === '--version' || cmd === '-V') {
    io.out(versionText());
    return EXIT_OK;
  }
  const command = Object.hasOwn(COMMANDS, cmd) ? COMMANDS[cmd] : undefined;
  const name = command ? `czech-pub ${cmd}` : 'czech-pub';
  try {
    if (!command) throw new UsageError(cmd.startsWith('-') ? `unknown option '${cmd}'` : `unknown command '${cmd}'`);
    return await command.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`${name}: ${oneLine(e.message)} (see '${name} --help')`);
      return EXIT_USAGE;
    }
    io.err(`czech-pub: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return EXIT_FAILURE;
  }
}
