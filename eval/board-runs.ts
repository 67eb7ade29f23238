/**
 * The runs a leaderboard is made from (tournament or llm-bench --out folders), read and
 * checked: each run's results.json against its schema before anything of it is read, and the
 * runs of one table as one test, by their fingerprint: the ruleset, the harness and env
 * versions, and the rules text and prompt their models were sent. Also each model's usage over
 * the runs combined.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { rulesetFingerprint } from '../env/index.ts';
import type { RatedGame } from './ratings.ts';
import { ResultsSchema } from './results-schema.ts';
import { withRenamedKeys } from './game-line.ts';
import { readFinishedGames, readRunFile, RunFolderError, type RunFile } from './run-folder.ts';
import { runLockHolder, RunLockedError } from './run-lock.ts';
import { schedule } from './schedule.ts';
import { winShares } from './stats.ts';
import type { GameResult } from './summary.ts';
import { parseTranscript, TRANSCRIPT_FILE, type Transcript } from './transcript.ts';

export const RESULTS_FILE = 'results.json';

type Results = z.output<typeof ResultsSchema>;
type Usage = Results['usage'][number];

/** What makes a run's games the same test as another's. */
export interface RunFingerprint {
  ruleset: string;
  /** results.json's harness.package: this package's name and version. */
  harness: string;
  engineVersion: number;
  actionSpaceVersion: number;
  observationVersion: number;
  /** What its models were sent; null for a run with no model, which compares with any. */
  prompt: { rulesHash: string; promptHash: string } | null;
}

export interface BoardRun {
  dir: string;
  run: RunFile;
  fingerprint: RunFingerprint;
  /** Finished games, in schedule order, with their actions. */
  games: GameResult[];
  /** results.json's usage (by label). */
  usage: Usage[];
  /** transcript.jsonl, when the folder holds one. */
  transcript: Transcript | null;
}

/** The runs of one table. */
export interface BoardRuns {
  runs: BoardRun[];
  /** Every finished game, a deal keyed `DIR#deal`, players by label. */
  games: RatedGame[];
  /** The runs' fingerprint (a prompt if any of them had a model). */
  fingerprint: RunFingerprint;
}

/** A run's results.json, checked against the schema; throws RunFolderError saying what is wrong and where. */
function readResults(dir: string): Results {
  const file = join(dir, RESULTS_FILE);
  if (!existsSync(file)) {
    throw new RunFolderError(`${dir} holds no ${RESULTS_FILE}: the run was stopped before its reports were written; run 'czech-pub report ${dir}' first (it makes them from run.json and games.jsonl)`);
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new RunFolderError(`${file} is not JSON (${(e as Error).message.split('\n')[0]}); 'czech-pub report ${dir}' makes it again`);
  }
  const config = (json as { config?: unknown } | null)?.config;
  const checked = ResultsSchema.safeParse(config === undefined ? json : { ...(json as object), config: withRenamedKeys(config) });
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new RunFolderError(`${file} does not match the results.json schema (docs/results.schema.json) at ${issue.path.join('.') || 'the top'}: ${issue.message}`);
  }
  return checked.data;
}

function fingerprintOf(dir: string, run: RunFile, r: Results): RunFingerprint {
  const ruleset = rulesetFingerprint(run.config.ruleset);
  if (r.env.ruleset.fingerprint !== ruleset || JSON.stringify(r.labels) !== JSON.stringify(run.labels)) {
    throw new RunFolderError(`${dir}: its ${RESULTS_FILE} is not of the run in its run.json (their ruleset or players differ); run 'czech-pub report ${dir}' to make it again`);
  }
  const models = r.usage.flatMap((u) => (u.provenance ? [{ spec: u.spec, rulesHash: u.provenance.rulesHash, promptHash: u.provenance.promptHash }] : []));
  const other = models.find((m) => m.rulesHash !== models[0].rulesHash || m.promptHash !== models[0].promptHash);
  if (other) throw new RunFolderError(`${dir}: its models were sent other prompts (${models[0].spec} and ${other.spec}), which one run cannot do; its ${RESULTS_FILE} is not as a run writes it`);
  return {
    ruleset, harness: r.harness.package, engineVersion: r.env.engineVersion, actionSpaceVersion: r.env.actionSpaceVersion, observationVersion: r.env.observationVersion,
    prompt: models.length ? { rulesHash: models[0].rulesHash, promptHash: models[0].promptHash } : null,
  };
}

