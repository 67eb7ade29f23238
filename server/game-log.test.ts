import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RandomAgent } from '../agents/index.ts';
import { CzechPubEnv } from '../env/index.ts';
import { Catalogue } from './catalogue.ts';
import { DEFAULT_LIMITS } from './config.ts';
import { GameLog, LogFormatError, parseGameLog, type StateLimits } from './game-log.ts';
import { Restorer } from './restorer.ts';
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

/** A store on `dir` (a server start): the games in progress the dir holds restored (finished ones wait until asked for). */
async function start(dir: string, state: Partial<StateLimits> = {}, notices: string[] = []) {
  const log = new GameLog(dir, { ...STATE, ...state }, (l) => notices.push(l));
  const store = new GameStore(LIMITS, new Catalogue(), null, undefined, undefined, log);
  const restorer = new Restorer(log, store, (l) => notices.push(l), LIMITS.idleMs);
  await restorer.done;
  const restored = restorer.restored;
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

  it('sets aside in rejected/ a file damaged before its last line, with one line naming it and the fault, and goes on', async () => {
    const dir = tmp();
    const b = await start(dir);
    const { game } = await b.store.create({ seats: ['remote', 'random'], seed: 'bad', reward: 'win' });
    const { game: good } = await b.store.create({ seats: ['remote', 'random'], seed: 'good', reward: 'win' });
    await playTo(b.store, game, 6);
    const file = path.join(dir, `${game.id}.jsonl`);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines[2] = '{"t":"a","k":1';
    fs.writeFileSync(file, lines.join('\n'));
    const c = await start(dir);
    expect(c.restored).toBe(1);
    expect(() => c.store.get(good.id)).not.toThrow();
    expect(() => c.store.get(game.id)).toThrow(expect.objectContaining({ status: 404 }));
    const told = c.notices.filter((l) => l.includes(game.id));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(new RegExp(`^game ${game.id} not restored: line 3 is not JSON; its file .*${game.id}\\.jsonl was moved to .*rejected$`));
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.existsSync(path.join(dir, 'rejected', `${game.id}.jsonl`))).toBe(true);
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
    await new Restorer(log, store, () => {}, LIMITS.idleMs).done;
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
    await b.store.setAutoPass(game, 0, { unwatched: ['mixed_up', 'warm_beer'], on: false, windows: 'answering' });
    const c = await start(dir);
    const g = c.store.get(game.id);
    expect(g.names).toEqual(['Anna', 'Bo', game.names[2]]);
    expect(c.store.autoPassOf(g, 0)).toEqual({ on: false, unwatched: ['mixed_up', 'warm_beer'], windows: 'answering' });
    expect(c.store.autoPassOf(g, 1)).toEqual(b.store.autoPassOf(game, 1));
  });

  it('has defaults that keep a whole game', () => {
    expect(DEFAULT_LIMITS.stateMaxFileBytes).toBeGreaterThan(50_000);
  });
});

describe('auto-pass settings in the state dir', () => {
  it('are a value, not an append: a flood of changes leaves the log as it was, the settings file small, and the game kept', async () => {
    const dir = tmp();
    const notices: string[] = [];
    const b = await start(dir, { stateMaxFileBytes: 4096 }, notices);
    const { game } = await b.store.create({ seats: ['remote', 'open', 'heuristic'], seed: 'flood', reward: 'win' });
    b.store.join(game, 1, 'joiner');
    const file = path.join(dir, `${game.id}.jsonl`);
    const settingsFile = path.join(dir, `${game.id}.settings.json`);
    const before = { size: fs.statSync(file).size, actions: game.env.actions.length };
    const writes = vi.spyOn(fs, 'writeFileSync');
    const settingsWrites = () => writes.mock.calls.filter(([f]) => String(f).startsWith(settingsFile)).length;
    try {
      // The joiner floods, each PUT a change: appended, 2,000 of these passed 4 kB many times over.
      for (let i = 0; i < 2000; i++) await b.store.setAutoPass(game, 1, { on: i % 2 === 1, unwatched: i % 3 === 0 ? ['warm_beer'] : [] });
      await b.store.setAutoPass(game, 1, { on: false, unwatched: ['mixed_up'] });
      expect(settingsWrites()).toBe(2001);
      expect(game.env.actions.length).toBe(before.actions);
      expect(fs.statSync(file).size).toBe(before.size);
      expect(fs.statSync(settingsFile).size).toBeLessThan(200);
      // An unchanged value writes nothing.
      writes.mockClear();
      for (let i = 0; i < 1000; i++) await b.store.setAutoPass(game, 1, { on: false, unwatched: ['mixed_up'] });
      await b.store.setAutoPass(game, 0, { on: true, unwatched: [] }); // the default, as seat 0 holds it
      expect(writes).not.toHaveBeenCalled();
    } finally {
      writes.mockRestore();
    }
    expect(notices.join('\n')).not.toMatch(/no longer kept/);
    expect(fs.existsSync(file)).toBe(true);
    const c = await start(dir, { stateMaxFileBytes: 4096 });
    const g = c.store.get(game.id);
    expect(c.store.autoPassOf(g, 1)).toEqual({ on: false, unwatched: ['mixed_up'], windows: 'all' });
    expect(c.store.autoPassOf(g, 0)).toEqual({ on: true, unwatched: [], windows: 'all' });
  });
});

