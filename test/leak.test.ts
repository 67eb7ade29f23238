/**
 * The leak test: everything that leaves a game for a viewer is the same when everything that
 * viewer cannot see is drawn anew. Over random games at 2–6 players, at sampled decisions
 * (reaction and response windows, CLOSING TIME in the pile or drawn, and positions moved onto
 * the chart's last row), for every seat and for the onlooker, each exit's output is compared
 * byte for byte with the same exit on a twin game in which the other hands, the draw pile's
 * order and the generator (so every die to come) are dealt anew (env/resample.ts), and the
 * hidden card of every past event the viewer did not see is replaced at random:
 *
 * - every route's answer: the view route (now and at an earlier step: view, text, legal
 *   actions with their notes, the step's events), the events route, the event stream's lines,
 *   the move preview, the lobby entry (onlooker);
 * - the body an `http` bot is sent and the messages a language model is sent;
 * - the bridge's observation (encoding, mask and text);
 * - the action each shipped bot chooses from that seat's observation, its own seed fixed.
 *
 * A deliberately leaking channel (one line of text more: the top of the draw pile) is caught.
 */
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agents/default-registry.ts';
import { httpBotBody } from '../agents/http/http-agent.ts';
import { decisionMessages } from '../agents/llm/prompt.ts';
import { EnvObservation } from '../agents/observation.ts';
import { agentSeed, opaqueGameId } from '../agents/seed.ts';
import { CARD_IDS, HAND_TYPES } from '../env/cards.ts';
import { CzechPubEnv } from '../env/env.ts';
import type { GameEvent } from '../env/events.ts';
import { SeatChannel, type Viewer } from '../env/observation/channel.ts';
import { resampleState } from '../env/resample.ts';
import { randInt, seedRng, type RngState } from '../env/rng.ts';
import { CLOSING_ASIDE, cloneState, PHASE_PLAY, PHASE_REACTION, PHASE_RESPONSE, type GameState } from '../env/state.ts';
import { Catalogue } from '../server/catalogue.ts';
import { DEFAULT_LIMITS } from '../server/config.ts';
import { GameStore, narratedEvents, type LiveGame } from '../server/games.ts';
import { seatState } from '../server/seat-state.ts';
import { eventLines } from '../server/stream.ts';
import { lobbyEntry, preview } from '../server/tables.ts';

const J = (x: unknown) => JSON.stringify(x);
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
    for (const spec of BOTS) {
      const bot = createAgent(spec);
      bot.reset?.({ seat: viewer, players: env.players, seed: agentSeed(`leak/${steps}`, viewer) });
      out[spec] = String(await bot.act(new EnvObservation(env, viewer)));
    }
  }
  return out;
}

/**
 * The twin: the same actions and public history, with everything `viewer` cannot see dealt
 * anew (for the onlooker, every hand: the deal is redone from two seats' sides in turn) and
 * the hidden card of every logged event it did not see replaced.
 */
function twinOf(game: LiveGame, viewer: Viewer, seed: string): LiveGame {
  const env = game.env;
  const r = env.compiledRules;
  let s = env.state as GameState;
  for (const [i, seat] of (viewer === null ? [0, 1] : [viewer]).entries()) s = resampleState(r, s, seat, `${seed}/${i}`);
  const twin = CzechPubEnv.fromJSON({ config: env.config, state: s, actions: [...env.actions] });
  const rng = seedRng(seed);
  const card = () => randInt(rng, HAND_TYPES);
  // What each event hides, read from the rules (RULES.md section 9), not from the filter under test.
  const log = twin.fullLog as GameEvent[];
  for (let i = 0; i < log.length; i++) {
    const e = log[i];
    if (e.k === 'draw' && e.seat !== viewer) log[i] = { ...e, cards: e.cards.map(card) };
    if (e.k === 'take' && e.from !== viewer && e.to !== viewer) log[i] = { ...e, card: card() };
  }
  return { ...game, env: twin, scrub: null };
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
    const { game } = await store.create({ seats: Array.from({ length: players }, () => 'remote'), seed: `leak/${g}`, reward: 'win' });
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
          out.push({
            game: edited(game, (e) => {
              e.level[e.active] = last;
              e.space[e.active] = randInt(rng, catalogue.ruleset.chart[last].spaces.length);
            }),
            kind: 'last row',
          });
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
    let redealt = 0;
    let bots = 0;
    for (const [i, p] of all.entries()) {
      for (const viewer of [null, ...Array.from({ length: p.game.env.players }, (_, s) => s)]) {
        const mine = await answers(p.game, viewer);
        for (const seed of [`twin/${i}/a`, `twin/${i}/b`]) {
          const twin = twinOf(p.game, viewer, seed);
          const [a, b] = [p.game.env.state, twin.env.state].map((s) => J([s.hand, s.deck, s.rng]));
          if (a !== b) redealt++;
          const theirs = await answers(twin, viewer);
          for (const k of Object.keys(mine)) expect(theirs[k], `${p.kind}, ${p.game.env.players} players, viewer ${viewer}: ${k}`).toBe(mine[k]);
          expect(Object.keys(theirs).sort()).toEqual(Object.keys(mine).sort());
          compared++;
        }
        if (mine.httpBot) {
          bots++;
          // The bot and the model are sent no seed, of the game or of an agent.
          const seed = String(p.game.env.config.seed);
          for (const k of ['httpBot', 'model']) {
            expect(mine[k]).not.toContain(seed);
            expect(mine[k]).not.toContain(agentSeed(seed, viewer!));
          }
          expect(Object.keys(JSON.parse(mine.httpBot)).sort()).toEqual(['game', 'legalActions', 'view']);
        }
      }
    }
    console.log(`leak test: ${all.length} positions, ${compared} comparisons, ${bots} with a decision for bots`);
    expect(compared).toBeGreaterThan(300);
    // The twins really are other deals: what is compared could have changed.
    expect(redealt).toBe(compared);
    expect(bots).toBeGreaterThan(30);
  }, 600_000);

  it('catches a deliberately leaking channel', async () => {
    let caught = 0;
    for (const [i, p] of all.entries()) {
      const seat = i % p.game.env.players;
      const mine = await answers(p.game, seat, leaky);
      const theirs = await answers(twinOf(p.game, seat, `leaky/${i}`), seat, leaky);
      if (theirs.bridge !== mine.bridge) caught++;
    }
    expect(caught).toBeGreaterThan(all.length / 2);
  }, 600_000);
});
