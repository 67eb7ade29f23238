import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rulesetFingerprint } from '../env/spec.ts';
import { DEFAULT_RULESET } from '../env/ruleset.ts';
import { customRuleset } from '../test/helpers/custom-ruleset.ts';
import { parseGameLine, replayRecordOfLine } from './game-line.ts';
import { replayGame } from './replay-record.ts';
import { runTournament } from './tournament.ts';

async function gamesFile(o: Partial<Parameters<typeof runTournament>[0]>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'czech-pub-lines-'));
  await runTournament({ agents: ['heuristic', 'random', 'greedy'], games: 6, seed: 'lines', workers: 0, out: dir, ...o });
  return readFileSync(join(dir, 'games.jsonl'), 'utf8').trim().split('\n');
}

describe('games.jsonl lines', () => {
  it('replay to their own scores, from this thread and from worker threads', async () => {
    for (const workers of [0, 1]) {
      const lines = await gamesFile({ workers });
      expect(lines).toHaveLength(6);
      for (const text of lines) {
        const line = parseGameLine(text);
        expect(line.ruleset).toBe(rulesetFingerprint(DEFAULT_RULESET));
        expect(line.askForced).toBe(false);
        expect(line.actions.length).toBe(JSON.parse(text).decisions);
        const env = replayGame(replayRecordOfLine(line));
        expect(env.scores()).toEqual(line.scores);
        expect(env.state.turn).toBe(JSON.parse(text).turns);
      }
    }
  }, 60_000);

  it('carry askForced and the ruleset, so a line under other rules replays under those only', async () => {
    const rules = customRuleset();
    const [text] = await gamesFile({ ruleset: rules, askForced: true });
    const line = parseGameLine(text);
    expect(line.askForced).toBe(true);
    expect(line.ruleset).toBe(rulesetFingerprint(rules));
    expect(replayGame(replayRecordOfLine(line), rules).scores()).toEqual(line.scores);
    expect(() => replayGame(replayRecordOfLine(line))).toThrow(/played under ruleset/);
  }, 60_000);

  it('refuse a malformed line in one sentence', () => {
    expect(() => parseGameLine('{"index": 1')).toThrow(/^not JSON/);
    expect(() => parseGameLine('{"index": 1, "seed": "a"}')).toThrow(/has no actions/);
    expect(() => parseGameLine('[1,2]')).toThrow(/not a game record/);
    const good = { index: 0, seed: 's', seating: [0, 1], agents: ['a', 'b'], scores: [1, 2], askForced: false, ruleset: 'ab', actions: [1] };
    expect(parseGameLine(JSON.stringify(good)).actions).toEqual([1]);
    expect(() => parseGameLine(JSON.stringify({ ...good, actions: [1, 999] }))).toThrow(/'actions.1'/);
    expect(() => parseGameLine(JSON.stringify({ ...good, agents: ['a'] }))).toThrow(/differ in length/);
    expect(() => parseGameLine(JSON.stringify({ ...good, ruleset: 'XYZ' }))).toThrow(/'ruleset'/);
  });
});
