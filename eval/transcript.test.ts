import { describe, expect, it } from 'vitest';
import { agentSeed } from '../agents/index.ts';
import { CzechPubEnv, DEFAULT_RULESET } from '../env/index.ts';
import { pairTranscript, parseTranscript } from './transcript.ts';

/** A 3-player game played to its end by always taking the last legal action; seat 1's decisions with a choice. */
function game() {
  const seed = 'tx/0';
  const env = new CzechPubEnv({ seed, players: 3 });
  const decisions: number[] = [];
  while (!env.done) {
    const legal = env.legalActions();
    const a = legal[legal.length - 1];
    if (env.actor === 1 && legal.length > 1) decisions.push(a);
    env.step(a);
  }
  return { g: { seed, seating: [2, 0, 1], actions: env.actions.slice() }, decisions };
}

const AGENTS = ['llm:m', 'random', 'random'];
const line = (decision: number, action: number, more: object = {}) =>
  JSON.stringify({ agent: 'llm:m', game: agentSeed('tx/0', 1), seat: 1, decision, attempt: 0, answer: `a${decision}`, action, ...more });

describe('a transcript paired with a game', () => {
  const { g, decisions } = game();

  it('pairs each decision with its lines, taking the last attempt at the game that fits', () => {
    const dropped = [line(0, decisions[0] === 0 ? 1 : 0)];
    const text = [...dropped, ...decisions.map((a, d) => line(d, a)), 'not json', '{"agent":1}'].join('\n');
    const t = parseTranscript(text);
    expect(t.unreadable).toBe(2);
    const [s, ...rest] = pairTranscript(g, AGENTS, t, DEFAULT_RULESET, false);
    expect(rest).toEqual([]);
    expect(s).toMatchObject({ seat: 1, agent: 'llm:m', mismatch: null });
    expect(s.moves.map((m) => m.action)).toEqual(decisions);
    expect(s.moves.map((m) => m.lines.map((l) => l.answer))).toEqual(decisions.map((_, d) => [`a${d}`]));
  });

  it('keeps lines apart, saying why, when the action they played is not the move', () => {
    const wrong = decisions.map((a, d) => line(d, d === 2 ? (a === 0 ? 1 : 0) : a));
    const [s] = pairTranscript(g, AGENTS, parseTranscript(wrong.join('\n')), DEFAULT_RULESET, false);
    expect(s.mismatch).toMatch(/^the transcript's decision 2 played action \d+, the game's move there is \d+$/);
    expect(s.unpaired).toHaveLength(decisions.length);
    expect(s.moves.every((m) => m.lines.length === 0)).toBe(true);
    const short = pairTranscript(g, AGENTS, parseTranscript(line(0, decisions[0])), DEFAULT_RULESET, false)[0];
    expect(short.mismatch).toBe(`the transcript has 1 decision of this seat, the game ${decisions.length}`);
  });
});
