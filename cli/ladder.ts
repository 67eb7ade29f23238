/**
 * `czech-pub ladder`: rates agents against each other across table sizes (eval/ladder.ts) and
 * prints one leaderboard; --out writes results.json and leaderboard.md. Ctrl-C (or SIGTERM,
 * SIGHUP) rates the games finished so far.
 */
import { availableParallelism } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LadderConfigError, ladderMarkdown, runLadder } from '../eval/index.ts';
import { EXIT_FAILURE, EXIT_OK, UsageError, type Io } from './io.ts';
import { helpText, parseOptions, type CommandSpec } from './options.ts';
import { interrupted, onStopSignals } from './stop-signals.ts';
import { asUsageError, progress } from './tournament.ts';

/** The shipped agents that play fairly: the default field. */
export const LADDER_AGENTS = ['random', 'greedy', 'cautious', 'heuristic', 'ismcts', 'ppo', 'ppo-search'];

export const LADDER = {
  name: 'ladder',
  description: `Rates agents against each other across table sizes in one leaderboard: per size, tables
of different agents drawn in turn, each deal played once per seat rotation; one openskill
rating over all games, and each size's win rate against par (1/players).`,
  options: {
    agents: { type: 'list', arg: 'A,B', default: LADDER_AGENTS, help: 'agent specs, each once' },
    players: { type: 'list', arg: 'P,Q', default: ['2', '4', '6'], help: 'table sizes' },
    games: { type: 'int', arg: 'G', min: 1, max: 10_000_000, default: 600, help: 'games per table size, rounded up to whole tables' },
    seed: { type: 'string', arg: 'S', default: '1', help: 'ladder seed; the same seed gives the same results' },
    workers: { type: 'int', arg: 'W', min: 0, max: 256, defaultText: 'one per core', help: 'worker threads; 0 plays in this thread' },
    ruleset: { type: 'ruleset', help: 'play under this ruleset: micro, standard, or a JSON file' },
    out: { type: 'folder', help: 'write results.json and leaderboard.md here' },
    json: { type: 'flag', help: 'print the result as JSON instead of the leaderboard' },
  },
} as const satisfies CommandSpec;

export async function ladderCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseOptions(LADDER, args);
  if (!parsed) {
    io.out(helpText(LADDER));
    return EXIT_OK;
  }
  const v = parsed.values;
  const sizes = v.players.map((x) => {
    const n = Number(x);
    if (!Number.isInteger(n)) throw new UsageError(`--players must be table sizes like 2,4,6, got '${v.players.join(',')}'`);
    return n;
  });
  const controller = new AbortController();
  const stopListening = onStopSignals((signal) => {
    io.err(`${interrupted(signal)}: rating the games played so far.`);
    controller.abort();
  });
  const bar = progress(io);
  try {
    const r = await runLadder({
      agents: v.agents, sizes, games: v.games, seed: v.seed, ruleset: parsed.ruleset, workers: v.workers ?? availableParallelism(),
      signal: controller.signal, onGame: (done, total) => bar.update(done, total),
    });
    bar.stop();
    if (v.out) {
      mkdirSync(v.out, { recursive: true });
      writeFileSync(join(v.out, 'results.json'), `${JSON.stringify(r, null, 2)}\n`);
      writeFileSync(join(v.out, 'leaderboard.md'), ladderMarkdown(r));
    }
    if (v.json) io.out(JSON.stringify(r));
    else io.out(ladderMarkdown(r));
    return r.complete ? EXIT_OK : EXIT_FAILURE;
  } catch (e) {
    bar.stop();
    throw e instanceof LadderConfigError ? new UsageError(e.message) : asUsageError(e);
  } finally {
    stopListening();
  }
}
