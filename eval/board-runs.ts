/**
 * The runs a leaderboard is made from (tournament or llm-bench --out folders), read and
 * checked as one test: the same ruleset, and each model told the same rules and sent the same
 * prompt in every run. Also each model's usage over the runs combined.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rulesetFingerprint } from '../env/index.ts';
import type { RatedGame } from './ratings.ts';
import { readFinishedGames, readRunFile, RunFolderError, type RunFile } from './run-folder.ts';
import { schedule } from './schedule.ts';
import { winShares } from './stats.ts';
import type { GameResult } from './summary.ts';
import { parseTranscript, TRANSCRIPT_FILE, type Transcript } from './transcript.ts';
import type { UsageSummary } from './usage.ts';

export interface BoardRun {
  dir: string;
  run: RunFile;
  /** Finished games, in schedule order, with their actions. */
  games: GameResult[];
  /** results.json's usage (by label), or empty. */
  usage: UsageSummary[];
  /** transcript.jsonl, when the folder holds one. */
  transcript: Transcript | null;
}

export interface BoardRuns {
  runs: BoardRun[];
  /** Every finished game, a deal keyed `DIR#deal`, players by label. */
  games: RatedGame[];
  fingerprint: string;
}

const usageOf = (dir: string): UsageSummary[] => {
  const file = join(dir, 'results.json');
  if (!existsSync(file)) return [];
  return (JSON.parse(readFileSync(file, 'utf8')) as { usage?: UsageSummary[] }).usage ?? [];
};

/** Reads the folders; throws RunFolderError saying why runs do not compare. */
export function readBoardRuns(dirs: readonly string[], transcripts = false): BoardRuns {
  const runs: BoardRun[] = [];
  const games: RatedGame[] = [];
  let fingerprint: string | null = null;
  const prompts = new Map<string, { rulesHash: string; promptHash: string; dir: string }>();
  for (const dir of dirs) {
    const run = readRunFile(dir);
    const f = rulesetFingerprint(run.config.ruleset);
    if (fingerprint !== null && f !== fingerprint) throw new RunFolderError(`${dir} was played under ruleset ${f}, not ${fingerprint} as ${dirs[0]}: its games are another game`);
    fingerprint = f;
    const usage = usageOf(dir);
    for (const u of usage) {
      if (!u.provenance) continue;
      const h = { rulesHash: u.provenance.rulesHash, promptHash: u.provenance.promptHash };
      const seen = prompts.get(u.spec);
      if (seen && (seen.promptHash !== h.promptHash || seen.rulesHash !== h.rulesHash)) {
        const what = seen.rulesHash !== h.rulesHash ? `rules text (rulesHash ${h.rulesHash}, not ${seen.rulesHash})` : `prompt (promptHash ${h.promptHash}, not ${seen.promptHash})`;
        throw new RunFolderError(`${dir}: ${u.spec} was sent another ${what} than in ${seen.dir}; runs under other prompts do not compare`);
      }
      prompts.set(u.spec, { ...h, dir });
    }
    const planned = schedule({ entries: run.config.players, games: run.config.games, seed: run.config.seed, duplicate: run.config.duplicate });
    const finished = readFinishedGames(dir, planned, false).sort((a, b) => a.index - b.index);
    for (const g of finished) games.push({ deal: `${dir}#${g.deal}`, players: g.seating.map((e) => run.labels[e]), scores: g.scores });
    const file = join(dir, TRANSCRIPT_FILE);
    const transcript = transcripts && existsSync(file) ? parseTranscript(readFileSync(file, 'utf8')) : null;
    runs.push({ dir, run, games: finished, usage, transcript });
  }
  if (games.length === 0 || fingerprint === null) throw new RunFolderError('the runs hold no finished game');
  return { runs, games, fingerprint };
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
