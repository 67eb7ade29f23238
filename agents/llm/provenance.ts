/**
 * What makes an LLM result comparable with another: hashes of the rules text and of the
 * decision prompt the model is sent, and the client's version. The prompt's hash is taken of
 * one fixed position's prompt, so any change of the template (or of how a position is told)
 * changes it, with nothing to keep in step by hand.
 */
import { createHash } from 'node:crypto';
import { VERSION as OPENAI_VERSION } from 'openai/version';
import { CzechPubEnv, type Ruleset } from '../../env/index.ts';
import { EnvObservation } from '../observation.ts';
import { systemPrompt, decisionPrompt } from './prompt.ts';

export interface PromptHashes {
  /** Of the system message: the rules as the model is told them, under this ruleset. */
  rulesHash: string;
  /** Of the decision prompt of a fixed position: the template and how a position is told. */
  promptHash: string;
}

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

const cache = new WeakMap<Ruleset, PromptHashes>();

/** The hashes of what a model is sent under `ruleset`. */
export function promptHashes(ruleset: Ruleset): PromptHashes {
  let h = cache.get(ruleset);
  if (!h) {
    const env = new CzechPubEnv({ seed: 'prompt-hash', players: 4, ruleset });
    while (!env.done && env.legalActions().length < 2) env.step(env.legalActions()[0]);
    const obs = new EnvObservation(env, env.actor, env.legalActions());
    h = { rulesHash: hash(systemPrompt(ruleset)), promptHash: hash(decisionPrompt(obs, ruleset)) };
    cache.set(ruleset, h);
  }
  return h;
}

/** The `openai` client's version: the SDK every request went through. */
export const SDK_VERSION = `openai ${OPENAI_VERSION}`;
