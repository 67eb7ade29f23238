/**
 * Evaluation: games between agents, tournaments (seats rotated, deals duplicated, worker
 * threads), ladders across table sizes, statistics and ratings, reports, and the records a
 * finished game is replayed from. What other folders import of eval/.
 */
export * from './game.ts';
export * from './tournament.ts';
export * from './ladder.ts';
export * from './schedule.ts';
export * from './stats.ts';
export * from './summary.ts';
export * from './report.ts';
export * from './highlights.ts';
export * from './usage.ts';
export * from './replay-record.ts';
export * from './game-line.ts';
