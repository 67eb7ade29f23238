/**
 * A tournament's output folder read back: what the run is (run.json, written when it starts)
 * and the games it finished (games.jsonl, a line as each ends). From these a stopped run is
 * resumed without playing a finished game again, and its reports are made again with nothing
 * played (`czech-pub report DIR`).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rulesetFingerprint } from '../env/index.ts';
import { parseGameLine, withRenamedKeys } from './game-line.ts';
import type { RunKind } from './report.ts';
import type { ScheduledGame } from './schedule.ts';
import type { GameResult } from './summary.ts';
import type { Price } from './usage.ts';
import type { TournamentConfig } from './tournament.ts';

export const RUN_FORMAT = 'czech-pub-run/1';
export const RUN_FILE = 'run.json';
export const GAMES_FILE = 'games.jsonl';

/** What run.json holds: everything that decides which games a run plays and how they are reported. */
export interface RunFile {
  format: string;
  config: Omit<TournamentConfig, 'workers'>;
  labels: string[];
  maxFallbackRate: number;
  prices?: Record<string, Price>;
  /** What made the run, which its reports are titled for; absent (a tournament) in folders written before it was kept. */
  kind?: RunKind;
}

/** A folder that cannot be resumed or reported, and why (the folder's fault, named). */
export class RunFolderError extends Error {
  override name = 'RunFolderError';
}

export function writeRunFile(dir: string, run: RunFile): void {
  writeFileSync(join(dir, RUN_FILE), `${JSON.stringify(run, null, 2)}\n`);
}

export function readRunFile(dir: string): RunFile {
  const file = join(dir, RUN_FILE);
  if (!existsSync(file)) throw new RunFolderError(`${dir} holds no ${RUN_FILE}: it is not the folder of a run (--out) that began`);
  let run: RunFile;
  try {
    run = JSON.parse(readFileSync(file, 'utf8')) as RunFile;
  } catch (e) {
    throw new RunFolderError(`${file} is not JSON (${(e as Error).message.split('\n')[0]})`);
  }
  if (run?.format !== RUN_FORMAT) throw new RunFolderError(`${file} is not a ${RUN_FORMAT} file`);
  return { ...run, config: withRenamedKeys(run.config) as RunFile['config'] };
}

/** The first difference between a run's settings and another's, in words; null when they play the same games. */
export function runDifference(had: RunFile, now: RunFile): string | null {
  const a = had.config;
  const b = now.config;
  const fields = ['agents', 'players', 'games', 'seed', 'duplicate', 'askForced', 'maxDecisions'] as const;
  for (const k of fields) {
    if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) return `${k} is ${JSON.stringify(a[k])} there, ${JSON.stringify(b[k])} here`;
  }
  const [fa, fb] = [rulesetFingerprint(a.ruleset), rulesetFingerprint(b.ruleset)];
  if (fa !== fb) return `the ruleset is ${fa} there, ${fb} here`;
  return null;
}

/**
 * The games a folder's run finished, checked against its schedule. A last line cut off by a
 * crash is dropped, and the file rewritten without it, so the game is played again.
 */
export function readFinishedGames(dir: string, schedule: readonly ScheduledGame[], repair = true): GameResult[] {
  const file = join(dir, GAMES_FILE);
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  // Every line but the last ends in a newline; the last is '' unless a crash cut it off.
  const whole = text.split('\n').slice(0, -1);
  const results: GameResult[] = [];
  const seen = new Set<number>();
  whole.forEach((line, k) => {
    if (line.trim() === '') return;
    const where = `${file}:${k + 1}`;
    let json: Record<string, unknown>;
    try {
      parseGameLine(line);
      json = JSON.parse(line) as Record<string, unknown>;
    } catch (e) {
      throw new RunFolderError(`${where}: not a game of this run (${(e as Error).message.split('\n')[0]})`);
    }
    const { agents: _agents, askForced: _askForced, askAll: _askAll, ruleset: _ruleset, ...game } = json;
    const r = game as unknown as GameResult;
    const planned = schedule[r.index];
    if (!planned || planned.seed !== r.seed || JSON.stringify(planned.seating) !== JSON.stringify(r.seating)) {
      throw new RunFolderError(`${where}: game ${r.index} is not in this run's schedule (its seed or seating differ)`);
    }
    if (seen.has(r.index)) throw new RunFolderError(`${where}: game ${r.index} is there twice`);
    seen.add(r.index);
    results.push(r);
  });
  // A partial last line, what a crash mid-write leaves, goes: that game is played again.
  if (repair && text !== '' && !text.endsWith('\n')) writeFileSync(file, whole.map((l) => `${l}\n`).join(''));
  return results;
}
