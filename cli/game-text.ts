/**
 * A game as terminal text, for `play` and `replay` alike: events narrated (env/narrate.ts)
 * under a header per turn, and the final score table with who sat where.
 */
import { narrateEvent, popcount, winners, type CzechPubEnv, type GameEvent, type NarrateOptions } from '../env/index.ts';
import { formatTable } from './table.ts';

/**
 * Narrated lines of `events`, a turn header before each turn. `o.active` is updated as turns
 * go by, so narrating a game in pieces (a seat's view between its decisions) keeps naming
 * whose cards the X cards hit.
 */
export function narrationLines(events: readonly GameEvent[], o: NarrateOptions): string[] {
  const lines: string[] = [];
  for (const ev of events) {
    if (ev.k === 'turn') {
      o.active = ev.seat;
      lines.push('', `=== Turn ${ev.turn}: Player ${ev.seat} ===`);
      continue;
    }
    const line = narrateEvent(ev, o);
    if (line !== null) lines.push(`  ${line}`);
  }
  return lines;
}

/** "Player 0 heuristic, Player 1 random, ...": who plays each seat. */
export const seatsLine = (agents: readonly string[]): string => `Seats: ${agents.map((a, seat) => `Player ${seat} ${a}`).join(', ')}.`;

/** The score table of a finished (or cut-off) game and its winner line; `agents`, where known, names each seat's player. */
export function scoreLines(env: CzechPubEnv, agents?: readonly string[]): string[] {
  const s = env.state;
  const scores = env.scores();
  const best = winners(env.compiledRules, s);
  const rows = scores.map((score, seat) => [
    `Player ${seat}${agents ? ` ${agents[seat]}` : ''}${best.includes(seat) ? ' *' : ''}`,
    String(s.points[seat]),
    String(popcount(s.tokens[seat])),
    String(score - s.points[seat]),
    String(score),
  ]);
  const who = (seat: number) => `Player ${seat}${agents ? ` (${agents[seat]})` : ''}`;
  return [
    '',
    s.over
      ? `Final scores after ${s.turn} turns and ${s.decisions} decisions:`
      : `Stopped after ${s.decisions} decisions without an end; scores as they stand:`,
    ...formatTable(['player', 'points', 'shot types', 'bonus', 'score'], rows),
    best.length > 1
      ? `Winners (shared): ${best.map(who).join(', ')}, with ${scores[best[0]]} each.`
      : `Winner: ${who(best[0])} with ${scores[best[0]]}.`,
  ];
}
