/**
 * The agents of a game setup, made where the games are played (this thread, a worker thread, a
 * queue worker on another machine): one per entry spec, except the entries named by `policy`,
 * which play those weights (a policy in training has no file another machine could read).
 */
import { createAgent, Gate, PpoAgent, type Agent, type GateSpec } from '../agents/index.ts';
import { decodeWeights, type EncodedWeights } from '../policy/index.ts';
import type { Ruleset } from '../env/index.ts';

export interface GameSetup {
  entries: string[];
  ruleset?: Ruleset;
  askForced?: boolean;
  maxDecisions?: number;
  /** Entries named `name` play these weights (argmax), not an agent made from the spec. */
  policy?: { name: string; weights: EncodedWeights };
  /** Per entry: the budgets of its calls to outside servers (shared memory, so every thread counts in one place), or null. */
  gates?: (GateSpec | null)[];
  /** Per entry: the file its agent writes its transcript to (a run's own, in its folder), or null. Not in the spec, so a run's specs are the same wherever its folder is. */
  transcripts?: (string | null)[];
}

/** The setup part of wider options (a run's, a tournament's): what is sent to where games are played. */
export function gameSetup(o: GameSetup): GameSetup {
  return { entries: o.entries, ruleset: o.ruleset, askForced: o.askForced, maxDecisions: o.maxDecisions, policy: o.policy, gates: o.gates, transcripts: o.transcripts };
}

export function agentsFor(setup: GameSetup): Agent[] {
  const p = setup.policy;
  const weights = p ? decodeWeights(p.weights, `the weights of ${p.name}`) : null;
  return setup.entries.map((spec, i) => {
    const agent: Agent = p && weights && spec === p.name ? new PpoAgent(spec, { weights }) : createAgent(spec);
    const gate = setup.gates?.[i];
    if (gate) {
      if (!agent.useGate) throw new Error(`agent '${spec}' calls no outside server: it takes no budget`);
      agent.useGate(new Gate(gate));
    }
    const transcript = setup.transcripts?.[i];
    if (transcript) {
      if (!agent.useTranscript) throw new Error(`agent '${spec}' keeps no transcript`);
      agent.useTranscript(transcript);
    }
    return agent;
  });
}
