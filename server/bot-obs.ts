/**
 * The observation a stateless bot request carries: the seat's view and legal actions; the
 * encoding is made from the view (encodeView), as the seat's state would give it. Built
 * lazily like EnvObservation; what a posted view cannot give (the event log, a world to
 * search) is absent or refused by name.
 */
import { describeAction, encodeView, OBS_SIZE, renderText, type CompiledRules, type PlayerView } from '../env/index.ts';
import { maskOf, type AgentObservation } from '../agents/index.ts';

export class PostedObservation implements AgentObservation {
  readonly seat: number;
  readonly players: number;
  private cachedEncoding?: Float32Array;
  private cachedMask?: Uint8Array;
  private cachedText?: string;

  constructor(readonly view: PlayerView, readonly legalActions: readonly number[], private readonly rules: CompiledRules) {
    this.seat = view.seat;
    this.players = view.players;
  }

  get encoding(): Float32Array {
    if (!this.cachedEncoding) {
      this.cachedEncoding = new Float32Array(OBS_SIZE);
      encodeView(this.rules, this.view, this.cachedEncoding);
    }
    return this.cachedEncoding;
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
