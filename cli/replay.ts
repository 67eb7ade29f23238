/**
 * `czech-pub replay`: one finished game told in the terminal as `play` tells its games (every
 * card shown, the score table with who sat where): a game of a tournament's games.jsonl by
 * its index, or a replay link (report.html's, the one `play --human` prints at the end).
 * Usage mistakes exit 2; a file or link that does not hold a replayable game exits 1, with
 * one line saying why.
 */
import { createReadStream, statSync } from 'node:fs';
import { rulesetFingerprint } from '../env/index.ts';
import {
  decodeReplay, GameLineError, parseGameLine, ReplayFormatError, replayGame, replayRecordOfLine, type ReplayRecord,
} from '../eval/index.ts';
import { narrationLines, scoreLines, seatsLine } from './game-text.ts';
import { EXIT_FAILURE, EXIT_OK, streamLines, UsageError, type Io } from './io.ts';
import { helpText, parseOptions, splitPositionals, type CommandSpec } from './options.ts';

export const REPLAY = {
  name: 'replay',
  synopsis: 'FILE --game N [options] | --link LINK [options]',
  description: `Tells one finished game turn by turn, every card shown, with the final scores: game N
(its "index") of a tournament's games.jsonl FILE, or the game of a replay link (report.html's
links end in #replay=LINK; 'play --human' prints one at the end).`,
  options: {
    game: { type: 'int', arg: 'N', min: 0, max: 10_000_000, help: "the game's index in FILE (report.html names games by it)" },
    link: { type: 'string', arg: 'LINK', help: "a replay link (r2.… or r1.…, or a report's whole …#replay=… address) instead of a file" },
    ruleset: { type: 'ruleset', help: 'the ruleset the game was played under, as given to the tournament (default the standard rules)' },
  },
} as const satisfies CommandSpec;

/** A data problem: one line, exit 1. */
class BadData extends Error {}

/** The line of game `index` in a games.jsonl file, read a line at a time (a long run's file is large). */
async function findGame(file: string, index: number) {
  let isFile = false;
  try {
    isFile = statSync(file).isFile();
  } catch (e) {
    throw new UsageError(`${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (!isFile) throw new UsageError(`${file} is not a file: name a tournament's games.jsonl`);
  const stream = createReadStream(file, 'utf8');
  const opened = new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  try {
    await opened;
  } catch (e) {
    throw new UsageError(`${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const lines = streamLines(stream);
  let lineNo = 0;
  let games = 0;
  let unreadable: number | undefined;
  try {
    for (let text = await lines.next(); text !== null; text = await lines.next()) {
      lineNo++;
      if (text.trim() === '') continue;
      // Lines begin with their index (eval/game-line.ts): most are skipped without parsing.
      const prefix = /^\{"index":(\d+),/.exec(text);
      let at: unknown = prefix ? Number(prefix[1]) : undefined;
      if (at === undefined) {
        try {
          const raw: unknown = JSON.parse(text);
          at = raw !== null && typeof raw === 'object' ? (raw as { index?: unknown }).index : undefined;
        } catch {
          // a line cut short (a run killed mid-write) may have held the game
        }
        if (!Number.isInteger(at)) {
          unreadable ??= lineNo;
          continue;
        }
      }
      games++;
      if (at !== index) continue;
      try {
        return { line: parseGameLine(text), lineNo };
      } catch (e) {
        if (e instanceof GameLineError) throw new BadData(`${file} line ${lineNo} (game ${index}): ${e.message}`);
        throw e;
      }
    }
  } finally {
    lines.close();
    stream.destroy();
  }
  if (games === 0) throw new BadData(`${file} holds no game records (a tournament's games.jsonl has one per line)`);
  const why = unreadable !== undefined ? `; line ${unreadable} is not a game record, so it may have been there` : '';
  throw new BadData(`game ${index} is not in ${file} (${games} game${games === 1 ? '' : 's'} there${why})`);
}

export async function replayCommand(args: readonly string[], io: Io): Promise<number> {
  const { files, options } = splitPositionals(args, REPLAY.options);
  const parsed = parseOptions(REPLAY, options);
  if (!parsed) {
    io.out(helpText(REPLAY));
    return EXIT_OK;
  }
  const { game, link } = parsed.values;
  const ruleset = parsed.ruleset;
  if (files.length > 1) throw new UsageError(`one games.jsonl file at a time, got ${files.length}: ${files.join(' ')}`);
  const file = files[0];
  if (file !== undefined && link !== undefined) throw new UsageError('give a FILE or --link, not both');
  if (file === undefined && link === undefined) throw new UsageError('name a games.jsonl FILE (with --game N) or give --link LINK');
  if (file !== undefined && game === undefined) throw new UsageError(`--game N is needed: which game of ${file} (its index)`);
  if (link !== undefined && game !== undefined) throw new UsageError('--game picks a game of a FILE; a link is one game already');

  const title = file !== undefined ? `game ${game} of ${file}` : 'the link';
  try {
    let record: ReplayRecord;
    let agents: string[] | undefined;
    let scores: number[] | undefined;
    if (file !== undefined) {
      const { line } = await findGame(file, game!);
      record = replayRecordOfLine(line);
      agents = line.agents;
      scores = line.scores;
    } else {
      // A report's whole href will do: the link is what follows #replay=.
      record = decodeReplay(link!.includes('#replay=') ? link!.slice(link!.indexOf('#replay=') + 8) : link!);
    }
    const fingerprint = rulesetFingerprint(ruleset);
    if (record.ruleset !== fingerprint) {
      throw new UsageError(`${title} was played under ruleset ${record.ruleset}, and the rules in use are ${ruleset.name} (${fingerprint}): ` +
        `give the game's rules with --ruleset FILE`);
    }
    const env = replayGame(record, ruleset);
    io.out(`Czech Pub, ${file !== undefined ? title : 'a replay link'}: ${record.players} players, seed ${record.seed}${record.askForced ? ', every seat asked at every decision' : ''} (ruleset ${ruleset.name}).`);
    if (agents) io.out(seatsLine(agents));
    for (const line of [...narrationLines(env.fullLog, { ruleset }), ...scoreLines(env, agents)]) io.out(line);
    if (scores && env.scores().join() !== scores.join()) {
      io.err(`czech-pub replay: the replay ends on scores ${env.scores().join(', ')}, the file says ${scores.join(', ')}: was it written by another engine version?`);
      return EXIT_FAILURE;
    }
    return EXIT_OK;
  } catch (e) {
    if (e instanceof BadData) io.err(`czech-pub replay: ${e.message}`);
    else if (e instanceof ReplayFormatError) io.err(`czech-pub replay: ${title}: ${e.message}`);
    else throw e;
    return EXIT_FAILURE;
  }
}