describe('the state dir is private', () => {
  const mode = (p: string) => fs.statSync(p).mode & 0o777;

  it('makes its folder 0700 and every file 0600, and tightens ones made otherwise at start', async () => {
    const dir = path.join(tmp(), 'state', 'games');
    const b = await start(dir);
    const { game } = await b.store.create({ seats: ['remote', 'random'], seed: 'modes', reward: 'win' });
    await b.store.setAutoPass(game, 0, { on: false });
    const file = path.join(dir, `${game.id}.jsonl`);
    const settings = path.join(dir, `${game.id}.settings.json`);
    expect([mode(dir), mode(file), mode(settings)]).toEqual([0o700, 0o600, 0o600]);

    fs.chmodSync(dir, 0o755);
    fs.chmodSync(file, 0o644);
    fs.chmodSync(settings, 0o666);
    const c = await start(dir);
    expect(c.restored).toBe(1);
    expect([mode(dir), mode(file), mode(settings)]).toEqual([0o700, 0o600, 0o600]);
    // What is set aside stays private too.
    fs.appendFileSync(file, 'not json\n{}\n');
    await start(dir);
    expect([mode(path.join(dir, 'rejected')), mode(path.join(dir, 'rejected', `${game.id}.jsonl`))]).toEqual([0o700, 0o600]);
  });
});

