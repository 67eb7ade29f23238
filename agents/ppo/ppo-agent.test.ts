import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NUM_ACTIONS } from '../../env/actions.ts';
import { OBS_SIZE } from '../../env/observation/encode.ts';
import { DEFAULT_RULESET } from '../../env/ruleset.ts';
import { playGame } from '../../eval/game.ts';
import { saveCheckpoint } from '../../policy/checkpoint.ts';
import { initWeights, netInputs } from '../../policy/weights.ts';
import { CzechPubEnv } from '../../env/env.ts';
import { EnvObservation } from '../observation.ts';
import { createAgent } from '../default-registry.ts';
import { DEFAULT_MODEL, shippedModel } from './ppo-agent.ts';

function checkpointFile(advice = false): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ppo-agent-')), 'model.json');
  const shape = advice ? { inputs: netInputs('heuristic'), hidden: [32], actions: NUM_ACTIONS, advice: 'heuristic' as const } : { inputs: OBS_SIZE, hidden: [32], actions: NUM_ACTIONS };
  const weights = initWeights(shape, 'agent');
  if (advice) {
    saveCheckpoint(file, { ruleset: DEFAULT_RULESET, players: 4, iteration: 0, steps: 0, options: {}, metrics: {}, createdAt: '', weights });
    return file;
  }
  // Larger head weights than the near-uniform initial ones, so argmax and sampling differ.
  for (const w of weights.layers[1].w.keys()) weights.layers[1].w[w] *= 300;
  saveCheckpoint(file, { ruleset: DEFAULT_RULESET, players: 4, iteration: 0, steps: 0, options: {}, metrics: {}, createdAt: '', weights });
  return file;
}

describe('ppo agent', () => {
  const file = checkpointFile();

  it('returns only legal actions at 2–6 players, argmax and sampled', async () => {
    for (const spec of [`ppo:${file}`, `ppo:${file}:sample=true`]) {
      for (let players = 2; players <= 6; players++) {
        const agents = Array.from({ length: players }, () => createAgent(spec));
        // playGame throws IllegalAgentActionError on an illegal action.
        const g = await playGame(agents, { seed: `legal/${players}/${spec.length}` });
        expect(g.agentDecisions.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      }
    }
  });

  it('ships a model that `ppo` names, which loads and plays legally at 2–6 players', async () => {
    for (let players = 2; players <= 6; players++) {
      const agents = Array.from({ length: players }, (_, i) => createAgent(i === 0 ? 'ppo' : 'heuristic'));
      const g = await playGame(agents, { seed: `shipped/${players}` });
      expect(g.agentDecisions[0]).toBeGreaterThan(0);
    }
  });

  it('`ppo` alone plays the shipped model of the table size where there is one, else the 4-player one', async () => {
    const same = async (players: number, file: string) => {
      const game = (spec: string) => playGame([createAgent(spec), ...Array.from({ length: players - 1 }, () => createAgent('heuristic'))], { seed: `size/${players}` });
      const a = await game('ppo');
      const b = await game(`ppo:${file}`);
      return [a.decisions, ...a.scores].join() === [b.decisions, ...b.scores].join();
    };
    expect(shippedModel(3)).toBe(DEFAULT_MODEL);
    expect(await same(3, DEFAULT_MODEL)).toBe(true);
    for (const players of [2, 6]) {
      const own = shippedModel(players);
      if (own === DEFAULT_MODEL) continue; // no model of its own shipped for this size
      expect(own).toMatch(new RegExp(`ppo-${players}p\\.json$`));
      expect(await same(players, own)).toBe(true);
      // …and not the 4-player one.
      expect(await same(players, DEFAULT_MODEL)).toBe(false);
    }
  });

  it('plays the same game from the same seed when sampling', async () => {
    const play = () => playGame([createAgent(`ppo:${file}:sample=true`), createAgent('random'), createAgent('random')], { seed: 'same' });
    expect((await play()).scores).toEqual((await play()).scores);
  });

  it('refuses bad specs and files with a message naming the agent', () => {
    expect(() => createAgent(`ppo:${file}:temperature=2`)).toThrow(/agent 'ppo:.*': unknown option 'temperature'/);
    expect(() => createAgent(`ppo:${file}:sample=maybe`)).toThrow(/option 'sample' must be true or false/);
    expect(() => createAgent('ppo:/nonexistent.json')).toThrow(/agent 'ppo:\/nonexistent.json': cannot read checkpoint/);
  });

  it('a net with advice reads what heuristic would play: untrained, it plays as heuristic does', async () => {
    const advised = checkpointFile(true);
    // Seat 0's decisions in heuristic games, asked of heuristic and of the untrained advised net.
    let same = 0;
    let asked = 0;
    for (let g = 0; g < 3; g++) {
      const seed = `advice/${g}`;
      const env = new CzechPubEnv({ seed, players: 4, log: false });
      const bots = Array.from({ length: 4 }, (_, seat) => {
        const a = createAgent('heuristic');
        a.reset?.({ seat, players: 4, seed: `${seed}/${seat}` });
        return a;
      });
      const ppo = createAgent(`ppo:${advised}`);
      ppo.reset?.({ seat: 0, players: 4, seed: `${seed}/0` });
      while (!env.done) {
        const seat = env.actor;
        const legal = env.legalActions();
        const obs = new EnvObservation(env, seat, legal);
        const a = bots[seat].act(obs) as number;
        if (seat === 0 && legal.length > 1) {
          asked++;
          if (ppo.act(obs) === a) same++;
        }
        env.step(a);
      }
    }
    expect(asked).toBeGreaterThan(100);
    // Tie-breaks are the only difference (the adviser draws its own).
    expect(same / asked).toBeGreaterThan(0.97);
    // ppo-search on such a net plays legally too (its prior and its judged positions read the advice).
    const g = await playGame([createAgent(`ppo-search:${advised}:iterations=4`), createAgent('heuristic'), createAgent('heuristic')], { seed: 'advice-search' });
    expect(g.agentDecisions[0]).toBeGreaterThan(0);
  });
});
