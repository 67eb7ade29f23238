/** The llm agent: `llm:<model>[:key=value...]` (options: LLM_DEFAULTS in llm-agent.ts). */
import { parseOptionParts, type AgentFamily } from '../registry.ts';
import { LLM_DEFAULTS, LlmAgent, type LlmOptions } from './llm-agent.ts';

export { LLM_DEFAULTS, LlmAgent, type LlmOptions } from './llm-agent.ts';

/** Options whose values may hold colons. */
const COLON_VALUES = new Set(['baseUrl', 'transcript']);

/** The model is everything before the first `key=value` part, so names like `llama3:8b` work. */
export function parseLlmSpec(spec: string, options: string): LlmOptions {
  const parts = options === '' ? [] : options.split(':');
  const first = parts.findIndex((p) => p.includes('='));
  const model = (first < 0 ? parts : parts.slice(0, first)).join(':');
  if (model === '') throw new Error(`agent '${spec}': name a model, e.g. llm:gpt-4o-mini`);
  // A part without '=' continues a URL or a path (baseUrl=http://h:8080/v1); after any other
  // option it is an option of its own, a flag.
  const pairs: string[] = [];
  for (const p of first < 0 ? [] : parts.slice(first)) {
    const last = pairs.length - 1;
    if (!p.includes('=') && COLON_VALUES.has(pairs[last].slice(0, pairs[last].indexOf('=')))) pairs[last] += `:${p}`;
    else pairs.push(p);
  }
  const o = parseOptionParts(spec, pairs, LLM_DEFAULTS);
  const fail = (key: string, want: string) => new Error(`agent '${spec}': option '${key}' must be ${want}`);
  if (o.fallback !== 'first' && o.fallback !== 'random') throw fail('fallback', "'first' or 'random'");
  for (const k of ['maxInvalid', 'maxRetries', 'concurrency', 'maxFaultStreak', 'rpm'] as const) if (!Number.isInteger(o[k]) || o[k] < (k === 'concurrency' ? 1 : 0)) throw fail(k, k === 'concurrency' ? 'a whole number ≥ 1' : 'a whole number ≥ 0');
  for (const k of ['timeoutMs', 'backoffMs', 'maxTokens'] as const) if (!(o[k] > 0)) throw fail(k, '> 0');
  if (!(o.maxWaitMs >= 0)) throw fail('maxWaitMs', '≥ 0');
  return { ...o, model };
}

export const LLM_AGENTS = {
  llm: {
    description: 'a language model via an OpenAI-compatible server: llm:<model>[:baseUrl=...:temperature=0:structured=false:...]',
    needs: 'history',
    outside: true,
    // The model and how it is asked; not where its server, key or transcript are.
    label: (options) => {
      const o = parseLlmSpec('llm', options);
      const shown = Object.entries(LLM_DEFAULTS).filter(([k, d]) => !['baseUrl', 'apiKeyEnv', 'transcript', 'concurrency', 'rpm'].includes(k) && o[k as keyof typeof o] !== d);
      return `llm:${o.model}${shown.map(([k]) => `:${k}=${o[k as keyof typeof o]}`).join('')}`;
    },
    create: (spec, options) => new LlmAgent(spec, parseLlmSpec(spec, options)),
  },
} satisfies AgentFamily;
