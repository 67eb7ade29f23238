import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { randInt, seedRng, type RngState } from '../env/index.ts';
import { buildServer } from './app.ts';
import { GameStore } from './games.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-restart-'));
const apps: FastifyInstance[] = [];
const dirs = [dir];
afterAll(async () => {
  for (const a of apps) await a.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-restart-'));
  dirs.push(d);
  return d;
}

async function serve(on = dir, notice: (line: string) => void = () => {}): Promise<FastifyInstance> {
  const app = await buildServer({ rateLimit: 0, stateDir: on, notice });
  apps.push(app);
  return app;
}

const get = async (app: FastifyInstance, url: string, token?: string) => {
  const res = await app.inject({ url, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.statusCode, body: res.json() as Record<string, any> };
};

describe('a server restarted on its state dir', () => {
  it('answers the same views and history after the restart, the history paged and equal to the views step by step', async () => {
    const first = await serve();
    const made = await first.inject({ method: 'POST', url: '/v1/games', payload: { seats: ['remote', 'random', 'random'] } });
    const { id, tokens, watchToken } = made.json() as { id: string; tokens: { token: string }[]; watchToken: string };
    const token = tokens[0].token;
    for (let i = 0; i < 8; i++) {
      const v = await get(first, `/v1/games/${id}/view`, token);
      if (v.body.done) break;
      await first.inject({ method: 'POST', url: `/v1/games/${id}/actions`, headers: { authorization: `Bearer ${token}` }, payload: { action: v.body.legalActions[0].id } });
    }
    const before = await get(first, `/v1/games/${id}/view`, token);
    const steps = before.body.step as number;
    expect(steps).toBeGreaterThan(8);
    await first.close();

    const second = await serve();
    const after = await get(second, `/v1/games/${id}/view`, token);
    expect(after.body).toEqual(before.body);
    expect((await get(second, `/v1/games/${id}/view`, watchToken)).body.seat).toBeNull();

    // Paged by 5: every step's action and events as the seat saw them, equal to view?at=K.
    const entries: any[] = [];
    for (let from: number | null = 0; from !== null;) {
      const page = await get(second, `/v1/games/${id}/history?from=${from}&limit=5`, token);
      expect(page.status).toBe(200);
      expect(page.body.entries.length).toBeLessThanOrEqual(5);
      entries.push(...page.body.entries);
      from = page.body.next;
    }
    expect(entries.map((e) => e.step)).toEqual([...Array(steps + 1).keys()]);
    for (const k of [0, 1, Math.floor(steps / 2), steps]) {
      const at = await get(second, `/v1/games/${id}/view?at=${k}`, token);
      expect(entries[k]).toEqual({ step: k, lastAction: at.body.lastAction, events: at.body.events });
    }
    expect((await get(second, `/v1/games/${id}/history?from=${steps + 1}`, token)).status).toBe(400);
  });

  it('says plainly that a game it does not hold is gone, with a code a page can act on', async () => {
    const app = await serve();
    const res = await get(app, '/v1/games/AAAAAAAAAAAA/view', 'whatever');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('game-gone');
    expect(res.body.error).toMatch(/is gone: this server no longer holds it .*start a new game/);
  });
});

describe('a server starting on a state dir', () => {
  /** Games on `on`: `live` in progress (a remote seat and a bot, a few moves made) and `over` finished (bots only). */
  async function fill(on: string, live: number, over: number) {
    const app = await serve(on);
    const games: { id: string; token: string; watch: string; before: Record<string, any> }[] = [];
    const finished: { id: string; watch: string; before: Record<string, any> }[] = [];
    for (let i = 0; i < live; i++) {
      const made = (await app.inject({ method: 'POST', url: '/v1/games', payload: { seats: ['remote', 'random', 'heuristic'] } })).json();
      const token = made.tokens[0].token;
      const v = await get(app, `/v1/games/${made.id}/view`, token);
      await app.inject({ method: 'POST', url: `/v1/games/${made.id}/actions`, headers: { authorization: `Bearer ${token}` }, payload: { action: v.body.legalActions[0].id } });
      games.push({ id: made.id, token, watch: made.watchToken, before: (await get(app, `/v1/games/${made.id}/view`, token)).body });
    }
    for (let i = 0; i < over; i++) {
      const made = (await app.inject({ method: 'POST', url: '/v1/games', payload: { seats: ['random', 'random', 'greedy'] } })).json();
      finished.push({ id: made.id, watch: made.watchToken, before: (await get(app, `/v1/games/${made.id}/replay`, made.watchToken)).body });
    }
    await app.close();
    return { live: games, over: finished };
  }

  it('answers before its games are restored, replays only those in progress, and holds a request for a game until its restore is done', async () => {
    const on = tmp();
    const made = await fill(on, 2, 3);
    const restore = GameStore.prototype.restore;
    const asked: string[] = [];
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    // Every restore held up until the gate opens: whatever the server answers meanwhile, it answers without them.
    const spy = vi.spyOn(GameStore.prototype, 'restore').mockImplementation(async function (this: GameStore, g) {
      asked.push(g.head.id);
      await gate;
      return restore.call(this, g);
    });
    try {
      const app = await serve(on);
      expect((await get(app, '/healthz')).status).toBe(200);
      expect((await get(app, '/v1/games')).status).toBe(200);
      const [a] = made.live;
      let answered = false;
      const view = get(app, `/v1/games/${a.id}/view`, a.token).then((r) => ((answered = true), r));
      for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
      expect(answered).toBe(false);
      expect((await get(app, '/healthz')).status).toBe(200);
      release();
      expect(await view).toEqual({ status: 200, body: a.before });
      for (const g of made.live) expect(await get(app, `/v1/games/${g.id}/view`, g.token)).toEqual({ status: 200, body: g.before });
      expect([...asked].sort()).toEqual(made.live.map((g) => g.id).sort());
      // A finished game is read when asked for: its replay as it was, one restore more.
      const over = made.over[1];
      expect(await get(app, `/v1/games/${over.id}/replay`, over.watch)).toEqual({ status: 200, body: over.before });
      expect(asked).toHaveLength(made.live.length + 1);
    } finally {
      spy.mockRestore();
    }
  });

  /**
   * Tampering, generated: a seeded generator changes one thing in a copy of a real game's
   * files (a field to a wrong type, out of range, a name with bidi or invisible characters, a
   * line cut short or replaced by garbage, lines dropped or repeated, the settings file
   * broken). Whatever the change, the server starts, no route answers 500, and each copy is
   * either a game it serves or a file set aside with one line naming it.
   */
  it('restores or sets aside every tampered file, never throws, and answers no route with a 500', async () => {
    const on = tmp();
    const first = await serve(on);
    const made = (await first.inject({ method: 'POST', url: '/v1/games', payload: { seats: ['remote', 'open', 'random'], names: ['Anna'] } })).json();
    const joined = (await first.inject({ method: 'POST', url: `/v1/games/${made.id}/join`, payload: { name: 'Bo' } })).json();
    await first.inject({ method: 'PUT', url: `/v1/games/${made.id}/settings`, headers: { authorization: `Bearer ${made.tokens[0].token}` }, payload: { autoPass: false, unwatched: ['warm_beer'] } });
    const over = (await first.inject({ method: 'POST', url: '/v1/games', payload: { seats: ['random', 'greedy'] } })).json();
    await first.close();
    const base = (id: string) => ({
      lines: fs.readFileSync(path.join(on, `${id}.jsonl`), 'utf8').split('\n').slice(0, -1),
      settings: fs.existsSync(path.join(on, `${id}.settings.json`)) ? fs.readFileSync(path.join(on, `${id}.settings.json`), 'utf8') : null,
    });
    const bases = [base(made.id), base(over.id)];

    const variants = new Map<string, string>();
    const rng = seedRng('state-dir tampering');
    const write = (id: string, lines: string[], settings: string | null, what: string) => {
      fs.writeFileSync(path.join(on, `${id}.jsonl`), lines.map((l) => `${l}\n`).join(''));
      if (settings !== null) fs.writeFileSync(path.join(on, `${id}.settings.json`), settings);
      variants.set(id, what);
    };
    // The cases, named; then generated ones.
    const named: [string, (lines: string[]) => string[]][] = [
      ['"chosen":"yes"', (ls) => [JSON.stringify({ ...JSON.parse(ls[0]), chosen: 'yes' }), ...ls.slice(1)]],
      ['a name with U+202E', (ls) => [JSON.stringify({ ...JSON.parse(ls[0]), names: ['evil\u202Eeman'] }), ...ls.slice(1)]],
      ['a seed of 30,000 characters', (ls) => [JSON.stringify({ ...JSON.parse(ls[0]), seed: 'x'.repeat(30_000) }), ...ls.slice(1)]],
      ['a line cut short before the last', (ls) => [ls[0], ls[1].slice(0, 7), ...ls.slice(2)]],
      ['garbage', (ls) => [ls[0], '\u0000\u00ff{{{', ...ls.slice(1)]],
    ];
    named.forEach(([what, change], i) => write(idOf(i), withId(change(bases[0].lines), idOf(i)), bases[0].settings, what));
    for (let i = named.length; i < named.length + 60; i++) {
      const b = bases[randInt(rng, bases.length)];
      const { lines, settings, what } = tamper(rng, b.lines, b.settings);
      write(idOf(i), withId(lines, idOf(i)), settings, what);
    }

    const notices: string[] = [];
    const app = await serve(on, (l) => notices.push(l));
    const seat = made.tokens[0].token;
    const statuses: number[] = [];
    for (const [id, what] of variants) {
      const routes: [string, string, string | undefined, object?][] = [
        ['GET', `/v1/games/${id}/view`, seat], ['GET', `/v1/games/${id}/view`, made.watchToken], ['GET', `/v1/games/${id}/view?at=0`, joined.token],
        ['GET', `/v1/games/${id}/view`, over.watchToken], ['GET', `/v1/games/${id}/events`, seat], ['GET', `/v1/games/${id}/history?limit=3`, made.watchToken],
        ['GET', `/v1/games/${id}/preview`, joined.token], ['GET', `/v1/games/${id}/settings`, seat], ['PUT', `/v1/games/${id}/settings`, joined.token, { autoPass: true }],
        ['GET', `/v1/games/${id}/replay`, over.watchToken], ['GET', `/v1/games/${id}/replay/1`, over.watchToken], ['POST', `/v1/games/${id}/join`, undefined, {}],
        ['POST', `/v1/games/${id}/actions`, seat, { action: 100_000 }],
      ];
      for (const [method, url, token, payload] of routes) {
        const res = await app.inject({ method: method as 'GET', url, payload, headers: token ? { authorization: `Bearer ${token}` } : {} });
        expect(res.statusCode, `${what}: ${method} ${url}: ${res.body}`).toBeLessThan(500);
        statuses.push(res.statusCode);
      }
      const asideFile = path.join(on, 'rejected', `${id}.jsonl`);
      const told = notices.filter((l) => l.includes(id));
      if (fs.existsSync(asideFile)) {
        expect(told, what).toHaveLength(1);
        expect(told[0], what).toMatch(new RegExp(`^game ${id} not restored: .+; its file .*${id}\\.jsonl was moved to .*rejected$`));
        expect(fs.existsSync(path.join(on, `${id}.jsonl`)), what).toBe(false);
        expect((await get(app, `/v1/games/${id}/view`, seat)).status, what).toBe(404);
      } else {
        expect(told, what).toEqual([]);
        expect((await get(app, `/v1/games/${id}/view`, over.watchToken)).status, what).not.toBe(404);
      }
    }
    for (let i = 0; i < named.length; i++) expect(fs.existsSync(path.join(on, 'rejected', `${idOf(i)}.jsonl`)), named[i][0]).toBe(true);
    expect((await get(app, '/v1/games')).status).toBe(200);
    // The sweep reached both kinds: some copies served, some set aside.
    const aside = fs.readdirSync(path.join(on, 'rejected')).filter((f) => f.endsWith('.jsonl')).length;
    expect(aside).toBeGreaterThan(named.length);
    expect(aside).toBeLessThan(variants.size);
    expect(statuses).toContain(200);
  });
});

/** The id of the i-th tampered copy: a server-made id's shape. */
const idOf = (i: number) => `t${String(i).padStart(11, '0')}`;

/** A copy's lines with its head naming `id` (a head that no longer parses is left as it is). */
function withId(lines: string[], id: string): string[] {
  try {
    return [JSON.stringify({ ...JSON.parse(lines[0]), id }), ...lines.slice(1)];
  } catch {
    return lines;
  }
}

/** Values of the wrong type, out of range, or names the rule for names refuses. */
const BAD_VALUES: unknown[] = [
  'yes', '', 1, -1, 1.5, 1e9, true, false, null, [], {}, [1, 2], 'x'.repeat(30_000),
  'evil\u202Eeman', '\u3164', 'a\u200Bb', 'c1\u0085', '\u2800', '\u0301', ' Anna ', 'ff'.repeat(32), 'random\ngame forged: a line of its own',
];

const pick = <T>(rng: RngState, xs: readonly T[]): T => xs[randInt(rng, xs.length)];

/** One change to a game's files, chosen by `rng`, and what it was. */
function tamper(rng: RngState, lines: string[], settings: string | null): { lines: string[]; settings: string | null; what: string } {
  const out = [...lines];
  const kind = randInt(rng, 8);
  const at = randInt(rng, out.length);
  if (kind <= 3) {
    // A field of a line (or an element of an array field) set to a bad value, or removed.
    const rec = JSON.parse(out[at]) as Record<string, unknown>;
    const key = pick(rng, Object.keys(rec));
    const value = pick(rng, BAD_VALUES);
    const field = rec[key];
    let what: string;
    if (Array.isArray(field) && field.length > 0 && randInt(rng, 2) === 0) {
      const i = randInt(rng, field.length);
      const el = field[i];
      if (el !== null && typeof el === 'object') {
        const sub = pick(rng, Object.keys(el));
        (el as Record<string, unknown>)[sub] = value;
        what = `line ${at + 1}: ${key}[${i}].${sub} = ${JSON.stringify(value).slice(0, 40)}`;
      } else {
        field[i] = value;
        what = `line ${at + 1}: ${key}[${i}] = ${JSON.stringify(value).slice(0, 40)}`;
      }
    } else if (randInt(rng, 5) === 0) {
      delete rec[key];
      what = `line ${at + 1}: ${key} removed`;
    } else {
      rec[key] = value;
      what = `line ${at + 1}: ${key} = ${JSON.stringify(value).slice(0, 40)}`;
    }
    out[at] = JSON.stringify(rec);
    return { lines: out, settings, what };
  }
  if (kind === 4) {
    out[at] = out[at].slice(0, randInt(rng, out[at].length));
    return { lines: out, settings, what: `line ${at + 1} cut short` };
  }
  if (kind === 5) {
    out.splice(at, 0, pick(rng, ['{', 'null', '[]', '"a"', '{"t":"a"}', '\u0000garbage', '{"t":"a","k":0,"a":0,"end":true}']));
    return { lines: out, settings, what: `garbage before line ${at + 1}` };
  }
  if (kind === 6) {
    if (randInt(rng, 2) === 0) out.splice(at, 1);
    else out.splice(at, 0, out[at]);
    return { lines: out, settings, what: `line ${at + 1} dropped or repeated` };
  }
  const broken = pick(rng, ['{', '[]', '{"v":1,"seats":[{"seat":9,"on":true,"unwatched":[]}]}', '{"v":1,"seats":[{"seat":0,"on":"yes","unwatched":[]}]}', '{"v":2,"seats":[]}']);
  return { lines: out, settings: broken, what: `settings file ${broken}` };
}
