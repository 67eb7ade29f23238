/**
 * The hint (GET /v1/games/:id/hint, its route in routes/advice.ts): what the Strong bot (the
 * catalogue's `ppo` entry) would play at the seat's decision now, how likely its policy makes
 * that choice and the two next most likely, and the chosen action's preview exactly as GET
 * preview gives it, so a page can say why in the preview's own words.
 *
 * The bot is told only what a bot sitting at that seat would be: its observation is the seat
 * channel's (EnvObservation, as games.ts builds it for every bot of this thread), and it plays
 * along as that bot would. A `ppo` net reads a heuristic adviser's choice, and the adviser
 * keeps a little state from one decision to the next (its tie-break generator, the pace of the
 * game it measured), so the hint's bot is asked at every earlier real choice of the seat, in
 * order, on its own copy of the game rebuilt from the actions (as a bot worker rebuilds one),
 * whatever the person played there. Its seed is made from the game's id and the seat, facts
 * the seat has: never from the game's seed.
 *
 * The work is a bot's, and shares the event loop as bots of this thread do (games.ts,
 * inline-turns.ts): it yields every INLINE_SLICE_MS and waits for the asker's turn. A seat's
 * bot is kept with the game (and goes with it), caught up from where it was; asked again at
 * the same step, it gives the same answer unworked. When the Strong bot cannot advise (the
 * catalogue has no `ppo` entry, or its model for this table cannot be loaded), the heuristic
 * (Regular) advises instead, without probabilities, and the answer says why.
 */
import { z } from 'zod';
import { EnvObservation, PpoAgent, type Agent, type AgentObservation } from '../agents/index.ts';
import { CzechPubEnv, describeAction } from '../env/index.ts';
import type { Catalogue, CatalogueEntry } from './catalogue.ts';
import { ApiError, INLINE_SLICE_MS, type GameStore, type LiveGame } from './games.ts';
import type { InlineTurns } from './inline-turns.ts';
import * as S from './schemas.ts';
import { preview } from './tables.ts';

/** The entry quoted, and the one quoted when it cannot advise. */
export const HINT_ENTRY = 'ppo';
export const FALLBACK_ENTRY = 'heuristic';
/** Choices listed: the one the bot plays and the runners-up. */
const TOP = 3;

const hintChoice = z.object({
  id: z.number().int(),
  name: z.string(),
  probability: z.number().min(0).max(1).nullable().describe("Under the bot's policy (softmax over the legal actions); null for a bot without one (the fallback)."),
});

export const hintAnswer = z.object({
  step: z.number().int().describe('The decision the hint is for (as in GET view and GET preview).'),
  bot: z.object({ name: z.string().describe('Its catalogue entry (GET /v1/bots).'), displayName: z.string() }),
  fallback: z.string().nullable().describe('Why another bot than Strong is quoted (the server has no Strong bot, or its model for this table could not be loaded); null when Strong is.'),
  action: hintChoice.describe('What the bot would play: its most likely action.'),
  runnersUp: z.array(hintChoice).max(TOP - 1).describe('The next most likely actions, most likely first (empty for a bot without probabilities).'),
  preview: S.previewAnswer.shape.actions.element.nullable().describe("The action's entry of GET preview at this step; null where the preview has none."),
});
export type HintAnswer = z.infer<typeof hintAnswer>;

/** The seed of a seat's hint bot: facts the seat holds (the game's id, its own number), so twins of a game get the same advice. */
export const hintSeed = (game: Pick<LiveGame, 'id'>, seat: number) => `hint/${game.id}/seat${seat}`;

type Ranked = { id: number; p: number }[];

/** A bot that plays along at one seat: asked at each of the seat's real choices, in order. */
interface Quoter {
  /** An earlier choice of the seat: the bot is asked for its own state's sake, its answer set aside. */
  follow(obs: AgentObservation): void;
  /** The choice now: the bot's action, and the policy's most likely actions with their probabilities (null without a policy). */
  quote(obs: AgentObservation): { action: number; ranked: Ranked | null };
}

