/**
 * The leak test: everything that leaves a game for a viewer is the same when everything that
 * viewer cannot see is drawn anew. Over random games at 2–6 players, with people and engine
 * bots at the table, at sampled decisions (reaction and response windows, CLOSING TIME in the
 * pile or drawn, and positions moved onto the chart's last row), for every seat and for the
 * onlooker, each exit's output is compared byte for byte with the same exit on a twin game
 * that re-simulates (test/support/twin-worlds.ts): dealt anew from the start in everything the
 * viewer cannot see, played again with the same public choices, and dealt anew once more at
 * the end (the hands, the pile, the dice to come). So a record made from the hands (who was
 * asked, who passed, in what order) differs between the twins, and is caught:
 *
 * - every route's answer: the view route (now and at an earlier step: view, text, `actor`,
 *   `lastAction`, legal actions with their notes, the step's events), the history route at
 *   every step (each step's action and who took it, its events), the events route, the event
 *   stream's lines, the move preview, the hint (for the seat to act: the Strong bot's choice,
 *   its probabilities, that choice's preview), the lobby entry (onlooker);
 * - the body an `http` bot is sent and the messages a language model is sent;
 * - the bridge's observation (encoding, mask and text);
 * - the action each shipped bot chooses from that seat's observation, its own seed fixed;
 * - a belief from the other seats' recorded choices (agents/beliefs, what
 *   `ppo-search:beliefs=policy` searches in): its weights and a world drawn from it
 *   (env/beliefs/past.test.ts deals the hidden parts of the past anew as well).
 *
 * A deliberately leaking channel (one line of text more: the top of the draw pile) is caught,
 * and so is a table that asks only the seats with a choice (askForced off): its order of
 * decisions differs between twins.
 */
import { describe, expect, it } from 'vitest';
import { Belief } from '../agents/beliefs/belief.ts';
import { policyModel } from '../agents/beliefs/model.ts';
import { createAgent } from '../agents/default-registry.ts';
import { httpBotBody } from '../agents/http/http-agent.ts';
import { decisionMessages } from '../agents/llm/prompt.ts';
import { EnvObservation } from '../agents/observation.ts';
import type { PpoAgent } from '../agents/ppo/ppo-agent.ts';
import { agentSeed, opaqueGameId } from '../agents/seed.ts';
import { A_PASS } from '../env/actions.ts';
import { CARD_IDS } from '../env/cards.ts';
import { CzechPubEnv } from '../env/env.ts';
import type { GameEvent } from '../env/events.ts';
import { SeatChannel, type Viewer } from '../env/observation/channel.ts';
import { resampleState } from '../env/resample.ts';
import { randInt, seedRng, type RngState } from '../env/rng.ts';
import { CLOSING_ASIDE, cloneState, PHASE_PLAY, PHASE_REACTION, PHASE_RESPONSE, type GameState } from '../env/state.ts';
import { Catalogue } from '../server/catalogue.ts';
import { DEFAULT_LIMITS } from '../server/config.ts';
import { envAt, GameStore, narratedEvents, stepEvents, type LiveGame } from '../server/games.ts';
import { seatState } from '../server/seat-state.ts';
import { eventLines } from '../server/stream.ts';
import { lobbyEntry, preview } from '../server/tables.ts';
import { Hints } from '../server/hint.ts';
import { played } from '../server/seat-state.ts';
import { resimulate } from './support/twin-worlds.ts';

const J = (x: unknown) => JSON.stringify(x);
/** The hint route's work (server/hint.ts): its bot is kept per game object, so each twin's is its own, caught up from the deal. */
const hints = new Hints(new Catalogue());
/** Bots whose choice must not move when the hidden cards do (each is reset with the same seed). */
const BOTS = ['heuristic', 'cautious', 'ppo', 'ismcts:iterations=24', 'ppo-search:iterations=4'];

type ChannelOf = (env: CzechPubEnv, viewer: number) => SeatChannel;
const honest: ChannelOf = (env, viewer) => new SeatChannel(env, viewer);

/** A channel that leaks, to show the test catches one: its text ends with the top of the draw pile. */
class LeakyChannel extends SeatChannel {
  constructor(private readonly game: CzechPubEnv, viewer: number) {
    super(game, viewer);
  }
  override text(): string | null {
    const deck = (this.game.state as GameState).deck;
    return `${super.text()}\nnext card: ${deck.length ? CARD_IDS[deck[deck.length - 1]] ?? 'closing_time' : 'none'}`;
  }
}
const leaky: ChannelOf = (env, viewer) => new LeakyChannel(env, viewer);

