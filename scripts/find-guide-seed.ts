/**
 * Finds a seed for the guided first game (web/guide-moments.js): one whose game, at the
 * guide's seats and with the auto-pass the page sets for people (asked when an X card answers
 * the card just played), meets every coach note's moment early (by the person's third turn)
 * for each of several newcomers' ways of clicking (test/helpers/newcomer.ts), and that a
 * newcomer who follows the hint (GET hint) at every decision wins, also after clicking their
 * own way through their first turns. All through the server's own API as the page plays it.
 * Prints each seed tried, the step of each moment and the hint followers' places.
 *
 *   node --import tsx scripts/find-guide-seed.ts [first seed number] [how many]
 */
import { buildServer } from '../server/index.ts';
import { seedRng } from '../env/index.ts';
import { GUIDE_SEATS, momentsIn, MOMENTS } from '../web/guide-moments.js';
import { newcomerPick } from '../test/helpers/newcomer.ts';

/** What the page sets for a person (web/seat-settings.js PEOPLE_DEFAULT). */
const PEOPLE_AUTO_PASS = { autoPass: true, unwatched: [], windows: 'answering' };
/** Hint followers who first click their own way through this many turns; each must win. */
const OWN_TURNS = [0, 1, 2];

/** The person's turns by which every moment must have come. */
const BY_TURN = 3;
/** How many ways of clicking each seed must pass ('guide-clicks/0' is the browser test's). */
const CLICKERS = 8;

const app = await buildServer({ rateLimit: 0, maxGamesPerClient: 100_000, maxGames: 100_000 });
type Answer = Record<string, any>;
async function call(method: 'GET' | 'POST' | 'PUT', url: string, token?: string, payload?: object): Promise<Answer> {
  const res = await app.inject({ method, url: `/v1${url}`, headers: token ? { authorization: `Bearer ${token}` } : {}, payload });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json() as Answer;
}

/** A guided game as the page starts it: the guide's seats and seed, the people's auto-pass. */
async function newGame(seed: string): Promise<{ id: string; token: string }> {
  const created = await call('POST', '/games', undefined, { seats: GUIDE_SEATS, seed });
  const token: string = created.tokens[0].token;
  await call('PUT', `/games/${created.id}/settings`, token, PEOPLE_AUTO_PASS);
  return { id: created.id, token };
}

/**
 * Plays a guided game to its end: the first `ownTurns` turns of the person clicked the
 * newcomer's way, every decision after as GET hint says. Whether the person won (a shared win
 * counts) and their score against the best other.
 */
async function followHint(seed: string, clicker: string, ownTurns: number): Promise<{ won: boolean; score: number; best: number }> {
  const { id, token } = await newGame(seed);
  const rng = seedRng(clicker);
  let turns = 0;
  for (;;) {
    const now = await call('GET', `/games/${id}/view`, token);
    if (now.done) {
      const scores: number[] = now.scores;
      return { won: (now.view.winners as number[]).includes(0), score: scores[0], best: Math.max(...scores.slice(1)) };
    }
    if (now.view.decision.kind === 'play' && now.events.some((e: { k: string; seat?: number }) => e.k === 'turn' && e.seat === 0)) turns++;
    const shownIds = (now.legalActions as { id: number }[]).map((a) => a.id);
    const action = turns <= ownTurns ? newcomerPick(rng, shownIds) : (await call('GET', `/games/${id}/hint`, token)).action.id;
    await call('POST', `/games/${id}/actions`, token, { action, step: now.step });
  }
}

/** The step each moment first came at, or null when it did not come by the person's BY_TURN-th turn. */
async function momentSteps(seed: string, clicker: string): Promise<Record<string, number | null>> {
  const { id, token } = await newGame(seed);
  const you = 0;
  const rng = seedRng(clicker);
  const seen: Record<string, number | null> = Object.fromEntries(MOMENTS.map((m) => [m, null]));
  let shown = -1;
  let turns = 0;
  let active: number | null = null;
  for (;;) {
    const now = await call('GET', `/games/${id}/view`, token);
    for (let k = shown + 1; k <= now.step; k++) {
      const data = k === now.step ? now : await call('GET', `/games/${id}/view?at=${k}`, token);
      for (const m of momentsIn(data as never, you, active)) seen[m] ??= k;
      active = data.view.turnState.active;
      if (m0(data, you)) turns++;
    }
    shown = now.step;
    if (MOMENTS.every((m) => seen[m] !== null) || now.done || turns > BY_TURN) break;
    const shownIds = (now.legalActions as { id: number }[]).map((a) => a.id);
    await call('POST', `/games/${id}/actions`, token, { action: newcomerPick(rng, shownIds), step: now.step });
  }
  return seen;
}

/** A step where the person's own turn begins (its first choice of what to play). */
function m0(data: Answer, you: number): boolean {
  return data.events.some((e: { k: string; seat?: number }) => e.k === 'turn' && e.seat === you);
}

const from = Number(process.argv[2] ?? 1);
const count = Number(process.argv[3] ?? 40);
for (let n = from; n < from + count; n++) {
  const seed = `guide-${n}`;
  const runs = [];
  for (let c = 0; c < CLICKERS; c++) runs.push(await momentSteps(seed, `guide-clicks/${c}`));
  const moments = runs.every((r) => MOMENTS.every((m) => r[m] !== null));
  const followers = moments ? await Promise.all(OWN_TURNS.map((t, c) => followHint(seed, `guide-clicks/${c}`, t))) : [];
  const ok = moments && followers.every((f) => f.won);
  console.log(`${seed}: ${moments ? 'ALL MOMENTS' : 'missing'}; hint followers ${followers.map((f) => `${f.won ? 'won' : 'lost'} ${f.score}-${f.best}`).join(', ') || '-'} `
    + `${runs.map((r) => MOMENTS.map((m) => `${m}@${r[m] ?? '-'}`).join(' ')).join(' | ')}`);
  if (ok) break;
}
await app.close();
