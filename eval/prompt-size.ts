/**
 * What an LLM seat would be sent, without sending it: a stand-in agent plays the model's seat
 * and every prompt it would get is built and measured (llm-bench --dry-run).
 */
import { callBound, createAgent, decisionPrompt, systemPrompt, type Agent } from '../agents/index.ts';
import { DEFAULT_RULESET, type Ruleset } from '../env/index.ts';
import { playGame } from './game.ts';
import { percentile } from './stats.ts';

/** Answer tokens assumed per call in a cost estimate: `{"action": 12, "reason": "..."}` (reasoning models think on top of this). */
export const ASSUMED_ANSWER_TOKENS = 30;

/** Seconds a call is assumed to take in a dry run's wall-time estimate (a reasoning model takes longer). */
export const ASSUMED_CALL_SECONDS = 2;

/** A model the OpenAI tokenizer (o200k_base, GPT-4o and later) counts exactly. */
export const isOpenAiModel = (model: string): boolean => /^(gpt-|o\d|chatgpt)/i.test(model.split('/').pop() ?? model);

/** A token counter for a model's prompts: the real tokenizer for OpenAI's models, else characters / 4 (an estimate). */
export async function tokenCounter(model: string): Promise<{ name: string; exact: boolean; count: (text: string) => number }> {
  if (isOpenAiModel(model)) {
    const { countTokens } = await import('gpt-tokenizer');
    return { name: 'o200k_base (exact for OpenAI models)', exact: true, count: (t) => countTokens(t) };
  }
  return { name: 'characters / 4 (an estimate)', exact: false, count: (t) => Math.ceil(t.length / 4) };
}

/** Plays games with a stand-in in the model's seat and measures the prompts it would be sent. */
export async function measurePrompts(standIn: string, opponent: string, players: number, games: number, seed: string, model = '', ruleset: Ruleset = DEFAULT_RULESET, structured = true) {
  const sizes: number[] = [];
  /** Each game's decision prompts, in order. */
  const perGame: string[][] = [];
  const inner = createAgent(standIn);
  const probe: Agent = {
    spec: `prompt-probe(${standIn})`,
    readsEvents: true,
    reset: (g) => inner.reset?.(g),
    act: (obs) => {
      if (obs.legalActions.length > 1) {
        const text = decisionPrompt(obs, ruleset);
        sizes.push(text.length);
        perGame[perGame.length - 1].push(text);
      }
      return inner.act(obs);
    },
  };
  const others = Array.from({ length: players - 1 }, () => createAgent(opponent));
  for (let g = 0; g < games; g++) {
    const seat = g % players;
    let k = 0;
    perGame.push([]);
    await playGame(Array.from({ length: players }, (_, s) => (s === seat ? probe : others[k++])), { seed: `${seed}/dry/${g}`, ruleset });
  }
  const tokens = await tokenCounter(model);
  const system = systemPrompt(ruleset);
  const systemTokens = tokens.count(system);
  // The most a call's prompt can be charged, as a budget reserves it (agents/llm/ledger.ts).
  let boundTokens = 0;
  for (const texts of perGame) for (const t of texts) boundTokens += callBound([{ role: 'system', content: system }, { role: 'user', content: t }], structured, 0).promptTokens;
  let decisionTokens = 0;
  let conversationTokens = 0;
  for (const texts of perGame) {
    // A conversation resends the system prompt and every earlier decision and answer with each call.
    let history = systemTokens;
    for (const t of texts) {
      const n = tokens.count(t);
      decisionTokens += n;
      conversationTokens += history + n;
      history += n + ASSUMED_ANSWER_TOKENS;
    }
  }
  const callsPerGame = sizes.length / games;
  return {
    standIn, games, callsPerGame, systemChars: system.length,
    decisionCharsMedian: percentile(sizes, 50), decisionCharsP95: percentile(sizes, 95), decisionCharsMean: sizes.reduce((a, b) => a + b, 0) / Math.max(1, sizes.length),
    tokenizer: tokens.name,
    tokensExact: tokens.exact,
    systemTokens,
    /** Prompt tokens per game: the system prompt with every call, and each decision prompt. */
    promptTokensPerGame: callsPerGame * systemTokens + decisionTokens / games,
    /** The most the prompts of a game can be charged (the bound a budget reserves per call), in tokens. */
    boundPromptTokensPerGame: boundTokens / games,
    /** The same game as one conversation (conversation=true): the rules once, but every earlier decision and answer again with each call. */
    conversationPromptTokensPerGame: conversationTokens / games,
    /** Answer tokens per game, assumed (ASSUMED_ANSWER_TOKENS a call). */
    completionTokensPerGame: callsPerGame * ASSUMED_ANSWER_TOKENS,
  };
}