/** Every exit's output for `viewer`, as strings to compare. */
async function answers(game: LiveGame, viewer: Viewer, channelOf: ChannelOf = honest): Promise<Record<string, string>> {
  const env = game.env;
  const steps = env.actions.length;
  // Presence follows the clock (when each seat last asked), as the lobby's age does, not the deal: left out of the comparison.
  const out: Record<string, string> = {
    view: J({ ...seatState(game, viewer), presence: null }),
    past: J({ ...seatState(game, viewer, Math.floor(steps / 2)), presence: null }),
    events: J(narratedEvents(game, viewer, 0)),
    stream: eventLines(game, viewer, 0).text,
    history: J(Array.from({ length: steps + 1 }, (_, k) => ({ lastAction: k > 0 ? played(game, k - 1) : null, events: stepEvents(game, k, viewer) }))),
  };
  if (viewer === null) {
    const { ageSec: _age, ...entry } = lobbyEntry(game);
    out.lobby = J({ ...entry, seats: entry.seats.map(({ presence: _p, ...seat }) => seat) });
    return out;
  }
  out.preview = J(preview(game, viewer));
  const ch = channelOf(env, viewer);
  out.bridge = Buffer.from(ch.encode().buffer).toString('base64') + Buffer.from(ch.legalMask()).toString('base64') + ch.text();
  if (ch.isActor) {
    const obs = new EnvObservation(env, viewer);
    out.httpBot = httpBotBody(obs, opaqueGameId(agentSeed(env.config.seed, viewer)));
    out.model = J(decisionMessages(obs, env.config.ruleset));
    out.hint = J(await hints.ask(game, viewer));
    const model = policyModel(createAgent('ppo') as PpoAgent);
    model.reset!({ seat: viewer, players: env.players, seed: 'leak/belief' });
    const belief = new Belief(obs, model, `leak/${steps}/belief`, { candidates: 4, window: 3 });
    // The world drawn, as dealt (hands, pile, dice). What other seats know of the viewer's own hand is copied as the resampler
    // copies it, from events the viewer saw; the twins do not re-simulate that knowledge after a card taken from the viewer.
    const world = belief.sample(`leak/${steps}/world`).state;
    out.belief = J({ weights: belief.weighted().map((w) => w.weight), world: [world.hand, world.deck, world.rng] });
    for (const spec of BOTS) {
      const bot = createAgent(spec);
      bot.reset?.({ seat: viewer, players: env.players, seed: agentSeed(`leak/${steps}`, viewer) });
      out[spec] = String(await bot.act(new EnvObservation(env, viewer)));
    }
  }
  return out;
}

/** A re-simulated twin of the position for `viewer`, with the position's edit made again; null when the twin could not follow the game. */
function twinOf(p: Position, viewer: Viewer, seed: string): LiveGame | null {
  const t = resimulate(p.game, viewer, seed);
  if (t.diverged) throw new Error(`${p.kind}, ${p.game.env.players} players, viewer ${viewer}: the twin asked seat ${t.diverged.twin} at step ${t.diverged.step}, the game seat ${t.diverged.game}: who is asked depends on hidden cards`);
  if (!t.game) return null;
  p.edit?.(t.game.env.state as GameState);
  return t.game;
}

/** The game as it stands with its state edited (a constructed position): a game of its own, for comparing. */
function edited(game: LiveGame, edit: (s: GameState) => void): LiveGame {
  const s = cloneState(game.env.state as GameState);
  edit(s);
  return { ...game, env: CzechPubEnv.fromJSON({ config: game.env.config, state: s, actions: [...game.env.actions] }), scrub: null };
}

interface Position {
  game: LiveGame;
  kind: string;
  /** The change a constructed position made to the state as play left it, made again on its twins. */
  edit?: (s: GameState) => void;
}

