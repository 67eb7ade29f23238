/** The route plugins, one per resource, and the context buildServer (app.ts) hands each of them. */
export { aboutRoutes } from './about.ts';
export { actRoutes } from './act.ts';
export { adviceRoutes } from './advice.ts';
export type { ServerContext } from './context.ts';
export { eventRoutes } from './events.ts';
export { gameReplayRoutes } from './game-replay.ts';
export { gameRoutes } from './games.ts';
export { lobbyRoutes } from './lobby.ts';
export { replayRoutes } from './replays.ts';
export { settingsRoutes } from './settings.ts';
export { tournamentRoutes } from './tournaments.ts';
export { webRoutes } from './web.ts';
