/**
 * The seat channel: the one door through which anything leaves a game for a seat, an
 * onlooker, a bot or a model. Whatever a route answers, an event stream sends, an outside bot
 * or a language model is sent, or the bridge and the trainer read, is built here from the
 * viewer's facts (visible.ts: `seatFacts` for a seat, `publicFacts` for an onlooker), the
 * events as that viewer may see them (`eventForSeat`), and, for the seat to act, its legal
 * actions. Nothing else outside env/ reads a game's state or its unfiltered log on a viewer's
 * behalf: test/channel-door.test.ts checks that the server, the bridge and the agents' own
 * observation call nothing else, and test/leak.test.ts that every output here is unchanged
 * when everything the viewer cannot see is dealt anew.
 *
 * Only a finished game shows everything (`RevealedGame`): its replay has no secrets left.
 */
import { cardPlayed, describeAction, NUM_ACTIONS } from '../actions.ts';
import { actionConsequence } from '../card-text.ts';
import type { CzechPubEnv } from '../env.ts';
import type { GameEvent } from '../events.ts';
import { canPreviewChoices, previewChoice, type ChoicePreview } from '../engine/choice-preview.ts';
import { canPreview, previewDigestion, type DigestPreview } from '../engine/preview.ts';
import { narrateEvent } from '../narrate.ts';
import { SeatPast } from '../beliefs/past.ts';
import { OBS_SIZE } from './encode.ts';
import type { PlayerView, PublicView } from './view.ts';
import { eventForSeat, seatFacts } from './visible.ts';

/** Who receives: a seat, or null for an onlooker (the public facts only). */
export type Viewer = number | null;

/** An event as a viewer saw it, with its line of narration. */
export type NarratedEvent = GameEvent & { text: string | null };

/** A legal action with its name, what it costs or causes where the name does not say, and the card it plays. */
export interface Choice {
  id: number;
  name: string;
  note?: string;
  plays?: string;
}

export class SeatChannel {
  constructor(private readonly env: CzechPubEnv, readonly viewer: Viewer) {
    if (viewer !== null && !(Number.isInteger(viewer) && viewer >= 0 && viewer < env.players)) {
      throw new RangeError(`seat must be an integer from 0 to ${env.players - 1}, got ${viewer}`);
    }
  }

  /**
   * `new SeatChannel(env, seat).encode(out, offset)` and `.legalMask(out)` in one call with no
   * object made: for the bridge and the trainer, which write a batch of seats per step.
   */
  static encodeSeat(env: CzechPubEnv, seat: number, out: Float32Array, offset = 0): Float32Array {
    return env.encode(seat, out, offset);
  }
  static maskSeat(env: CzechPubEnv, seat: number, out: Uint8Array): Uint8Array {
    if (!env.done && env.actor === seat) return env.legalMask(out);
    return out.fill(0);
  }

  /** The viewer is the actor, the seat deciding now. */
  get isActor(): boolean {
    return this.viewer !== null && !this.env.done && this.env.actor === this.viewer;
  }

  /** The seat's view, or the onlooker's (public facts only). */
  view(): PlayerView | PublicView {
    return this.viewer === null ? this.env.publicView() : this.env.view(this.viewer);
  }

  /** The seat's view as a typed PlayerView (a seat's channel only). */
  seatView(): PlayerView {
    return this.env.view(this.seat());
  }

  /** The seat's view as text, with its legal actions listed when it is to act; null for an onlooker. */
  text(): string | null {
    return this.viewer === null ? null : this.env.text(this.viewer);
  }

  /** The seat's observation encoding (encode.ts), written into `out` at `offset`. */
  encode(out: Float32Array = new Float32Array(OBS_SIZE), offset = 0): Float32Array {
    return this.env.encode(this.seat(), out, offset);
  }

  /** The seat's legal actions, ascending: empty unless it is the seat to act. */
  legalActions(): number[] {
    return this.isActor ? this.env.legalActions() : [];
  }

  /** The legal-action mask over the whole action space (all zero unless the seat is to act). */
  legalMask(out: Uint8Array = new Uint8Array(NUM_ACTIONS)): Uint8Array {
    return SeatChannel.maskSeat(this.env, this.seat(), out);
  }

  /** The legal actions with names, notes and the card each plays (for people and the page), targets by `names` where given. */
  choices(names?: readonly string[]): Choice[] {
    const legal = this.legalActions();
    if (legal.length === 0) return [];
    const seat = this.seat();
    const ruleset = this.env.config.ruleset;
    const token = this.seatView().table[seat].abstinence;
    return legal.map((id) => {
      const note = actionConsequence(ruleset, id, token);
      const plays = cardPlayed(id);
      return { id, name: describeAction(id, seat, this.env.players, names && { names, viewer: seat }), ...(note ? { note } : {}), ...(plays ? { plays } : {}) };
    });
  }

