/** `czech-pub serve`: the HTTP API (server/) on a host and port, until Ctrl-C or SIGTERM. */
import { buildServer } from '../server/app.ts';
import { ConfigError, loadConfig, type Limits, type ServerConfig } from '../server/config.ts';
import { intOption, parseCommand } from './args.ts';
import { EXIT_OK, UsageError, type Io } from './io.ts';

export const SERVE_USAGE = `Usage: czech-pub serve [--config FILE] [--models DIR] [--host H] [--port P]

Serves the HTTP API under /v1 and the web page at /: games with remote and bot seats,
stateless bot serving, tournament jobs. Clients name bots of the catalogue: the built-in
entries (random, greedy, cautious, heuristic, ppo, ismcts with bounded options), the
checkpoints in --models, and what the config file defines (README, "Security").

Options:
  --config FILE   the catalogue and limits (JSON; server/config.ts documents every field)
  --models DIR    every NAME.json checkpoint in DIR is a bot named NAME
  --host H        interface to listen on (default 127.0.0.1)
  --port P        port (default 8787; 0 picks a free one)
  --rate-limit N  requests per second per client address (default 2000; 0 = none)
  --log           log every request as JSON lines
  -h, --help      show this help`;

const OPTIONS = {
  config: { type: 'string' },
  models: { type: 'string' },
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
  const limits: Partial<Limits> = {};
  if (values['rate-limit'] !== undefined) limits.rateLimit = intOption(values, 'rate-limit', 2000, 0, 1_000_000);
  let app;
  try {
    const config: ServerConfig = typeof values.config === 'string' ? loadConfig(values.config) : {};
    if (typeof values.models === 'string') config.models = values.models;
    app = await buildServer({ ...limits, config, logger: values.log === true });
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(e.message);
    throw e;
  }
  let url: string;
  try {
    url = await app.listen({ host, port });
  } catch (e) {
    await app.close();
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`port ${port} on ${host} is in use: stop what holds it, or pick another with --port (0 picks a free one)`);
    if (code === 'EACCES') throw new UsageError(`not allowed to listen on port ${port}: ports below 1024 need privileges; pick another with --port`);
    if (code === 'ENOTFOUND' || code === 'EADDRNOTAVAIL' || code === 'EAI_AGAIN') throw new UsageError(`--host ${host} is not an address of this machine (e.g. 127.0.0.1, 0.0.0.0, ::1)`);
    throw e;
  }
  io.err(`czech-pub API listening on ${url} (the web page at /, the API docs at /docs; Ctrl-C stops it)`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await app.close();
  return EXIT_OK;
}
