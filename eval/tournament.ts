/**
 * A tournament: agent specs, a player count, a number of games and a seed in; per-agent
 * results with intervals and ratings out. Seats rotate and deals are duplicated (schedule.ts);
 * games run in parallel on worker threads with results independent of the worker count
 * (runner.ts). With an output folder, every finished game is appended to games.jsonl as it
 * ends, and results.json, leaderboard.md and report.html are written at the end, also when
 * the run is interrupted, from the games finished so far. One run writes a folder at a time: it
 * holds the folder's lock (run-lock.ts) while it runs.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import type { ResourceLimits } from 'node:worker_threads';
import { agentLabels, anyOutsideAgent, createAgent, readLedger, rulesetMismatch, type AgentUsage, type GateSpec } from '../agents/index.ts';
import {
  DEFAULT_MAX_DECISIONS, DEFAULT_RULESET, envSpec, parseRuleset, rulesetFingerprint, type EnvSpec, type Ruleset,
} from '../env/index.ts';
import type { RunStop } from './game.ts';
import { gameLine } from './game-line.ts';
import { HARNESS } from './harness.ts';
import { checkViewerUrl, HighlightPicker, type Highlight } from './highlights.ts';
import { leaderboardMarkdown, reportHtml, type RunKind } from './report.ts';
import { runGames, type RunOptions, type RunOutcome } from './runner.ts';
import { ResultsSchema } from './results-schema.ts';
import { GAMES_FILE, readFinishedGames, readRunFile, RUN_FORMAT, runDifference, RunFolderError, writeRunFile, type RunFile } from './run-folder.ts';
import { acquireRunLock, type RunLock } from './run-lock.ts';
import { roundedGames, schedule } from './schedule.ts';
import { TRANSCRIPT_FILE } from './transcript.ts';
import { summarize, type AgentSummary, type GameResult, type Summary } from './summary.ts';
import { DEFAULT_MAX_FALLBACK_RATE, ledgerUnfinished, summarizeUsage, type Price, type UsageSummary } from './usage.ts';


/** results.json's format and version: eval/results-schema.ts describes it. */
export const RESULTS_FORMAT = 'czech-pub-tournament/2';

export interface TournamentOptions {
  agents: string[];
  players?: number;
  games: number;
  seed: string;
  duplicate?: boolean;
  ruleset?: Ruleset;
  /** Ask every seat at every decision, forced ones too (default: when an agent is not an engine bot, AgentFactory.outside). */
  askForced?: boolean;
  maxDecisions?: number;
  /** Worker threads; default: all cores. 0 plays in this thread. */
  workers?: number;
  /** Folder for games.jsonl, results.json, leaderboard.md, report.html. */
  out?: string;
  /** What the run is, which its reports are titled for (default 'tournament'); run.json records it. */
  kind?: RunKind;
  signal?: AbortSignal;
  /** Heap limits of each worker thread. */
  resourceLimits?: ResourceLimits;
  /** Names the results give the agents, one per spec (default: the specs): a server's catalogue labels, not its specs. */
  labels?: string[];
  onGame?: (done: number, total: number) => void;
  /** Where report.html's game links point: the web viewer's address (highlights.ts checkViewerUrl); by default the links are relative, with a field for a server's address (report.ts). */
  viewer?: string;
  /** With workers 0: games played at once in this thread (for network-bound agents). */
  parallel?: number;
  /** Model prices for the usage report's cost estimate, by agent spec or model name. */
  prices?: Record<string, Price>;
  /** A model agent with a larger share of fallback decisions is marked invalid (default 5%). */
  maxFallbackRate?: number;
  /**
   * Plays the scheduled games (default: runGames, on this machine's worker threads); the job
   * queue's runner (queue/games.ts) plays them on other machines' workers. Results are keyed
   * by game, so they are the same either way.
   */
  runner?: (o: RunOptions) => Promise<RunOutcome>;
  /** Per agent spec: the budgets of its calls to outside servers, or null (a server's tournaments; the CLI sets none). */
  gates?: (GateSpec | null)[];
  /** Per agent spec: the file its agent's transcript goes to, or null (llm-bench keeps its models' in the run's folder). */
  transcripts?: (string | null)[];
  /**
   * With `out`: go on with the run whose folder it is (run-folder.ts). Its finished games are
   * kept and not played again; the rest of the same schedule is played; a folder of another
   * run (other agents, seed, games, ruleset...) is refused, saying what differs.
   */
  resume?: boolean;
  /**
   * With `out`: the folder's lock (run-lock.ts), taken and released by the caller (a command
   * takes it before it sends or writes anything). Without it the run takes the lock itself
   * before it writes, and releases it at the end; a folder another run holds is refused.
   */
  lock?: RunLock;
}

