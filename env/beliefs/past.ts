/**
 * A seat's record of the game for beliefs over the hidden cards (agents/beliefs): the other
 * seats' past decisions, and for a world dealt anew (env/resample.ts) what each of those seats
 * would have seen at them in that world. A belief weighs each dealt world by how likely a
 * model of the players makes the choices they were seen to make there.
 *
 * The record is the game replayed from its seed and actions, read as the seat saw it: the
 * events as shown to it, its own knowledge of every hand and of the draw pile at each step, and
 * the public state. Which decisions were taken, by whom, and what they were is what every seat
 * is shown of a game (the history route). At a past decision of another seat, the position
 * that seat saw is the public state then with every hidden part replaced (`scrub`): the hands
 * by those of the world dealt anew, walked back to that step (walk.ts), the draw pile by
 * placeholders, the dice by a fixed generator, and that seat's own knowledge by what is public
 * (what it knows of the viewer's hand, which the viewer saw it learn, stays), with the
 * viewer's bound on the draw pile for its own, as env/resample.ts does for the worlds it deals.
 * So nothing made here depends on a card the seat could not see (beliefs.test.ts deals the
 * hidden parts of the past anew and gets the same output).
 *
 * Approximations: only the last `window` decisions of each other seat are kept; another seat's
 * knowledge at its decision is the public part only (what it drew or took unseen is not added);
 * a seat out of the game now is not followed, nor one whose hand took in a card only such a
 * seat could name. In a game that asks only seats with a choice (askForced off), a decision on
 * the record means the seat had more than one legal action: a world where it had one cannot be.
 */
import { CLOSING_TIME, HAND_TYPES } from '../cards.ts';
import { CzechPubEnv } from '../env.ts';
import type { GameEvent } from '../events.ts';
import { seedRng } from '../rng.ts';
import { cloneState, CLOSING_IN_DECK, type GameState } from '../state.ts';
import { eventForSeat } from '../observation/visible.ts';
import { reshufflePile } from '../resample.ts';
import { uniformChooser, walkBack, type Chooser, type StepRecord } from './walk.ts';

const T = HAND_TYPES;

/** One step of a game as it happened: the state before the decision, the action, the events it caused (unfiltered). */
export interface PastStep {
  state: GameState;
  action: number;
  events: readonly GameEvent[];
}

/** A past decision of another seat. */
export interface PastDecision {
  /** Index of the step in the game's actions. */
  step: number;
  seat: number;
  action: number;
}

/** A past decision as it would have been in a world dealt anew. */
export interface PastPosition extends PastDecision {
  /** The position the seat saw (only that seat's view of it is meaningful), its legal actions there. */
  world: CzechPubEnv;
  legal: number[];
}

/** A world dealt anew for the viewer, with the other seats' recorded decisions as they would have been in it. */
export interface Candidate {
  world: CzechPubEnv;
  /** Empty when the world cannot be (then `impossible` says why). */
  positions: PastPosition[];
  impossible: string | null;
}

/** Replays kept per game, so a game asked at each of its decisions replays only the steps since the last. */
const replays = new WeakMap<CzechPubEnv, { config: CzechPubEnv['config']; game: CzechPubEnv; steps: PastStep[] }>();

/** The game's steps as they happened, replayed from its seed and actions (a fresh engine: nothing of the env's own state is read). */
export function replayedSteps(env: CzechPubEnv): PastStep[] {
  const actions = env.actions;
  let held = replays.get(env);
  // A live game's actions only grow: anything else (an env reset, whose configuration is a new object) replays from the deal.
  if (!held || held.config !== env.config || held.steps.length > actions.length || held.steps.some((step, k) => step.action !== actions[k])) {
    replays.set(env, (held = { config: env.config, game: new CzechPubEnv({ ...env.config, log: true }), steps: [] }));
  }
  const { game, steps } = held;
  for (let k = steps.length; k < actions.length; k++) {
    const state = cloneState(game.state as GameState);
    const from = game.eventCount;
    game.step(actions[k]);
    steps.push({ state, action: actions[k], events: game.fullLog.slice(from) });
  }
  return steps.slice();
}

/** The steps as `seat` saw them (`show`: how it is shown an event; a test shows it everything). */
export function recordSteps(past: readonly PastStep[], seat: number, show: (e: GameEvent) => GameEvent = (e) => eventForSeat(e, seat)): StepRecord[] {
  return past.map(({ state, action, events }) => {
    const n = state.players;
    const active: number[] = [];
    let a = state.active;
    const seen = events.map((e) => {
      if (e.k === 'turn') a = e.seat;
      active.push(a);
      return show(e);
    });
    return {
      actor: state.actor,
      action,
      events: seen,
      active,
      known: state.known.slice(seat * n * T, (seat + 1) * n * T),
      pile: state.pileKnown.slice(seat * T, (seat + 1) * T),
      reshuffled: events.some((e) => e.k === 'reshuffle'),
    };
  });
}

export class SeatPast {
  private readonly steps: StepRecord[];
  /** The kept decisions, oldest first, and each one's scrubbed position. */
  readonly decisions: PastDecision[] = [];
  private readonly templates = new Map<number, CzechPubEnv>();
  private readonly keep: Set<number>;
  private readonly first: number;
  /** Seats the record does not follow (out of the game now). */
  private readonly untracked: boolean[];
  /** Every decision on the record had more than one legal action (a game that asks only seats with a choice). */
  readonly hadChoice: boolean;

