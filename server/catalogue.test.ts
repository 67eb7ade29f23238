import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL } from '../agents/ppo/index.ts';
import { BotSpecError, Catalogue } from './catalogue.ts';
import { ConfigError, DEFAULT_BUDGET, loadConfig, parseConfig, resolveLimits } from './config.ts';
import { customRuleset } from '../test/helpers/custom-ruleset.ts';

const refused = (c: Catalogue, spec: string) => {
  try {
    c.resolve(spec);
  } catch (e) {
    expect(e).toBeInstanceOf(BotSpecError);
    return (e as Error).message;
  }
  throw new Error(`'${spec}' was accepted`);
};

describe('bot catalogue', () => {
  it('under a custom ruleset, leaves out the policies trained under another, saying so, and keeps the rest', () => {
    const notices: string[] = [];
    const ruleset = customRuleset();
    const c = new Catalogue({}, { ruleset, notice: (l) => notices.push(l) });
    expect(c.ruleset).toBe(ruleset);
    expect(c.names).not.toContain('ppo');
    expect(c.names).toEqual(expect.arrayContaining(['random', 'heuristic', 'ismcts']));
    expect(c.leftOut).toEqual(['ppo', 'ppo-search']);
    expect(notices).toHaveLength(2);
    expect(notices[0]).toMatch(/^bot 'ppo' left out: it was trained under another ruleset than this server's short-pub \(fingerprint [0-9a-f]{8}\)$/);
    expect(notices[1]).toMatch(/^bot 'ppo-search' left out: /);
    // Under the default rules the shipped model is there, and nothing is said.
    const d = new Catalogue({}, { notice: (l) => notices.push(l) });
    expect(d.names).toContain('ppo');
    expect(d.names).toContain('ppo-search');
    expect(notices).toHaveLength(2);
  });

  it('lists the entries with a strength first, weakest first, by the names players see; the operator sets both', () => {
    const listed = (c: Catalogue) => c.list().map((b) => [b.name, b.displayName, b.strength]);
    expect(listed(new Catalogue())).toEqual([
      ['random', 'Beginner', 'Easy'], ['heuristic', 'Regular', 'Medium'], ['ppo', 'Strong', 'Hard'], ['ppo-search', 'Expert', 'Very hard'],
      ['greedy', 'Greedy drinker', null], ['cautious', 'Cautious drinker', null], ['ismcts', 'Tree search', null],
    ]);
    const c = new Catalogue(parseConfig({ bots: {
      heuristic: { agent: 'heuristic', displayName: ' Barfly ', strength: 'Hard', rank: 9 },
      greedy: { agent: 'greedy', displayName: 'Thirsty', strength: 'Easy', rank: 0 },
      deep: { agent: 'ismcts:iterations=50' },
    } }));
    expect(listed(c)).toEqual([
      ['greedy', 'Thirsty', 'Easy'], ['random', 'Beginner', 'Easy'], ['ppo', 'Strong', 'Hard'], ['ppo-search', 'Expert', 'Very hard'], ['heuristic', 'Barfly', 'Hard'],
      ['cautious', 'Cautious drinker', null], ['ismcts', 'Tree search', null], ['deep', 'deep', null],
    ]);
    expect(() => parseConfig({ bots: { x: { agent: 'random', displayName: '' } } })).toThrow(/bots\.x\.displayName/);
    expect(() => parseConfig({ bots: { x: { agent: 'random', rank: 1.5 } } })).toThrow(/bots\.x\.rank/);
  });

  it('resolves a client spec to a canonical label and the operator spec with the options appended', () => {
    const c = new Catalogue();
    expect(c.resolve('heuristic')).toMatchObject({ label: 'heuristic', spec: 'heuristic' });
    const r = c.resolve('ismcts:rollout=greedy:iterations=50');
    expect(r.label).toBe('ismcts:iterations=50:rollout=greedy');
    expect(r.spec).toBe('ismcts:iterations=50:rollout=greedy');
    expect(c.create(r).spec).toBe('ismcts:iterations=50:rollout=greedy');
    expect(c.resolve('ismcts:iterations=050.0').label).toBe('ismcts:iterations=50');
  });

  it('refuses what is not an entry or an allowed option value, naming the problem', () => {
    const c = new Catalogue();
    expect(refused(c, 'nobody')).toMatch(/^unknown bot "nobody"; this server's bots: random, greedy, cautious, heuristic, ppo, ppo-search, ismcts$/);
    expect(refused(c, ' random')).toMatch(/unknown bot " random"/);
    expect(refused(c, 'ismcts:iterations')).toMatch(/option 'iterations' needs a value \(iterations=10..1000\)/);
    expect(refused(c, 'ismcts:iterations=0010x')).toMatch(/must be a number from 10 to 1000, got "0010x"/);
    expect(refused(c, 'ismcts:depth=3')).toMatch(/"depth" is not an option clients may set; options: iterations=10..1000, rollout=random\|greedy\|cautious\|heuristic/);
    expect(refused(c, 'random:seed=1')).toMatch(/it has none/);
    expect(refused(c, 'ppo:sample=yes')).toMatch(/option 'sample' must be one of false, true, got "yes"/);
    expect(refused(c, `random:${'x'.repeat(300)}`)).toMatch(/at most 200 characters/);
  });

  it('takes entries from the config: added, replaced, removed, with their own ranges; the operator spec stays private', () => {
    const c = new Catalogue(parseConfig({
      bots: {
        deep: { agent: 'ismcts:iterations=800:depth=2', description: 'a deeper search', vary: { iterations: { min: 100, max: 2000, integer: true } } },
        ppo: null,
        remote_bot: { agent: 'http:http://127.0.0.1:9/act:timeoutMs=100' },
      },
    }));
    expect(c.names).toEqual(['random', 'greedy', 'cautious', 'heuristic', 'ppo-search', 'ismcts', 'deep', 'remote_bot']);
    expect(c.resolve('deep:iterations=1500').spec).toBe('ismcts:iterations=800:depth=2:iterations=1500');
    expect(JSON.stringify(c.list())).not.toMatch(/127\.0\.0\.1|depth=2/);
    expect(c.list().find((b) => b.name === 'remote_bot')).toMatchObject({ agent: 'http', servesPostedViews: true, heavy: false });
    expect(refused(c, 'ppo')).toMatch(/unknown bot "ppo"/);
  });

  it('makes an entry of every checkpoint in the models folder, by name', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-models-'));
    fs.copyFileSync(DEFAULT_MODEL, path.join(dir, 'champion.json'));
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a model');
    const c = new Catalogue({ models: dir });
    expect(c.names).toContain('champion');
    expect(c.list().find((b) => b.name === 'champion')).toMatchObject({ agent: 'ppo', options: { sample: { values: [false, true] } } });
    expect(JSON.stringify(c.list())).not.toContain(dir);
    fs.writeFileSync(path.join(dir, 'broken.json'), '{"format":"nope"}');
    expect(() => new Catalogue({ models: dir })).toThrow(/bot 'broken': .*not a czech-pub-gym policy checkpoint/);
  });

  it('checks the config at start: every entry is built, at the ends of its ranges too', () => {
    expect(() => parseConfig({ bots: { 'Bad Name': { agent: 'random' } } })).toThrow(ConfigError);
    expect(() => parseConfig({ bots: { x: { agent: 'random', extra: 1 } } })).toThrow(/bots\.x/);
    expect(() => parseConfig({ limits: { maxGames: 0 } })).toThrow(/limits\.maxGames/);
    expect(() => parseConfig({ corsOrigins: ['https://a.org/path'] })).toThrow(/origin/);
    expect(() => new Catalogue({ bots: { x: { agent: 'nobody' } } })).toThrow(/bot 'x': unknown agent 'nobody'/);
    expect(() => new Catalogue({ bots: { x: { agent: 'ismcts', vary: { iterations: { min: 0, max: 10 } } } } })).toThrow(/bot 'x': .*iterations/);
    expect(() => new Catalogue({ bots: { x: { agent: 'heuristic', vary: { speed: { values: [1] } } } } })).toThrow(/unknown option 'speed'/);
    expect(() => new Catalogue({ defaults: false })).toThrow(/no bots/);
    // The clairvoyant measurement reference is never served, whatever the operator writes.
    expect(() => new Catalogue({ bots: { seer: { agent: 'clairvoyant:iterations=10' } } })).toThrow(/bot 'seer': 'clairvoyant' is a measurement reference/);
    expect(resolveLimits({ limits: { maxGames: 5 } }, { rateLimit: 0 })).toMatchObject({ maxGames: 5, rateLimit: 0, maxGamesPerClient: 50 });
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-config-')), 'c.json');
    fs.writeFileSync(file, '{"bots": ');
    expect(() => loadConfig(file)).toThrow(/is not JSON/);
  });

  it('gives every bot that calls out a budget (the defaults where the operator sets none), and refuses one on a bot that calls nothing', () => {
    const c = new Catalogue(parseConfig({
      bots: {
        gpt: { agent: 'llm:m:baseUrl=http://127.0.0.1:9/v1', budget: { perTournament: 50 } },
        relay: { agent: 'http:http://127.0.0.1:9/act' },
      },
    }));
    expect(c.resolve('gpt').entry.budget).toEqual({ ...DEFAULT_BUDGET, perTournament: 50 });
    expect(c.resolve('relay').entry.budget).toEqual(DEFAULT_BUDGET);
    expect(c.resolve('heuristic').entry.budget).toBeUndefined();
    expect(() => new Catalogue(parseConfig({ bots: { deep: { agent: 'ismcts', budget: { perGame: 5 } } } })))
      .toThrow(/bot 'deep': a budget is for bots that call a server elsewhere \(llm, http\); 'ismcts' calls none/);
    expect(() => parseConfig({ bots: { gpt: { agent: 'llm:m', budget: { perHour: 5 } } } })).toThrow(ConfigError);
    expect(() => parseConfig({ bots: { gpt: { agent: 'llm:m', budget: { perGame: -1 } } } })).toThrow(/bots\.gpt\.budget\.perGame/);
  });
});
