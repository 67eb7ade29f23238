/**
 * `czech-pub leaderboard DIR...`: one table over several runs (tournament or llm-bench --out
 * folders): ratings fitted over all their games at once (eval/ratings.ts), the anchors held at
 * the ratings given so that tables of other runs compare, with bootstrap intervals over deals
 * and groups of players the data cannot tell apart. Each run's results.json is checked against
 * its schema first; a run without one is refused. Runs of another fingerprint (ruleset,
 * harness, the rules and prompt models were sent) are refused with the difference, or with
 * `--split` make a table each. `--pair` adds comparisons deal by deal (eval/paired-deals.ts),
 * `--html` a page to publish (eval/leaderboard-page.ts).
 */
import { writeFileSync } from 'node:fs';
import {
  checkViewerUrl, DEFAULT_VIEWER, fingerprintText, fitRatings, leaderboardPage, pairedDeals, readBoardRuns, RunFolderError, tieGroups,
  type BoardRuns, type LeaderboardTable, type PairedComparison,
} from '../eval/index.ts';
import { EXIT_FAILURE, EXIT_OK, UsageError, type Io } from './io.ts';
import { helpText, parseOptions, splitPositionals, type CommandSpec } from './options.ts';

/** Without --pair, every pair of the players not anchored is compared when there are at most this many. */
const DEFAULT_PAIRS_UP_TO = 4;

export const LEADERBOARD = {
  name: 'leaderboard',
  synopsis: 'DIR [DIR...] [options]',
  description: `One table over the runs in the folders DIR... (tournament or llm-bench --out): ratings fitted
over all their games at once (Bradley-Terry over who finished above whom, Elo scale), the
anchors held at the ratings given, with 95% bootstrap intervals over deals, and groups of
players whose intervals overlap. Each run's results.json is checked against its schema
first; a run without one is refused ('czech-pub report DIR' makes it). Runs of another
fingerprint (ruleset, harness and env versions, the rules and prompt models were sent) are
refused, saying what differs, unless --split.`,
  options: {
    anchor: { type: 'list', arg: 'NAME=R[,...]', help: "hold these players at these ratings (e.g. heuristic=0), so that tables of other runs compare; without, the mean is 0" },
    samples: { type: 'int', arg: 'B', min: 10, max: 10_000, default: 200, help: 'bootstrap resamples of the deals' },
    seed: { type: 'string', arg: 'S', default: 'leaderboard', help: "the bootstrap's seed" },
    pair: { type: 'list', arg: 'A,B[,...]', help: `compare these players deal by deal on the deals both played, each pair of them (default: every pair of the players not anchored, when at most ${DEFAULT_PAIRS_UP_TO})` },
    html: { type: 'string', arg: 'FILE', help: 'also write the leaderboard, the pairs, each model\'s usage and every game with its replay link (and the model\'s answers, from transcript.jsonl) as one HTML page' },
    viewer: { type: 'string', arg: 'URL', default: DEFAULT_VIEWER, help: "the web viewer the page's replay links open" },
    split: { type: 'flag', help: 'runs of other fingerprints make a table each (a run with no model joins every table it compares with) instead of being refused' },
    json: { type: 'flag', help: 'print the table as JSON (with --split, {tables: [...]})' },
  },
} as const satisfies CommandSpec;

/** The pairs --pair names (each pair of its players here), or by default every pair of the players not anchored, if few. */
function pairsOf(named: readonly string[] | undefined, players: readonly string[], anchors: ReadonlyMap<string, number>): [string, string][] {
  const names = named ? [...new Set(named)].filter((n) => players.includes(n)) : players.filter((p) => !anchors.has(p));
  if (!named && names.length > DEFAULT_PAIRS_UP_TO) return [];
  return names.flatMap((a, i) => names.slice(i + 1).map((b) => [a, b] as [string, string]));
}

/** The pairs as a Markdown table, with a line for each pair with too few common deals. */
function pairsText(pairs: readonly PairedComparison[], samples: number): string[] {
  if (pairs.length === 0) return [];
  const f = (x: number) => `${x > 0 ? '+' : ''}${x.toFixed(1)}`;
  const pct = (x: number | null) => (x === null ? '–' : `${(100 * x).toFixed(0)}%`);
  return [
    '',
    `Paired over the deals both played (the luck of the cards cancelled): mean score of A minus B per deal, 95% intervals from ${samples} resamples of the deals.`,
    '',
    '| A | B | deals | A − B (95% CI) | deals A / B / even | A above B | B above A |',
    '|---|---|---|---|---|---|---|',
    ...pairs.map((c) => `| \`${c.a}\` | \`${c.b}\` | ${c.deals} | ${c.meanDifference === null ? '–' : f(c.meanDifference)} (${c.interval ? `${f(c.interval[0])} – ${f(c.interval[1])}` : '–'}) | ` +
      `${c.dealWins} / ${c.dealLosses} / ${c.dealTies} | ${pct(c.aAboveShare)} | ${pct(c.bAboveShare)} |`),
    ...pairs.filter((c) => c.deals < 2).map((c) => `\n\`${c.a}\` and \`${c.b}\` share ${c.deals} deal${c.deals === 1 ? '' : 's'}: no interval.`),
  ];
}