export interface TournamentConfig {
  agents: string[];
  players: number;
  games: number;
  seed: string;
  duplicate: boolean;
  askForced: boolean;
  maxDecisions: number;
  workers: number;
  ruleset: Ruleset;
}

export interface TournamentResult {
  format: string;
  /** What played the run: this package's name and version, and Node's. */
  harness: { package: string; node: string };
  env: EnvSpec;
  config: TournamentConfig;
  gamesScheduled: number;
  gamesPlayed: number;
  complete: boolean;
  /** Why the run stopped early, when an agent stopped it (a model server that kept failing). */
  stoppedBy?: string;
  /** Which agent stopped it and why, when one stopped it on purpose (a budget spent, a model server failing). */
  stop?: RunStop;
  elapsedSec: number;
  gamesPerSec: number;
  startedAt: string;
  finishedAt: string;
  summary: Summary;
  /** Model usage of agents that report it (LLM agents); empty otherwise. */
  usage: UsageSummary[];
  /** Share of a model's decisions that may fall back before it is marked invalid. */
  maxFallbackRate: number;
  /** What tables call each agent of config.agents: no paths or URLs (registry agentLabels), or a server's catalogue names. */
  labels: string[];
  /** Games worth watching (highlights.ts), each with its replay link. */
  highlights: Highlight[];
}

/** The summary row of `config.agents[entry]` (summaries name agents by their labels, so an entry whose label it shares with no other). */
export function entrySummary(r: Pick<TournamentResult, 'summary' | 'labels'>, entry = 0): AgentSummary {
  const row = r.summary.agents.find((a) => a.spec === r.labels[entry]);
  if (!row) throw new Error(`no summary row for entry ${entry} ('${r.labels[entry]}')`);
  return row;
}

export class TournamentConfigError extends Error {
  override name = 'TournamentConfigError';
}

export function resolveConfig(o: TournamentOptions): TournamentConfig {
  const players = o.players ?? o.agents.length;
  const ruleset = o.ruleset ? parseRuleset(o.ruleset) : DEFAULT_RULESET;
  if (!Number.isInteger(players) || players < ruleset.players.min || players > ruleset.players.max) {
    throw new TournamentConfigError(`players must be from ${ruleset.players.min} to ${ruleset.players.max}, got ${players}`);
  }
  if (o.labels && o.labels.length !== o.agents.length) throw new TournamentConfigError('one label per agent spec');
  if (o.gates && o.gates.length !== o.agents.length) throw new TournamentConfigError('one gate (or null) per agent spec');
  if (o.transcripts && o.transcripts.length !== o.agents.length) throw new TournamentConfigError('one transcript file (or null) per agent spec');
  if (o.agents.length !== players) {
    throw new TournamentConfigError(
      `${o.agents.length} agents for ${players} players: give one agent spec per seat (repeat a spec to field it twice)`,
    );
  }
  for (const spec of o.agents) {
    // Fails early, naming the known agents; and a policy trained under other rules does not play these.
    const mismatch = rulesetMismatch(createAgent(spec), ruleset);
    if (mismatch) throw new TournamentConfigError(mismatch);
  }
  if (!Number.isInteger(o.games) || o.games < 1) throw new TournamentConfigError(`games must be a positive integer, got ${o.games}`);
  const workers = o.workers ?? availableParallelism();
  if (!Number.isInteger(workers) || workers < 0) throw new TournamentConfigError(`workers must be 0 or more, got ${workers}`);
  return {
    agents: o.agents.slice(),
    players,
    games: roundedGames(o.games, players),
    seed: o.seed,
    duplicate: o.duplicate ?? true,
    // A run with a seat that is not an engine bot plays as at a real table: forced decisions are asked too.
    askForced: o.askForced ?? anyOutsideAgent(o.agents),
    maxDecisions: o.maxDecisions ?? DEFAULT_MAX_DECISIONS,
    workers,
    ruleset,
  };
}

