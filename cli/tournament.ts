/**
 * `czech-pub tournament`: agents against each other with seats rotated and deals
 * duplicated, in parallel; a leaderboard at the end, files in --out. Progress goes to
 * standard error (a bar on a terminal, plain lines otherwise) so --json output stays clean.
 * Ctrl-C stops the run and still writes the results of the games finished so far.
 */
import cliProgress from 'cli-progress';
import { availableParallelism } from 'node:os';
import { knownAgents } from '../agents/default-registry.ts';
import { leaderboardMarkdown } from '../eval/report.ts';
import { jsonSummary, runTournament, TournamentConfigError } from '../eval/tournament.ts';
import { intOption, outDirOption, parseCommand } from './args.ts';
import { EXIT_FAILURE, EXIT_OK, UsageError, type Io } from './io.ts';

export const TOURNAMENT_USAGE = `Usage: czech-pub tournament --agents A,B,... [options]

Plays agents against each other: one agent spec per seat, seats rotated so every agent
sits in every seat equally often, and (by default) each deal played once per rotation.

Options:
  --agents A,B,...  agent specs, one per seat (repeat a spec to field it twice)
  --players N       number of players (default: the number of agents)
  --games G         games to play, rounded up to whole rotations (default 400)
  --seed S          tournament seed (default 1); the same seed gives the same results
  --workers W       worker threads (default: one per core); 0 plays in this thread
  --parallel P      games at once in this thread (implies --workers 0): for agents that wait
                    on a network (llm:), so their requests overlap
  --out DIR         write games.jsonl, results.json, leaderboard.md and report.html here
  --no-duplicate    a fresh deal for every game instead of duplicated deals
  --ask-all         ask every eligible player at every window
  --json            print the summary as JSON on stdout instead of the leaderboard
  -h, --help        show this help

Agents: AGENTS_LIST`;

const OPTIONS = {
  agents: { type: 'string' },
  players: { type: 'string' },
  games: { type: 'string' },
  seed: { type: 'string' },
  workers: { type: 'string' },
  parallel: { type: 'string' },
  out: { type: 'string' },
  'no-duplicate': { type: 'boolean' },
  'ask-all': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function usage(): string {
  return TOURNAMENT_USAGE.replace('AGENTS_LIST', knownAgents().map((a) => `\n  ${a.name.padEnd(10)} ${a.description}`).join(''));
}

/** A tournament's setup errors (bad config, unknown agent, bad agent option) as usage errors; others as they are. */
export function asUsageError(e: unknown): unknown {
  if (e instanceof TournamentConfigError || (e instanceof Error && (e.name === 'UnknownAgentError' || /^agent '.*': /.test(e.message)))) return new UsageError(e.message);
  return e;
}

/** A progress bar on a terminal; a plain line every 10% otherwise. */
function progress(io: Io) {
  const tty = process.stderr.isTTY === true;
  if (tty) {
    const bar = new cliProgress.SingleBar(
      { format: 'games {bar} {value}/{total} | {rate} games/s | ETA {eta_formatted}', stream: process.stderr, etaBuffer: 200 },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    const t0 = performance.now();
    return {
      update(done: number, total: number) {
        if (!started) {
          bar.start(total, 0, { rate: '0' });
          started = true;
        }
        bar.update(done, { rate: (done / ((performance.now() - t0) / 1000)).toFixed(1) });
      },
      stop: () => started && bar.stop(),
    };
  }
  let lastTenth = 0;
  const t0 = performance.now();
  return {
    update(done: number, total: number) {
      const tenth = Math.floor((10 * done) / total);
      if (tenth > lastTenth) {
        lastTenth = tenth;
        const sec = (performance.now() - t0) / 1000;
        const line = `${done}/${total} games, ${(done / sec).toFixed(1)} games/s, ${(sec * (total / done - 1)).toFixed(0)} s left`;
        io.err(line);
      }
    },
    stop: () => undefined,
  };
}

export async function tournamentCommand(args: readonly string[], io: Io): Promise<number> {
  const { values } = parseCommand(args, OPTIONS);
  if (values.help) {
    io.out(usage());
    return EXIT_OK;
  }
  if (typeof values.agents !== 'string' || values.agents.trim() === '') throw new UsageError('--agents is required, e.g. --agents random,greedy,cautious,heuristic');
  const agents = values.agents.split(',').map((s) => s.trim());
  if (agents.some((a) => a === '')) throw new UsageError(`--agents has an empty entry: '${values.agents}'`);
  const players = intOption(values, 'players', agents.length, 2, 6);
  const games = intOption(values, 'games', 400, 1, 10_000_000);
  const parallel = intOption(values, 'parallel', 1, 1, 1024);
  if (values.parallel !== undefined && values.workers !== undefined && values.workers !== '0') throw new UsageError('--parallel plays in this thread: drop --workers (or give --workers 0)');
  const workers = values.parallel !== undefined ? 0 : intOption(values, 'workers', availableParallelism(), 0, 256);
  if (values.seed === '') throw new UsageError('--seed must not be empty');
  const seed = typeof values.seed === 'string' ? values.seed : '1';
  const json = values.json === true;
  const out = outDirOption(values);

  const controller = new AbortController();
  const onSigint = () => {
    io.err('Interrupted: finishing with the games played so far.');
    controller.abort();
  };
  process.once('SIGINT', onSigint);
  const bar = progress(io);
  try {
    const result = await runTournament({
      agents, players, games, seed, workers, parallel, duplicate: values['no-duplicate'] !== true, askAll: values['ask-all'] === true,
      out, signal: controller.signal,
      onGame: (done, total) => bar.update(done, total),
    });
    bar.stop();
    if (json) io.out(JSON.stringify(jsonSummary(result)));
    else {
      io.out(leaderboardMarkdown(result));
      if (values.out) io.out(`Results in ${values.out}/ (results.json, leaderboard.md, report.html, games.jsonl).`);
    }
    if (result.stoppedBy !== undefined) io.err(`stopped after ${result.gamesPlayed} of ${result.gamesScheduled} games: ${result.stoppedBy}`);
    return result.complete ? EXIT_OK : EXIT_FAILURE;
  } catch (e) {
    bar.stop();
    throw asUsageError(e);
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}
