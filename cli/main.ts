/**
 * The `czech-pub` command line: an adapter over env/ that parses arguments, runs one
 * subcommand and returns the exit code (0 ok, 1 failure, 2 bad usage). No rules live here.
 */
import { benchCommand } from './bench.ts';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, processIo, UsageError, type Io } from './io.ts';
import { playCommand } from './play.ts';
import { tournamentCommand } from './tournament.ts';

export const USAGE = `Usage: czech-pub <command> [options]

Commands:
  play        play one seeded game between random agents and print it
  bench env   measure how fast the environment steps
  tournament  play agents against each other and rank them
  train       train a policy by PPO self-play
  llm-bench   benchmark a language model against bots
  serve       serve the HTTP API

Run 'czech-pub <command> --help' for a command's options.`;

/** Each command parses its own arguments and prints its own --help. */
const COMMANDS: Record<string, (args: readonly string[], io: Io) => number | Promise<number>> = {
  play: playCommand,
  bench: benchCommand,
  tournament: tournamentCommand,
  // Loaded on demand: it brings in TensorFlow.js, which the other commands do not need.
  train: async (args, io) => (await import('./train.ts')).trainCommand(args, io),
  'llm-bench': async (args, io) => (await import('./llm-bench.ts')).llmBenchCommand(args, io),
  serve: async (args, io) => (await import('./serve.ts')).serveCommand(args, io),
};

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
  const command = Object.hasOwn(COMMANDS, cmd) ? COMMANDS[cmd] : undefined;
  try {
    if (!command) {
      throw new UsageError(cmd.startsWith('-') ? `unknown option '${cmd}'` : `unknown command '${cmd}'`);
    }
    return await command(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`czech-pub${command ? ` ${cmd}` : ''}: ${e.message}`);
      io.err(`Run 'czech-pub${command ? ` ${cmd}` : ''} --help' for usage.`);
      return EXIT_USAGE;
    }
    io.err(`czech-pub: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return EXIT_FAILURE;
  }
}