describe('start-up: the games in progress in the background, the finished ones when asked for', () => {
  /** A store on `dir` whose restores are counted (and, for the ids in `hold`, held until `release`). */
  function counted(dir: string, clock = { t: Date.now() }, hold: string[] = []) {
    const log = new GameLog(dir, STATE, () => {}, () => clock.t);
    const store = new GameStore(LIMITS, new Catalogue(), null, () => clock.t, undefined, log);
    const restored: string[] = [];
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const notices: string[] = [];
    const restorer = new Restorer(log, {
      restore: async (g) => {
        if (hold.includes(g.head.id)) await gate;
        restored.push(g.head.id);
        return store.restore(g);
      },
    }, (l) => notices.push(l), LIMITS.idleMs, () => clock.t);
    return { store, restorer, restored, release, notices, clock };
  }

  /** `live` games in progress and `finished` games over (bots only: played to the end as they are made), on one dir. */
  async function fill(dir: string, live: number, finished: number) {
    const b = await start(dir);
    const liveGames: LiveGame[] = [];
    const over: LiveGame[] = [];
    for (let i = 0; i < live; i++) {
      const { game } = await b.store.create({ seats: ['remote', 'heuristic', 'random'], seed: `live${i}`, reward: 'win' });
      await playTo(b.store, game, 10 + i);
      liveGames.push(game);
    }
    for (let i = 0; i < finished; i++) over.push((await b.store.create({ seats: ['heuristic', 'random', 'greedy'], seed: `over${i}`, reward: 'win' })).game);
    b.store.closeAll();
    for (const g of over) expect(g.env.done).toBe(true);
    return { live: liveGames, over };
  }

  it('replays only the games in progress at start; a finished one is restored when asked for, whole, without its bots asked again', async () => {
    const dir = tmp();
    const made = await fill(dir, 3, 5);
    const { store, restorer, restored, notices } = counted(dir);
    await restorer.done;
    expect([...restored].sort()).toEqual(made.live.map((g) => g.id).sort());
    expect(notices.join('\n')).toMatch(/restored 3 of 3 games in progress .*; 5 finished games there are restored when asked for/);
    for (const g of made.live) expect([...store.get(g.id).env.actions]).toEqual([...g.env.actions]);

    const over = made.over[2];
    expect(() => store.get(over.id)).toThrow(expect.objectContaining({ status: 404 }));
    const randomAsked = vi.spyOn(RandomAgent.prototype, 'act');
    try {
      await restorer.ready(over.id);
      expect(randomAsked).not.toHaveBeenCalled();
    } finally {
      randomAsked.mockRestore();
    }
    expect(restored).toHaveLength(4);
    const g = store.get(over.id);
    expect(g.env.done).toBe(true);
    expect([...g.env.actions]).toEqual([...over.env.actions]);
    for (const k of [0, 5, g.env.actions.length]) expect(shown(g, k)).toEqual(shown(over, k));
    // Asked again: nothing more to do; an id the dir never held: nothing to wait for.
    expect(restorer.ready(over.id)).toBeUndefined();
    expect(restorer.ready('AAAAAAAAAAAA')).toBeUndefined();
    expect(restored).toHaveLength(4);
  });

  it('removes the files of finished games nobody asked for within idleMs of the start', async () => {
    const dir = tmp();
    const made = await fill(dir, 1, 2);
    const { restorer, clock } = counted(dir);
    await restorer.done;
    await restorer.ready(made.over[0].id);
    restorer.expire();
    expect(fs.existsSync(path.join(dir, `${made.over[1].id}.jsonl`))).toBe(true);
    clock.t += LIMITS.idleMs + 1;
    restorer.expire();
    expect(fs.existsSync(path.join(dir, `${made.over[1].id}.jsonl`))).toBe(false);
    expect(restorer.ready(made.over[1].id)).toBeUndefined();
    // The one asked for is a held game now: the store expires it as any other.
    expect(fs.existsSync(path.join(dir, `${made.over[0].id}.jsonl`))).toBe(true);
  });

  it('restores a game asked for ahead of its turn while another restore is held up, and finishes once that one is let go', async () => {
    const dir = tmp();
    const made = await fill(dir, 3, 0);
    const [first, , last] = made.live;
    // The newest file is restored first: make `first` the one the background starts with, and hold it.
    const at = Date.now() / 1000;
    made.live.forEach((g, i) => fs.utimesSync(path.join(dir, `${g.id}.jsonl`), at - i, at - i));
    const { store, restorer, restored, release } = counted(dir, undefined, [first.id]);
    let done = false;
    void restorer.done.then(() => (done = true));
    await restorer.ready(last.id);
    expect(restored).toEqual([last.id]);
    expect([...store.get(last.id).env.actions]).toEqual([...last.env.actions]);
    const waiting = restorer.ready(first.id);
    expect(waiting).toBeDefined();
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    expect(() => store.get(first.id)).toThrow(expect.objectContaining({ status: 404 }));
    release();
    await waiting;
    await restorer.done;
    expect(done).toBe(true);
    expect([...restored].sort()).toEqual(made.live.map((g) => g.id).sort());
    expect([...store.get(first.id).env.actions]).toEqual([...first.env.actions]);
  });
});