/** One run folder, read and checked; throws RunFolderError saying why it cannot be read. */
export function readBoardRun(dir: string, transcripts = false): BoardRun {
  // A folder a run is writing is no result yet: refused, naming the run.
  const holder = runLockHolder(dir);
  if (holder) throw new RunLockedError(dir, holder);
  const run = readRunFile(dir);
  const results = readResults(dir);
  const fingerprint = fingerprintOf(dir, run, results);
  const planned = schedule({ entries: run.config.players, games: run.config.games, seed: run.config.seed, duplicate: run.config.duplicate });
  const games = readFinishedGames(dir, planned, false).sort((a, b) => a.index - b.index);
  if (games.length !== results.gamesPlayed) {
    throw new RunFolderError(`${dir}: its ${RESULTS_FILE} counts ${results.gamesPlayed} games, its games.jsonl holds ${games.length}: the run went on after its reports were written; run 'czech-pub report ${dir}' first`);
  }
  const file = join(dir, TRANSCRIPT_FILE);
  const transcript = transcripts && existsSync(file) ? parseTranscript(readFileSync(file, 'utf8')) : null;
  return { dir, run, fingerprint, games, usage: results.usage, transcript };
}

const BASE_FIELDS = [
  ['harness', 'harness'], ['engineVersion', 'engine version'], ['actionSpaceVersion', 'action space version'], ['observationVersion', 'observation version'],
] as const;

/** How b's fingerprint differs from a's, in words; null when their games are one test (a run with no model compares with any prompt). */
export function fingerprintDifference(a: BoardRun, b: BoardRun): string | null {
  const [fa, fb] = [a.fingerprint, b.fingerprint];
  if (fa.ruleset !== fb.ruleset) return `${b.dir} was played under ruleset ${fb.ruleset}, not ${fa.ruleset} as ${a.dir}: its games are another game`;
  for (const [key, name] of BASE_FIELDS) {
    if (fa[key] !== fb[key]) return `${b.dir} was played by another harness than ${a.dir} (${name} ${fb[key]} in ${b.dir}, ${fa[key]} in ${a.dir}): their games may not be the same test`;
  }
  if (!fa.prompt || !fb.prompt) return null;
  const models = b.usage.filter((u) => u.provenance).map((u) => u.spec);
  const sent = (what: string) => `${b.dir}: ${models.join(', ')} ${models.length === 1 ? 'was' : 'were'} sent another ${what} than in ${a.dir}; runs under other prompts do not compare`;
  if (fa.prompt.rulesHash !== fb.prompt.rulesHash) return sent(`rules text (rulesHash ${fb.prompt.rulesHash}, not ${fa.prompt.rulesHash})`);
  if (fa.prompt.promptHash !== fb.prompt.promptHash) return sent(`prompt (promptHash ${fb.prompt.promptHash}, not ${fa.prompt.promptHash})`);
  return null;
}

const baseKey = (f: RunFingerprint) => JSON.stringify([f.ruleset, ...BASE_FIELDS.map(([k]) => f[k])]);
const promptKey = (f: RunFingerprint) => (f.prompt ? JSON.stringify([f.prompt.rulesHash, f.prompt.promptHash]) : null);

/**
 * The runs in tables of one fingerprint each, in the order given. A run with no model joins
 * every table of runs with a model it compares with (its bots are in each test), or makes its own.
 */
function splitRuns(runs: readonly BoardRun[]): BoardRun[][] {
  const tables: { base: string; prompt: string | null; runs: BoardRun[] }[] = [];
  const tableOf = (base: string, prompt: string | null) => {
    let t = tables.find((x) => x.base === base && x.prompt === prompt);
    if (!t) tables.push((t = { base, prompt, runs: [] }));
    return t;
  };
  for (const r of runs.filter((x) => x.fingerprint.prompt)) tableOf(baseKey(r.fingerprint), promptKey(r.fingerprint)).runs.push(r);
  for (const r of runs.filter((x) => !x.fingerprint.prompt)) {
    const base = baseKey(r.fingerprint);
    const joins = tables.filter((t) => t.base === base && t.prompt !== null);
    for (const t of joins.length ? joins : [tableOf(base, null)]) t.runs.push(r);
  }
  const at = (r: BoardRun) => runs.indexOf(r);
  return tables.map((t) => t.runs.sort((a, b) => at(a) - at(b))).sort((a, b) => at(a[0]) - at(b[0]));
}

function boardOf(runs: BoardRun[]): BoardRuns {
  const games = runs.flatMap((r) => r.games.map((g) => ({ deal: `${r.dir}#${g.deal}`, players: g.seating.map((e) => r.run.labels[e]), scores: g.scores })));
  if (games.length === 0) throw new RunFolderError(`${runs.map((r) => r.dir).join(', ')}: the runs hold no finished game`);
  const fingerprint = runs.find((r) => r.fingerprint.prompt)?.fingerprint ?? runs[0].fingerprint;
  return { runs, games, fingerprint };
}

