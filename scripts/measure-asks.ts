/**
 * What auto-pass asks of a person, setting by setting: seeded games of a person who always
 * passes (at their own turn: done at once) against the Strong, Regular and Beginner bots, at a
 * live table's rules (askForced; a decision with one legal action is taken for them). Every
 * setting sees the same games, since the person passes either way. Prints, per setting, the
 * decisions asked, the reaction windows asked, and how many of the windows where a held X card
 * could be played, and where one answered the card just played, were asked.
 *
 *   npm run measure:asks -- [games] [seed]
 */
import { A_PASS, decodeAction } from '../env/index.ts';
import { createAgent } from '../agents/default-registry.ts';
import type { Agent, AgentObservation } from '../agents/agent.ts';
import { playGame } from '../eval/game.ts';
import { answers, autoPasses, reactionCard, windowCard, X_WATCHABLE, type AutoPass } from '../server/auto-pass.ts';

const games = Number(process.argv[2] ?? 40);
const seed = process.argv[3] ?? 'asks';

const SETTINGS: Record<string, AutoPass> = {
  'web page until now (no X card watched)': { on: true, unwatched: [...X_WATCHABLE], windows: 'all' },
  'server default (every window)': { on: true, unwatched: [], windows: 'all' },
  'web page now (answering windows)': { on: true, unwatched: [], windows: 'answering' },
};

/** One decision of the person: its legal actions and the card a reaction window is about. */
interface Decision { legal: readonly number[]; card: number }

class PassingPerson implements Agent {
  readonly spec = 'always-pass';
  decisions: Decision[] = [];
  act(obs: AgentObservation): number {
    this.decisions.push({ legal: [...obs.legalActions], card: windowCard(obs.view.decision) });
    if (obs.legalActions.includes(A_PASS)) return A_PASS;
    return obs.legalActions.find((a) => decodeAction(a).kind === 'done') ?? obs.legalActions[0];
  }
}

const person = new PassingPerson();
const bots = ['ppo', 'heuristic', 'random'].map(createAgent);
for (let g = 0; g < games; g++) {
  await playGame([person, ...bots], { seed: `${seed}/${g}`, askForced: true });
}

const xWindow = (d: Decision) => d.legal.includes(A_PASS) && d.legal.some((a) => reactionCard(a) !== null);
const answering = (d: Decision) => xWindow(d) && d.legal.some((a) => answers(a, d.card));
const all = person.decisions;
console.log(`${games} games, 4 players (the person, Strong, Regular, Beginner), seed ${seed}: ${all.length} decisions with a choice`);
console.log(`  windows where a held X card could be played: ${all.filter(xWindow).length}; where one answered the card just played: ${all.filter(answering).length}`);
for (const [name, s] of Object.entries(SETTINGS)) {
  const asked = all.filter((d) => !autoPasses(s, d.legal, d.card));
  console.log(`${name}: ${asked.length} decisions asked (${(asked.length / games).toFixed(1)} a game); `
    + `X windows asked ${asked.filter(xWindow).length} of ${all.filter(xWindow).length}, `
    + `answering ones ${asked.filter(answering).length} of ${all.filter(answering).length}`);
}