/** One table in Markdown; `title` says which of several it is. */
function tableText(t: LeaderboardTable, samples: number, title: string): string[] {
  const { board, ratings, groups, anchors } = t;
  const deals = dealsOf(board);
  const fmt = (x: number) => x.toFixed(0);
  return [
    `# Leaderboard${title}: ${board.runs.length} run${board.runs.length === 1 ? '' : 's'}, ${board.games.length} games, ${deals} deals; ruleset ${board.fingerprint.ruleset}`,
    '',
    `Runs: ${board.runs.map((r) => `\`${r.dir}\``).join(', ')}. Fingerprint: ${fingerprintText(board.fingerprint)}.`,
    '',
    `Ratings fitted over all games (Bradley-Terry, Elo scale)${anchors.size ? `, ${[...anchors].map(([n, r]) => `${n} held at ${r}`).join(', ')}` : ', mean 0'}; 95% intervals from ${samples} resamples of the deals. A group holds players whose intervals overlap.`,
    '',
    '| group | player | rating (95% CI) | games |',
    '|---|---|---|---|',
    ...ratings.map((r, i) => `| ${groups[i]} | \`${r.player}\`${r.anchor ? ' (anchor)' : ''} | ${fmt(r.rating)} (${r.interval ? `${fmt(r.interval[0])} – ${fmt(r.interval[1])}` : '–'}) | ${r.games} |`),
    ...(deals < 10 ? [`\nSmall sample: ${deals} deal${deals === 1 ? '' : 's'}; the intervals are wide${deals < 2 ? ' (none from one deal)' : ''}.`] : []),
    ...pairsText(t.pairs, samples),
  ];
}

const dealsOf = (board: BoardRuns) => new Set(board.games.map((g) => g.deal)).size;

/** One table as --json prints it. */
const tableJson = (t: LeaderboardTable) => ({
  runs: t.board.runs.length, folders: t.board.runs.map((r) => r.dir), games: t.board.games.length, deals: dealsOf(t.board), ruleset: t.board.fingerprint.ruleset,
  fingerprint: t.board.fingerprint, ratings: t.ratings.map((r, i) => ({ ...r, group: t.groups[i] })), pairs: t.pairs,
});

export async function leaderboardCommand(args: readonly string[], io: Io): Promise<number> {
  const { files: dirs, options } = splitPositionals(args, LEADERBOARD.options);
  const parsed = parseOptions(LEADERBOARD, options);
  if (!parsed) {
    io.out(helpText(LEADERBOARD));
    return EXIT_OK;
  }
  const { samples, seed, split } = parsed.values;
  if (dirs.length === 0) throw new UsageError('name one run folder or more');
  const anchors = new Map<string, number>();
  for (const a of parsed.values.anchor ?? []) {
    const m = /^(.+)=(-?\d+(?:\.\d+)?)$/.exec(a);
    if (!m) throw new UsageError(`--anchor: '${a}' is not NAME=RATING`);
    anchors.set(m[1], Number(m[2]));
  }
  if (parsed.values.pair && new Set(parsed.values.pair).size < 2) throw new UsageError('--pair: name two players or more (A,B)');
  let viewer: string;
  try {
    viewer = checkViewerUrl(parsed.values.viewer);
  } catch (e) {
    throw new UsageError(`--viewer: ${(e as Error).message}`);
  }
  try {
    const boards = readBoardRuns(dirs, { transcripts: parsed.values.html !== undefined, split });
    const players = new Set(boards.flatMap((b) => b.games.flatMap((g) => g.players)));
    const unknown = (parsed.values.pair ?? []).filter((n) => !players.has(n));
    if (unknown.length) throw new UsageError(`--pair: no player ${unknown.map((n) => `'${n}'`).join(', ')} in these runs; the players are ${[...players].join(', ')}`);
    const absent = [...anchors.keys()].filter((n) => !players.has(n));
    if (absent.length) throw new RangeError(`anchor '${absent[0]}' played no game here`);
    // Split, a table holds the anchors that played in it (each says which); every anchor is in one.
    const tables = boards.map((board): LeaderboardTable => {
      const held = split ? new Map([...anchors].filter(([n]) => board.games.some((g) => g.players.includes(n)))) : anchors;
      const ratings = fitRatings(board.games, held, samples, seed);
      const pairs = pairsOf(parsed.values.pair, ratings.map((r) => r.player), held).map(([a, b]) => pairedDeals(board.games, a, b, samples, seed));
      return { board, ratings, groups: tieGroups(ratings), pairs, anchors: held };
    });
    if (parsed.values.html !== undefined) {
      const page = leaderboardPage({ tables, samples, viewer });
      try {
        writeFileSync(parsed.values.html, page);
      } catch (e) {
        io.err(`leaderboard: cannot write ${parsed.values.html} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
        return EXIT_FAILURE;
      }
      io.err(`Wrote ${parsed.values.html}.`);
    }
    if (parsed.values.json) {
      io.out(JSON.stringify(split ? { tables: tables.map(tableJson) } : tableJson(tables[0])));
      return EXIT_OK;
    }
    tables.forEach((t, i) => {
      if (i > 0) io.out('');
      for (const line of tableText(t, samples, tables.length > 1 ? ` (table ${i + 1} of ${tables.length})` : '')) io.out(line);
    });
    return EXIT_OK;
  } catch (e) {
    if (e instanceof RunFolderError || e instanceof RangeError) {
      io.err(`leaderboard: ${e.message}`);
      return EXIT_FAILURE;
    }
    throw e;
  }
}
