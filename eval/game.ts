/** Plays one game between agents, one per seat, and reports how it went. */
import { CzechPubEnv, DEFAULT_MAX_DECISIONS, THROWN_OUT, WASTED, winners, type EndReason, type Ruleset } from '../env/index.ts';
import {
  agentSeed, AgentStopError, EnvObservation, type Agent, type AgentUsage, type BudgetRefusal, type CallFaultKind,
} from '../agents/index.ts';

export interface GameRecord {
  seed: string;
  /** Final scores by seat. */
  scores: number[];
  points: number[];
  /** Winners' seats (tied winners share the win). */
  winners: number[];
  turns: number;
  decisions: number;
  /** Per seat: null, 'wasted' or 'thrown_out'. */
  out: (null | 'wasted' | 'thrown_out')[];
  truncated: boolean;
  /** Why the game ended (env endReason); absent in games.jsonl lines written before it was recorded. */
  ended?: EndReason;
  /** Decisions taken and time spent deciding, by seat. */
  agentDecisions: number[];
  agentMillis: number[];
  /** Per seat, for agents that report usage (LLM agents): what they spent in this game. */
  usage?: (AgentUsage | null)[];
  /** Every action stepped from the reset, in order: with the seed and the rules, the whole game (eval/replay-record.ts). */
  actions: number[];
}

export interface PlayOptions {
  seed: string;
  ruleset?: Ruleset;
  askForced?: boolean;
  maxDecisions?: number;
  /** Keep the event log so agents can read `events` (default: when an agent sets readsEvents). */
  log?: boolean;
  /** Clock for timing agents (injected: the env and agents stay clock-free). */
  now?: () => number;
}

/** An agent stopped the run on purpose (AgentStopError): which entry, the kind of fault, the budget if one was spent. */
export interface RunStop {
  /** Index into the run's entries. */
  entry: number;
  kind: CallFaultKind;
  budget?: BudgetRefusal;
}

/** The stop an error of playGame is, given the game's seating (entry per seat), or null for any other error. */
export function runStop(e: unknown, seating: readonly number[]): RunStop | null {
  if (!(e instanceof AgentStopError) || e.seat === undefined) return null;
  return { entry: seating[e.seat], kind: e.kind, ...(e.budget ? { budget: e.budget } : {}) };
}

export class IllegalAgentActionError extends Error {
  override name = 'IllegalAgentActionError';
}

/** Plays a game with agents[seat] at each seat. Agents are reset with a per-seat seed. */
export async function playGame(agents: readonly Agent[], opts: PlayOptions): Promise<GameRecord> {
  return (await playToEnd(agents, opts)).record;
}

/** As playGame, with the finished env too (its log, when kept: for narrating the game). */
export async function playToEnd(agents: readonly Agent[], opts: PlayOptions): Promise<{ env: CzechPubEnv; record: GameRecord }> {
  const players = agents.length;
  const env = new CzechPubEnv({
    seed: opts.seed, players, ruleset: opts.ruleset, askForced: opts.askForced,
    maxDecisions: opts.maxDecisions ?? DEFAULT_MAX_DECISIONS, log: opts.log ?? agents.some((a) => a.readsEvents === true),
  });
  agents.forEach((a, seat) => a.reset?.({ seat, players, seed: agentSeed(opts.seed, seat), ...(opts.ruleset ? { ruleset: opts.ruleset } : {}) }));
  const now = opts.now ?? (() => 0);
  const agentDecisions = new Array<number>(players).fill(0);
  const agentMillis = new Array<number>(players).fill(0);
  while (!env.done) {
    const seat = env.actor;
    // A decision with one legal action (a forced pass, with askForced) is the engine's: no agent is asked, no model paid.
    const legal = env.legalActions();
    if (legal.length === 1) {
      env.step(legal[0]);
      continue;
    }
    const obs = new EnvObservation(env, seat, legal, agents[seat].clairvoyant === true);
    const t0 = now();
    let action: number;
    try {
      action = await agents[seat].act(obs);
    } catch (e) {
      // Whoever stops the run learns whose agent stopped it.
      if (e instanceof AgentStopError) e.seat ??= seat;
      throw e;
    }
    agentMillis[seat] += now() - t0;
    agentDecisions[seat]++;
    if (!obs.legalActions.includes(action)) {
      throw new IllegalAgentActionError(
        `agent '${agents[seat].spec}' at seat ${seat} chose ${action}, not one of ${obs.legalActions.join(', ')} (game seed ${opts.seed})`,
      );
    }
    env.step(action);
  }
  const s = env.state;
  // An agent filling several seats reports its usage once, on its first seat.
  const seen = new Set<Agent>();
  const usage = agents.map((a) => {
    if (seen.has(a)) return null;
    seen.add(a);
    return a.takeUsage?.() ?? null;
  });
  const record: GameRecord = {
    seed: opts.seed,
    scores: env.scores(),
    points: s.points.slice(),
    winners: winners(env.compiledRules, s),
    turns: s.turn,
    decisions: s.decisions,
    out: s.out.map((o) => (o === WASTED ? 'wasted' : o === THROWN_OUT ? 'thrown_out' : null)),
    truncated: env.truncated,
    ended: env.endReason ?? undefined,
    agentDecisions,
    agentMillis,
    ...(usage.some((u) => u !== null) ? { usage } : {}),
    actions: env.actions.slice(),
  };
  return { env, record };
}
