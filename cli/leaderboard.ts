/**
 * `czech-pub leaderboard DIR...`: one table over several runs (tournament or llm-bench --out
 * folders): ratings fitted over all their games at once (eval/ratings.ts), the anchors held at
 * the ratings given so that tables of other runs compare, with bootstrap intervals over deals
 * and groups of players the data cannot tell apart. Runs under another ruleset, or whose model
 * was told other rules or sent another prompt, are refused with the reason: their games are
 * not the same test. `--pair` adds comparisons deal by deal (eval/paired-deals.ts), `--html` a
 * page to publish (eval/leaderboard-page.ts).
 */
import { writeFileSync } from 'node:fs';
import {
  checkViewerUrl, DEFAULT_VIEWER, fitRatings, leaderboardPage, pairedDeals, readBoardRuns, RunFolderError, tieGroups, type PairedComparison,
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
players whose intervals overlap. Runs under other rules or prompts are refused, saying why.`,
  options: {
    anchor: { type: 'list', arg: 'NAME=R[,...]', help: "hold these players at these ratings (e.g. heuristic=0), so that tables of other runs compare; without, the mean is 0" },
    samples: { type: 'int', arg: 'B', min: 10, max: 10_000, default: 200, help: 'bootstrap resamples of the deals' },
    seed: { type: 'string', arg: 'S', default: 'leaderboard', help: "the bootstrap's seed" },
    pair: { type: 'list', arg: 'A,B[,...]', help: `compare these players deal by deal on the deals both played, each pair of them (default: every pair of the players not anchored, when at most ${DEFAULT_PAIRS_UP_TO})` },
    html: { type: 'string', arg: 'FILE', help: 'also write the leaderboard, the pairs, each model\'s usage and every game with its replay link (and the model\'s answers, from transcript.jsonl) as one HTML page' },
    viewer: { type: 'string', arg: 'URL', default: DEFAULT_VIEWER, help: "the web viewer the page's replay links open" },
    json: { type: 'flag', help: 'print the table as JSON' },
  },
} as const satisfies CommandSpec;

/** The pairs --pair names (each pair of its players), or by default every pair of the players not anchored, if few. */
function pairsOf(named: readonly string[] | undefined, players: readonly string[], anchors: ReadonlyMap<string, number>): [string, string][] {
  if (named) {
    const unknown = named.filter((n) => !players.includes(n));
    if (unknown.length) throw new UsageError(`--pair: no player ${unknown.map((n) => `'${n}'`).join(', ')} in these runs; the players are ${players.join(', ')}`);
    const names = [...new Set(named)];
    if (names.length < 2) throw new UsageError('--pair: name two players or more (A,B)');
    return names.flatMap((a, i) => names.slice(i + 1).map((b) => [a, b] as [string, string]));
  }
  const free = players.filter((p) => !anchors.has(p));
  if (free.length > DEFAULT_PAIRS_UP_TO) return [];
  return free.flatMap((a, i) => free.slice(i + 1).map((b) => [a, b] as [string, string]));
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

export async function leaderboardCommand(args: readonly string[], io: Io): Promise<number> {
  const { files: dirs, options } = splitPositionals(args, LEADERBOARD.options);
  const parsed = parseOptions(LEADERBOARD, options);
  if (!parsed) {
    io.out(helpText(LEADERBOARD));
    return EXIT_OK;
  }
  if (dirs.length === 0) throw new UsageError('name one run folder or more');
  const anchors = new Map<string, number>();
  for (const a of parsed.values.anchor ?? []) {
    const m = /^(.+)=(-?\d+(?:\.\d+)?)$/.exec(a);
    if (!m) throw new UsageError(`--anchor: '${a}' is not NAME=RATING`);
    anchors.set(m[1], Number(m[2]));
  }
  let viewer: string;
  try {
    viewer = checkViewerUrl(parsed.values.viewer);
  } catch (e) {
    throw new UsageError(`--viewer: ${(e as Error).message}`);
  }
  try {
    const board = readBoardRuns(dirs, parsed.values.html !== undefined);
    const { games, fingerprint } = board;
    const ratings = fitRatings(games, anchors, parsed.values.samples, parsed.values.seed);
    const groups = tieGroups(ratings);
    const deals = new Set(games.map((g) => g.deal)).size;
    const pairs = pairsOf(parsed.values.pair, ratings.map((r) => r.player), anchors)
      .map(([a, b]) => pairedDeals(games, a, b, parsed.values.samples, parsed.values.seed));
    if (parsed.values.html !== undefined) {
      const page = leaderboardPage({ board, ratings, groups, pairs, anchors, samples: parsed.values.samples, viewer });
      try {
        writeFileSync(parsed.values.html, page);
      } catch (e) {
        io.err(`leaderboard: cannot write ${parsed.values.html} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
        return EXIT_FAILURE;
      }
      io.err(`Wrote ${parsed.values.html}.`);
    }
    if (parsed.values.json) {
      io.out(JSON.stringify({ runs: dirs.length, games: games.length, deals, ruleset: fingerprint, ratings: ratings.map((r, i) => ({ ...r, group: groups[i] })), pairs }));
      return EXIT_OK;
    }
    const fmt = (x: number) => x.toFixed(0);
    io.out(`# Leaderboard: ${dirs.length} run${dirs.length === 1 ? '' : 's'}, ${games.length} games, ${deals} deals; ruleset ${fingerprint}`);
    io.out('');
    io.out(`Ratings fitted over all games (Bradley-Terry, Elo scale)${anchors.size ? `, ${[...anchors].map(([n, r]) => `${n} held at ${r}`).join(', ')}` : ', mean 0'}; 95% intervals from ${parsed.values.samples} resamples of the deals. A group holds players whose intervals overlap.`);
    io.out('');
    io.out('| group | player | rating (95% CI) | games |');
    io.out('|---|---|---|---|');
    ratings.forEach((r, i) => io.out(`| ${groups[i]} | \`${r.player}\`${r.anchor ? ' (anchor)' : ''} | ${fmt(r.rating)} (${r.interval ? `${fmt(r.interval[0])} – ${fmt(r.interval[1])}` : '–'}) | ${r.games} |`));
    if (deals < 10) io.out(`\nSmall sample: ${deals} deal${deals === 1 ? '' : 's'}; the intervals are wide${deals < 2 ? ' (none from one deal)' : ''}.`);
    for (const line of pairsText(pairs, parsed.values.samples)) io.out(line);
    return EXIT_OK;
  } catch (e) {
    if (e instanceof RunFolderError || e instanceof RangeError) {
      io.err(`leaderboard: ${e.message}`);
      return EXIT_FAILURE;
    }
    throw e;
  }
}
