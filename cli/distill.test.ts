import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../policy/index.ts';
import { bufferIo } from './io.ts';
import { main } from './main.ts';

async function run(...argv: string[]) {
  const io = bufferIo();
  const code = await main(argv, io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

// The shipped 2-player model, a search of two looks, a handful of games, all in this thread.
const TINY = ['--players', '2', '--games', '4', '--eval-games', '4', '--search', 'iterations=2', '--epochs', '2', '--workers', '0', '--backend', 'cpu'];

describe('czech-pub distill', () => {
  it('plays the search, trains on its choices, evaluates, and goes on with --resume', async () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cli-distill-')), 'run');
    const r = await run('distill', ...TINY, '--seed', '5', '--out', out);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^round 1: search [\d.]+% over 4 games; policy agreement [\d.]+% → [\d.]+%; policy [\d.]+% \(/m);
    const j = JSON.parse(fs.readFileSync(path.join(out, 'distill.json'), 'utf8'));
    expect(j).toMatchObject({ format: 'czech-pub-distill/1', players: 2, options: { games: 4, search: 'iterations=2', rounds: 1 } });
    expect(j.start.games).toBe(4);
    const [round] = j.rounds;
    expect(round.teacher).toBe(`ppo-search:${j.options.init}:iterations=2`);
    // The search's games are a tournament folder; the rows are its decisions with a choice.
    const games = fs.readFileSync(path.join(out, 'round-1', 'games', 'games.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(games).toHaveLength(4);
    const asked = games.reduce((s, g) => s + g.agentDecisions[g.seating.indexOf(0)], 0);
    expect(round.rows + round.heldOutRows).toBe(asked);
    // The model keeps what the search needs of its start: the reward its value head learned, the net's shape.
    const start = loadCheckpoint(j.options.init, null);
    const model = loadCheckpoint(round.model, null);
    expect(model.options.reward).toBe(start.options.reward);
    expect(model.weights.shape).toEqual(start.weights.shape);
    // The evaluation is on deals of their own, the same for the start and every round.
    const deals = (folder: string) => fs.readFileSync(path.join(folder, 'games.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).seed).sort();
    expect(deals(round.evaluation.folder)).toEqual(deals(j.start.folder));
    expect(deals(j.start.folder)[0]).toMatch(/^distill-eval-5\//);

    const again = await run('distill', '--resume', out, '--rounds', '2', '--workers', '0', '--backend', 'cpu');
    expect(again.code, again.err).toBe(0);
    const k = JSON.parse(fs.readFileSync(path.join(out, 'distill.json'), 'utf8'));
    expect(k.rounds).toHaveLength(2);
    expect(k.rounds[0]).toEqual(round);
    expect(k.rounds[1].teacher).toBe(`ppo-search:${round.model}:iterations=2`);
    // Round 2 trains on both rounds' games.
    expect(k.rounds[1].rows + k.rounds[1].heldOutRows).toBeGreaterThan(asked);
  }, 120_000);

  it("with --labels values, labels every searched decision from the search's transcript", async () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cli-distill-values-')), 'run');
    const r = await run('distill', ...TINY, '--eval-games', '0', '--labels', 'values', '--seed', '6', '--out', out);
    expect(r.code, r.err).toBe(0);
    const lines = fs.readFileSync(path.join(out, 'round-1', 'games', 'search.jsonl'), 'utf8').trim().split('\n');
    const labelled = Number(/(\d+) labelled by their values/.exec(r.err)?.[1]);
    // Every line found its decision in the replayed games.
    expect(labelled).toBe(lines.length);
    const j = JSON.parse(fs.readFileSync(path.join(out, 'distill.json'), 'utf8'));
    expect(j.options).toMatchObject({ labels: 'values', labelBeta: 2 });
    expect(j.start).toBeNull();
    expect(j.rounds[0].evaluation).toBeNull();
  }, 120_000);

  it('refuses what it cannot run before writing anything', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-distill-bad-'));
    const bad = async (args: string[], message: RegExp) => {
      const r = await run('distill', ...args);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(message);
    };
    await bad(['--players', '4', '--opponents', 'heuristic,greedy', '--out', path.join(dir, 'a')], /--opponents: give one spec or 3/);
    await bad(['--opponents', 'nobody', '--out', path.join(dir, 'b')], /--opponents: .*nobody/);
    await bad(['--search', 'iterations=0', '--out', path.join(dir, 'c')], /--search: .*iterations/);
    await bad(['--init', path.join(dir, 'missing.json'), '--out', path.join(dir, 'd')], /--init: /);
    await bad(['--out', path.join(dir, 'a:b')], /cannot be named in an agent spec/);
    fs.writeFileSync(path.join(dir, 'e'), '');
    await bad(['--resume', dir], /holds no distill\.json/);
    expect(fs.readdirSync(dir)).toEqual(['e']);
  });
});
