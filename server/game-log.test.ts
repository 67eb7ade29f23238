import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Catalogue } from './catalogue.ts';
import { DEFAULT_LIMITS } from './config.ts';
import { GameLog, parseGameLog, restoreGames, type StateLimits } from './game-log.ts';
import { ApiError, GameStore, type LiveGame } from './games.ts';
import { seatState } from './seat-state.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-state-'));
  dirs.push(d);
  return d;
}

const LIMITS = { maxGames: 100, idleMs: 60_000, maxGamesPerClient: 100, maxOpenGames: 10 };
const STATE: StateLimits = { stateMaxGames: 100, stateMaxAgeMs: 3600_000, stateMaxFileBytes: 1024 * 1024 };

/** A store on `dir` (a server start): the games the dir holds restored. */
async function start(dir: string, state: Partial<StateLimits> = {}, notices: string[] = []) {
  const log = new GameLog(dir, { ...STATE, ...state }, (l) => notices.push(l));
  const store = new GameStore(LIMITS, new Catalogue(), null, undefined, undefined, log);
  const restored = await restoreGames(log, store, (l) => notices.push(l));
  return { store, restored, notices };
}

/** The person's action at each of their decisions: a fixed pick among the legal ones. */
const pick = (legal: number[], k: number) => legal[(k * 7) % legal.length];

/** Plays the remote seat 0 until `steps` actions were taken (or the end). */
async function playTo(store: GameStore, game: LiveGame, steps: number): Promise<void> {
  while (!game.env.done && game.env.actions.length < steps) {
    const g = store.get(game.id);
    await store.act(g, 0, pick(g.env.legalActions(), g.env.actions.length));
  }
}

/** What each seat and an onlooker are shown at step k, without the game's id and seed commitment (another game's); presence (who asked lately: a restored seat is away until it asks) aside. */
function shown(game: LiveGame, k: number) {
  return [0, 1, 2, null].map((v) => ({ ...seatState(game, v, k), id: undefined, seed: undefined, presence: undefined }));
}

const SEATS = ['remote', 'random', 'heuristic'];