  /**
   * `env`: the game now; `seat`: the viewer; `window`: decisions kept per other seat;
   * `past`: the game's steps (default: replayed; a test passes them with hidden parts dealt anew).
   */
  constructor(private readonly env: CzechPubEnv, readonly seat: number, readonly window: number, past: readonly PastStep[] = replayedSteps(env)) {
    const n = env.players;
    const now = env.state;
    this.hadChoice = !env.config.askForced;
    this.untracked = Array.from({ length: n }, (_, p) => now.out[p] !== 0);
    this.steps = recordSteps(past, seat);
    const recent: number[][] = Array.from({ length: n }, () => []);
    for (let k = 0; k < past.length; k++) {
      const p = past[k].state.actor;
      if (p === seat || this.untracked[p]) continue;
      recent[p].push(k);
      if (recent[p].length > window) recent[p].shift();
    }
    const kept = recent.flat().sort((x, y) => x - y);
    this.keep = new Set(kept);
    this.first = kept.length > 0 ? kept[0] : past.length;
    // A copy of the game with no log and no history, to lay the scrubbed positions in.
    const base = env.resample(seat, 'past/base');
    for (const k of kept) {
      this.decisions.push({ step: k, seat: past[k].state.actor, action: past[k].action });
      const world = base.clone();
      Object.assign(world.state as GameState, scrub(past[k].state, seat));
      this.templates.set(k, world);
    }
  }

  /**
   * The world `env.resample(seat, seed)` deals (the seat channel's sampleWorld), with each kept
   * decision as it would have been in it: the hands walked back to it with choices drawn from
   * `seed`. `choose` is for tests (walk.ts).
   */
  candidate(seed: string | number, choose: Chooser = uniformChooser): Candidate {
    const world = this.env.resample(this.seat, seed);
    if (this.decisions.length === 0) return { world, positions: [], impossible: null };
    const n = this.env.players;
    const walk = walkBack(this.steps, this.first, this.keep, n, this.seat, world.state.hand, this.untracked, choose, seedRng(`${seed}/past`));
    if (walk.stuck) return { world, positions: [], impossible: `step ${walk.stuck.step}: ${walk.stuck.why}` };
    const positions: PastPosition[] = [];
    for (const d of this.decisions) {
      const hands = walk.hands.get(d.step)!;
      const tracked = walk.tracked.get(d.step)!;
      // A seat whose hand the walk stopped following by then: its decision says nothing here.
      if (!tracked[d.seat]) continue;
      const at = this.templates.get(d.step)!.clone();
      const s = at.state as GameState;
      for (let p = 0; p < n; p++) {
        if (!tracked[p]) continue;
        for (let t = 0; t < T; t++) s.hand[p * T + t] = hands[p * T + t];
      }
      const legal = at.legalActions();
      if (!legal.includes(d.action)) return { world, positions: [], impossible: `step ${d.step}: seat ${d.seat} could not have taken action ${d.action}` };
      if (this.hadChoice && legal.length === 1) return { world, positions: [], impossible: `step ${d.step}: seat ${d.seat} was asked, so it had a choice` };
      positions.push({ ...d, world: at, legal });
    }
    return { world, positions, impossible: null };
  }

  /** `world` (one this record dealt) with its draw pile's order and the dice to come drawn anew from `seed`, the hands kept: for a world picked more than once. */
  reshuffled(world: CzechPubEnv, seed: string | number): CzechPubEnv {
    const e = world.clone();
    Object.assign(e.state as GameState, reshufflePile(world.state as GameState, seed));
    return e;
  }
}

/**
 * A past state with every part the viewer could not see replaced: other hands by placeholders
 * (the cards everyone knows of, then beers; a candidate lays its own hands over them), the
 * draw pile by placeholders of the same size (CLOSING TIME, if in it, at the bottom), the dice
 * by a fixed generator, the other seats' knowledge by its public part (and what they know of
 * the viewer's hand, which the viewer saw them learn), their bound on the pile by the viewer's.
 */
export function scrub(state: GameState, viewer: number): GameState {
  const s = cloneState(state);
  const n = s.players;
  for (let p = 0; p < n; p++) {
    if (p === viewer) continue;
    let have = 0;
    for (let t = 0; t < T; t++) {
      s.hand[p * T + t] = Math.min(s.knownPublic[p * T + t], s.handSize[p] - have);
      have += s.hand[p * T + t];
    }
    s.hand[p * T] += s.handSize[p] - have;
  }
  const closing = s.closing.where === CLOSING_IN_DECK;
  s.deck = s.deck.map(() => 0);
  if (closing && s.deck.length > 0) s.deck[0] = CLOSING_TIME;
  s.rng = seedRng('past/dice');
  for (let o = 0; o < n; o++) {
    if (o === viewer) continue;
    for (let t = 0; t < T; t++) s.pileKnown[o * T + t] = s.pileKnown[viewer * T + t];
    for (let p = 0; p < n; p++) {
      if (p === viewer) continue;
      for (let t = 0; t < T; t++) s.known[(o * n + p) * T + t] = p === o ? 0 : s.knownPublic[p * T + t];
    }
  }
  return s;
}
