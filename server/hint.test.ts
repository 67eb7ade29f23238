import { describe, expect, it } from 'vitest';
import { createAgent, EnvObservation, type Agent } from '../agents/index.ts';
import { randInt, seedRng } from '../env/index.ts';
import { Catalogue } from './catalogue.ts';
import { DEFAULT_LIMITS } from './config.ts';
import { ApiError, GameStore, type LiveGame } from './games.ts';
import { hintForToken, Hints, hintSeed, NotDecidingError, type HintAnswer } from './hint.ts';
import { preview } from './tables.ts';

/** The bot a hint quotes, sitting at the seat: reset as the hint's bot is, asked at every real choice of the seat. */
function seatBot(spec: string, game: LiveGame, seat: number, catalogue: Catalogue): Agent {
  const bot = createAgent(spec);
  bot.reset?.({ seat, players: game.env.players, seed: hintSeed(game, seat), ruleset: catalogue.ruleset });
  return bot;
}

/**
 * The game as the hint sees it, under a fixed id (the hint's seed is made from it) and with the
 * store's own env: the same hints at every run. The store is told the game itself.
 */
const named = (game: LiveGame, id: string): LiveGame => ({ ...game, id });

/** What went wrong with a promise: its ApiError's status and code, or null when it resolved. */
async function refusal(p: Promise<unknown>): Promise<{ status: number; code?: unknown } | null> {
  try {
    await p;
    return null;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { status: e.status, code: e.extra.code };
  }
}

/** The answer's own checks: the chosen action first by probability, the runners-up after it, the preview GET preview's entry. */
function checkAnswer(h: HintAnswer, game: LiveGame, seat: number): void {
  const legal = game.env.legalActions();
  expect(legal).toContain(h.action.id);
  expect(h.step).toBe(game.env.actions.length);
  expect(h.preview).toEqual(preview(game, seat).actions.find((a) => a.id === h.action.id));
  if (h.action.probability === null) return;
  const ps = [h.action.probability, ...h.runnersUp.map((r) => r.probability!)];
  expect(ps).toEqual([...ps].sort((a, b) => b - a));
  expect(h.runnersUp).toHaveLength(Math.min(2, legal.length - 1));
  expect(ps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1.0002);
}

