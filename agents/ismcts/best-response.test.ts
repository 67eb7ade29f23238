import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CzechPubEnv } from '../../env/env.ts';
import { playGame } from '../../eval/game.ts';
import type { Agent, AgentObservation, GameStart } from '../agent.ts';
import { AGENT_FAMILIES, agentRegistry, createAgent } from '../default-registry.ts';
import { EnvObservation } from '../observation.ts';
import { AgentRegistry } from '../registry.ts';
import { bestResponseSpec, modelFor, splitModel, type BestResponseAgent } from './best-response.ts';
import type { Node } from './tree.ts';

/** Plays the lowest legal action, and remembers every question it was asked. */
class Recorder implements Agent {
  readonly spec = 'recorder';
  seat = -1;
  readonly asked: { seat: number; action: number }[] = [];
  reset(game: GameStart): void {
    this.seat = game.seat;
  }
  act(obs: AgentObservation): number {
    this.asked.push({ seat: obs.seat, action: obs.legalActions[0] });
    return obs.legalActions[0];
  }
}

/** The project's registry plus `model` and `own`, each instance kept for inspection. */
function recordingRegistry() {
  const made: Record<'model' | 'own', Recorder[]> = { model: [], own: [] };
  const registry = new AgentRegistry(AGENT_FAMILIES);
  for (const kind of ['model', 'own'] as const) {
    registry.register(kind, {
      description: 'records its questions',
      create: () => {
        const r = new Recorder();
        made[kind].push(r);
        return r;
      },
    });
  }
  return { registry, made };
}

/** A 3-player game on to a decision of seat 1 with several legal actions. */
function decisionOfSeat1(): CzechPubEnv {
  const env = new CzechPubEnv({ seed: 'best-response/decision', players: 3 });
  while (env.actor !== 1 || env.legalActions().length < 2) env.step(env.legalActions()[0]);
  return env;
}

function edges(root: Node): Node[] {
  const out: Node[] = [];
  const walk = (n: Node) => n.children.forEach((c) => (out.push(c), walk(c)));
  walk(root);
  return out;
}

/** Actions of a whole game, as a length and a short hash. */
function fingerprint(seed: string, specs: string[]): string {
  const env = new CzechPubEnv({ seed, players: specs.length });
  const agents = specs.map((s) => createAgent(s));
  agents.forEach((a, seat) => a.reset?.({ seat, players: specs.length, seed: `${seed}/seat${seat}` }));
  while (!env.done) env.step(agents[env.actor].act(new EnvObservation(env, env.actor)) as number);
  return `${env.actions.length}:${createHash('sha256').update(env.actions.join(',')).digest('hex').slice(0, 16)}`;
}

