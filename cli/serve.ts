/** `czech-pub serve`: the HTTP API (server/) on a host and port, until Ctrl-C. */
import { buildServer } from '../server/app.ts';
import { intOption, parseCommand } from './args.ts';
import { EXIT_OK, type Io } from './io.ts';

export const SERVE_USAGE = `Usage: czech-pub serve [--host H] [--port P]

Serves the HTTP API under /v1: games with remote and bot seats, stateless bot serving,
tournament jobs. Every registered agent (and the shipped ppo model) can fill a seat.

Options:
  --host H     interface to listen on (default 127.0.0.1)
  --port P     port (default 8787; 0 picks a free one)
  --rate-limit N  requests per second per client address (default 2000; 0 = none)
  --log        log every request as JSON lines
  -h, --help   show this help`;

const OPTIONS = {
  host: { type: 'string' },
  port: { type: 'string' },
  log: { type: 'boolean' },
  'rate-limit': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function serveCommand(args: readonly string[], io: Io): Promise<number> {
  const { values } = parseCommand(args, OPTIONS);
  if (values.help) {
    io.out(SERVE_USAGE);
    return EXIT_OK;
  }
  const port = intOption(values, 'port', 8787, 0, 65535);
  const host = typeof values.host === 'string' ? values.host : '127.0.0.1';
  const rate = intOption(values, 'rate-limit', 2000, 0, 1_000_000);
  const app = await buildServer({ logger: values.log === true, rateLimit: rate });
  const url = await app.listen({ host, port });
  io.err(`czech-pub API listening on ${url} (the web page at /, the API docs at /docs; Ctrl-C stops it)`);
  await new Promise<void>((resolve) => process.once('SIGINT', resolve));
  await app.close();
  return EXIT_OK;
}