/** What run.json holds for these options. */
function runFileOf(o: TournamentOptions, config: TournamentConfig): RunFile {
  const { workers: _workers, ...settings } = config;
  return {
    format: RUN_FORMAT, config: settings, labels: o.labels ?? agentLabels(config.agents), maxFallbackRate: o.maxFallbackRate ?? DEFAULT_MAX_FALLBACK_RATE,
    ...(o.prices ? { prices: o.prices } : {}), kind: o.kind ?? 'tournament',
  };
}

function checkResumable(dir: string, run: RunFile): void {
  const why = runDifference(readRunFile(dir), run);
  if (why) throw new RunFolderError(`${dir} is the folder of another run: ${why}`);
}

/**
 * Begins a run's folder: run.json for these options and an empty games.jsonl, as a run begun
 * anew does. A command that spends before the run plays (a model's preflight) begins it first,
 * so that a kill then leaves a folder `--resume` goes on with.
 */
export function beginRunFolder(o: TournamentOptions & { out: string }): void {
  mkdirSync(o.out, { recursive: true });
  writeFileSync(join(o.out, GAMES_FILE), '');
  writeRunFile(o.out, runFileOf(o, resolveConfig(o)));
}

/**
 * Whether `--resume` may go on with the run in `o.out` with these options: throws
 * TournamentConfigError saying why not (no run.json, another run's). A command that spends
 * before the run begins (a model's preflight) asks first.
 */
export function assertResumable(o: TournamentOptions & { out: string }): void {
  try {
    checkResumable(o.out, runFileOf(o, resolveConfig(o)));
  } catch (e) {
    throw e instanceof RunFolderError ? new TournamentConfigError(e.message) : e;
  }
}

export async function runTournament(o: TournamentOptions): Promise<TournamentResult> {
  if (!o.out) return play(o);
  if (o.lock) {
    if (o.lock.dir !== resolve(o.out)) throw new Error(`the lock given is ${o.lock.dir}'s, not ${o.out}'s`);
    return play(o);
  }
  const lock = acquireRunLock(o.out, 'a tournament');
  try {
    return await play(o);
  } finally {
    lock.release();
  }
}

async function play(o: TournamentOptions): Promise<TournamentResult> {
  const config = resolveConfig(o);
  let viewer: string | undefined;
  try {
    if (o.viewer !== undefined) viewer = checkViewerUrl(o.viewer);
  } catch (e) {
    throw new TournamentConfigError(`viewer: ${(e as Error).message}`);
  }
  const games = schedule({ entries: config.players, games: config.games, seed: config.seed, duplicate: config.duplicate });
  const startedAt = new Date();
  const t0 = performance.now();
  let gamesFile: string | null = null;
  const names = o.labels ?? agentLabels(config.agents);
  const maxFallbackRate = o.maxFallbackRate ?? DEFAULT_MAX_FALLBACK_RATE;
  let previous: GameResult[] = [];
  if (o.out) {
    mkdirSync(o.out, { recursive: true });
    gamesFile = join(o.out, GAMES_FILE);
    const run = runFileOf(o, config);
    if (o.resume) {
      try {
        checkResumable(o.out, run);
        previous = readFinishedGames(o.out, games);
      } catch (e) {
        throw e instanceof RunFolderError ? new TournamentConfigError(e.message) : e;
      }
    } else {
      writeFileSync(gamesFile, '');
    }
    writeRunFile(o.out, run);
  }
  const fingerprint = rulesetFingerprint(config.ruleset);
  const picker = new HighlightPicker(names, config.askForced, fingerprint);
  for (const r of previous) {
    picker.offer(r);
    delete (r as Partial<GameResult>).actions;
  }
  let done = previous.length;
  const finished = new Set(previous.map((r) => r.index));
  const outcome = await (o.runner ?? runGames)({
    entries: config.agents,
    games: games.filter((g) => !finished.has(g.index)),
    ruleset: config.ruleset === DEFAULT_RULESET ? undefined : config.ruleset,
    askForced: config.askForced,
    maxDecisions: config.maxDecisions,
    workers: config.workers,
    parallel: o.parallel,
    signal: o.signal,
    resourceLimits: o.resourceLimits,
    gates: o.gates,
    transcripts: o.transcripts,
    onGame: (r: GameResult) => {
      if (gamesFile) appendFileSync(gamesFile, `${gameLine(r, names, config.askForced, fingerprint)}\n`);
      picker.offer(r);
      // The summary never reads the actions; the picker holds those it may link to. Kept for
      // every game, a long run's memory would grow by 1-3 kB a game (about 120 actions in a random game,
      // 250-370 in a game with the scripted bots).
      delete (r as Partial<GameResult>).actions;
      o.onGame?.(++done, games.length);
    },
  });
  const elapsedSec = (performance.now() - t0) / 1000;
  const results = [...previous, ...outcome.results];
  const summary = summarize(names, results);
  const result: TournamentResult = {
    format: RESULTS_FORMAT,
    harness: HARNESS,
    env: envSpec(config.ruleset),
    // The specs stay in the results (to play the run again); tables and summaries use the labels.
    config,
    labels: names.slice(),
    gamesScheduled: games.length,
    gamesPlayed: results.length,
    complete: !outcome.interrupted && results.length === games.length,
    ...(outcome.stoppedBy !== undefined ? { stoppedBy: outcome.stoppedBy } : {}),
    ...(outcome.stop ? { stop: outcome.stop } : {}),
    elapsedSec,
    gamesPerSec: outcome.results.length / elapsedSec,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    summary,
    highlights: picker.pick(summary),
    usage: summarizeUsage(names, results, o.prices, maxFallbackRate, unfinishedUsage(o.out, config.agents, results) ?? outcome.unfinishedUsage),
    maxFallbackRate,
  };
  if (o.out) writeReports(o.out, result, viewer, o.kind);
  return result;
}

