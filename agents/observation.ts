/** Builds the lazy AgentObservation of a seat from a local env, through the seat channel (env/observation/channel.ts). */
import { describeAction, NUM_ACTIONS, OBS_SIZE, SeatChannel, type CzechPubEnv, type GameEvent, type PlayerView, type SeatPast } from '../env/index.ts';
import type { AgentObservation } from './agent.ts';

/** The legal-action mask over the whole action space. */
export function maskOf(legal: readonly number[]): Uint8Array {
  const m = new Uint8Array(NUM_ACTIONS);
  for (const a of legal) m[a] = 1;
  return m;
}

export class EnvObservation implements AgentObservation {
  readonly seat: number;
  readonly players: number;
  readonly legalActions: readonly number[];
  private cachedView?: PlayerView;
  private cachedEncoding?: Float32Array;
  private cachedMask?: Uint8Array;
  private cachedText?: string;
  private cachedEvents?: GameEvent[];
  private readonly channel: SeatChannel;

  /** `clairvoyant`: only for agents that declare themselves so (Agent.clairvoyant); see sampleWorld. */
  constructor(private readonly env: CzechPubEnv, seat: number, legal?: readonly number[], private readonly clairvoyant = false) {
    this.seat = seat;
    this.players = env.players;
    this.channel = new SeatChannel(env, seat);
    this.legalActions = legal ?? this.channel.legalActions();
  }

  get view(): PlayerView {
    return (this.cachedView ??= this.channel.seatView());
  }
  get encoding(): Float32Array {
    return (this.cachedEncoding ??= this.channel.encode(new Float32Array(OBS_SIZE)));
  }
  get mask(): Uint8Array {
    return (this.cachedMask ??= maskOf(this.legalActions));
  }
  get text(): string {
    return (this.cachedText ??= this.channel.text()!);
  }
  get events(): readonly GameEvent[] {
    return (this.cachedEvents ??= this.channel.eventsSinceDecision());
  }
  sampleWorld(seed: string): CzechPubEnv {
    // The clairvoyant reference is shown the true hands and draw pile, never the dice to come (never served: catalogue.ts refuses it).
    return this.clairvoyant ? this.env.withFreshDice(seed) : this.channel.sampleWorld(seed);
  }
  past(window: number): SeatPast {
    return this.channel.past(window);
  }
  /** The legal actions in words, for logs and LLM prompts. */
  describeLegal(): string[] {
    return this.legalActions.map((a) => describeAction(a, this.seat, this.players));
  }
}
