/**
 * `czech-pub play`: one seeded game between random agents, narrated event by event, with
 * a final score table. The agents pick uniformly among the legal actions, drawing from a
 * generator seeded from the game seed, so the same seed prints the same game.
 */
import { NUM_ACTIONS } from '../env/actions.ts';
import { DEFAULT_MAX_DECISIONS } from '../env/env.ts';
import { applyStep, createState, finalScores, legalActionsFast, winners } from '../env/engine/index.ts';
import type { GameEvent } from '../env/events.ts';
import { narrateEvent, type NarrateOptions } from '../env/narrate.ts';
import { randInt, seedRng } from '../env/rng.ts';
import type { Ruleset } from '../env/ruleset.ts';
import { popcount } from '../env/state.ts';
import { EXIT_OK, type Io } from './io.ts';
import { helpText, parseOptions, PLAYERS_MAX, PLAYERS_MIN, type CommandSpec } from './options.ts';
import { formatTable } from './table.ts';

export const PLAY = {
  name: 'play',
  description: 'Plays one game between random agents and prints what happens, turn by turn.',
  options: {
    players: { type: 'int', arg: 'N', min: PLAYERS_MIN, max: PLAYERS_MAX, default: 4, help: 'number of players' },
    seed: { type: 'string', arg: 'S', default: '1', help: 'game seed, any text; the same seed prints the same game' },
    'ask-all': { type: 'flag', help: 'ask every eligible player at every window, even with one legal action' },
    ruleset: { type: 'ruleset', help: 'play under the ruleset in this JSON file (env/ruleset.ts; default the standard rules)' },
  },
} as const satisfies CommandSpec;

export interface PlayOptions {
  players: number;
  seed: string;
  askAll: boolean;
  /** Default: the standard rules. */
  ruleset?: Ruleset;
}

/**
 * Plays the game and returns the printed lines. It drives the engine directly because the
 * narration is the spectator's: the full log, every card shown, which the env only hands
 * out filtered for one seat.
 */
export function playGame(opts: PlayOptions): string[] {
  const log: GameEvent[] = [];
  const { rules, state } = createState({ players: opts.players, seed: opts.seed, askAll: opts.askAll, ruleset: opts.ruleset }, log);
  const rng = seedRng(`${opts.seed}/agents`);
  const legal = new Int32Array(NUM_ACTIONS);
  while (!state.over && state.decisions < DEFAULT_MAX_DECISIONS) {
    const n = legalActionsFast(rules, state, legal);
    applyStep(rules, state, legal[randInt(rng, n)], log, true);
  }

  const lines = [
    `Czech Pub: ${opts.players} players, seed ${opts.seed}, random agents` +
      `${opts.askAll ? ', everyone asked at every window' : ''} (ruleset ${rules.ruleset.name}).`,
  ];
  const narrate: NarrateOptions = { ruleset: rules.ruleset };
  for (const ev of log) {
    if (ev.k === 'turn') {
      narrate.active = ev.seat;
      lines.push('', `=== Turn ${ev.turn}: Player ${ev.seat} ===`);
      continue;
    }
    const line = narrateEvent(ev, narrate);
    if (line !== null) lines.push(`  ${line}`);
  }

  const scores = finalScores(rules, state);
  const best = winners(rules, state);
  const rows = scores.map((score, seat) => [
    `Player ${seat}${best.includes(seat) ? ' *' : ''}`,
    String(state.points[seat]),
    String(popcount(state.tokens[seat])),
    String(score - state.points[seat]),
    String(score),
  ]);
  lines.push(
    '',
    state.over
      ? `Final scores after ${state.turn} turns and ${state.decisions} decisions:`
      : `Stopped after ${state.decisions} decisions without an end; scores as they stand:`,
    ...formatTable(['player', 'points', 'shot types', 'bonus', 'score'], rows),
    best.length > 1
      ? `Winners (shared): ${best.map((s) => `Player ${s}`).join(', ')}, with ${scores[best[0]]} each.`
      : `Winner: Player ${best[0]} with ${scores[best[0]]}.`,
  );
  return lines;
}

export function playCommand(args: readonly string[], io: Io): number {
  const parsed = parseOptions(PLAY, args);
  if (!parsed) {
    io.out(helpText(PLAY));
    return EXIT_OK;
  }
  const { players, seed, askAll } = parsed.values;
  for (const line of playGame({ players, seed, askAll, ruleset: parsed.ruleset })) io.out(line);
  return EXIT_OK;
}