/**
 * A bot that answers at once, asked as it would be at the seat: the `ppo` agent itself, with
 * its policy's probabilities, or the fallback, without.
 */
class AgentQuoter implements Quoter {
  constructor(private readonly agent: Agent) {}
  private ask(obs: AgentObservation): number {
    const a = this.agent.act(obs);
    if (typeof a !== 'number') throw new Error(`'${this.agent.spec}' does not answer at once`);
    return a;
  }
  follow(obs: AgentObservation): void {
    if (obs.legalActions.length > 1) this.ask(obs);
  }
  quote(obs: AgentObservation) {
    if (this.agent instanceof PpoAgent) return this.agent.policy(obs);
    return { action: obs.legalActions.length === 1 ? obs.legalActions[0] : this.ask(obs), ranked: null };
  }
}

/** One seat's hint bot in one game: its own copy of the game, stepped as far as the bot has followed. */
interface SeatAdvice {
  quoter: Quoter;
  entry: CatalogueEntry;
  fallback: string | null;
  replay: CzechPubEnv;
  /** The step the bot was last asked at for a hint, and that answer. */
  last: { step: number; answer: HintAnswer } | null;
  /** Hints for the seat are worked out one at a time. */
  busy: Promise<unknown>;
}

export interface HintOptions {
  /** Where the work waits for its turn of the event loop (GameStore.turns); none: it runs straight through. */
  turns?: InlineTurns;
  /** Told why a model could not be loaded (the operator's log): the answer says only that it could not. */
  warn?: (line: string) => void;
}

/** The 409 for a seat that is not deciding now. */
export class NotDecidingError extends ApiError {
  constructor(message: string) {
    super(409, message, { code: 'not-seat-to-act' });
  }
}

export class Hints {
  private readonly strong: CatalogueEntry | null;
  private readonly backup: CatalogueEntry | null;
  private readonly seats = new WeakMap<LiveGame, (SeatAdvice | undefined)[]>();

  constructor(private readonly catalogue: Catalogue, private readonly o: HintOptions = {}) {
    const entry = (name: string) => (catalogue.names.includes(name) ? catalogue.resolve(name).entry : null);
    const strong = entry(HINT_ENTRY);
    this.strong = strong?.kind === 'ppo' ? strong : null;
    const backup = entry(FALLBACK_ENTRY);
    this.backup = backup && !backup.needs && !backup.heavy && !backup.budget ? backup : null;
  }

  /** The hint for `seat` at the game's decision now; a 409 when the seat is not the seat to act. */
  async ask(game: LiveGame, seat: number, client = game.client): Promise<HintAnswer> {
    const step = deciding(game, seat);
    const advice = this.adviceFor(game, seat);
    const run = advice.busy.then(() => this.work(game, seat, step, advice, client));
    advice.busy = run.catch(() => undefined);
    return run;
  }

