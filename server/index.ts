/**
 * The HTTP server: what the CLI imports of server/. `buildServer` makes the Fastify app (the
 * API, its OpenAPI page and the web page) from a configuration read and checked by
 * `loadConfig` (tables, tournament entries, budgets and limits, with their defaults).
 */
export { buildServer, type ServerOptions } from './app.ts';
export { ConfigError, DEFAULT_LIMITS, loadConfig, type Limits, type ServerConfig } from './config.ts';