/**
 * With a run folder whose transcript is a ledger of model calls: what it holds beyond the
 * finished games (ledgerUnfinished), the truth after a kill too; null without one.
 */
function unfinishedUsage(dir: string | undefined, entries: readonly string[], results: readonly GameResult[]): (AgentUsage | null)[] | null {
  const file = dir === undefined ? null : join(dir, TRANSCRIPT_FILE);
  if (file === null || !existsSync(file)) return null;
  const ledger = readLedger(readFileSync(file, 'utf8'));
  return ledger.size === 0 ? null : ledgerUnfinished(entries, results, ledger);
}

export function writeReports(dir: string, r: TournamentResult, viewer?: string, kind: RunKind = 'tournament'): void {
  const json = JSON.stringify(r, null, 2);
  writeFileSync(join(dir, 'results.json'), `${json}\n`);
  writeFileSync(join(dir, 'leaderboard.md'), leaderboardMarkdown(r, kind));
  writeFileSync(join(dir, 'report.html'), reportHtml(r, viewer, kind));
  // Written first, so that no finished result is lost; a shape the schema does not describe is a bug here.
  const checked = ResultsSchema.safeParse(JSON.parse(json));
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new Error(`results.json does not match its schema (docs/results.schema.json) at ${issue.path.join('.') || 'the top'}: ${issue.message}`);
  }
}

/** The summary `--json` prints: the headline figures of each agent. */
export function jsonSummary(r: TournamentResult) {
  return {
    games: r.gamesPlayed,
    gamesScheduled: r.gamesScheduled,
    complete: r.complete,
    ...(r.stoppedBy !== undefined ? { stoppedBy: r.stoppedBy } : {}),
    gamesPerSec: r.gamesPerSec,
    elapsedSec: r.elapsedSec,
    players: r.config.players,
    seed: r.config.seed,
    workers: r.config.workers,
    env: r.env,
    agents: r.summary.agents.map((a) => ({
      spec: a.spec, seats: a.seats, games: a.games, wins: a.wins, winRate: a.winRate, winRateCI: a.winRateCI,
      meanScore: a.meanScore, scoreCI: a.scoreCI, meanRank: a.meanRank, rating: a.rating, ratingSigma: a.ratingSigma,
      wastedRate: a.wastedRate, thrownOutRate: a.thrownOutRate, msPerDecision: a.msPerDecision,
    })),
    meanTurns: r.summary.meanTurns,
    meanDecisions: r.summary.meanDecisions,
    usage: r.usage,
  };
}