/**
 * Reads the folders as one table, or with `split` one table per fingerprint; throws
 * RunFolderError saying why a run cannot be read, or (without `split`) which two runs do not
 * compare and how.
 */
export function readBoardRuns(dirs: readonly string[], o: { transcripts?: boolean; split?: boolean } = {}): BoardRuns[] {
  const runs = dirs.map((dir) => readBoardRun(dir, o.transcripts));
  if (o.split) return splitRuns(runs).map(boardOf);
  runs.forEach((b, i) => {
    for (const a of runs.slice(0, i)) {
      const difference = fingerprintDifference(a, b);
      if (difference !== null) throw new RunFolderError(`${difference} (--split makes a table of each)`);
    }
  });
  return [boardOf(runs)];
}

/** A fingerprint in words. */
export function fingerprintText(f: RunFingerprint): string {
  const models = f.prompt ? `models sent rulesHash ${f.prompt.rulesHash}, promptHash ${f.prompt.promptHash}` : 'no model';
  return `ruleset ${f.ruleset}, harness ${f.harness}, engine v${f.engineVersion}, action space v${f.actionSpaceVersion}, observation v${f.observationVersion}, ${models}`;
}

export interface KindTotals {
  decisions: number;
  firstTry: number;
  corrected: number;
  fallbacks: number;
  truncations: number;
  firstTryRate: number;
}

/**
 * A model's usage over the runs: counts and tokens summed, rates of the sums; its cost summed
 * over the runs that had a price for it, and per game and per win over those runs' games.
 */
export interface MergedUsage {
  player: string;
  /** Runs with a usage entry for it, and those of them that marked it invalid. */
  runs: number;
  invalidIn: string[];
  decisions: number;
  fallbacks: number;
  fallbackRate: number;
  truncations: number;
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
  /** Runs with a price for it; cost null when none had. */
  pricedRuns: number;
  cost: number | null;
  costPerGame: number | null;
  costPerWin: number | null;
  byKind: Record<string, KindTotals>;
}

export function mergeUsage(runs: readonly BoardRun[]): MergedUsage[] {
  const out = new Map<string, MergedUsage & { pricedGames: number; pricedWins: number }>();
  for (const r of runs) {
    for (const u of r.usage) {
      let m = out.get(u.spec);
      if (!m) {
        out.set(u.spec, (m = {
          player: u.spec, runs: 0, invalidIn: [], decisions: 0, fallbacks: 0, fallbackRate: 0, truncations: 0, promptTokens: 0, completionTokens: 0,
          reasoningTokens: 0, pricedRuns: 0, cost: null, costPerGame: null, costPerWin: null, byKind: {}, pricedGames: 0, pricedWins: 0,
        }));
      }
      m.runs++;
      if (u.invalid) m.invalidIn.push(r.dir);
      m.decisions += u.decisions;
      m.fallbacks += u.fallbacks;
      m.truncations += u.truncations;
      m.promptTokens += u.promptTokens;
      m.completionTokens += u.completionTokens;
      m.reasoningTokens += u.reasoningTokens;
      for (const [kind, k] of Object.entries(u.byKind ?? {})) {
        const t = (m.byKind[kind] ??= { decisions: 0, firstTry: 0, corrected: 0, fallbacks: 0, truncations: 0, firstTryRate: 0 });
        t.decisions += k.decisions;
        t.firstTry += k.firstTry;
        t.corrected += k.corrected;
        t.fallbacks += k.fallbacks;
        t.truncations += k.truncations;
      }
      if (u.estimatedCost !== null) {
        m.pricedRuns++;
        m.cost = (m.cost ?? 0) + u.estimatedCost;
        // As summarizeUsage counts them: a game once however many seats the model filled, wins over its seats.
        for (const g of r.games) {
          const seats = g.seating.flatMap((e, seat) => (r.run.labels[e] === u.spec ? [seat] : []));
          if (seats.length === 0) continue;
          m.pricedGames++;
          const shares = winShares(g.scores);
          for (const s of seats) m.pricedWins += shares[s];
        }
      }
    }
  }
  return [...out.values()].map(({ pricedGames, pricedWins, ...m }) => {
    for (const k of Object.values(m.byKind)) k.firstTryRate = k.decisions ? k.firstTry / k.decisions : 0;
    return {
      ...m,
      fallbackRate: m.decisions ? m.fallbacks / m.decisions : 0,
      costPerGame: m.cost !== null && pricedGames > 0 ? m.cost / pricedGames : null,
      costPerWin: m.cost !== null && pricedWins > 0 ? m.cost / pricedWins : null,
    };
  });
}
