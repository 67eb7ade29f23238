/**
 * The command line of the single-file engine (scripts/bundle-bridge.mjs), which the Python wheel
 * ships and runs with whatever Node it finds: `bridge`, `bench env` and `--version`, the
 * commands that need nothing beyond the engine and its agents. The full CLI (cli/main.ts) loads
 * the others on demand, which would pull TensorFlow.js, fastify and BullMQ into a bundle.
 */
import { benchEnvCommand } from './bench-env.ts';
import { bridgeCommand } from './bridge.ts';
import { EXIT_OK, EXIT_USAGE, processIo, type Io } from './io.ts';
import { versionText } from './version.ts';

export const ENGINE_USAGE = `Usage: czech-pub-engine <command> [options]

The engine alone, as the Python package runs it. Commands:
  bridge      serve the engine to another process (the Python package) over stdin/stdout
  bench env   how fast the environment steps

'--version' for the versions; the full command line is the czech-pub npm package.`;

export function engineMain(argv: readonly string[], io: Io = processIo): number {
  const [cmd, ...rest] = argv;
  if (cmd === 'bridge') return bridgeCommand(rest, io);
  if (cmd === 'bench' && rest[0] === 'env') return benchEnvCommand(rest.slice(1), io);
  if (cmd === '--version' || cmd === '-V') {
    io.out(versionText());
    return EXIT_OK;
  }
  if (cmd === '--help' || cmd === '-h') {
    io.out(ENGINE_USAGE);
    return EXIT_OK;
  }
  io.err(ENGINE_USAGE);
  return EXIT_USAGE;
}