/** Plays random games through the server's store and keeps positions of every kind. */
async function positions(): Promise<Position[]> {
  const catalogue = new Catalogue();
  const store = new GameStore({ ...DEFAULT_LIMITS }, catalogue);
  const out: Position[] = [];
  const rng: RngState = seedRng('leak-positions');
  const last = catalogue.ruleset.chart.length - 1;
  for (let g = 0; g < 10; g++) {
    const players = 2 + (g % 5);
    // People at every seat, or people and engine bots (whose seats are viewers too).
    const seats = Array.from({ length: players }, (_, seat) => (g % 2 === 1 && seat % 2 === 1 ? 'heuristic' : 'remote'));
    const { game } = await store.create({ seats, seed: `leak/${g}`, reward: 'win' });
    let taken = 0;
    while (!game.env.done) {
      const s = game.env.state as GameState;
      const kind = s.phase === PHASE_RESPONSE ? 'response window' : s.phase === PHASE_REACTION ? 'reaction window'
        : s.closing.where !== CLOSING_ASIDE ? 'closing time' : s.phase === PHASE_PLAY ? 'play' : 'other';
      const keep = kind === 'play' || kind === 'other' ? randInt(rng, 40) === 0 : kind === 'reaction window' ? randInt(rng, 12) === 0 : randInt(rng, 3) === 0;
      if (keep && taken < 12) {
        // A snapshot of the game now (the store goes on stepping the live env).
        out.push({ game: edited(game, () => undefined), kind });
        taken++;
        if (kind === 'play') {
          const space = randInt(rng, catalogue.ruleset.chart[last].spaces.length);
          const edit = (e: GameState) => {
            e.level[e.active] = last;
            e.space[e.active] = space;
          };
          out.push({ game: edited(game, edit), kind: 'last row', edit });
        }
      }
      const legal = game.env.legalActions();
      await store.act(game, game.env.actor, legal[randInt(rng, legal.length)]);
    }
  }
  store.closeAll();
  return out;
}

