/**
 * A person at one seat, in the terminal: an agent like any other, so it is shown what the seat
 * may see and nothing more (the observation a bot gets). At each decision it prints what
 * happened since the seat's last one (the seat's own events, narrated), the seat's view as
 * text and the legal actions numbered 1..k in words, then reads a number.
 */
import type { Agent, AgentObservation } from '../agents/index.ts';
import { describeAction, renderText, type NarrateOptions, type Ruleset } from '../env/index.ts';
import { narrationLines } from './game-text.ts';
import type { Io, LineInput } from './io.ts';

/** Standard input ended while the person was still to decide. */
export class InputEndedError extends Error {
  override name = 'InputEndedError';
}

export class HumanSeat implements Agent {
  readonly spec = 'human';
  readonly readsEvents = true;
  /** Kept between decisions: whose turn it is, for narrating the next piece. */
  private readonly narrate: NarrateOptions;
  decisions = 0;

  constructor(private readonly io: Io, private readonly input: LineInput, ruleset?: Ruleset) {
    this.narrate = { ruleset };
  }

  async act(obs: AgentObservation): Promise<number> {
    this.tell(obs.events);
    // The view without its action ids: the choices are listed below, numbered for a person.
    this.io.out('');
    for (const line of renderText(obs.view).split('\n')) this.io.out(line);
    const k = obs.legalActions.length;
    this.io.out(`Your choices (Player ${obs.seat}):`);
    obs.legalActions.forEach((a, i) => this.io.out(`  ${i + 1}. ${describeAction(a, obs.seat, obs.players)}`));
    for (;;) {
      this.io.out(`Your choice (1-${k}):`);
      const line = await this.input.next();
      if (line === null) throw new InputEndedError(`standard input ended at decision ${this.decisions + 1} of Player ${obs.seat}; the game is abandoned`);
      const n = /^\s*\d+\s*$/.test(line) ? Number(line) : Number.NaN;
      if (n >= 1 && n <= k) {
        this.decisions++;
        return obs.legalActions[n - 1];
      }
      this.io.out(`'${line.trim().slice(0, 40)}' is not a choice: type a number from 1 to ${k}.`);
    }
  }

  /** Narrates events the seat saw (after the game, the last of them). */
  tell(events: AgentObservation['events']): void {
    for (const line of narrationLines(events, this.narrate)) this.io.out(line);
  }
}
