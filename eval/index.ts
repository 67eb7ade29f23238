/**
 * Evaluation: games between agents, tournaments (seats rotated, deals duplicated, worker
 * threads), ladders across table sizes, statistics and ratings, reports, and the records a
 * finished game is replayed from. Also what runs eval's games elsewhere: the runner and the
 * setup a game thread is given, the module such a thread runs, and `tsWorker`, which starts
 * a TypeScript module on a worker thread (the queue, the server and the bridge start theirs
 * with it). What other folders import of eval/.
 */
export * from './game.ts';
export * from './tournament.ts';
export { HARNESS, PACKAGE } from './harness.ts';
export * from './ladder.ts';
export * from './schedule.ts';
export * from './stats.ts';
export * from './summary.ts';
export * from './report.ts';
export * from './highlights.ts';
export * from './usage.ts';
export * from './replay-record.ts';
export * from './game-line.ts';
export { GAMES_FILE, readFinishedGames, readRunFile, RUN_FILE, RUN_FORMAT, RunFolderError, type RunFile } from './run-folder.ts';
export { acquireRunLock, LOCK_FILE, RunLockedError, runLockHolder, type LockInfo, type RunLock, type Takeover } from './run-lock.ts';
export { fitRatings, tieGroups, type FittedRating, type RatedGame } from './ratings.ts';
export { gameSetup, type GameSetup } from './agents-for.ts';
export { GAME_WORKER_MODULE, runGames, type RunOptions, type RunOutcome } from './runner.ts';
export type { WorkerMessage, WorkerSetup } from './worker.ts';
export { tsWorker } from './ts-worker.ts';
export { ASSUMED_ANSWER_TOKENS, ASSUMED_CALL_SECONDS, measurePrompts } from './prompt-size.ts';
export { escapeHtml, html, joinHtml, type HtmlValue, type SafeHtml } from './html.ts';
export { pairedDeals, type DealDifference, type PairedComparison } from './paired-deals.ts';
export {
  fingerprintText, mergeUsage, readBoardRuns, type BoardRun, type BoardRuns, type MergedUsage, type RunFingerprint,
} from './board-runs.ts';
export { leaderboardPage, MAX_TEXT_CHARS, type LeaderboardPageInput, type LeaderboardTable } from './leaderboard-page.ts';
export { pairTranscript, parseTranscript, TRANSCRIPT_FILE, type SeatMoves, type Transcript, type TranscriptLine } from './transcript.ts';
export { GameTree, TREE_DEFAULTS, TreeTooLargeError, type InfoSet, type TreeOptions } from './exact/tree.ts';
export { bestResponse, checkPolicy, exploitability, policyValues, uniformPolicy, type Exploitability } from './exact/best-response.ts';
export { CfrPlus, solve, type CurvePoint as CfrCurvePoint } from './exact/cfr.ts';
export { agentPolicy, policyTable, treePolicyProblem } from './exact/agent-policy.ts';
export { logLogSvg, type ChartLine } from './exact/chart.ts';