describe('the state dir', () => {
  it('restores a game mid-play so every seat sees what it saw, and its bots then play as if no restart happened', async () => {
    // Game A: never restarted. Game B: the same deal, the server restarted at step 40.
    const a = await start(tmp());
    const { game: ga } = await a.store.create({ seats: SEATS, seed: 'same', seedChosen: true, reward: 'win' });
    await playTo(a.store, ga, 10_000);
    expect(ga.env.done).toBe(true);

    const dir = tmp();
    const b = await start(dir);
    const { game: gb, tokens } = await b.store.create({ seats: SEATS, seed: 'same', seedChosen: true, reward: 'win' });
    await playTo(b.store, gb, 40);
    const before = { actions: [...gb.env.actions], views: shown(gb, gb.env.actions.length), seed: gb.seed };
    b.store.closeAll();

    const c = await start(dir);
    expect(c.restored).toBe(1);
    const gc = c.store.get(gb.id);
    expect([...gc.env.actions]).toEqual(before.actions);
    expect(shown(gc, gc.env.actions.length)).toEqual(before.views);
    expect(gc.seed).toEqual(before.seed);
    // The same token opens the same seat; the file holds its hash, never the token.
    expect(c.store.seatOf(gc, tokens[0].token)).toBe(0);
    expect(fs.readFileSync(path.join(dir, `${gb.id}.jsonl`), 'utf8')).not.toContain(tokens[0].token);

    await playTo(c.store, gc, 10_000);
    expect([...gc.env.actions]).toEqual([...ga.env.actions]);
    for (const k of [0, 17, 40, 41, gc.env.actions.length]) expect(shown(gc, k)).toEqual(shown(ga, k));
  });

  it('ignores a last line cut short by a crash, and keeps writing whole lines after it', async () => {
    const dir = tmp();
    const b = await start(dir);
    const { game } = await b.store.create({ seats: ['remote', 'random'], seed: 'cut', reward: 'win' });
    await playTo(b.store, game, 12);
    const steps = game.env.actions.length;
    const file = path.join(dir, `${game.id}.jsonl`);
    fs.appendFileSync(file, `{"t":"a","k":${steps},"a":`);

    const c = await start(dir);
    expect(c.restored).toBe(1);
    const g = c.store.get(game.id);
    expect(g.env.actions.length).toBe(steps);
    await playTo(c.store, g, steps + 6);
    const after = [...g.env.actions];
    expect(after.length).toBeGreaterThan(steps);
    expect(parseGameLog(fs.readFileSync(file, 'utf8')).actions).toEqual(after);
    const d = await start(dir);
    expect([...d.store.get(game.id).env.actions]).toEqual(after);
  });

  it('refuses a file that is damaged before its last line, and leaves it for the operator', async () => {
    const dir = tmp();
    const b = await start(dir);
    const { game } = await b.store.create({ seats: ['remote', 'random'], seed: 'bad', reward: 'win' });
    await playTo(b.store, game, 6);
    const file = path.join(dir, `${game.id}.jsonl`);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines[2] = '{"t":"a","k":1';
    fs.writeFileSync(file, lines.join('\n'));
    const c = await start(dir);
    expect(c.restored).toBe(0);
    expect(c.notices.join('\n')).toMatch(new RegExp(`game ${game.id} not restored: .*line 3 is not JSON`));
    expect(fs.existsSync(file)).toBe(true);
  });

  it('restores at most stateMaxGames (the newest), none older than stateMaxAgeMs, and removes the rest', async () => {
    const dir = tmp();
    const b = await start(dir);
    const made: LiveGame[] = [];
    for (let i = 0; i < 3; i++) made.push((await b.store.create({ seats: ['remote', 'random'], seed: `n${i}`, reward: 'win' })).game);
    const file = (g: LiveGame) => path.join(dir, `${g.id}.jsonl`);
    const ago = (ms: number) => new Date(Date.now() - ms);
    fs.utimesSync(file(made[0]), ago(7200_000), ago(7200_000));
    fs.utimesSync(file(made[1]), ago(60_000), ago(60_000));
    fs.utimesSync(file(made[2]), ago(1_000), ago(1_000));

    const c = await start(dir, { stateMaxGames: 1 });
    expect(c.restored).toBe(1);
    expect(() => c.store.get(made[2].id)).not.toThrow();
    expect(fs.readdirSync(dir)).toEqual([`${made[2].id}.jsonl`]);
    expect(c.notices.join('\n')).toMatch(/not written for over 60 min \(stateMaxAgeMs\)/);
    expect(c.notices.join('\n')).toMatch(/beyond the 1 newest \(stateMaxGames\)/);
  });

  it('stops keeping a game whose file would pass stateMaxFileBytes, and removes a dropped game\'s file', async () => {
    const dir = tmp();
    const notices: string[] = [];
    const b = await start(dir, { stateMaxFileBytes: 2048 }, notices);
    const { game } = await b.store.create({ seats: SEATS, seed: 'same', seedChosen: true, reward: 'win' });
    const file = path.join(dir, `${game.id}.jsonl`);
    expect(fs.existsSync(file)).toBe(true);
    await playTo(b.store, game, 10_000);
    expect(game.env.actions.length).toBeGreaterThan(80);
    expect(fs.existsSync(file)).toBe(false);
    expect(notices.join('\n')).toMatch(/would pass 2048 bytes \(stateMaxFileBytes\)/);

    const { game: kept } = await b.store.create({ seats: ['remote', 'random'], seed: 'kept', reward: 'win' });
    const keptFile = path.join(dir, `${kept.id}.jsonl`);
    b.store.closeAll();
    expect(fs.existsSync(keptFile)).toBe(true);
    // Dropped for good (left idle): its file goes with it.
    const clock = { t: Date.now() };
    const log = new GameLog(dir, STATE);
    const store = new GameStore(LIMITS, new Catalogue(), null, () => clock.t, undefined, log);
    await restoreGames(log, store, () => {});
    clock.t += LIMITS.idleMs + 1;
    store.expire(true);
    expect(fs.existsSync(keptFile)).toBe(false);
  });

  it('a restored seat opens only with its own token; the watch token still watches; a gone game says so', async () => {
    const dir = tmp();
    const b = await start(dir);
    const { game, tokens } = await b.store.create({ seats: ['remote', 'remote', 'random'], seed: 'tok', reward: 'win' });
    const watch = game.watchToken;
    const c = await start(dir);
    const g = c.store.get(game.id);
    expect(c.store.viewerOf(g, tokens[1].token)).toBe(1);
    expect(c.store.viewerOf(g, watch)).toBeNull();
    expect(() => c.store.viewerOf(g, tokens[1].token.slice(1))).toThrow(expect.objectContaining({ status: 403 }));
    try {
      c.store.get('AAAAAAAAAAAA');
      throw new Error('no error');
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError);
      expect((e as ApiError).status).toBe(404);
      expect((e as ApiError).extra.code).toBe('game-gone');
      expect((e as ApiError).message).toMatch(/is gone: .*start a new game/);
    }
  });

  it('keeps the lobby: an open seat stays open after a restore and a joined one keeps its token and its client\'s count', async () => {
    const dir = tmp();
    const b = await start(dir);
    const { game } = await b.store.create({ seats: ['open', 'open', 'random'], seed: 'lobby', reward: 'win', client: 'host' });
    const joined = b.store.join(game, 1, 'friend');
    const c = await start(dir);
    const g = c.store.get(game.id);
    expect([...g.open.keys()]).toEqual([0]);
    expect(c.store.seatOf(g, joined.token)).toBe(1);
    expect(c.store.lobby().map((x) => x.id)).toEqual([game.id]);
    const late = c.store.join(g, undefined, 'late');
    expect(late.seat).toBe(0);
    const d = await start(dir);
    expect(d.store.seatOf(d.store.get(game.id), late.token)).toBe(0);
    expect(d.store.lobby()).toEqual([]);
  });

  it('keeps what the people are called and their auto-pass as they last set it', async () => {
    const dir = tmp();
    const b = await start(dir);
    const { game } = await b.store.create({ seats: ['remote', 'open', 'heuristic'], seed: 'names', reward: 'win', names: ['Anna'] });
    b.store.join(game, 1, 'friend', 'Bo');
    await b.store.setAutoPass(game, 0, { unwatched: ['knocked_over'] });
    await b.store.setAutoPass(game, 0, { unwatched: ['mixed_up', 'warm_beer'], on: false });
    const c = await start(dir);
    const g = c.store.get(game.id);
    expect(g.names).toEqual(['Anna', 'Bo', game.names[2]]);
    expect(c.store.autoPassOf(g, 0)).toEqual({ on: false, unwatched: ['mixed_up', 'warm_beer'] });
    expect(c.store.autoPassOf(g, 1)).toEqual(b.store.autoPassOf(game, 1));
  });

  it('has defaults that keep a whole game', () => {
    expect(DEFAULT_LIMITS.stateMaxFileBytes).toBeGreaterThan(50_000);
  });
});
