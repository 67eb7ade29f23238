/**
 * What a policy net reads, written in one place for every user of a net (the `ppo` and
 * `ppo-search` agents, the trainer's rollouts, their replay and the warm start): the seat's
 * observation encoding, and, for a net with advice (NetShape.advice), a one-hot over the
 * actions of what the adviser agent would play at this decision.
 *
 * An adviser is an ordinary agent (today `heuristic`) that plays along in the seat's place:
 * it is reset at the seat's game start and asked at every real choice of that seat, in order,
 * so its own per-game state (tie-break generator, measured pace of the game) is what it would
 * be if it were playing. Asked at the same decisions of the same game, it advises the same:
 * a chunk's replay rebuilds exactly the inputs its player saw.
 */
import { OBS_SIZE, SeatChannel, type CzechPubEnv, type Ruleset } from '../../env/index.ts';
import { netInputs, type Adviser, type NetShape } from '../../policy/index.ts';
import type { Agent, AgentObservation } from '../agent.ts';
import { EnvObservation } from '../observation.ts';
import { HeuristicAgent } from '../scripted/heuristic.ts';

function makeAdviser(name: Adviser, ruleset?: Ruleset): Agent {
  switch (name) {
    case 'heuristic':
      return new HeuristicAgent('heuristic', undefined, ruleset);
  }
}

/** The input of one seat in one game at a time; reset it at every game start. */
export class SeatInput {
  readonly size: number;
  private adviser: Agent | null = null;
  private adviserRuleset?: Ruleset;
  private buf?: Float32Array;

  constructor(readonly shape: NetShape) {
    this.size = netInputs(shape.advice);
    if (shape.inputs !== this.size) throw new Error(`a net with ${shape.inputs} inputs, want ${this.size} for its advice (${shape.advice ?? 'none'})`);
  }

  /** A new game for this seat (the adviser's seed is derived from `seed`). */
  reset(seat: number, players: number, seed: string, ruleset?: Ruleset): void {
    if (!this.shape.advice) return;
    if (!this.adviser || this.adviserRuleset !== ruleset) {
      this.adviser = makeAdviser(this.shape.advice, ruleset);
      this.adviserRuleset = ruleset;
    }
    this.adviser.reset?.({ seat, players, seed: `${seed}/advice`, ...(ruleset ? { ruleset } : {}) });
  }

  /** The net's input for the seat's decision `obs`: the encoding itself for a plain net (no copy), else this seat's buffer filled. */
  input(obs: AgentObservation): Float32Array {
    if (!this.shape.advice) return obs.encoding;
    const x = (this.buf ??= new Float32Array(this.size));
    x.set(obs.encoding);
    this.writeAdvice(obs, x);
    return x;
  }

  /** Writes the net's input straight from a local env at `out[offset…offset+size)` (the encoding in place). */
  writeEnv(env: CzechPubEnv, seat: number, legal: readonly number[], out: Float32Array, offset = 0): void {
    SeatChannel.encodeSeat(env, seat, out, offset);
    if (this.shape.advice) this.writeAdvice(new EnvObservation(env, seat, legal), out, offset);
  }

  /** Only the advice part, for callers that have written the observation themselves. */
  writeAdvice(obs: AgentObservation, out: Float32Array, offset = 0): void {
    if (!this.shape.advice) return;
    if (!this.adviser) throw new Error('SeatInput.reset must be called before the first decision of a game');
    const a = this.adviser.act(obs);
    if (typeof a !== 'number') throw new Error(`adviser '${this.shape.advice}' must answer at once`);
    out.fill(0, offset + OBS_SIZE, offset + this.size);
    out[offset + OBS_SIZE + a] = 1;
  }
}

/** SeatInputs for many games side by side, one per (slot, seat), kept from one game to the next. */
export class SeatInputs {
  private readonly inputs = new Map<number, SeatInput>();

  constructor(readonly shape: NetShape, readonly players: number) {}

  /** Slot `slot`'s seat `seat`, reset for a new game. */
  start(slot: number, seat: number, seed: string, ruleset?: Ruleset): SeatInput {
    const key = slot * this.players + seat;
    let s = this.inputs.get(key);
    if (!s) this.inputs.set(key, (s = new SeatInput(this.shape)));
    s.reset(seat, this.players, seed, ruleset);
    return s;
  }
}
