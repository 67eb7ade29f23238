import { describe, expect, it } from 'vitest';
import { Catalogue } from './catalogue.ts';
import { ApiError, GameStore, stepEvents, type LiveGame } from './games.ts';
import { HISTORY_PAGE, HistoryPages } from './history.ts';
import { InlineTurns } from './inline-turns.ts';
import * as S from './schemas.ts';
import { played } from './seat-state.ts';

/** A finished game of six random bots: several hundred steps. */
async function longGame(): Promise<LiveGame> {
  const store = new GameStore({ maxGames: 10, maxGamesPerClient: 10, idleMs: 600_000, maxOpenGames: 1 }, new Catalogue());
  return (await store.create({ seats: Array(6).fill('random'), seed: 'history-pages', reward: 'win' })).game;
}

describe('history pages', () => {
  it('answers what the seat saw step by step, the page ending where the game stood', async () => {
    const game = await longGame();
    const steps = game.env.actions.length;
    expect(steps).toBeGreaterThan(HISTORY_PAGE);
    const pages = new HistoryPages(new InlineTurns(), 4);
    const first = await pages.page(game, 2, 0, 10_000, 'a');
    expect(first.entries).toHaveLength(HISTORY_PAGE);
    expect(first.next).toBe(HISTORY_PAGE);
    const rest = await pages.page(game, 2, first.next!, 10_000, 'a');
    expect(rest.next).toBeNull();
    const all = [...first.entries, ...rest.entries];
    expect(all.map((e) => e.step)).toEqual(Array.from({ length: steps + 1 }, (_, k) => k));
    for (const k of [0, 1, 250, steps]) expect(all[k]).toEqual({ step: k, lastAction: k > 0 ? played(game, k - 1) : null, events: stepEvents(game, k, 2) });
    // Sent as built, not through the schema: nothing in it that the schema would have stripped.
    for (const page of [first, rest]) expect(JSON.parse(JSON.stringify(page))).toStrictEqual(S.historyAnswer.parse(page));
  });

  it('builds pages in turns, clients in turn, and no slice before its turn', async () => {
    const game = await longGame();
    const turns = new InlineTurns();
    const asked: string[] = [];
    const next = turns.next.bind(turns);
    turns.next = (client) => {
      asked.push(client);
      return next(client);
    };
    const pages = new HistoryPages(turns, 4);
    const done: string[] = [];
    const page = (client: string, name: string, limit: number) => pages.page(game, null, 0, limit, client).then((r) => {
      done.push(name);
      return r;
    });
    const made = [page('a', 'a1', HISTORY_PAGE), page('a', 'a2', HISTORY_PAGE), page('b', 'b', 1)];
    // Asked for, nothing built yet: each page waits for its first turn.
    expect(asked).toEqual(['a', 'a', 'b']);
    expect(done).toEqual([]);
    expect((await Promise.all(made))[2].entries).toHaveLength(1);
    // b's page had the turn after a's first, before a's second: clients in turn, not first come first served.
    expect(done.indexOf('b')).toBeLessThan(done.indexOf('a2'));
  });

  it("refuses a client's page past maxPagesPerClient being built, and takes it again once one is answered", async () => {
    const game = await longGame();
    const pages = new HistoryPages(new InlineTurns(), 2);
    const two = [pages.page(game, 0, 0, 10, 'a'), pages.page(game, 0, 0, 10, 'a')];
    const third = await pages.page(game, 0, 0, 10, 'a').catch((e: unknown) => e);
    expect(third).toBeInstanceOf(ApiError);
    expect((third as ApiError).status).toBe(429);
    expect((third as ApiError).message).toMatch(/you have 2 history pages being built, the most one client may have \(maxPagesPerClient\)/);
    await expect(pages.page(game, 0, 0, 10, 'b')).resolves.toBeDefined(); // another client is not held to a's
    await Promise.all(two);
    await expect(pages.page(game, 0, 0, 10, 'a')).resolves.toBeDefined();
  });
});