  /**
   * For the seat to act: what digesting would give now (only while it chooses what to play),
   * and what each of its legal choices would do (engine/choice-preview.ts: from the seat's
   * facts and every die face); null at another seat's decision or for an onlooker. With
   * `only`, the choices worked out are that legal action alone (none if it is not legal).
   */
  preview(names?: readonly string[], only?: number): { now: DigestPreview | null; actions: (ChoicePreview & { id: number; name: string })[] } | null {
    if (this.viewer === null || this.env.done) return null;
    const r = this.env.compiledRules;
    const facts = seatFacts(r, this.env.state, this.viewer);
    if (!canPreviewChoices(facts)) return null;
    const actions = this.legalActions()
      .filter((id) => only === undefined || id === only)
      .map((id) => ({ id, name: describeAction(id, this.viewer!, this.env.players, names && { names, viewer: this.viewer }), ...previewChoice(r, facts, id) }));
    return { now: canPreview(facts) ? previewDigestion(r, facts) : null, actions };
  }

  /** Events from..to of the log (indices into it) as the viewer may see them. */
  events(from = 0, to = this.env.eventCount): GameEvent[] {
    const log = this.env.fullLog;
    const out: GameEvent[] = [];
    for (let i = from; i < to; i++) out.push(eventForSeat(log[i], this.viewer));
    return out;
  }

  /** What the seat saw since its last decision (what an agent is shown). */
  eventsSinceDecision(): GameEvent[] {
    return this.env.events(this.seat());
  }

  /** As `events`, each with its line of narration, told to the seat ("You play Beer."); `names`: what the table calls each seat (default "Player N"). */
  narrated(from = 0, to = this.env.eventCount, names?: readonly string[]): NarratedEvent[] {
    return narrate(this.env, this.events(from, to), from, names, this.viewer ?? undefined);
  }

  /**
   * A copy of the game in which everything this seat cannot see (other hands, the draw
   * pile's order, the dice to come) is dealt anew, consistent with what it knows: the only
   * full state a search on the seat's behalf may read.
   */
  sampleWorld(seed: string | number): CzechPubEnv {
    return this.env.resample(this.seat(), seed);
  }

  /**
   * The seat's record of the other seats' decisions (their last `window` each), from which a
   * world dealt as `sampleWorld` deals it comes with what each of them would have seen at those
   * decisions in that world (env/beliefs/past.ts): for beliefs that weigh worlds by how likely
   * the choices seen are in them. Built from what the seat saw; nothing it could not see
   * changes what it gives.
   */
  past(window: number): SeatPast {
    return new SeatPast(this.env, this.seat(), window);
  }

  private seat(): number {
    if (this.viewer === null) throw new Error("an onlooker's channel has no seat");
    return this.viewer;
  }
}

/**
 * A finished game's replay: nothing is hidden any more, so every seat's view at any step and
 * the log as it happened may be shown. Refused while the game goes on.
 */
export class RevealedGame {
  /** `live`: the game itself (it must be over); `at`: the game stepped to the frame shown (default: its end). */
  constructor(private readonly live: CzechPubEnv, private readonly at: CzechPubEnv = live) {
    if (!live.done) throw new Error('a game is revealed only once it is over');
  }

  views(): PlayerView[] {
    return Array.from({ length: this.at.players }, (_, p) => this.at.view(p));
  }

  /** The decision at the frame: its seat's legal actions with their names (none at the end). */
  legal(): { id: number; name: string }[] {
    const env = this.at;
    if (env.done) return [];
    return env.legalActions().map((id) => ({ id, name: describeAction(id, env.actor, env.players) }));
  }

  /** Events from..to of the whole log, unfiltered, with their narration. */
  narrated(from = 0, to = this.live.eventCount, names?: readonly string[]): NarratedEvent[] {
    return narrate(this.live, this.live.fullLog.slice(from, to), from, names);
  }
}

/** Narrates a slice of `env`'s log that starts at index `from` (whose turn it is names the owner of the cards reactions hit). */
function narrate(env: CzechPubEnv, slice: readonly GameEvent[], from: number, names?: readonly string[], you?: number): NarratedEvent[] {
  const log = env.fullLog;
  let active: number | undefined;
  for (let i = from - 1; i >= 0 && active === undefined; i--) {
    const ev = log[i];
    if (ev.k === 'turn') active = ev.seat;
  }
  const ruleset = env.config.ruleset;
  return slice.map((ev) => {
    if (ev.k === 'turn') active = ev.seat;
    return { ...ev, text: narrateEvent(ev, { ruleset, active, names, you }) };
  });
}
