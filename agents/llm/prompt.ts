/**
 * The messages for one decision: a system message with the rules summary (rules.ts) and the
 * answer format, and a user message with what the seat saw happen since its last decision
 * and its text view, which ends with the legal actions as a numbered list in words.
 * Everything comes from the seat's own observation, so nothing hidden can leak in.
 */
import { describeAction, narrateEvents, type Ruleset } from '../../env/index.ts';
import type { AgentObservation } from '../agent.ts';
import { rulesSummary } from './rules.ts';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

const summaries = new WeakMap<Ruleset, string>();

export function systemPrompt(ruleset: Ruleset): string {
  let rules = summaries.get(ruleset);
  if (!rules) summaries.set(ruleset, (rules = rulesSummary(ruleset)));
  return [
    'You are playing the card game Czech Pub. Play to win: the highest final score wins.',
    '',
    rules,
    '',
    'Each turn you see the table from your seat and a numbered list of your legal actions.',
    'Answer with JSON only: {"action": <id from the list>, "reason": "<a few words>"}.',
  ].join('\n');
}

export function decisionPrompt(obs: AgentObservation, ruleset?: Ruleset): string {
  const names = Array.from({ length: obs.players }, (_, p) => (p === obs.seat ? `Player ${p} (you)` : `Player ${p}`));
  const happened = narrateEvents(obs.events, { names, ruleset });
  return [
    happened.length > 0 ? `Since your last decision:\n${happened.map((l) => `- ${l}`).join('\n')}\n` : '',
    obs.text,
    '',
    'Which action do you take? Answer with JSON: {"action": <id>, "reason": "..."}.',
  ].join('\n').trimStart();
}

export function decisionMessages(obs: AgentObservation, ruleset: Ruleset): ChatMessage[] {
  return [
    { role: 'system', content: systemPrompt(ruleset) },
    { role: 'user', content: decisionPrompt(obs, ruleset) },
  ];
}

/** An action's words as the decision prompt lists it (its text view's legal actions come from the same describeAction). */
export function actionWords(obs: AgentObservation, action: number): string {
  return describeAction(action, obs.seat, obs.players);
}
