import { describe, expect, it } from 'vitest';
import './index.ts';
import { agentLabels, createAgent, knownAgents, parseOptions, UnknownAgentError } from './registry.ts';

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
});
