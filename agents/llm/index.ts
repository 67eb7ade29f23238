/** Registers the llm agent: `llm:<model>[:key=value...]` (options: LLM_DEFAULTS in llm-agent.ts). */
import { parseOptions, registerAgent } from '../registry.ts';
import { LLM_DEFAULTS, LlmAgent, type LlmOptions } from './llm-agent.ts';

export { LLM_DEFAULTS, LlmAgent, type LlmOptions, type LlmStats } from './llm-agent.ts';

/** The model is everything before the first `key=value` part, so names like `llama3:8b` work. */
export function parseLlmSpec(spec: string, options: string): LlmOptions {
  const parts = options === '' ? [] : options.split(':');
  const first = parts.findIndex((p) => p.includes('='));
  const model = (first < 0 ? parts : parts.slice(0, first)).join(':');
  if (model === '') throw new Error(`agent '${spec}': name a model, e.g. llm:gpt-4o-mini`);
  // A part without '=' continues the previous value: URLs carry colons (baseUrl=http://h:8080/v1).
  const pairs: string[] = [];
  for (const p of first < 0 ? [] : parts.slice(first)) {
    if (p.includes('=')) pairs.push(p);
    else pairs[pairs.length - 1] += `:${p}`;
  }
  const o = { ...LLM_DEFAULTS };
  for (const pair of pairs) {
    const key = pair.slice(0, pair.indexOf('=')) as keyof typeof LLM_DEFAULTS;
    // Each pair is parsed alone (its value may hold colons), then merged.
    const one = key === 'baseUrl' || key === 'transcript' ? { [key]: pair.slice(pair.indexOf('=') + 1) } : parseOptions(spec, pair, LLM_DEFAULTS);
    (o as Record<string, unknown>)[key] = (one as Record<string, unknown>)[key];
  }
  const fail = (key: string, want: string) => new Error(`agent '${spec}': option '${key}' must be ${want}`);
  if (o.fallback !== 'first' && o.fallback !== 'random') throw fail('fallback', "'first' or 'random'");
  for (const k of ['maxInvalid', 'maxRetries', 'concurrency'] as const) if (!Number.isInteger(o[k]) || o[k] < (k === 'concurrency' ? 1 : 0)) throw fail(k, k === 'concurrency' ? 'a whole number ≥ 1' : 'a whole number ≥ 0');
  for (const k of ['timeoutMs', 'backoffMs', 'maxTokens'] as const) if (!(o[k] > 0)) throw fail(k, '> 0');
  return { ...o, model };
}

registerAgent('llm', {
  description: 'a language model via an OpenAI-compatible server: llm:<model>[:baseUrl=...:temperature=0:structured=false:...]',
  create: (spec, options) => new LlmAgent(spec, parseLlmSpec(spec, options)),
});
