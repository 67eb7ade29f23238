import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CzechPubEnv } from '../env/env.ts';
import { randInt, seedRng } from '../env/rng.ts';
import { gameLine } from '../eval/game-line.ts';
import { encodeReplay, recordOf, type ReplayRecord } from '../eval/replay-record.ts';
import { buildServer } from './app.ts';
import { MAX_SEED } from './schemas.ts';

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildServer({ rateLimit: 0 });
});

afterAll(async () => {
  await app.close();
});

/** A finished game between random players, as its record. */
function playedRecord(seed: string, players = 3): { record: ReplayRecord; scores: number[] } {
  const env = new CzechPubEnv({ seed, players, log: false });
  const rng = seedRng(`${seed}:moves`);
  while (!env.done) {
    const legal = env.legalActions();
    env.step(legal[randInt(rng, legal.length)]);
  }
  return { record: recordOf(env, seed, false), scores: env.scores() };
}

const post = async (payload: unknown) => {
  const res = await app.inject({ method: 'POST', url: '/v1/replays', payload: payload as object });
  return { status: res.statusCode, body: res.json() as Record<string, any> };
};

describe('POST /v1/replays', () => {
  it('opens a link and a record as finished games whose replay frames end on the recorded scores', async () => {
    const { record, scores } = playedRecord('replay-1');
    for (const payload of [{ link: encodeReplay(record) }, { record, seats: ['heuristic', 'ppo', 'random'] }]) {
      const r = await post(payload);
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ players: 3, steps: record.actions.length, scores });
      const last = await app.inject({ url: `/v1/games/${r.body.id}/replay/${r.body.steps}`, headers: { authorization: `Bearer ${r.body.watchToken}` } });
      expect(last.statusCode).toBe(200);
      expect(last.json().scores).toEqual(scores);
      const first = await app.inject({ url: `/v1/games/${r.body.id}/replay/1`, headers: { authorization: `Bearer ${r.body.watchToken}` } });
      expect(first.json().next.id).toBe(record.actions[1]);
    }
    expect((await post({ record, seats: ['a', 'b', 'c'] })).body.seats).toEqual(['a', 'b', 'c']);
    // An r2 link names its seats; an r1 link's seats are unnamed; names sent beside a link win.
    const labelled = encodeReplay({ ...record, seats: ['heuristic', 'ismcts:iterations=20', 'random'] });
    expect((await post({ link: labelled })).body).toMatchObject({ seats: ['heuristic', 'ismcts:iterations=20', 'random'], scores });
    expect((await post({ link: encodeReplay(record) })).body.seats).toEqual(['tournament seat', 'tournament seat', 'tournament seat']);
    expect((await post({ link: labelled, seats: ['x', 'y', 'z'] })).body.seats).toEqual(['x', 'y', 'z']);
    // A tournament's games.jsonl line as eval writes it: its agents name the seats.
    const names = ['heuristic', 'greedy', 'random'];
    const line = gameLine({ index: 7, deal: 7, seed: record.seed, seating: [2, 0, 1], scores, points: scores, winners: [], turns: 0, decisions: record.actions.length, out: [null, null, null], truncated: false, agentDecisions: [0, 0, 0], agentMillis: [0, 0, 0], actions: record.actions }, names, false, record.ruleset);
    const fromLine = await post({ line });
    expect(fromLine).toMatchObject({ status: 201, body: { seats: ['random', 'heuristic', 'greedy'], scores } });
  });

  it('refuses, naming the problem: a malformed link (400), another ruleset, an illegal action or an early stop (422), a bad shape (400)', async () => {
    const { record } = playedRecord('replay-2', 2);
    expect(await post({ link: 'r1.9.0.ab.cw.AA' })).toMatchObject({ status: 400, body: { error: "link: the replay link's players must be 2–6" } });
    expect((await post({ link: 'x' })).body.error).toMatch(/^link: unknown replay link version 'x'/);
    expect((await post({ link: 'r1.2.0.ab.cw' })).body.error).toMatch(/^link: an r1 replay link has 6 parts/);
    expect((await post({ record: { ...record, ruleset: 'abc123' } })).body.error).toMatch(/played under ruleset abc123, this one is/);
    expect((await post({ record: { ...record, ruleset: 'abc123' } })).status).toBe(422);
    const illegal = [...record.actions];
    illegal[0] = 197; // a shot choice where the first player chooses what to play
    expect(await post({ record: { ...record, actions: illegal } })).toMatchObject({ status: 422, body: { error: expect.stringMatching(/^action 197 at step 0 is not legal there/) } });
    expect((await post({ record: { ...record, actions: record.actions.slice(0, 5) } })).body.error).toMatch(/stops after 5 actions/);
    expect((await post({ record: { ...record, actions: [300] } })).status).toBe(400);
    expect((await post({ record: { ...record, path: '/etc/passwd' } })).body.error).toMatch(/invalid request/);
    expect((await post({ link: encodeReplay(record), seats: ['only one'] })).body.error).toBe('seats: the game has 2 players, 1 names were sent');
    for (const bad of ['a\u0007', 'evil\u202Eeman', 'zero\u200Bwidth', 'c1\u0085', '\u3164', '\u2800\u2800', '\u0301', ' ']) {
      const r = await post({ record, seats: [bad, 'b'] });
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.error, JSON.stringify(bad)).toMatch(/^invalid request: .*a seat name: a name (may not hold control or invisible characters|needs at least one visible character)/s);
    }
    expect((await post({ record, seats: ['Bára 🦊', '李小龍'] })).status).toBe(201);
    expect(await post({ line: '{"index":1' })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^line: not JSON/) } });
    expect((await post({ line: JSON.stringify({ index: 0, seed: 'x' }) })).body.error).toMatch(/^line: it has no actions/);
    expect((await post({ link: 'a'.repeat(9000) })).status).toBe(400);
  });

  it('bounds a replay\'s seed as a game\'s, however it comes (a line, a link, a record), naming the fault; labels the rule for names refuses show as `seat N`', async () => {
    const { record, scores } = playedRecord('replay-seed', 2);
    const long = 'x'.repeat(30_000);
    const line = (seed: string, agents = ['heuristic', 'random']) => gameLine({ index: 0, deal: 0, seed, seating: [0, 1], scores, points: scores, winners: [], turns: 0, decisions: record.actions.length, out: [null, null], truncated: false, agentDecisions: [0, 0], agentMillis: [0, 0], actions: record.actions }, agents, record.askForced, record.ruleset);
    expect(await post({ line: line(long) })).toMatchObject({ status: 400, body: { error: `line: 'seed' is 30000 characters; a game's seed is at most ${MAX_SEED}` } });
    expect(await post({ line: line('x'.repeat(MAX_SEED + 1)) })).toMatchObject({ status: 400 });
    expect((await post({ record: { ...record, seed: long } })).body.error).toMatch(/^invalid request: .*a seed is at most 200 characters/s);
    expect((await post({ link: encodeReplay({ ...record, seed: 'x'.repeat(MAX_SEED + 1) }) })).body.error).toMatch(/^link: the replay link's seed must be 1–200 characters/);
    // The seed is the game's deal: a different seed than the recorded one is another game, refused when replayed (422), never held.
    expect((await post({ line: line('x'.repeat(MAX_SEED)) })).status).toBe(422);
    // A line's (or link's) labels are a tournament's, shown as text: one the rule refuses shows as its seat.
    const labelled = await post({ line: line(record.seed, ['evil\u202Eeman', 'random']) });
    expect(labelled).toMatchObject({ status: 201, body: { seats: ['seat 0', 'random'] } });
    expect((await post({ link: encodeReplay({ ...record, seats: ['zero\u200Bwidth', 'ok'] }) })).body.seats).toEqual(['seat 0', 'ok']);
  });

  it('holds replays within the server\'s game limit: an older finished one makes room', async () => {
    const small = await buildServer({ rateLimit: 0, maxGames: 1 });
    const { record } = playedRecord('replay-3', 2);
    const a = await small.inject({ method: 'POST', url: '/v1/replays', payload: { record } });
    const b = await small.inject({ method: 'POST', url: '/v1/replays', payload: { record } });
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect((await small.inject({ url: `/v1/games/${a.json().id}/replay/0`, headers: { authorization: `Bearer ${a.json().watchToken}` } })).statusCode).toBe(404);
    await small.close();
  });

  it('keeps at most maxGamesPerClient replays per client: its own oldest goes, another client\'s stay', async () => {
    const srv = await buildServer({ rateLimit: 0, maxGamesPerClient: 2 });
    const { record } = playedRecord('replay-4', 2);
    const open = async (ip: string) => (await srv.inject({ method: 'POST', url: '/v1/replays', payload: { record }, remoteAddress: ip })).json();
    const frame = async (r: { id: string; watchToken: string }) => (await srv.inject({ url: `/v1/games/${r.id}/replay/0`, headers: { authorization: `Bearer ${r.watchToken}` } })).statusCode;
    const other = await open('10.0.0.2');
    const mine = [await open('10.0.0.1'), await open('10.0.0.1'), await open('10.0.0.1')];
    expect(await Promise.all(mine.map(frame))).toEqual([404, 200, 200]);
    expect(await frame(other)).toBe(200);
    await srv.close();
  });
});
