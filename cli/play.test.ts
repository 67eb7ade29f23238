import { describe, expect, it } from 'vitest';
import { registerAgent } from '../agents/default-registry.ts';
import { bufferIo } from './io.ts';
import { main } from './main.ts';

async function play(...args: string[]): Promise<string[]> {
  const io = bufferIo();
  expect(await main(['play', ...args], io)).toBe(0);
  expect(io.stderr).toEqual([]);
  return io.stdout;
}

/** `play` with a person at a seat, answering with `answers` line by line. */
async function playAs(answers: string[], ...args: string[]) {
  const io = bufferIo(answers);
  const code = await main(['play', ...args], io);
  return { code, out: io.stdout, err: io.stderr };
}

/** A draw line that names the cards drawn: "  Player 2 draws 3 cards: Beer, Rum and Tea." */
const drawsOf = (lines: string[], seat: number) => lines.filter((l) => l.startsWith(`  Player ${seat} draws `) && l.includes(':'));

describe('czech-pub play', () => {
  it('prints a narrated game between heuristic bots, a score table with the agents and the winner', async () => {
    const out = await play('--seed', '1');
    expect(out[0]).toBe('Czech Pub: 4 players, seed 1 (ruleset czech-pub-standard).');
    expect(out[1]).toBe('Seats: Player 0 heuristic, Player 1 heuristic, Player 2 heuristic, Player 3 heuristic.');
    expect(out).toContain('=== Turn 1: Player 0 ===');
    expect(out.some((l) => /^ {2}Player \d (plays|discards|draws) /.test(l))).toBe(true);
    expect(out.some((l) => l.startsWith('  Game over. Scores: '))).toBe(true);
    // Heuristic bots play a real game: nobody is thrown out for abstaining, as random bots are.
    expect(out.some((l) => l.includes('thrown out of the pub'))).toBe(false);
    expect(out.some((l) => /^Final scores after \d+ turns and \d+ decisions:$/.test(l))).toBe(true);
    expect(out.at(-1)).toMatch(/^Winners?( \(shared\))?: Player \d \(heuristic\)/);
    expect(out.filter((l) => /^ {2}Player \d heuristic( \*)? +\d/.test(l))).toHaveLength(4);
  });

  it('prints the same game for the same seed, and another for another seed', async () => {
    const a = await play('--seed', 'pub-42', '--players', '3');
    const b = await play('--seed', 'pub-42', '--players', '3');
    const c = await play('--seed', 'pub-43', '--players', '3');
    expect(a).toEqual(b);
    expect(c).not.toEqual(a);
  });

  it('seats the agents --agents names, at every player count, and with everyone asked', async () => {
    const out = await play('--seed', '7', '--agents', 'random,greedy,cautious');
    expect(out[0]).toContain('3 players');
    expect(out[1]).toBe('Seats: Player 0 random, Player 1 greedy, Player 2 cautious.');
    expect(out.at(-1)).toMatch(/^Winner/);
    for (const n of [2, 6]) {
      const o = await play('--seed', '7', '--players', String(n));
      expect(o[0]).toContain(`${n} players`);
      expect(o.at(-1)).toMatch(/^Winner/);
    }
    const asked = await play('--seed', '7', '--ask-forced', '--players', '2');
    expect(asked[0]).toContain('every seat asked at every decision');
  });

  it('--human shows the person their own seat only until the end, and the same game for the same answers', async () => {
    const answers = new Array<string>(2000).fill('1');
    const r = await playAs(answers, '--seed', '3', '--human', '1', '--agents', 'heuristic,random,greedy');
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.out[1]).toBe('Seats: Player 0 heuristic, Player 1 you, Player 2 random, Player 3 greedy.');
    const end = r.out.findIndex((l) => l.startsWith('  Game over. Scores: '));
    expect(end).toBeGreaterThan(0);
    const during = r.out.slice(0, end);
    // Every view shown is the person's seat's, and it lists the choices numbered in words.
    expect(during.filter((l) => /^Czech Pub, 4 players, turn \d+\. You are player \d\.$/.test(l)).every((l) => l.endsWith('You are player 1.'))).toBe(true);
    expect(during).toContain('Your choices (Player 1):');
    expect(during.some((l) => /^ {2}1\. (play|discard|done|pass|react|say)/.test(l))).toBe(true);
    // The person's own draws are named; the other seats' are not (a spectator's log names them).
    expect(drawsOf(during, 1).length).toBeGreaterThan(0);
    for (const seat of [0, 2, 3]) expect(drawsOf(during, seat)).toEqual([]);
    const spectator = await play('--seed', '3', '--agents', 'heuristic,random,greedy,heuristic');
    expect(drawsOf(spectator, 0).length).toBeGreaterThan(0);
    // The end: the score table and the link to the whole game.
    expect(r.out.some((l) => /^ {2}Player 1 you( \*)? +-?\d/.test(l))).toBe(true);
    expect(r.out.at(-1)).toMatch(/^Every card of this game: czech-pub replay --link r1\.4\.1\./);
    const again = await playAs(answers, '--seed', '3', '--human', '1', '--agents', 'heuristic,random,greedy');
    expect(again.out).toEqual(r.out);
  });

  it('--human never names a card only another seat holds, over several games', async () => {
    let hiddenTakes = 0;
    for (const seed of ['s1', 's2', 's3', 's4', 's5', 's6', 's7', 's8']) {
      const r = await playAs(new Array<string>(2000).fill('2'), '--seed', seed, '--human', '0', '--agents', 'heuristic,cautious,greedy');
      expect(r.code, seed).toBe(0);
      const during = r.out.slice(0, r.out.findIndex((l) => l.startsWith('  Game over. Scores: ')));
      for (const seat of [1, 2, 3]) expect(drawsOf(during, seat), seed).toEqual([]);
      // A card taken between two other hands is "a card" to the person.
      const takes = during.filter((l) => / takes .* from Player \d's hand/.test(l) && !l.includes('Player 0'));
      expect(takes.every((l) => l.includes(' takes a card from ')), seed).toBe(true);
      hiddenTakes += takes.length;
      expect(during.some((l) => /^Your hand \(\d+\): /.test(l))).toBe(true);
      expect(during.filter((l) => l.startsWith('Your hand')).length).toBe(during.filter((l) => l === 'Your choices (Player 0):').length);
    }
    expect(hiddenTakes, 'the games covered a take between two other seats').toBeGreaterThan(0);
  });

  it('--human asks again after an answer that is not a choice, and stops with exit 1 when input ends', async () => {
    const r = await playAs(['0', '99', 'beer', '1'], '--seed', '3', '--human', '0');
    expect(r.code).toBe(1);
    const k = Number(r.out.find((l) => /^Your choice \(1-\d+\):$/.test(l))!.match(/1-(\d+)/)![1]);
    expect(r.out).toContain(`'0' is not a choice: type a number from 1 to ${k}.`);
    expect(r.out).toContain(`'99' is not a choice: type a number from 1 to ${k}.`);
    expect(r.out).toContain(`'beer' is not a choice: type a number from 1 to ${k}.`);
    // The fourth answer was taken: the second decision was asked for, then the input ended.
    expect(r.out.filter((l) => l === 'Your choices (Player 0):').length).toBe(2);
    expect(r.err).toEqual(['czech-pub play: standard input ended at decision 2 of Player 0; the game is abandoned.']);
    expect(r.out.some((l) => l.startsWith('Final scores'))).toBe(false);
  });

  it('a bot that fails mid-game stops it with one line and exit 1', async () => {
    registerAgent('play-test-broken', { description: 'fails its first decision', create: (spec) => ({ spec, act: () => Promise.reject(new Error('the model server went away\n    at somewhere')) }) });
    for (const human of [[], ['--human', '1']]) {
      const r = await playAs(new Array<string>(50).fill('1'), '--agents', human.length ? 'play-test-broken,heuristic' : 'play-test-broken,heuristic,heuristic', ...human);
      expect(r.code).toBe(1);
      expect(r.err).toEqual(['czech-pub play: the game stopped: the model server went away']);
    }
  });

  it('bad seats and agents are usage errors, one line each', async () => {
    const cases: [string[], string][] = [
      [['--human', '4'], '--human 4: the seats of 4 players are 0-3'],
      [['--human', '0', '--players', '4', '--agents', 'random,random,random,random'], '4 agents for the 3 seats besides yours (4 players)'],
      [['--agents', 'random,random', '--players', '3'], '2 agents for 3 players'],
      [['--agents', 'random,nobody'], "unknown agent 'nobody'"],
      [['--agents', 'random,random,random,random,random,random,random'], 'seat 7 players; the ruleset plays 2-6'],
      [['--human', '9'], '--human must be a whole number from 0 to 5'],
    ];
    for (const [args, phrase] of cases) {
      const r = await playAs([], ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.out, args.join(' ')).toEqual([]);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toContain(phrase);
    }
  });
});