describe('nothing hidden leaves a game', async () => {
  const all = await positions();

  it('samples every kind of position at every table size', () => {
    const kinds = new Map<string, number>();
    for (const p of all) kinds.set(p.kind, (kinds.get(p.kind) ?? 0) + 1);
    for (const k of ['play', 'reaction window', 'response window', 'closing time', 'last row']) expect(kinds.get(k) ?? 0, k).toBeGreaterThanOrEqual(4);
    expect(new Set(all.map((p) => p.game.env.players))).toEqual(new Set([2, 3, 4, 5, 6]));
  });

  it("every exit's output is byte-identical when what the viewer cannot see is dealt anew", async () => {
    let compared = 0;
    let stuck = 0;
    let redealt = 0;
    let bots = 0;
    for (const [i, p] of all.entries()) {
      for (const viewer of [null, ...Array.from({ length: p.game.env.players }, (_, s) => s)]) {
        const mine = await answers(p.game, viewer);
        for (const seed of [`twin/${i}/a`, `twin/${i}/b`]) {
          const twin = twinOf(p, viewer, seed);
          if (!twin) {
            stuck++;
            continue;
          }
          const [a, b] = [p.game.env.state, twin.env.state].map((s) => J([s.hand, s.deck, s.rng]));
          if (a !== b) redealt++;
          const theirs = await answers(twin, viewer);
          for (const k of Object.keys(mine)) expect(firstDifference(theirs[k], mine[k]), `${p.kind}, ${p.game.env.players} players, viewer ${viewer}: ${k}`).toBeNull();
          expect(Object.keys(theirs).sort()).toEqual(Object.keys(mine).sort());
          compared++;
        }
        if (mine.httpBot) {
          bots++;
          // The bot and the model are sent no seed, of the game or of an agent, and the hint says none.
          const seed = String(p.game.env.config.seed);
          for (const k of ['httpBot', 'model', 'hint']) {
            expect(mine[k]).not.toContain(seed);
            expect(mine[k]).not.toContain(agentSeed(seed, viewer!));
          }
          expect(Object.keys(JSON.parse(mine.httpBot)).sort()).toEqual(['game', 'legalActions', 'view']);
        }
      }
    }
    console.log(`leak test: ${all.length} positions, ${compared} comparisons of re-simulated twins (${stuck} twins could not follow the game), ${bots} with a decision for bots`);
    expect(compared).toBeGreaterThan(300);
    // Twins that could not follow the game (a card laid face up that no trade could match) are dropped, not compared: most follow.
    expect(stuck).toBeLessThan((compared + stuck) * 0.15);
    // The twins really are other deals: what is compared could have changed.
    expect(redealt).toBe(compared);
    expect(bots).toBeGreaterThan(30);
  }, 600_000);

  it('catches a deliberately leaking channel', async () => {
    let caught = 0;
    for (const [i, p] of all.entries()) {
      const seat = i % p.game.env.players;
      const mine = await answers(p.game, seat, leaky);
      const twin = twinOf(p, seat, `leaky/${i}`);
      if (twin && (await answers(twin, seat, leaky)).bridge !== mine.bridge) caught++;
    }
    expect(caught).toBeGreaterThan(all.length / 2);
  }, 600_000);

  it('catches a table that asks only the seats with a choice (askForced off): the order of decisions differs between twins', () => {
    let tried = 0;
    let diverged = 0;
    for (let g = 0; g < 8; g++) {
      const fast = fastGame(all[0].game, 3 + (g % 4), `fast/${g}`, 60 + 20 * g);
      for (const viewer of [0, 1]) {
        tried++;
        if (resimulate(fast, viewer, `fast-twin/${g}/${viewer}`).diverged) diverged++;
      }
      // The same game at a real table (askForced on) re-simulates without a divergence.
      const fair = fastGame(all[0].game, 3 + (g % 4), `fast/${g}`, 60 + 20 * g, true);
      expect(resimulate(fair, 0, `fair-twin/${g}`).diverged).toBeNull();
    }
    expect(diverged).toBeGreaterThan(tried / 2);
  });

  it("no pass in seat 0's history predicts another seat's hand (20 games against the truth)", async () => {
    const store = new GameStore({ ...DEFAULT_LIMITS }, new Catalogue());
    const rng = seedRng('leak-passes');
    const fair = { holders: 0, empty: 0 };
    const fast = { holders: 0, empty: 0 };
    for (let g = 0; g < 20; g++) {
      const players = 3 + (g % 4);
      const { game } = await store.create({ seats: Array.from({ length: players }, () => 'remote'), seed: `passes/${g}`, reward: 'win' });
      while (!game.env.done) {
        const legal = game.env.legalActions();
        await store.act(game, game.env.actor, legal[randInt(rng, legal.length)]);
      }
      countPasses(game, fair);
      countPasses(fastGame(game, players, `passes/${g}`, Infinity), fast);
    }
    console.log(`passes another seat made in a reaction window, as seat 0's history shows them: at a live game ${fair.holders} from seats holding a card they could play, ${fair.empty} from seats holding none; with askForced off ${fast.holders} and ${fast.empty}`);
    // With askForced off every pass comes from a seat that could have played: each one tells its hand.
    expect(fast.holders).toBeGreaterThan(100);
    expect(fast.empty).toBe(0);
    // At a live game most passes come from seats holding nothing playable: a pass says nothing of the hand.
    expect(fair.empty).toBeGreaterThan(fair.holders);
  }, 300_000);
});

/** A game played at random by the engine alone, as a LiveGame the exits read (`template` gives the rest); askForced off unless `askForced`. */
function fastGame(template: LiveGame, players: number, seed: string, steps: number, askForced = false): LiveGame {
  const env = new CzechPubEnv({ seed, players, askForced, log: true });
  const rng = seedRng(`${seed}/play`);
  const actors: number[] = [];
  const logAt = [env.eventCount];
  while (!env.done && env.actions.length < steps) {
    const legal = env.legalActions();
    actors.push(env.actor);
    env.step(legal[randInt(rng, legal.length)]);
    logAt.push(env.eventCount);
  }
  return { ...template, env, actors, logAt, scrub: null };
}

/** Counts the passes of seats other than 0 in reaction windows, as seat 0's history lists them, by whether the seat held an X card it could play. */
function countPasses(game: LiveGame, into: { holders: number; empty: number }): void {
  for (let k = 0; k < game.env.actions.length; k++) {
    const step = played(game, k);
    if (step.seat === 0 || step.id !== A_PASS) continue;
    const env = envAt(game, k);
    if ((env.state as GameState).phase !== PHASE_REACTION) continue;
    if (env.legalActions().length > 1) into.holders++;
    else into.empty++;
  }
}

/** Where two outputs first differ, with some context on each side; null when they are the same. */
function firstDifference(a: string, b: string): string | null {
  if (a === b) return null;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at ${i}: …${a.slice(Math.max(0, i - 300), i + 60)}… against …${b.slice(Math.max(0, i - 80), i + 60)}…`;
}