describe('best-response', () => {
  it('plays every other seat by the model, in the tree and in rollouts, each in its own seat', () => {
    const { registry, made } = recordingRegistry();
    const agent = registry.create('best-response:iterations=40:rollout=own:model=model') as BestResponseAgent;
    expect(agent.model).toBe('model');
    agent.reset({ seat: 1, players: 3, seed: 'g' });
    const env = decisionOfSeat1();
    const action = agent.act(new EnvObservation(env, 1));
    expect(env.legalActions()).toContain(action);

    // One model and one own policy playing each seat (others were made only to check their specs); the
    // model is asked only for the other seats, the own policy only for seat 1.
    const playing = (kind: 'model' | 'own') => made[kind].filter((m) => m.seat >= 0);
    expect(playing('model').map((m) => m.seat)).toEqual([0, 1, 2]);
    expect(playing('own').map((m) => m.seat)).toEqual([0, 1, 2]);
    const modelAsked = playing('model').flatMap((m) => m.asked.map((q) => ({ ...q, instance: m.seat })));
    expect(modelAsked.length).toBeGreaterThan(0);
    expect(modelAsked.every((q) => q.seat !== 1 && q.seat === q.instance)).toBe(true);
    expect(playing('own')[1].asked.length).toBeGreaterThan(0);
    expect(playing('own').filter((m) => m.seat !== 1).every((m) => m.asked.length === 0)).toBe(true);

    // Every move of another seat the tree holds is one the model played; seat 1 spreads its visits by UCB.
    const tree = edges(agent.lastSearch!.root);
    const others = tree.filter((n) => n.actor !== 1);
    expect(others.length).toBeGreaterThan(0);
    const played = new Set(modelAsked.map((q) => `${q.seat}/${q.action}`));
    for (const n of others) expect(played.has(`${n.actor}/${n.action}`)).toBe(true);
    expect([...agent.lastSearch!.rootVisits.values()].filter((v) => v > 0).length).toBeGreaterThan(1);
  });

  it("plays its own rollouts by the model too unless rollout= is given", () => {
    const { registry, made } = recordingRegistry();
    const agent = registry.create('best-response:iterations=20:model=model');
    agent.reset?.({ seat: 1, players: 3, seed: 'g' });
    agent.act(new EnvObservation(decisionOfSeat1(), 1));
    // The model's instances: one set for the other seats, one as seat 1's own rollout policy, which is asked for seat 1.
    const ownSeat = made.model.filter((m) => m.seat === 1);
    expect(ownSeat).toHaveLength(2);
    expect(ownSeat.some((m) => m.asked.length > 0 && m.asked.every((q) => q.seat === 1))).toBe(true);
    expect(made.own).toEqual([]);
  });

  it('ismcts without a model plays as it did before a model could be given', () => {
    // Recorded with the ismcts of before best-response.ts (commit 8fb0d6f). A change to the rules or
    // the resampler may change these games and be re-recorded; a change to the search alone must not.
    expect(fingerprint('ismcts-unchanged/2', ['ismcts:iterations=20:widen=0', 'random'])).toBe('69:e6a63638499c5449');
    expect(fingerprint('ismcts-unchanged/3', ['random', 'ismcts:iterations=10:rollout=random:depth=2'])).toBe('56:54abeadb2cff69c9');
  });

  it('beats a weak fixed target well above par over seeded games', async () => {
    let wins = 0;
    const games = 8;
    for (let g = 0; g < games; g++) {
      const me = g % 2;
      const agents = [createAgent('random'), createAgent('random')];
      agents[me] = createAgent(bestResponseSpec({ iterations: 8 }, 'random'));
      const r = await playGame(agents, { seed: `best-response/weak/${g >> 1}` });
      if (r.winners.includes(me)) wins += 1 / r.winners.length;
    }
    expect(wins / games).toBeGreaterThan(0.75); // par is 0.5
  });

  it('reads the model from the rest of its spec, and refuses a model that searches or calls out', () => {
    expect(splitModel('s', 'iterations=9:model=ppo:/m/x.json:sample=true')).toEqual({ search: 'iterations=9', model: 'ppo:/m/x.json:sample=true' });
    expect(bestResponseSpec({ timeMs: 20 }, 'ppo', 'rollout=greedy')).toBe('best-response:timeMs=20:rollout=greedy:model=ppo');
    expect(() => createAgent('best-response:iterations=9')).toThrow("option 'model' is required");
    expect(() => createAgent('best-response:model=ismcts:iterations=5')).toThrow(/'ismcts:iterations=5' searches: .*nested search.*its prior: heuristic/);
    expect(() => createAgent('best-response:model=ppo-search')).toThrow(/nested search.*its prior: ppo\)/);
    expect(() => createAgent('best-response:model=http:http://127.0.0.1:1/act')).toThrow('calls a server elsewhere');
    expect(() => createAgent('best-response:model=nosuch')).toThrow(/option 'model': unknown agent 'nosuch'/);
    expect(() => createAgent('best-response:iterations=0:model=random')).toThrow("option 'iterations' must be an integer ≥ 1");
    expect(agentRegistry.labels(['best-response:iterations=5:model=ppo:/m/ppo-2p.json'])).toEqual(['best-response:iterations=5:model=ppo:ppo-2p']);
  });

  it('models a bot by itself, and a search by its prior', () => {
    expect(modelFor('heuristic', agentRegistry)).toEqual({ model: 'heuristic', prior: false });
    expect(modelFor('ppo:sample=true', agentRegistry)).toEqual({ model: 'ppo:sample=true', prior: false });
    expect(modelFor('ppo-search', agentRegistry)).toEqual({ model: 'ppo', prior: true });
    expect(modelFor('ppo-search:/m/x.json:iterations=8', agentRegistry)).toEqual({ model: 'ppo:/m/x.json', prior: true });
    expect(modelFor('ismcts:rollout=greedy', agentRegistry)).toEqual({ model: 'greedy', prior: true });
    expect(modelFor('best-response:rollout=cautious:model=random', agentRegistry)).toEqual({ model: 'cautious', prior: true });
    expect(() => modelFor('llm:some-model', agentRegistry)).toThrow('calls a server elsewhere');
  });
});

// Searches over whole games: seconds on a quiet machine, a minute and more on a busy one.
describe('beliefs in the search', { timeout: 300_000 }, () => {
  it('ismcts and a best response search believed worlds with beliefs=policy: legal, and the same for the same seed', async () => {
    for (const spec of ['ismcts:iterations=24:beliefs=policy', 'best-response:iterations=24:beliefs=policy:model=ppo']) {
      const play = async () => {
        const seats: Agent[] = [createAgent(spec), createAgent('heuristic'), createAgent('heuristic')];
        return (await playGame(seats, { seed: 'believed-worlds', maxDecisions: 60 })).actions;
      };
      const first = await play();
      expect(first.length).toBeGreaterThan(0);
      expect(await play()).toEqual(first);
    }
  });
});

describe('rollouts under the game’s ruleset', () => {
  it('a model trained under the micro rules plays inside the search of a micro game (its rollout agents are given the rules)', async () => {
    const { MICRO_RULESET } = await import('../../env/index.ts');
    const model = 'ppo:models/ppo-micro-2p.json';
    const seats: Agent[] = [createAgent(`best-response:iterations=16:model=${model}`), createAgent(model)];
    const game = await playGame(seats, { seed: 'micro-rollouts', ruleset: MICRO_RULESET });
    expect(game.actions.length).toBeGreaterThan(0);
    expect(() => createAgent(model).reset?.({ seat: 0, players: 2, seed: 'x' })).toThrow(/trained under ruleset fingerprint/);
  });
});
