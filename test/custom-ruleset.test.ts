/**
 * A ruleset other than the default one (fewer beers, a three-level chart with other spaces and
 * hand sizes, 2-5 players), end to end: a tournament and a training run from the command line
 * with `--ruleset FILE`, and a served game, each recording and reporting the ruleset's
 * fingerprint; a policy trained under one ruleset plays it and is refused under the other.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bufferIo } from '../cli/io.ts';
import { main } from '../cli/main.ts';
import { DEFAULT_RULESET } from '../env/ruleset.ts';
import { rulesetFingerprint } from '../env/spec.ts';
import { buildServer } from '../server/app.ts';
import { customRuleset, writeRulesetFile } from './helpers/custom-ruleset.ts';

const ruleset = customRuleset();
const fingerprint = rulesetFingerprint(ruleset);
const file = writeRulesetFile();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-custom-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function run(...argv: string[]) {
  const io = bufferIo();
  const code = await main(argv, io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

const readJson = (f: string) => JSON.parse(fs.readFileSync(f, 'utf8'));

describe('a custom ruleset, end to end', () => {
  it('differs from the default where it should', () => {
    expect(fingerprint).not.toBe(rulesetFingerprint(DEFAULT_RULESET));
    expect(ruleset.cards.beer.count).not.toBe(DEFAULT_RULESET.cards.beer.count);
    expect(ruleset.chart.length).toBe(3);
  });

  it('a tournament from the command line records its fingerprint and completes its games', async () => {
    const out = path.join(tmp, 'tournament');
    const r = await run('tournament', '--ruleset', file, '--agents', 'random,greedy,heuristic', '--games', '6', '--workers', '0', '--out', out);
    expect(r.code, r.err).toBe(0);
    const results = readJson(path.join(out, 'results.json'));
    expect(results.env.ruleset).toEqual({ name: 'short-pub', fingerprint });
    expect(results.complete).toBe(true);
    expect(results.gamesPlayed).toBe(6);
    expect(fs.readFileSync(path.join(out, 'games.jsonl'), 'utf8').trim().split('\n')).toHaveLength(6);
  });

  it('a training run records it in its options and checkpoint; the policy plays these rules and no others', async () => {
    const out = path.join(tmp, 'runs');
    const r = await run('train', '--ruleset', file, '--players', '3', '--steps', '64', '--envs', '2', '--rollout', '64', '--hidden', '8',
      '--eval-every', '0', '--eval-deals', '1', '--eval-vs', 'random', '--out', out, '--seed', '3');
    expect(r.code, r.err).toBe(0);
    const dir = r.out.match(/Run directory: (.*)/)![1];
    const model = readJson(path.join(dir, 'model.json'));
    expect(model.env.ruleset).toEqual({ name: 'short-pub', fingerprint });
    expect(rulesetFingerprint(model.ruleset)).toBe(fingerprint);
    expect(readJson(path.join(dir, 'options.json')).env.ruleset.fingerprint).toBe(fingerprint);

    const spec = `ppo:${path.join(dir, 'model.json')}`;
    const played = await run('tournament', '--ruleset', file, '--agents', `${spec},random,random`, '--games', '3', '--workers', '0', '--json');
    expect(played.code, played.err).toBe(0);
    expect(JSON.parse(played.out).games).toBe(3);
    const refused = await run('tournament', '--agents', `${spec},random,random`, '--games', '3', '--workers', '0');
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(`was trained under ruleset fingerprint ${fingerprint}, not this ruleset's ${rulesetFingerprint(DEFAULT_RULESET)}`);
  });

  it('a served game is played under it, and the server reports it', async () => {
    const notices: string[] = [];
    const app = await buildServer({ ruleset, rateLimit: 0, notice: (l) => notices.push(l) });
    try {
      const rules = (await app.inject({ method: 'GET', url: '/v1/ruleset' })).json();
      expect(rules.fingerprint).toBe(fingerprint);
      expect(rules.ruleset.cards.beer.count).toBe(ruleset.cards.beer.count);
      expect(rules.players).toEqual({ min: 2, max: 5 });
      expect((await app.inject({ method: 'GET', url: '/healthz' })).json().ruleset).toEqual({ name: 'short-pub', fingerprint });
      // The shipped model was trained under the default rules: not offered, and the operator is told.
      const bots = (await app.inject({ method: 'GET', url: '/v1/bots' })).json().bots.map((b: { name: string }) => b.name);
      expect(bots).not.toContain('ppo');
      expect(notices.join('\n')).toContain("bot 'ppo' left out");
      expect((await app.inject({ method: 'POST', url: '/v1/games', payload: { seats: ['random', 'random', 'random', 'random', 'random', 'random'] } })).statusCode).toBe(400);

      const created = await app.inject({ method: 'POST', url: '/v1/games', payload: { seats: ['heuristic', 'greedy', 'random'], seed: 'custom' } });
      expect(created.statusCode).toBe(201);
      const game = created.json();
      const auth = { authorization: `Bearer ${game.watchToken}` };
      const view = (await app.inject({ method: 'GET', url: `/v1/games/${game.id}/view`, headers: auth })).json();
      expect(view.done).toBe(true);
      expect(view.view.ruleset).toBe('short-pub');
      expect(view.scores).toHaveLength(3);
      const replay = (await app.inject({ method: 'GET', url: `/v1/games/${game.id}/replay`, headers: auth })).json();
      expect(replay.actions.length).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  });
});
