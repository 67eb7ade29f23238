/**
 * Finds a seed for the guided first game (web/guide-moments.js): one whose game, at the
 * guide's seats, meets every coach note's moment early (by the person's third turn) for each
 * of several newcomers' ways of clicking (test/helpers/newcomer.ts), through the server's own
 * API as the page plays it. Prints each seed tried and the step of each moment.
 *
 *   node --import tsx scripts/find-guide-seed.ts [first seed number] [how many]
 */
import { buildServer } from '../server/index.ts';
import { seedRng } from '../env/index.ts';
import { GUIDE_SEATS, momentsIn, MOMENTS } from '../web/guide-moments.js';
import { newcomerPick } from '../test/helpers/newcomer.ts';

/** The person's turns by which every moment must have come. */
const BY_TURN = 3;
/** How many ways of clicking each seed must pass ('guide-clicks/0' is the browser test's). */
const CLICKERS = 8;

const app = await buildServer({ rateLimit: 0 });
type Answer = Record<string, any>;
async function call(method: 'GET' | 'POST', url: string, token?: string, payload?: object): Promise<Answer> {
  const res = await app.inject({ method, url: `/v1${url}`, headers: token ? { authorization: `Bearer ${token}` } : {}, payload });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json() as Answer;
}

/** The step each moment first came at, or null when it did not come by the person's BY_TURN-th turn. */
async function momentSteps(seed: string, clicker: string): Promise<Record<string, number | null>> {
  const created = await call('POST', '/games', undefined, { seats: GUIDE_SEATS, seed });
  const token: string = created.tokens[0].token;
  const id: string = created.id;
  const you = created.tokens[0].seat as number;
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
    await call('POST', `/games/${id}/actions`, token, { action: newcomerPick(rng, shownIds) });
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
  const ok = runs.every((r) => MOMENTS.every((m) => r[m] !== null));
  console.log(`${seed}: ${ok ? 'ALL MOMENTS' : 'missing'} ${runs.map((r) => MOMENTS.map((m) => `${m}@${r[m] ?? '-'}`).join(' ')).join(' | ')}`);
  if (ok) break;
}
await app.close();
