import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runTournament } from '../eval/tournament.ts';
import { writeRulesetFile } from '../test/helpers/custom-ruleset.ts';
import { bufferIo } from './io.ts';
import { main } from './main.ts';

async function run(...argv: string[]) {
  const io = bufferIo();
  const code = await main(['replay', ...argv], io);
  return { code, out: io.stdout, err: io.stderr };
}

/** Exit `code`, nothing on stdout and one line on stderr. */
function expectOneLine(r: Awaited<ReturnType<typeof run>>, code: number, what: string): string {
  expect(r.code, what).toBe(code);
  expect(r.out, what).toEqual([]);
  expect(r.err, what).toHaveLength(1);
  return r.err[0];
}

let dir: string;
let file: string;
let lines: { index: number; scores: number[]; agents: string[]; turns: number }[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'czech-pub-replay-'));
  await runTournament({ agents: ['heuristic', 'greedy', 'random'], games: 6, seed: 'rp', workers: 0, out: dir });
  file = join(dir, 'games.jsonl');
  lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
}, 60_000);

describe('czech-pub replay', () => {
  it('tells game N of a games.jsonl with its agents at their seats and the file\'s scores', async () => {
    const game = lines[4];
    const r = await run(file, '--game', String(game.index));
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.out[0]).toBe(`Czech Pub, game ${game.index} of ${file}: 3 players, seed rp/1 (ruleset czech-pub-standard).`);
    expect(r.out[1]).toBe(`Seats: ${game.agents.map((a, seat) => `Player ${seat} ${a}`).join(', ')}.`);
    expect(r.out).toContain('=== Turn 1: Player 0 ===');
    expect(r.out).toContain(`Final scores after ${game.turns} turns and ${JSON.parse(readFileSync(file, 'utf8').trim().split('\n')[4]).decisions} decisions:`);
    game.agents.forEach((agent, seat) => {
      expect(r.out.some((l) => new RegExp(`^ {2}Player ${seat} ${agent}( \\*)? .* ${game.scores[seat]}$`).test(l))).toBe(true);
    });
    // The spectator's log: every seat's drawn cards are named.
    for (const seat of [0, 1, 2]) expect(r.out.some((l) => l.startsWith(`  Player ${seat} draws `) && l.includes(':'))).toBe(true);
  });

  it('tells the game of a link, the one play --human prints, the same as play told it', async () => {
    const io = bufferIo(new Array<string>(2000).fill('1'));
    expect(await main(['play', '--seed', '9', '--human', '2', '--players', '3'], io)).toBe(0);
    const link = io.stdout.at(-1)!.match(/--link (\S+)$/)![1];
    const r = await run('--link', link);
    expect(r.code).toBe(0);
    expect((await run('--link', `http://127.0.0.1:8787/#replay=${link}`)).out).toEqual(r.out);
    expect(r.out[0]).toBe('Czech Pub, a replay link: 3 players, seed 9, every seat asked at every decision (ruleset czech-pub-standard).');
    const gameOver = (out: string[]) => out.find((l) => l.startsWith('  Game over. Scores: '));
    expect(gameOver(r.out)).toBeDefined();
    expect(gameOver(r.out)).toBe(gameOver(io.stdout));
    // What the person could not see, the replay shows: the bots' drawn cards.
    const draws = (out: string[], seat: number) => out.filter((l) => l.startsWith(`  Player ${seat} draws `) && l.includes(':'));
    expect(draws(io.stdout, 0)).toEqual([]);
    expect(draws(r.out, 0).length).toBeGreaterThan(0);
  });

  it('a game played under other rules replays under those, given with --ruleset', async () => {
    const rules = writeRulesetFile();
    const other = mkdtempSync(join(tmpdir(), 'czech-pub-replay-rules-'));
    expect(await main(['tournament', '--agents', 'heuristic,random', '--games', '2', '--workers', '0', '--ruleset', rules, '--out', other], bufferIo())).toBe(0);
    const games = join(other, 'games.jsonl');
    const without = await run(games, '--game', '1');
    expect(without.code).toBe(2);
    expect(without.err[0]).toMatch(/^czech-pub replay: game 1 of .* was played under ruleset [0-9a-f]+, and the rules in use are czech-pub-standard \([0-9a-f]+\): give the game's rules with --ruleset FILE/);
    const r = await run(games, '--game', '1', '--ruleset', rules);
    expect(r.code).toBe(0);
    expect(r.out[0]).toContain('(ruleset short-pub)');
  });

  it('bad usage exits 2 with one line', async () => {
    const rules = writeRulesetFile();
    const cases: [string[], string][] = [
      [[], 'name a games.jsonl FILE (with --game N) or give --link LINK'],
      [[file], '--game N is needed'],
      [[file, file, '--game', '1'], 'one games.jsonl file at a time'],
      [[file, '--link', 'r1.x', '--game', '1'], 'not both'],
      [['--link', 'r1.x', '--game', '1'], 'a link is one game already'],
      [[file, '--game', '-1'], '--game must be a whole number'],
      [[join(dir, 'nothing.jsonl'), '--game', '0'], 'cannot read it (ENOENT)'],
      [[dir, '--game', '0'], 'is not a file: name a tournament'],
      [[file, '--game', '0', '--ruleset', rules], `was played under ruleset`],
      [[file, '--frob'], "unknown option '--frob'"],
    ];
    for (const [args, phrase] of cases) {
      const line = expectOneLine(await run(...args), 2, args.join(' '));
      expect(line).toContain(phrase);
      expect(line).toMatch(/\(see 'czech-pub replay --help'\)$/);
    }
  });

  it('bad data exits 1 with one line, never a stack trace', async () => {
    const bad = join(dir, 'bad.jsonl');
    const text = readFileSync(file, 'utf8').trim().split('\n');
    const broken = JSON.parse(text[0]);
    broken.actions = broken.actions.slice(0, 5);
    const illegal = JSON.parse(text[1]);
    illegal.actions[0] = 197;
    const { actions: _gone, ...old } = JSON.parse(text[2]);
    writeFileSync(bad, [JSON.stringify(broken), JSON.stringify(illegal), JSON.stringify(old), '{"index": 77, "seed": ', text[3]].join('\n') + '\n');
    appendFileSync(bad, '{"index":50,"seed":"x","seating":[0,1],"agents":["a"],"scores":[1,2],"askForced":false,"ruleset":"ab","actions":[]}\n');
    const cases: [string[], RegExp][] = [
      [[bad, '--game', String(broken.index)], /^czech-pub replay: game \d+ of .*bad\.jsonl: the replay stops after 5 actions, before the game is over$/],
      [[bad, '--game', String(illegal.index)], /: action 197 at step 0 is not legal there \(legal: /],
      [[bad, '--game', String(old.index)], /bad\.jsonl line 3 \(game \d+\): it has no actions: written before games\.jsonl recorded them/],
      [[bad, '--game', '50'], /line 6 \(game 50\): not a game record: seating, agents and scores differ in length/],
      [[bad, '--game', '999'], /game 999 is not in .*bad\.jsonl \(5 games there; line 4 is not a game record, so it may have been there\)$/],
      [[join(dir, 'results.json'), '--game', '0'], /results\.json holds no game records \(a tournament's games\.jsonl has one per line\)$/],
      [[file, '--game', '999'], /game 999 is not in .*games\.jsonl \(6 games there\)$/],
      [['--link', 'r1.x'], /^czech-pub replay: the link: an r1 replay link has 6 parts/],
    ];
    for (const [args, message] of cases) {
      const line = expectOneLine(await run(...args), 1, args.join(' '));
      expect(line).toMatch(message);
      expect(line).not.toMatch(/\n|    at /);
    }
  });
});
