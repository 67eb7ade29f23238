import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEWER } from '../eval/highlights.ts';
import { bufferIo } from './io.ts';
import { main } from './main.ts';
import { progress } from './tournament.ts';

describe('czech-pub tournament', () => {
  it('--json prints the summary with the documented fields', async () => {
    const io = bufferIo();
    const code = await main(['tournament', '--agents', 'random,random,random', '--games', '9', '--seed', '3', '--workers', '0', '--json'], io);
    expect(code).toBe(0);
    expect(io.stdout.length).toBe(1);
    const s = JSON.parse(io.stdout[0]);
    expect(s.games).toBe(9);
    expect(s.gamesPerSec).toBeGreaterThan(0);
    expect(s.agents[0]).toMatchObject({ spec: 'random', games: 27 });
    for (const key of ['wins', 'winRate', 'winRateCI', 'meanScore', 'rating']) expect(s.agents[0]).toHaveProperty(key);
    expect(s.agents[0].winRateCI).toHaveLength(2);
  });

  it('--resume plays the rest of a stopped run, giving the results of a run never stopped', async () => {
    const args = (dir: string) => ['tournament', '--agents', 'random,greedy,cautious', '--games', '9', '--seed', 'again', '--workers', '0', '--out', dir, '--json'];
    const results = (dir: string) => {
      const { elapsedSec, gamesPerSec, startedAt, finishedAt, summary, ...r } = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
      return { ...r, summary: { ...summary, agents: summary.agents.map(({ msPerDecision, ...a }: Record<string, unknown>) => a) } };
    };
    const whole = mkdtempSync(join(tmpdir(), 'czech-pub-whole-'));
    expect(await main(args(whole), bufferIo())).toBe(0);
    // A run stopped after four games: its games.jsonl holds them, the last line cut off.
    const stopped = mkdtempSync(join(tmpdir(), 'czech-pub-stopped-'));
    expect(await main(args(stopped), bufferIo())).toBe(0);
    const lines = readFileSync(join(stopped, 'games.jsonl'), 'utf8').split('\n').filter(Boolean);
    writeFileSync(join(stopped, 'games.jsonl'), `${lines.slice(0, 4).join('\n')}\n${lines[4].slice(0, 50)}`);
    const resumed = bufferIo();
    expect(await main([...args(stopped), '--resume'], resumed)).toBe(0);
    expect(JSON.parse(resumed.stdout[0]).games).toBe(9);
    expect(readFileSync(join(stopped, 'games.jsonl'), 'utf8').split('\n').filter(Boolean)).toHaveLength(9);
    expect(results(stopped)).toEqual(results(whole));
    // Another run's options are refused, saying what differs; --resume needs --out.
    const other = bufferIo();
    expect(await main([...args(stopped).map((a) => (a === 'again' ? 'other' : a)), '--resume'], other)).toBe(2);
    expect(other.stderr.join('\n')).toMatch(/is the folder of another run: seed is "again" there, "other" here/);
    const noOut = bufferIo();
    expect(await main(['tournament', '--agents', 'random,random', '--resume'], noOut)).toBe(2);
    expect(noOut.stderr.join('\n')).toMatch(/--resume goes on with the run in --out DIR: give --out/);
  });

  it('prints a Markdown leaderboard by default', async () => {
    const io = bufferIo();
    expect(await main(['tournament', '--agents', 'random,random', '--games', '4', '--workers', '0'], io)).toBe(0);
    expect(io.stdout.join('\n')).toContain('| # | agent | games | wins |');
  });

  it('bad usage exits 2 naming the problem', async () => {
    const cases: [string[], RegExp][] = [
      [['tournament'], /--agents is required/],
      [['tournament', '--agents', 'random,nobody'], /unknown agent 'nobody'; known agents: random/],
      [['tournament', '--agents', 'random,random', '--players', '3'], /2 agents for 3 players/],
      [['tournament', '--agents', 'random,random', '--games', '0'], /--games must be a whole number/],
      [['tournament', '--agents', 'random,,random'], /empty entry/],
      [['tournament', '--agents', 'random,random', '--bogus'], /unknown option '--bogus'/],
      [['tournament', '--agents', 'random,random', '--viewer', 'file:///etc/passwd'], /--viewer 'file:\/\/\/etc\/passwd' must be an http:\/\/ or https:\/\/ URL/],
      [['tournament', '--agents', 'random,random', '--viewer', 'localhost'], /--viewer 'localhost' is not a URL/],
    ];
    for (const [args, message] of cases) {
      const io = bufferIo();
      expect(await main(args, io)).toBe(2);
      expect(io.stderr.join('\n')).toMatch(message);
    }
  });

  it("report.html links to the viewer at --viewer; its address field defaults to where 'czech-pub serve' listens", async () => {
    const { SERVE } = await import('./serve.ts');
    expect(DEFAULT_VIEWER).toBe(`http://${SERVE.options.host.default}:${SERVE.options.port.default}/`);
    const dir = mkdtempSync(join(tmpdir(), 'czech-pub-viewer-'));
    const io = bufferIo();
    expect(await main(['tournament', '--agents', 'heuristic,random', '--games', '4', '--workers', '0', '--out', dir, '--viewer', 'https://pub.example/watch/'], io)).toBe(0);
    expect(io.stdout.at(-1)).toMatch(new RegExp(`^Games worth watching \\(report\\.html links them to https://pub\\.example/watch/\\): [\\d, ]+; e\\.g\\. czech-pub replay ${dir}/games\\.jsonl --game \\d+$`));
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).toMatch(/<a href="https:\/\/pub\.example\/watch\/#replay=r2\.2\.0\.[0-9a-f]+\.[\w-]+\.[\w-]+\.[\w-]+" data-replay="r2[.\w-]+">Game \d+<\/a>/);
    expect(html).toContain('data-fixed="1"');
  });

  it('without --viewer, report.html links relative to the server serving it, with a field for a server\'s address when opened from a file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'czech-pub-viewer-'));
    const io = bufferIo();
    expect(await main(['tournament', '--agents', 'heuristic,random', '--games', '4', '--workers', '0', '--out', dir], io)).toBe(0);
    expect(io.stdout.at(-1)).toMatch(/^Games worth watching \(report\.html links them to the server serving it, or the address in its field\)/);
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    const links = [...html.matchAll(/<a href="([^"]+)" data-replay="([^"]+)">/g)];
    expect(links.length).toBeGreaterThan(0);
    for (const [, href, link] of links) expect(href).toBe(`/#replay=${link}`);
    expect(html).toContain(`id="viewer-address" size="36" value="${DEFAULT_VIEWER}"`);
    expect(html).toContain('data-fixed="0"');
    expect(html).toMatch(/<script>\(\(\) => \{[\s\S]*location\.protocol === 'file:'[\s\S]*<\/script>/);
  });

  it('--help lists the known agents', async () => {
    const io = bufferIo();
    expect(await main(['tournament', '--help'], io)).toBe(0);
    expect(io.stdout.join('\n')).toMatch(/Agents:[\s\S]*random\s+uniform over the legal actions/);
  });
});

describe('progress lines', () => {
  it('give the rate and time left of the games this run plays, a resumed run included', () => {
    let t = 0;
    const lines = (first: number, total: number) => {
      const io = bufferIo();
      t = 0;
      const bar = progress(io, () => t);
      for (let done = first; done <= total; done++) {
        t += 2000; // a game every two seconds
        bar.update(done, total);
      }
      return io.stderr;
    };
    expect(lines(1, 10)).toEqual(Array.from({ length: 10 }, (_, i) => `${i + 1}/10 games, 0.5 games/s, ${2 * (9 - i)} s left`));
    // Resumed with 6 of 10 games found finished: the first call counts them.
    expect(lines(7, 10)).toEqual(['7/10 games, 0.5 games/s, 6 s left', '8/10 games, 0.5 games/s, 4 s left', '9/10 games, 0.5 games/s, 2 s left', '10/10 games, 0.5 games/s, 0 s left']);
  });
});