  private async work(game: LiveGame, seat: number, step: number, advice: SeatAdvice, client: string): Promise<HintAnswer> {
    if (advice.last?.step === step && game.env.actions.length === step) return advice.last.answer;
    const { replay, quoter } = advice;
    const actions = game.env.actions;
    let slice = performance.now();
    while (replay.actions.length < step) {
      if (this.o.turns && performance.now() - slice >= INLINE_SLICE_MS) {
        await this.o.turns.next(client);
        slice = performance.now();
      }
      const k = replay.actions.length;
      // The decision a hint was last given at was asked then: the bot is asked once at each.
      if (replay.actor === seat && advice.last?.step !== k) quoter.follow(new EnvObservation(replay, seat));
      replay.step(actions[k]);
    }
    // The game may have moved on while the bot caught up (the person played): nothing is quoted for a decision gone.
    if (deciding(game, seat) !== step) throw new NotDecidingError(`the decision at step ${step} was taken while the hint was worked out; ask again`);
    if (this.o.turns && performance.now() - slice >= INLINE_SLICE_MS) {
      await this.o.turns.next(client);
      if (deciding(game, seat) !== step) throw new NotDecidingError(`the decision at step ${step} was taken while the hint was worked out; ask again`);
    }
    // The decision now, from the game itself, as games.ts asks a bot of this thread.
    const { action, ranked } = quoter.quote(new EnvObservation(game.env, seat));
    const players = game.env.players;
    const named = (id: number, p: number | null) => ({ id, name: describeAction(id, seat, players, { names: game.names, viewer: seat }), probability: p === null ? null : round(p) });
    const answer: HintAnswer = {
      step,
      bot: { name: advice.entry.name, displayName: advice.entry.displayName },
      fallback: advice.fallback,
      action: named(action, ranked?.find((r) => r.id === action)?.p ?? null),
      runnersUp: (ranked ?? []).filter((r) => r.id !== action).slice(0, TOP - 1).map((r) => named(r.id, r.p)),
      preview: preview(game, seat, action).actions[0] ?? null,
    };
    advice.last = { step, answer };
    return answer;
  }

  /** The seat's hint bot, made at its first hint in this game. */
  private adviceFor(game: LiveGame, seat: number): SeatAdvice {
    let list = this.seats.get(game);
    if (!list) this.seats.set(game, (list = []));
    const had = list[seat];
    if (had) return had;
    const made = { ...this.quoterFor(game, seat), replay: new CzechPubEnv({ ...game.env.config, log: false }), last: null, busy: Promise.resolve() };
    list[seat] = made;
    return made;
  }

  private quoterFor(game: LiveGame, seat: number): Pick<SeatAdvice, 'quoter' | 'entry' | 'fallback'> {
    const players = game.env.players;
    const ruleset = this.catalogue.ruleset;
    const start = { seat, players, seed: hintSeed(game, seat), ruleset };
    let why = `this server has no ${HINT_ENTRY} bot (Strong)`;
    if (this.strong) {
      try {
        // The catalogue's own ppo agent, made and reset as a bot at this seat would be (its model for the table's size, checked against the ruleset).
        const agent = this.catalogue.create(this.catalogue.resolve(this.strong.name));
        agent.reset?.(start);
        if (!(agent instanceof PpoAgent)) throw new Error(`'${this.strong.name}' is not a policy agent`);
        return { quoter: new AgentQuoter(agent), entry: this.strong, fallback: null };
      } catch (e) {
        this.o.warn?.(`hint: bot '${this.strong.name}' at ${players} players: ${(e as Error).message}`);
        why = `the ${this.strong.displayName} bot's model for ${players} players could not be loaded on this server`;
      }
    }
    if (!this.backup) throw new ApiError(404, `${why}, and it has no ${FALLBACK_ENTRY} bot to advise instead`);
    const agent = this.catalogue.create(this.catalogue.resolve(this.backup.name));
    agent.reset?.(start);
    return { quoter: new AgentQuoter(agent), entry: this.backup, fallback: `${why}: ${this.backup.displayName} (${this.backup.name}) advises instead` };
  }
}

/** The game's step when `seat` is the seat to act; else the 409 saying who is. */
function deciding(game: LiveGame, seat: number): number {
  const env = game.env;
  if (env.done) throw new NotDecidingError('the game is over: there is no decision to hint at');
  if (env.actor !== seat) throw new NotDecidingError(`it is seat ${env.actor}'s decision, not yours: a hint is for the seat to act`);
  return env.actions.length;
}

const round = (p: number) => Math.round(p * 1e4) / 1e4;

/** The route's work for a token: the game, the token's seat (401, 403, 404 as every seat route), then its hint. */
export async function hintForToken(store: GameStore, hints: Hints, id: string, token: string | undefined, client: string): Promise<HintAnswer> {
  const game = store.get(id);
  return hints.ask(game, store.seatOf(game, token), client);
}
