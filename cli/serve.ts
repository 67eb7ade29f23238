/** `czech-pub serve`: the HTTP API (server/) on a host and port, until Ctrl-C or SIGTERM. */
import os from 'node:os';
import path from 'node:path';
import { buildServer, ConfigError, DEFAULT_LIMITS, loadConfig, type Limits, type ServerConfig } from '../server/index.ts';
import { rulesetFingerprint } from '../env/index.ts';
import { EXIT_OK, UsageError, type Io } from './io.ts';
import { helpText, parseOptions, type CommandSpec } from './options.ts';

export const SERVE = {
  name: 'serve',
  description: `Serves the HTTP API under /v1 and the web page at /: games with remote and bot seats,
stateless bot serving, tournament jobs. Clients name bots of the catalogue: the built-in
entries (random, greedy, cautious, heuristic, ppo, ismcts with bounded options), the
checkpoints in --models, and what the config file defines (docs/security.md). Games survive a
restart: they are kept in the user's state folder (named at start), in --state-dir or the
config's stateDir if given, nowhere with --no-state (docs/web.md).`,
  options: {
    config: { type: 'file', help: 'the catalogue and limits (JSON; server/config.ts documents every field)' },
    models: { type: 'string', arg: 'DIR', help: 'every NAME.json checkpoint in DIR is a bot named NAME' },
    host: { type: 'string', arg: 'H', default: '127.0.0.1', help: 'interface to listen on' },
    port: { type: 'int', arg: 'P', min: 0, max: 65535, default: 8787, help: 'port; 0 picks a free one' },
    'rate-limit': { type: 'int', arg: 'N', min: 0, max: 1_000_000, defaultText: `the config's, else ${DEFAULT_LIMITS.rateLimit}`, help: 'requests per second per client address; 0 = none' },
    'state-dir': { type: 'string', arg: 'DIR', defaultText: "the config's stateDir, else $XDG_STATE_HOME/czech-pub/games (~/.local/state/czech-pub/games; %LOCALAPPDATA%\\czech-pub\\games on Windows)", help: 'keep games in DIR (0700; per game an append-only log of its actions and a small settings file, 0600, tokens only hashed) so they survive a restart: games in progress come back in the background while the server answers, finished ones when asked for; limits: stateMaxGames, stateMaxAgeMs, stateMaxFileBytes in the config' },
    'no-state': { type: 'flag', help: 'keep no games: they end with the server' },
    ruleset: { type: 'ruleset', help: 'every game under this ruleset: micro, standard, or a JSON file (bots trained under another are left out)' },
    log: { type: 'flag', help: 'log every request as JSON lines' },
  },
} as const satisfies CommandSpec;

/**
 * Where `serve` keeps games when told nothing: the user's state folder (the XDG base directory
 * spec's XDG_STATE_HOME, else ~/.local/state; on Windows LOCALAPPDATA), so that `npm start`
 * loses no game to a restart. A relative XDG_STATE_HOME is ignored, as the spec says.
 */
export function defaultStateDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home: string = os.homedir()): string {
  if (platform === 'win32') return path.win32.join(env.LOCALAPPDATA ?? path.win32.join(home, 'AppData', 'Local'), 'czech-pub', 'games');
  const xdg = env.XDG_STATE_HOME;
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.local', 'state'), 'czech-pub', 'games');
}

export async function serveCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseOptions(SERVE, args);
  if (!parsed) {
    io.out(helpText(SERVE));
    return EXIT_OK;
  }
  const { port, host, ruleset } = parsed.values;
  const limits: Partial<Limits> = {};
  if (parsed.values.rateLimit !== undefined) limits.rateLimit = parsed.values.rateLimit;
  let app;
  let stateDir: string | undefined;
  try {
    const config: ServerConfig = parsed.values.config !== undefined ? loadConfig(parsed.values.config) : {};
    if (parsed.values.models !== undefined) config.models = parsed.values.models;
    // What clients may not read of an outside server's failure: on stderr, or in the request log with --log.
    const log = parsed.values.log ? undefined : (line: string) => io.err(line);
    if (parsed.values.noState && parsed.values.stateDir !== undefined) throw new UsageError('--state-dir and --no-state: give one of them');
    if (parsed.values.noState) delete config.stateDir;
    else config.stateDir = parsed.values.stateDir ?? config.stateDir ?? defaultStateDir();
    stateDir = config.stateDir;
    app = await buildServer({ ...limits, config, host, ruleset: parsed.ruleset, notice: (line) => io.err(line), log, logger: parsed.values.log });
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
  const rules = ruleset ? `; ruleset ${ruleset.name} (${rulesetFingerprint(ruleset)})` : '';
  const kept = stateDir === undefined ? 'games end with the server (--no-state)' : `games kept in ${stateDir}`;
  io.err(`czech-pub API listening on ${url} (the web page at /, the API docs at /docs${rules}; ${kept}; Ctrl-C stops it)`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await app.close();
  return EXIT_OK;
}