describe('the hint', () => {
  it("is what the ppo bot sitting at the seat would play, at every table size, whether the person follows it or not", async () => {
    const catalogue = new Catalogue();
    const store = new GameStore({ ...DEFAULT_LIMITS }, catalogue);
    const hints = new Hints(catalogue, { turns: store.turns });
    const rng = seedRng('hint-test');
    let compared = 0;
    let followed = 0;
    for (let g = 0; g < 5; g++) {
      const players = 2 + g;
      const seats = Array.from({ length: players }, (_, s) => (s === 0 ? 'remote' : g % 2 === 0 ? 'ppo' : 'heuristic'));
      const { game: real } = await store.create({ seats, seed: `hint-test/${g}`, reward: 'win' });
      const game = named(real, `hint-test/${g}`);
      const bot = seatBot('ppo', game, 0, catalogue);
      while (!game.env.done) {
        expect(game.env.actor).toBe(0);
        const botAction = await bot.act(new EnvObservation(game.env, 0));
        // Asked at some decisions only (the bot catches up at the next), and now and then twice (the same answer, the bot not asked again).
        if (randInt(rng, 3) > 0) {
          const h = await hints.ask(game, 0, 'test');
          expect(h.action.id, `game ${g}, step ${h.step}`).toBe(botAction);
          expect(h.bot).toEqual({ name: 'ppo', displayName: 'Strong' });
          expect(h.fallback).toBeNull();
          checkAnswer(h, game, 0);
          if (randInt(rng, 5) === 0) expect(await hints.ask(game, 0, 'test')).toEqual(h);
          compared++;
        }
        // The person follows the bot half the time, else plays anything legal: the hint's bot plays along all the same.
        const legal = game.env.legalActions();
        const follow = randInt(rng, 2) === 0;
        if (follow) followed++;
        await store.act(real, 0, follow ? botAction : legal[randInt(rng, legal.length)]);
      }
    }
    store.closeAll();
    expect(compared).toBeGreaterThan(150);
    expect(followed).toBeGreaterThan(100);
  }, 300_000); // CPU-bound: the timeout bounds a hang, not the machine's speed

  it("plays along with the seat's every choice, hinted or not (a named case where a bot asked afresh, or only at the hints, would play otherwise)", async () => {
    const catalogue = new Catalogue();
    const store = new GameStore({ ...DEFAULT_LIMITS }, catalogue);
    const hints = new Hints(catalogue);
    // Found among 80 seeds at 2 and 3 players: both shortcuts part from the seat's bot here.
    const seed = 'hint-test/along/3/76';
    const { game: real } = await store.create({ seats: ['remote', 'ppo', 'ppo'], seed, reward: 'win' });
    const game = named(real, seed);
    const bot = seatBot('ppo', game, 0, catalogue);
    const onlyAtHints = seatBot('ppo', game, 0, catalogue);
    const shortcuts = { fresh: 0, onlyAtHints: 0 };
    for (let n = 0; !game.env.done; n++) {
      const botAction = await bot.act(new EnvObservation(game.env, 0));
      // A hint at every other decision: the bot catches up with the ones between.
      if (n % 2 === 1) {
        const h = await hints.ask(game, 0, 'test');
        expect(h.action.id, `step ${h.step}`).toBe(botAction);
        if ((await seatBot('ppo', game, 0, catalogue).act(new EnvObservation(game.env, 0))) !== botAction) shortcuts.fresh++;
        if ((await onlyAtHints.act(new EnvObservation(game.env, 0))) !== botAction) shortcuts.onlyAtHints++;
      }
      await store.act(real, 0, botAction);
    }
    store.closeAll();
    expect(shortcuts.fresh).toBeGreaterThan(0);
    expect(shortcuts.onlyAtHints).toBeGreaterThan(0);
  }, 300_000); // CPU-bound: the timeout bounds a hang, not the machine's speed

  it('refuses a seat not to act, a watcher, a bad or missing token and an unknown game, and those change nothing', async () => {
    const catalogue = new Catalogue();
    const store = new GameStore({ ...DEFAULT_LIMITS }, catalogue);
    const hints = new Hints(catalogue, { turns: store.turns });
    const { game, tokens } = await store.create({ seats: ['remote', 'remote', 'heuristic', 'ppo'], seed: 'hint-refusals', reward: 'win' });
    const bots = [0, 1].map((seat) => seatBot('ppo', game, seat, catalogue));
    const rng = seedRng('hint-refusals');
    let refused = 0;
    while (!game.env.done) {
      const seat = game.env.actor;
      const other = 1 - seat;
      const before = JSON.stringify([game.env.actions, game.env.legalActions()]);
      // Asked before the refusals at some decisions, after them at the others: the answer is the same.
      const early = randInt(rng, 2) === 0 ? await hints.ask(game, seat, 'test') : null;
      expect(await refusal(hintForToken(store, hints, game.id, tokens[other].token, 'test'))).toEqual({ status: 409, code: 'not-seat-to-act' });
      expect(await refusal(hintForToken(store, hints, game.id, game.watchToken, 'test'))).toMatchObject({ status: 403 });
      expect(await refusal(hintForToken(store, hints, game.id, 'not-a-token', 'test'))).toMatchObject({ status: 403 });
      expect(await refusal(hintForToken(store, hints, game.id, undefined, 'test'))).toMatchObject({ status: 401 });
      expect(await refusal(hintForToken(store, hints, 'no-such-game', tokens[seat].token, 'test'))).toMatchObject({ status: 404 });
      refused += 5;
      expect(JSON.stringify([game.env.actions, game.env.legalActions()])).toBe(before);
      const h = await hintForToken(store, hints, game.id, tokens[seat].token, 'test');
      if (early) expect(h).toEqual(early);
      expect(h.action.id).toBe(await bots[seat].act(new EnvObservation(game.env, seat)));
      await store.act(game, seat, h.action.id);
    }
    expect(await refusal(hints.ask(game, 0, 'test'))).toEqual({ status: 409, code: 'not-seat-to-act' });
    store.closeAll();
    expect(refused).toBeGreaterThan(100);
  }, 300_000); // CPU-bound: the timeout bounds a hang, not the machine's speed

  it('says why when the Strong bot cannot advise, and quotes the heuristic instead, as it would play at the seat', async () => {
    const catalogue = new Catalogue({ bots: { ppo: null } });
    const store = new GameStore({ ...DEFAULT_LIMITS }, catalogue);
    const hints = new Hints(catalogue);
    const { game } = await store.create({ seats: ['remote', 'heuristic', 'random'], seed: 'hint-fallback', reward: 'win' });
    const bot = seatBot('heuristic', game, 0, catalogue);
    let asked = 0;
    while (!game.env.done) {
      const h = await hints.ask(game, 0, 'test');
      expect(h.bot).toEqual({ name: 'heuristic', displayName: 'Regular' });
      expect(h.fallback).toMatch(/^this server has no ppo bot \(Strong\): Regular \(heuristic\) advises instead$/);
      expect(h.action.probability).toBeNull();
      expect(h.runnersUp).toEqual([]);
      expect(h.action.id).toBe(await bot.act(new EnvObservation(game.env, 0)));
      checkAnswer(h, game, 0);
      asked++;
      await store.act(game, 0, h.action.id);
    }
    store.closeAll();
    expect(asked).toBeGreaterThan(20);
    expect(new NotDecidingError('x').extra).toEqual({ code: 'not-seat-to-act' });
  }, 300_000); // CPU-bound: the timeout bounds a hang, not the machine's speed
});
