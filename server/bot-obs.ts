/**
 * The observation a stateless bot request carries: the seat's view and legal actions (and,
 * for bots that read it, the observation encoding). Built lazily like EnvObservation; what a
 * posted view cannot give (the event log, a world to search) is absent or refused by name.
 */
import { describeAction } from '../env/actions.ts';
import { OBS_SIZE } from '../env/observation/encode.ts';
import { renderText } from '../env/observation/text.ts';
import type { PlayerView } from '../env/observation/view.ts';
import type { AgentObservation } from '../agents/agent.ts';
import { maskOf } from '../agents/observation.ts';
import { ApiError } from './games.ts';

export class PostedObservation implements AgentObservation {
  readonly seat: number;
  readonly players: number;
  private cachedMask?: Uint8Array;
  private cachedText?: string;

  constructor(readonly view: PlayerView, readonly legalActions: readonly number[], private readonly posted?: readonly number[]) {
    this.seat = view.seat;
    this.players = view.players;
  }

  get encoding(): Float32Array {
    if (!this.posted) throw new ApiError(400, `this bot reads the observation encoding: post it as 'encoding' (${OBS_SIZE} numbers, env/observation/encode.ts)`);
    return Float32Array.from(this.posted);
  }
  get mask(): Uint8Array {
    return (this.cachedMask ??= maskOf(this.legalActions));
  }
  get text(): string {
    return (this.cachedText ??= renderText(this.view, this.legalActions.map((id) => ({ id, text: describeAction(id, this.seat, this.players) }))));
  }
  get events(): readonly never[] {
    return [];
  }
}
