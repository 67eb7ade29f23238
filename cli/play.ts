/**
 * `czech-pub play`: one seeded game between agents of the registry (heuristic bots by
 * default), narrated event by event with every card shown, and a final score table. With
 * `--human SEAT` a person plays that seat at the terminal and sees only what the seat may see
 * until the game is over (cli/human.ts). Bots are reset with the seeds a tournament gives
 * them, so the same seed (and the same answers from the person) plays the same game.
 */
import { agentLabels, anyOutsideAgent, createAgent, rulesetMismatch, type Agent } from '../agents/index.ts';
import { SeatChannel, type Ruleset } from '../env/index.ts';
import { encodeReplay, playToEnd, recordOf } from '../eval/index.ts';
import { HumanSeat, InputEndedError } from './human.ts';
import { EXIT_FAILURE, EXIT_OK, UsageError, type Io } from './io.ts';
import { helpText, parseOptions, PLAYERS_MAX, PLAYERS_MIN, type CommandSpec } from './options.ts';
import { narrationLines, scoreLines, seatsLine } from './game-text.ts';
import { asUsageError } from './tournament.ts';

export const DEFAULT_PLAY_AGENT = 'heuristic';

export const PLAY = {
  name: 'play',
  description: `Plays one game between agents (heuristic bots unless --agents says otherwise) and prints
what happens, turn by turn, every card shown. With --human SEAT you play that seat: you see
only what it may see, the legal actions numbered, and type a number for each decision.`,
  options: {
    players: { type: 'int', arg: 'N', min: PLAYERS_MIN, max: PLAYERS_MAX, defaultText: '4, or the seats --agents and --human fill', help: 'number of players' },
    seed: { type: 'string', arg: 'S', default: '1', help: 'game seed, any text; the same seed prints the same game' },
    agents: { type: 'list', defaultText: `${DEFAULT_PLAY_AGENT} in every seat`, help: 'agent specs, one per seat (with --human: one per other seat, in seat order), e.g. heuristic,ppo,random,ismcts' },
    human: { type: 'int', arg: 'SEAT', min: 0, max: (ctx) => PLAYERS_MAX(ctx) - 1, help: 'you play this seat (0 starts), reading your choices from standard input' },
    'ask-forced': { type: 'flag', help: 'ask every seat at every decision, forced ones too (always so with --human or an llm or http agent; docs/environment.md)' },
    ruleset: { type: 'ruleset', help: 'play under this ruleset: micro, standard, or a JSON file (env/ruleset.ts)' },
  },
} as const satisfies CommandSpec;

export interface PlaySetup {
  players: number;
  /** Agent spec by seat; the human's seat holds null. */
  seats: (string | null)[];
}

/** Who sits where, from the options; every mistake is a UsageError naming it. */
export function playSetup(o: { players?: number; agents?: string[]; human?: number }, ruleset: Ruleset): PlaySetup {
  const human = o.human;
  const others = o.agents;
  const players = o.players ?? (others ? others.length + (human === undefined ? 0 : 1) : 4);
  const { min, max } = ruleset.players;
  if (players < min || players > max) throw new UsageError(`--agents${human === undefined ? '' : ' and --human'} seat ${players} players; the ruleset plays ${min}-${max}`);
  if (human !== undefined && human >= players) throw new UsageError(`--human ${human}: the seats of ${players} players are 0-${players - 1}`);
  const bots = players - (human === undefined ? 0 : 1);
  if (others && others.length !== bots) {
    throw new UsageError(human === undefined
      ? `${others.length} agents for ${players} players: give one agent spec per seat`
      : `${others.length} agents for the ${bots} seats besides yours (${players} players): give one spec per other seat`);
  }
  const specs = others ?? new Array<string>(bots).fill(DEFAULT_PLAY_AGENT);
  let next = 0;
  return { players, seats: Array.from({ length: players }, (_, seat) => (seat === human ? null : specs[next++])) };
}

function bot(spec: string, ruleset: Ruleset): Agent {
  let agent: Agent;
  try {
    agent = createAgent(spec);
  } catch (e) {
    throw asUsageError(e);
  }
  const mismatch = rulesetMismatch(agent, ruleset);
  if (mismatch) throw new UsageError(mismatch);
  return agent;
}

/** A bot that failed mid-game (a model server down, an illegal choice) ends it with one line, as a tournament reports it. */
function agentFailed(e: unknown, io: Io): number {
  io.err(`czech-pub play: the game stopped: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`);
  return EXIT_FAILURE;
}

export async function playCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseOptions(PLAY, args);
  if (!parsed) {
    io.out(helpText(PLAY));
    return EXIT_OK;
  }
  const { seed } = parsed.values;
  const ruleset = parsed.ruleset;
  const { players, seats } = playSetup(parsed.values, ruleset);
  const humanSeat = seats.indexOf(null);
  // A person or an outside agent at the table: every seat is asked, forced decisions too, so nothing in the record tells who held what.
  const askForced = parsed.values.askForced || humanSeat >= 0 || anyOutsideAgent(seats.filter((s) => s !== null));
  // One agent per seat, made before anything is printed: a bad spec is a usage error.
  const bots = seats.map((spec) => (spec === null ? null : bot(spec, ruleset)));
  const labels = agentLabels(seats.map((s) => s ?? 'you'));
  const names = seats.map((s, seat) => (s === null ? 'you' : labels[seat]));
  const custom = parsed.given.has('ruleset');

  io.out(`Czech Pub: ${players} players, seed ${seed}${askForced ? ', every seat asked at every decision' : ''} (ruleset ${ruleset.name}).`);
  io.out(seatsLine(names));
  if (humanSeat < 0) {
    let env;
    try {
      ({ env } = await playToEnd(bots as Agent[], { seed, ruleset: custom ? ruleset : undefined, askForced, log: true }));
    } catch (e) {
      return agentFailed(e, io);
    }
    for (const line of [...narrationLines(env.fullLog, { ruleset }), ...scoreLines(env, names)]) io.out(line);
    return EXIT_OK;
  }

  if (!io.input) throw new UsageError('--human reads your choices from standard input, and there is none here');
  io.out(`You are Player ${humanSeat}: type the number of your choice at each decision. Other seats' cards stay hidden until the end.`);
  const input = io.input();
  const human = new HumanSeat(io, input, ruleset);
  const agents = bots.map((b) => b ?? human);
  try {
    const { env } = await playToEnd(agents, { seed, ruleset: custom ? ruleset : undefined, askForced, log: true });
    human.tell(new SeatChannel(env, humanSeat).eventsSinceDecision());
    for (const line of scoreLines(env, names)) io.out(line);
    const link = encodeReplay(recordOf(env, seed, askForced, ruleset));
    io.out('');
    io.out(`Every card of this game: czech-pub replay --link ${link}${custom ? ' --ruleset FILE' : ''}`);
    return EXIT_OK;
  } catch (e) {
    if (!(e instanceof InputEndedError)) return agentFailed(e, io);
    io.err(`czech-pub play: ${e.message}.`);
    return EXIT_FAILURE;
  } finally {
    input.close();
  }
}
