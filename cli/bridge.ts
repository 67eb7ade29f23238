/**
 * `czech-pub bridge`: serves the engine to another process over standard input and output in
 * the bridge's binary frames (bridge/protocol.ts). The Python package (python/czech_pub) starts
 * it as a subprocess; nothing else is ever written to standard output.
 */
import { serveStdio } from '../bridge/index.ts';
import { EXIT_OK, type Io } from './io.ts';
import { helpText, parseOptions, type CommandSpec } from './options.ts';

export const BRIDGE = {
  name: 'bridge',
  description:
    'Serves the engine over standard input and output in binary frames (bridge/protocol.ts), for\n' +
    'clients in other languages: python/czech_pub starts it. Runs until its input closes.',
  options: {},
} as const satisfies CommandSpec;

export function bridgeCommand(args: readonly string[], io: Io): number {
  const parsed = parseOptions(BRIDGE, args);
  if (!parsed) {
    io.out(helpText(BRIDGE));
    return EXIT_OK;
  }
  serveStdio();
  return EXIT_OK;
}
