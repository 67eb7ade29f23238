import { describe, expect, it } from 'vitest';
import { CzechPubEnv } from '../env/env.ts';
import type { Agent } from './agent.ts';
import { AGENT_FAMILIES, agentLabels, createAgent, knownAgents, registerAgent } from './default-registry.ts';
import { EnvObservation } from './observation.ts';
import { RANDOM_AGENTS } from './random.ts';
import { AgentRegistry, parseOptions, UnknownAgentError, type AgentFactory } from './registry.ts';
import { SCRIPTED_AGENTS } from './scripted/index.ts';

describe('agent registry', () => {
  it('creates agents by spec and lists them', () => {
    expect(createAgent('random').spec).toBe('random');
    expect(knownAgents().map((a) => a.name)).toContain('random');
  });

  it('an unknown spec fails listing the known agents', () => {
    expect(() => createAgent('nobody:x=1')).toThrow(UnknownAgentError);
    expect(() => createAgent('nobody')).toThrow(/unknown agent 'nobody'; known agents: random/);
  });

  it('options parse to the defaults’ types; bad ones fail naming the option', () => {
    const d = { iterations: 100, rollout: 'random', fast: false };
    expect(parseOptions('x', '', d)).toEqual(d);
    expect(parseOptions('x', 'iterations=5:rollout=greedy:fast', d)).toEqual({ iterations: 5, rollout: 'greedy', fast: true });
    expect(() => parseOptions('x:depth=2', 'depth=2', d)).toThrow("agent 'x:depth=2': unknown option 'depth'; options: iterations, rollout, fast");
    expect(() => parseOptions('x', 'iterations=lots', d)).toThrow("option 'iterations' must be a number, got 'lots'");
    expect(() => parseOptions('x', 'fast=maybe', d)).toThrow("option 'fast' must be true or false");
    expect(() => createAgent('random:x=1')).toThrow("agent 'random:x=1': unknown option 'x'");
  });

  it('refuses inherited names as options: only the agent’s own options are options', () => {
    const d = { iterations: 100 };
    for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(() => parseOptions('x', `${key}=1`, d)).toThrow(`unknown option '${key}'`);
    }
    expect(() => createAgent('random:__proto__=1')).toThrow(/unknown option '__proto__'/);
    expect(() => createAgent('heuristic:constructor=x')).toThrow(/unknown option 'constructor'/);
    expect(Object.getPrototypeOf(parseOptions('x', 'iterations=3', d))).toBe(Object.prototype);
  });

  it('labels agents for tables without the paths, URLs and key variables their specs hold', () => {
    expect(agentLabels([
      'llm:gpt-4o-mini:baseUrl=http://10.1.2.3:8000/v1:apiKeyEnv=MY_KEY:transcript=/home/me/t.jsonl:concurrency=8',
      'llm:gpt-4o-mini:temperature=0.7',
      'ppo:/srv/models/champion.json:sample=true',
      'http:http://127.0.0.1:9/v1/bots/heuristic/act:timeoutMs=500',
      'heuristic',
      'heuristic',
    ])).toEqual(['llm:gpt-4o-mini', 'llm:gpt-4o-mini:temperature=0.7', 'ppo:champion:sample=true', 'http:127.0.0.1:9', 'heuristic', 'heuristic']);
    // Two specs that would read the same are told apart by a number.
    expect(agentLabels(['llm:m:baseUrl=http://a/v1', 'llm:m:baseUrl=http://b/v1', 'llm:m:baseUrl=http://a/v1']))
      .toEqual(['llm:m (1)', 'llm:m (2)', 'llm:m (1)']);
  });

  it('is built from the list of families alone: every shipped agent, with nothing registered on import', () => {
    const shipped = ['random', 'greedy', 'cautious', 'heuristic', 'ismcts', 'best-response', 'ppo', 'ppo-search', 'tabular', 'llm', 'http', 'clairvoyant', 'clairvoyant-search'];
    expect(new AgentRegistry(AGENT_FAMILIES).known().map((a) => a.name)).toEqual(shipped);
    expect(AGENT_FAMILIES.flatMap((f) => Object.keys(f))).toEqual(shipped);
    // The default registry opens with them; what a library user (or another test file in this
    // worker: the unit layer shares its modules) registers comes after.
    expect(knownAgents().map((a) => a.name).slice(0, shipped.length)).toEqual(shipped);
    // A registry of some families knows those and no more.
    const small = new AgentRegistry([RANDOM_AGENTS, SCRIPTED_AGENTS]);
    expect(small.known().map((a) => a.name)).toEqual(['random', 'greedy', 'cautious', 'heuristic']);
    expect(() => small.create('ismcts')).toThrow("unknown agent 'ismcts'; known agents: random, greedy, cautious, heuristic");
    expect(() => new AgentRegistry([RANDOM_AGENTS, RANDOM_AGENTS])).toThrow("agent 'random' is already registered");
    for (const bad of ['', 'a:b', 'two words']) expect(() => small.register(bad, RANDOM_AGENTS.random)).toThrow(/must be non-empty, without ':' or spaces/);
  });

  it('takes an agent a library user registers: created by spec, listed, and usable as the rollout policy of ismcts', () => {
    class FirstLegal implements Agent {
      constructor(readonly spec: string) {}
      act(obs: { legalActions: readonly number[] }): number {
        return obs.legalActions[0];
      }
    }
    const made: string[] = [];
    const factory: AgentFactory = {
      description: 'the first legal action',
      create: (spec, options) => {
        parseOptions(spec, options, {});
        made.push(spec);
        return new FirstLegal(spec);
      },
    };
    registerAgent('first-legal', factory);
    expect(() => registerAgent('first-legal', factory)).toThrow("agent 'first-legal' is already registered");
    expect(knownAgents().at(-1)).toEqual({ name: 'first-legal', description: 'the first legal action' });
    const env = new CzechPubEnv({ seed: 'user', players: 3 });
    const legal = env.legalActions();
    expect(createAgent('first-legal').act(new EnvObservation(env, env.actor))).toBe(legal[0]);
    // ismcts builds its rollout agents through the registry that created it.
    while (env.legalActions().length < 2) env.step(env.legalActions()[0]);
    const search = createAgent('ismcts:iterations=4:rollout=first-legal');
    search.reset?.({ seat: env.actor, players: 3, seed: 'user' });
    expect(env.legalActions()).toContain(search.act(new EnvObservation(env, env.actor)));
    expect(made.filter((s) => s === 'first-legal').length).toBeGreaterThan(1);
    expect(agentLabels(['first-legal'])).toEqual(['first-legal']);
  });
});
