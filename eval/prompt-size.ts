/**
 * What an LLM seat would be sent, without sending it: a stand-in agent plays the model's seat
 * and every prompt it would get is built and measured (llm-bench --dry-run).
 */
import type { Agent } from '../agents/agent.ts';
import { decisionPrompt, systemPrompt } from '../agents/llm/prompt.ts';
import { createAgent } from '../agents/registry.ts';
import { DEFAULT_RULESET } from '../env/ruleset.ts';
import { playGame } from './game.ts';
import { percentile } from './stats.ts';

/** Plays games with a stand-in in the model's seat and measures the prompts it would be sent. */
export async function measurePrompts(standIn: string, opponent: string, players: number, games: number, seed: string) {
  const sizes: number[] = [];
  const inner = createAgent(standIn);
  const probe: Agent = {
    spec: `prompt-probe(${standIn})`,
    readsEvents: true,
    reset: (g) => inner.reset?.(g),
    act: (obs) => {
      if (obs.legalActions.length > 1) {
        sizes.push(decisionPrompt(obs, DEFAULT_RULESET).length);
      }
      return inner.act(obs);
    },
  };
  const others = Array.from({ length: players - 1 }, () => createAgent(opponent));
  for (let g = 0; g < games; g++) {
    const seat = g % players;
    let k = 0;
    await playGame(Array.from({ length: players }, (_, s) => (s === seat ? probe : others[k++])), { seed: `${seed}/dry/${g}` });
  }
  return {
    standIn, games, callsPerGame: sizes.length / games, systemChars: systemPrompt(DEFAULT_RULESET).length,
    decisionCharsMedian: percentile(sizes, 50), decisionCharsP95: percentile(sizes, 95), decisionCharsMean: sizes.reduce((a, b) => a + b, 0) / Math.max(1, sizes.length),
  };
}

