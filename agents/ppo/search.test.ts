import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { playGame } from '../../eval/game.ts';
import type { CzechPubEnv } from '../../env/env.ts';
import { createAgent } from '../default-registry.ts';
import { loadPolicy, shippedModel } from './ppo-agent.ts';
import { valueScale, type PpoSearchAgent, type SearchLine } from './search.ts';

// Searches over whole games: seconds each on a quiet machine, a minute and more on a busy one.
describe('ppo-search', { timeout: 300_000 }, () => {
  it('plays legally at 2–6 players with the shipped models, spending its iterations on the policy’s candidates', async () => {
    for (let players = 2; players <= 6; players++) {
      const search = createAgent('ppo-search:iterations=8') as PpoSearchAgent;
      let searched = 0;
      const act = search.act.bind(search);
      search.act = (obs) => {
        const a = act(obs);
        if (search.lastVisits) {
          searched++;
          expect([...search.lastVisits.values()].reduce((x, y) => x + y, 0)).toBe(8);
          expect(search.lastVisits.has(a as number)).toBe(true);
          for (const c of search.lastVisits.keys()) expect(obs.legalActions).toContain(c);
        }
        return a;
      };
      const agents = [search, ...Array.from({ length: players - 1 }, () => createAgent('heuristic'))];
      // playGame throws on an illegal action.
      const g = await playGame(agents, { seed: `search/${players}` });
      expect(g.agentDecisions[0]).toBeGreaterThan(0);
      expect(searched).toBeGreaterThan(0);
    }
  });

  it('writes one transcript line per search: its candidates, their looks and values, and what it played', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'search-lines-')), 'search.jsonl');
    const search = createAgent('ppo-search:iterations=8') as PpoSearchAgent;
    search.useTranscript(file);
    const played: { action: number; searched: boolean }[] = [];
    const act = search.act.bind(search);
    search.act = (obs) => {
      const a = act(obs) as number;
      played.push({ action: a, searched: search.lastVisits !== null });
      return a;
    };
    await playGame([search, createAgent('heuristic'), createAgent('heuristic')], { seed: 'lines' });
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as SearchLine);
    const searched = played.map((p, i) => ({ ...p, decision: i })).filter((p) => p.searched);
    expect(lines.map((l) => [l.decision, l.action])).toEqual(searched.map((p) => [p.decision, p.action]));
    for (const l of lines) {
      expect(l.seat).toBe(0);
      expect(l.candidates.length).toBeGreaterThanOrEqual(2);
      expect(l.candidates.reduce((n, c) => n + c.n, 0)).toBe(8);
      expect(l.candidates.map((c) => c.a)).toContain(l.action);
      // The first candidate is the policy's choice, the base of the others' paired differences.
      expect([l.candidates[0].diff, l.candidates[0].se]).toEqual([null, null]);
      for (const c of l.candidates.slice(1)) if (c.n >= 2) expect(c.se).toBeGreaterThanOrEqual(0);
      expect(l.candidates[0].p).toBeGreaterThanOrEqual(l.candidates[1].p);
    }
  });

  it('is deterministic for a game seed', async () => {
    const play = () => playGame([createAgent('ppo-search:iterations=6'), createAgent('heuristic'), createAgent('heuristic')], { seed: 'same' });
    const a = await play();
    const b = await play();
    expect([b.decisions, ...b.scores]).toEqual([a.decisions, ...a.scores]);
  });

  it('takes a rollout with a checkpoint of its own (the bare part after rollout= is the rollout\'s)', async () => {
    const model = shippedModel(2);
    const play = (rollout: string) => playGame([createAgent(`ppo-search:iterations=6:rollout=${rollout}:candidates=3`), createAgent('heuristic')], { seed: 'rollout-file' });
    const named = await play(`ppo:${model}`);
    const shipped = await play('ppo'); // at 2 players `ppo` plays that same model
    expect([named.decisions, ...named.scores]).toEqual([shipped.decisions, ...shipped.scores]);
    expect(() => createAgent('ppo-search:rollout=ppo:/nonexistent.json')).toThrow(/option 'rollout' must be a registered agent's spec .*cannot read checkpoint/);
    expect(() => createAgent(`ppo-search:rollout=heuristic:${model}`)).toThrow(/option 'rollout' must be a registered agent's spec .*unknown option/);
    expect(() => createAgent(`ppo-search:iterations=4:${model}`)).toThrow(/unknown option/);
  });

  it('overrules the policy only when the search is sure of it: far less often at a high confidence', async () => {
    const overrules = async (confidence: number) => {
      const search = createAgent(`ppo-search:iterations=16:confidence=${confidence}`);
      const policy = createAgent('ppo');
      let n = 0;
      const act = search.act.bind(search);
      search.act = (obs) => {
        const a = act(obs);
        if (a !== policy.act(obs)) n++;
        return a;
      };
      const agents = [search, policy];
      for (let g = 0; g < 3; g++) {
        const seed = `gate/${g}`;
        for (const [seat, a] of agents.entries()) a.reset?.({ seat, players: 4, seed });
        await playGame([search, createAgent('heuristic'), createAgent('heuristic'), createAgent('heuristic')], { seed });
      }
      return n;
    };
    const always = await overrules(0);
    const sure = await overrules(50);
    expect(always).toBeGreaterThan(3);
    expect(sure).toBeLessThan(always / 2);
  });

  it('scores every look at the start of the seat’s next own turn (horizon=turn), or at its next real choice (horizon=choice)', async () => {
    const scoredAt = async (horizon: string) => {
      const search = createAgent(`ppo-search:iterations=8:horizon=${horizon}`) as PpoSearchAgent;
      const kinds = { nextTurn: 0, sameTurn: 0, othersTurn: 0 };
      let rootTurn = -1;
      const act = search.act.bind(search);
      search.act = (obs) => {
        rootTurn = obs.view.turn;
        return act(obs);
      };
      const inner = search as unknown as { valueOf(world: CzechPubEnv, seat: number): number };
      const valueOf = inner.valueOf.bind(search);
      inner.valueOf = (world, seat) => {
        const s = world.state;
        expect(world.actor).toBe(seat);
        if (s.active !== seat) kinds.othersTurn++;
        else if (s.turn === rootTurn) kinds.sameTurn++;
        else kinds.nextTurn++;
        return valueOf(world, seat);
      };
      await playGame([search, createAgent('heuristic'), createAgent('heuristic'), createAgent('heuristic')], { seed: 'horizon' });
      return kinds;
    };
    const turn = await scoredAt('turn');
    expect(turn.nextTurn).toBeGreaterThan(0);
    expect(turn.sameTurn + turn.othersTurn).toBe(0);
    const choice = await scoredAt('choice');
    expect(choice.sameTurn).toBeGreaterThan(0);
  });

  it('refuses bad options naming them', () => {
    expect(() => createAgent('ppo-search:horizon=never')).toThrow(/option 'horizon' must be turn or choice/);
    expect(() => createAgent('ppo-search:iterations=0')).toThrow(/option 'iterations' must be an integer ≥ 1/);
    expect(() => createAgent('ppo-search:mass=2')).toThrow(/option 'mass' must be in \(0, 1\]/);
    expect(() => createAgent('ppo-search:confidence=-1')).toThrow(/option 'confidence' must be ≥ 0/);
    expect(() => createAgent('ppo-search:rollout=ismcts')).toThrow(/option 'rollout' must be a fast synchronous agent/);
    expect(() => createAgent('ppo-search:rollout=nobody')).toThrow(/option 'rollout' must be a registered agent's spec/);
    expect(() => createAgent('ppo-search:/nonexistent.json')).toThrow(/agent 'ppo-search:\/nonexistent.json': cannot read checkpoint/);
  });

  it('scores a finished game on the scale its value head learned (the run\'s reward), rank where unsaid', () => {
    for (const players of [2, 4, 6]) {
      const c = loadPolicy(shippedModel(players));
      expect(valueScale(c)).toBe(c.options.reward);
    }
    expect(valueScale(loadPolicy(shippedModel(4)))).toBe('win');
    expect(valueScale({ options: {} })).toBe('rank');
    expect(valueScale({ options: { reward: 'nonsense' } })).toBe('rank');
  });
});
