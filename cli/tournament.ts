/**
 * `czech-pub tournament`: agents against each other with seats rotated and deals
 * duplicated, in parallel; a leaderboard at the end, files in --out. Progress goes to
 * standard error (a bar on a terminal, plain lines otherwise) so --json output stays clean.
 * Ctrl-C (or SIGTERM, SIGHUP) stops the run and still writes the results of the games finished
 * so far. One run writes a folder at a time: a second one is refused, naming the first.
 */
import cliProgress from 'cli-progress';
import { availableParallelism } from 'node:os';
import { knownAgents } from '../agents/index.ts';
import {
  acquireRunLock, checkViewerUrl, DEFAULT_VIEWER, jsonSummary, leaderboardMarkdown, RunLockedError, runTournament, TournamentConfigError, type RunLock,
} from '../eval/index.ts';
import { EXIT_FAILURE, EXIT_OK, UsageError, type Io } from './io.ts';
import { loadQueue } from './queue-option.ts';
import { helpText, parseOptions, PLAYERS_MAX, PLAYERS_MIN, type CommandSpec } from './options.ts';
import { interrupted, onStopSignals } from './stop-signals.ts';

export const TOURNAMENT = {
  name: 'tournament',
  synopsis: '--agents A,B,... [options]',
  description: `Plays agents against each other: one agent spec per seat, seats rotated so every agent
sits in every seat equally often, and (by default) each deal played once per rotation.`,
  options: {
    agents: { type: 'list', required: true, help: 'agent specs, one per seat (repeat a spec to field it twice), e.g. random,greedy,cautious,heuristic' },
    players: { type: 'int', arg: 'N', min: PLAYERS_MIN, max: PLAYERS_MAX, defaultText: 'the number of agents', help: 'number of players' },
    games: { type: 'int', arg: 'G', min: 1, max: 10_000_000, default: 400, help: 'games to play, rounded up to whole rotations' },
    seed: { type: 'string', arg: 'S', default: '1', help: 'tournament seed; the same seed gives the same results' },
    workers: { type: 'int', arg: 'W', min: 0, max: 256, defaultText: 'one per core', help: 'worker threads; 0 plays in this thread' },
    parallel: {
      type: 'int', arg: 'P', min: 1, max: 1024, conflicts: ['workers'], conflictWhy: 'plays in this thread',
      help: 'games at once in this thread, for agents that wait on a network (llm:)',
    },
    queue: {
      type: 'string', arg: 'URL', conflicts: ['parallel'],
      help: "play the games on queue workers ('czech-pub worker') through this Redis, e.g. redis://127.0.0.1:6379",
    },
    batch: { type: 'int', arg: 'B', min: 1, max: 100_000, defaultText: 'sized to about 1 s of play', help: 'with --queue: games per queued job' },
    out: { type: 'folder', help: 'write games.jsonl, results.json, leaderboard.md and report.html here' },
    resume: { type: 'flag', help: 'go on with the run in --out: its finished games are kept, the rest of its schedule played (give the same options; the worker count may differ)' },
    viewer: { type: 'string', arg: 'URL', help: "the web viewer report.html links its games worth watching to ('czech-pub serve'); by default the links are relative to the server serving the report, and a report opened from a file has a field for a server's address (default " + DEFAULT_VIEWER + ')' },
    'no-duplicate': { type: 'flag', help: 'a fresh deal for every game instead of duplicated deals' },
    'ask-forced': { type: 'flag', help: 'ask every seat at every decision, forced ones too, so the record shows nothing of a hand (default with an llm or http agent; docs/environment.md)' },
    ruleset: { type: 'ruleset', help: 'play under this ruleset: micro, standard, or a JSON file (recorded in the results)' },
    json: { type: 'flag', help: 'print the summary as JSON on stdout instead of the leaderboard' },
  },
  footer: () => `Agents:${knownAgents().map((a) => `\n  ${a.name.padEnd(10)} ${a.description}`).join('')}`,
} as const satisfies CommandSpec;

type RunnerOf<F extends (o: never) => unknown> = NonNullable<Parameters<F>[0]['runner']>;

/** A tournament's setup errors (bad config, unknown agent, bad agent option) as usage errors; others as they are. */
export function asUsageError(e: unknown): unknown {
  if (e instanceof TournamentConfigError || (e instanceof Error && (e.name === 'UnknownAgentError' || /^agent '.*': /.test(e.message)))) return new UsageError(e.message);
  return e;
}

/**
 * Takes run folder `dir`'s lock for `czech-pub <name>` (eval/run-lock.ts), saying so when it
 * takes over a stale one; null, said on stderr, when another run holds the folder.
 */
export function lockRunFolder(dir: string, name: string, io: Io): RunLock | null {
  try {
    const lock = acquireRunLock(dir, `czech-pub ${name}`);
    if (lock.tookOver) io.err(`${name}: ${lock.tookOver.text}`);
    return lock;
  } catch (e) {
    if (!(e instanceof RunLockedError)) throw e;
    io.err(`${name}: ${e.message}`);
    return null;
  }
}

