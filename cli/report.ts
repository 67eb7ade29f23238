/**
 * `czech-pub report DIR`: a run's results.json, leaderboard.md and report.html made again from
 * its folder (run.json and games.jsonl) with nothing played, titled as the run's own were (an
 * LLM benchmark's as one, run.json's `kind`): after a crash that left no reports, or to make
 * them with a newer version. A folder that holds no run, or whose run is still writing it (its
 * lock, eval/run-lock.ts), exits 1, saying why.
 */
import { existsSync, statSync } from 'node:fs';
import { jsonSummary, leaderboardMarkdown, readRunFile, RunFolderError, runTournament, TournamentConfigError } from '../eval/index.ts';
import { EXIT_FAILURE, EXIT_OK, UsageError, type Io } from './io.ts';
import { helpText, parseOptions, splitPositionals, type CommandSpec } from './options.ts';
import { lockRunFolder } from './tournament.ts';

export const REPORT = {
  name: 'report',
  synopsis: 'DIR [options]',
  description: `Makes a run's results.json, leaderboard.md and report.html again from its folder DIR (a
tournament's or llm-bench's --out: run.json and games.jsonl), playing nothing. A run that was
stopped is reported as incomplete, from its finished games.`,
  options: {
    viewer: { type: 'string', arg: 'URL', help: "where report.html's game links point (default: the project's web page)" },
    json: { type: 'flag', help: 'print the summary as JSON' },
  },
} as const satisfies CommandSpec;

export async function reportCommand(args: readonly string[], io: Io): Promise<number> {
  const { files, options } = splitPositionals(args, REPORT.options);
  const parsed = parseOptions(REPORT, options);
  if (!parsed) {
    io.out(helpText(REPORT));
    return EXIT_OK;
  }
  if (files.length !== 1) throw new UsageError(`name one run folder, got ${files.length}`);
  const dir = files[0];
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`${dir} is not a folder`);
  // A run still writing the folder is refused: its reports would be overwritten by its own.
  const lock = lockRunFolder(dir, 'report', io);
  if (lock === null) return EXIT_FAILURE;
  try {
    const run = readRunFile(dir);
    const r = await runTournament({
      ...run.config, labels: run.labels, maxFallbackRate: run.maxFallbackRate, prices: run.prices, kind: run.kind, viewer: parsed.values.viewer,
      out: dir, lock, resume: true, workers: 0,
      // Nothing is played: the games are the folder's.
      runner: async () => ({ results: [], interrupted: false }),
    });
    if (parsed.values.json) io.out(JSON.stringify(jsonSummary(r)));
    else io.out(leaderboardMarkdown(r, run.kind));
    io.err(`report: ${r.gamesPlayed} of ${r.gamesScheduled} games${r.complete ? '' : ' (incomplete)'}; results.json, leaderboard.md and report.html written in ${dir}/`);
    return EXIT_OK;
  } catch (e) {
    if (e instanceof RunFolderError || e instanceof TournamentConfigError) {
      io.err(`report: ${e.message}`);
      return EXIT_FAILURE;
    }
    throw e;
  } finally {
    lock.release();
  }
}