describe('what a file holds is checked again when it is read', () => {
  /** A whole, valid file: a game with an open seat joined and named, and a few actions. */
  async function validFile() {
    const dir = tmp();
    const b = await start(dir);
    const { game } = await b.store.create({ seats: ['remote', 'open', 'random'], names: ['Anna'], seed: 'check', reward: 'win' });
    b.store.join(game, 1, 'friend', 'Bo');
    while (game.env.actor === 0 && game.env.actions.length < 8) await b.store.act(game, 0, game.env.legalActions()[0]);
    expect(game.env.actions.length).toBeGreaterThan(0);
    return fs.readFileSync(path.join(dir, `${game.id}.jsonl`), 'utf8').split('\n').slice(0, -1).map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  it('refuses, naming the line and the field: wrong types, out of range, names the rule for names refuses, a seed too long, records out of order', async () => {
    const lines = await validFile();
    const text = (ls: Record<string, unknown>[]) => `${ls.map((l) => JSON.stringify(l)).join('\n')}\n`;
    expect(parseGameLog(text(lines)).joins[0].name).toBe('Bo');
    const joinAt = lines.findIndex((l) => l.t === 'join');
    const actionAt = lines.findIndex((l) => l.t === 'a');
    const cases: [string, (ls: Record<string, unknown>[]) => void, RegExp][] = [
      ['chosen a string', (ls) => (ls[0].chosen = 'yes'), /^line 1, the game: 'chosen' /],
      ['a bidi override in a name', (ls) => (ls[0].names = ['evil\u202Eeman']), /^line 1, the game: 'names\.0' not a name/],
      ['a name of Hangul fillers', (ls) => (ls[0].names = ['\u3164\u3164']), /'names\.0' not a name/],
      ['a name with spaces around it', (ls) => (ls[0].names = [' Anna ']), /'names\.0' not a name/],
      ['a joiner\'s zero-width name', (ls) => (ls[joinAt].name = 'B\u200Bo'), new RegExp(`^line ${joinAt + 1}: 'name' not a name`)],
      ['a seed of 30,000 characters', (ls) => (ls[0].seed = 'x'.repeat(30_000)), /^line 1, the game: 'seed' /],
      ['a token hash that is no hash', (ls) => ((ls[0].tokens as { hash: string }[])[0].hash = 'abc'), /'tokens\.0\.hash' a SHA-256 in hex/],
      ['a token for a bot\'s seat', (ls) => ((ls[0].tokens as { seat: number }[])[0].seat = 2), /token seat 2 is not a 'remote' seat/],
      ['seven seats', (ls) => (ls[0].specs = Array(7).fill('remote')), /'specs' /],
      ['an unknown reward', (ls) => (ls[0].reward = 'gold'), /'reward' /],
      ['a field the server never writes', (ls) => (ls[0].extra = 1), /^line 1, the game: /],
      ['an action id out of range', (ls) => (ls[actionAt].a = 100_000), new RegExp(`^line ${actionAt + 1}: 'a' `)],
      ['a fractional action', (ls) => (ls[actionAt].a = 1.5), new RegExp(`^line ${actionAt + 1}: 'a' `)],
      ['actions out of order', (ls) => (ls[actionAt].k = 3), new RegExp(`^line ${actionAt + 1}: action 3 where action 0 comes next`)],
      ['a join of a remote seat', (ls) => (ls[joinAt].seat = 0), /join: seat 0 is not an open seat/],
      ['a join past the seats', (ls) => (ls[joinAt].seat = 5), /join: seat 5: the game has 3 seats/],
      ['settings for a bot\'s seat', (ls) => ls.push({ t: 'settings', seat: 2, on: true, unwatched: [] }), /settings: seat 2 is a bot's/],
      ['a record after the end', (ls) => {
        ls[ls.length - 1] = { ...ls[ls.length - 1], end: true };
        ls.push({ t: 'fault', step: 0, seat: 2, reason: 'x' });
      }, /a record after the end of the game/],
      ['an unknown record', (ls) => ls.push({ t: 'shell', cmd: 'rm' }), /^line \d+: 't' /],
    ];
    for (const [what, change, fault] of cases) {
      const ls = structuredClone(lines);
      change(ls);
      expect(() => parseGameLog(text(ls)), what).toThrow(LogFormatError);
      expect(() => parseGameLog(text(ls)), what).toThrow(fault);
    }
    expect(() => parseGameLog(text(lines), '{"v":1,"seats":[{"seat":1,"on":"no","unwatched":[]}]}')).toThrow(/^the settings file: 'seats\.0\.on' /);
    expect(() => parseGameLog(text(lines), '{"v":1,"seats":[{"seat":2,"on":true,"unwatched":[]}]}')).toThrow(/^the settings file: seat 2 is a bot's/);
    expect(parseGameLog(text(lines), '{"v":1,"seats":[{"seat":1,"on":false,"unwatched":["warm_beer"]}]}').settings).toEqual([{ seat: 1, on: false, unwatched: ['warm_beer'], windows: 'all' }]);
    expect(() => parseGameLog(text(lines), '{"v":1,"seats":[{"seat":1,"on":true,"unwatched":[],"windows":"few"}]}')).toThrow(/^the settings file: 'seats\.0\.windows' /);
  });

  it('restores a game dealt before askForced was recorded as it was dealt then: only the seats with a choice asked', async () => {
    const dir = tmp();
    const a = await start(dir);
    const { game } = await a.store.create({ seats: ['remote', 'remote'], seed: 'before-forced', seedChosen: true, reward: 'win' });
    const file = path.join(dir, `${game.id}.jsonl`);
    const head = JSON.parse(fs.readFileSync(file, 'utf8').split('\n')[0]) as Record<string, unknown>;
    expect(head.askForced).toBe(true);
    // What a server of before wrote: a head without askForced, and only the decisions with a choice.
    delete head.askForced;
    const fast = new CzechPubEnv({ seed: 'before-forced', players: 2, log: false });
    for (let k = 0; k < 30 && !fast.done; k++) fast.step(pick(fast.legalActions(), k));
    fs.writeFileSync(file, [head, ...fast.actions.map((act, k) => ({ t: 'a', k, a: act }))].map((l) => `${JSON.stringify(l)}\n`).join(''));
    const b = await start(dir);
    expect(b.restored).toBe(1);
    const restored = b.store.get(game.id);
    expect(restored.env.config.askForced).toBe(false);
    expect(restored.env.actions).toEqual(fast.actions);
  });
});