/**
 * A progress bar on a terminal; a plain line every 10% otherwise. `update` is called once a
 * finished game, with the count so far: a resumed run's first call already counts the games it
 * found finished, so the rate and the time left are of the games this run plays. `now` is the
 * display's own clock in milliseconds, not io.now: reading a budget's counting clock would move
 * the budget.
 */
export function progress(io: Io, now: () => number = () => performance.now()) {
  const t0 = now();
  let before: number | undefined;
  /** Games a second played by this run, and the seconds left at that rate. */
  const pace = (done: number, total: number) => {
    before ??= done - 1;
    const sec = (now() - t0) / 1000;
    const rate = (done - before) / sec;
    return { rate, left: (total - done) / rate };
  };
  if (process.stderr.isTTY === true) {
    const bar = new cliProgress.SingleBar(
      { format: 'games {bar} {value}/{total} | {rate} games/s | ETA {eta_formatted}', stream: process.stderr, etaBuffer: 200 },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update(done: number, total: number) {
        const { rate } = pace(done, total);
        if (!started) {
          bar.start(total, done - 1, { rate: '0' });
          started = true;
        }
        bar.update(done, { rate: rate.toFixed(1) });
      },
      stop: () => started && bar.stop(),
    };
  }
  let lastTenth = 0;
  return {
    update(done: number, total: number) {
      const { rate, left } = pace(done, total);
      const tenth = Math.floor((10 * done) / total);
      if (tenth > lastTenth) {
        lastTenth = tenth;
        io.err(`${done}/${total} games, ${rate.toFixed(1)} games/s, ${left.toFixed(0)} s left`);
      }
    },
    stop: () => undefined,
  };
}

export async function tournamentCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseOptions(TOURNAMENT, args);
  if (!parsed) {
    io.out(helpText(TOURNAMENT));
    return EXIT_OK;
  }
  const { agents, games, seed, parallel, out, json } = parsed.values;
  const players = parsed.values.players ?? agents.length;
  const workers = parsed.given.has('parallel') ? 0 : (parsed.values.workers ?? availableParallelism());
  if (parsed.given.has('batch') && !parsed.given.has('queue')) throw new UsageError('--batch sizes queued jobs: give --queue too');
  if (parsed.values.resume && out === undefined) throw new UsageError('--resume goes on with the run in --out DIR: give --out');
  let viewer: string | undefined;
  try {
    if (parsed.values.viewer !== undefined) viewer = checkViewerUrl(parsed.values.viewer);
  } catch (e) {
    throw new UsageError(`--viewer ${(e as Error).message}`);
  }
  let runner: RunnerOf<typeof runTournament> | undefined;
  if (parsed.values.queue !== undefined) {
    const { queueRunner } = await loadQueue(parsed.values.queue);
    runner = queueRunner(parsed.values.queue, { batch: parsed.values.batch, log: (line) => io.err(line) });
  }

  // One writer per folder: held from before anything is written to the end.
  const lock = out === undefined ? undefined : lockRunFolder(out, 'tournament', io);
  if (lock === null) return EXIT_FAILURE;
  const controller = new AbortController();
  const stopListening = onStopSignals((signal) => {
    io.err(`${interrupted(signal)}: finishing with the games played so far${out ? ' (--resume goes on with the run)' : ''}.`);
    controller.abort();
  });
  const bar = progress(io);
  try {
    const result = await runTournament({
      agents, players, games, seed, workers, parallel, duplicate: !parsed.values.noDuplicate, askForced: parsed.values.askForced || undefined,
      ruleset: parsed.ruleset, out, lock, resume: parsed.values.resume, viewer, signal: controller.signal, runner,
      onGame: (done, total) => bar.update(done, total),
    });
    bar.stop();
    if (json) io.out(JSON.stringify(jsonSummary(result)));
    else {
      io.out(leaderboardMarkdown(result));
      if (out) io.out(`Results in ${out}/ (results.json, leaderboard.md, report.html, games.jsonl).`);
      const watch = [...new Set(result.highlights.map((h) => h.index))];
      if (out && watch.length > 0) {
        io.out(`Games worth watching (report.html links them to ${viewer ?? 'the server serving it, or the address in its field'}): ${watch.join(', ')}; e.g. czech-pub replay ${out}/games.jsonl --game ${watch[0]}`);
      }
    }
    if (result.stoppedBy !== undefined) io.err(`stopped after ${result.gamesPlayed} of ${result.gamesScheduled} games: ${result.stoppedBy}`);
    return result.complete ? EXIT_OK : EXIT_FAILURE;
  } catch (e) {
    bar.stop();
    throw asUsageError(e);
  } finally {
    stopListening();
    lock?.release();
  }
}
