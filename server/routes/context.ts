/**
 * What the route plugins share, made once by buildServer (app.ts) and handed to each plugin as
 * its options: a plugin names the parts it uses (`Pick<ServerContext, ...>`), so what a route
 * depends on is read from its plugin's signature, not from module state.
 */
import type { Ruleset } from '../../env/index.ts';
import type { Catalogue } from '../catalogue.ts';
import type { Limits } from '../config.ts';
import type { GameStore } from '../games.ts';
import type { HistoryPages } from '../history.ts';
import type { JobStore } from '../jobs.ts';
import type { OutsideCalls } from '../outside-calls.ts';
import type { Streams } from '../stream.ts';

export interface ServerContext {
  /** The operator's limits, overrides applied (config.ts). */
  limits: Limits;
  /** The bots a client may name (catalogue.ts). */
  catalogue: Catalogue;
  /** The rules every game of this server is played under: the catalogue's. */
  ruleset: Ruleset;
  /** Live games, their seats, tokens and bots (games.ts). */
  store: GameStore;
  /** Tournaments run as background jobs (jobs.ts). */
  jobs: JobStore;
  /** Event streams, limited in all and per client (stream.ts). */
  streams: Streams;
  /** History pages, built a slice at a time (history.ts). */
  pages: HistoryPages;
  /** The budgets of bots that call a server elsewhere (outside-calls.ts). */
  outside: OutsideCalls;
}
