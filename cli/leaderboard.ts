/**
 * `czech-pub leaderboard DIR...`: one table over several runs (tournament or llm-bench --out
 * folders): ratings fitted over all their games at once (eval/ratings.ts), the anchors held at
 * the ratings given so that tables of other runs compare, with bootstrap intervals over deals
 * and groups of players the data cannot tell apart. Runs under another ruleset, or whose model
 * was told other rules or sent another prompt, are refused with the reason: their games are
 * not the same test.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  fitRatings, readFinishedGames, readRunFile, RunFolderError, schedule, tieGroups, type RatedGame, type UsageSummary,
} from '../eval/index.ts';
import { rulesetFingerprint } from '../env/index.ts';
import { EXIT_FAILURE, EXIT_OK, UsageError, type Io } from './io.ts';
import { helpText, parseOptions, splitPositionals, type CommandSpec } from './options.ts';

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
    json: { type: 'flag', help: 'print the table as JSON' },
  },
} as const satisfies CommandSpec;

/** What a run's models were told and sent, by model name, from its results.json. */
function promptsOf(dir: string): Map<string, { rulesHash: string; promptHash: string }> {
  const file = join(dir, 'results.json');
  const out = new Map<string, { rulesHash: string; promptHash: string }>();
  if (!existsSync(file)) return out;
  const usage = (JSON.parse(readFileSync(file, 'utf8')) as { usage?: UsageSummary[] }).usage ?? [];
  for (const u of usage) if (u.provenance) out.set(u.spec, { rulesHash: u.provenance.rulesHash, promptHash: u.provenance.promptHash });
  return out;
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
  const games: RatedGame[] = [];
  let fingerprint: string | null = null;
  const prompts = new Map<string, { rulesHash: string; promptHash: string; dir: string }>();
  try {
    for (const dir of dirs) {
      const run = readRunFile(dir);
      const f = rulesetFingerprint(run.config.ruleset);
      if (fingerprint !== null && f !== fingerprint) throw new RunFolderError(`${dir} was played under ruleset ${f}, not ${fingerprint} as ${dirs[0]}: its games are another game`);
      fingerprint = f;
      for (const [model, h] of promptsOf(dir)) {
        const seen = prompts.get(model);
        if (seen && (seen.promptHash !== h.promptHash || seen.rulesHash !== h.rulesHash)) {
          const what = seen.rulesHash !== h.rulesHash ? `rules text (rulesHash ${h.rulesHash}, not ${seen.rulesHash})` : `prompt (promptHash ${h.promptHash}, not ${seen.promptHash})`;
          throw new RunFolderError(`${dir}: ${model} was sent another ${what} than in ${seen.dir}; runs under other prompts do not compare`);
        }
        prompts.set(model, { ...h, dir });
      }
      const planned = schedule({ entries: run.config.players, games: run.config.games, seed: run.config.seed, duplicate: run.config.duplicate });
      for (const g of readFinishedGames(dir, planned, false)) {
        games.push({ deal: `${dir}#${g.deal}`, players: g.seating.map((e) => run.labels[e]), scores: g.scores });
      }
    }
    if (games.length === 0) throw new RunFolderError('the runs hold no finished game');
    const ratings = fitRatings(games, anchors, parsed.values.samples, parsed.values.seed);
    const groups = tieGroups(ratings);
    const deals = new Set(games.map((g) => g.deal)).size;
    if (parsed.values.json) {
      io.out(JSON.stringify({ runs: dirs.length, games: games.length, deals, ruleset: fingerprint, ratings: ratings.map((r, i) => ({ ...r, group: groups[i] })) }));
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
    return EXIT_OK;
  } catch (e) {
    if (e instanceof RunFolderError || e instanceof RangeError) {
      io.err(`leaderboard: ${e.message}`);
      return EXIT_FAILURE;
    }
    throw e;
  }
}
