/**
 * Does following the hint play as well as the bot it quotes? (issue 43's acceptance)
 *
 *   node --import tsx scripts/hint-follower.ts --games 1000 --players 4 --seed hint-follower
 *
 * Builds the server in this process (fastify's inject: no socket is opened) and plays each
 * seed twice through the HTTP API:
 *
 * - follower: seat 0 is a person's seat ('remote', auto-pass off, so it is asked wherever a
 *   bot would be) that always plays what GET /v1/games/{id}/hint says;
 * - quoted bot: seat 0 is the bot the hint quotes (`ppo`, Strong) itself.
 *
 * The other seats are Strong bots (`--opponent`, default `ppo`: also the web page's default
 * opponent), the same on both sides and reset with the same seeds, so a pair differs only in
 * seat 0. The hint's bot draws its tie-breaks from the game's id, the seated bot from the
 * game's seed, so a pair can part where the policy's adviser breaks a tie.
 *
 * Prints each side's win rate for seat 0 (tied winners share the win, as the tournament's
 * summary counts it: eval/stats.ts winShares) with its 95% interval (eval/stats.ts
 * winRateCI, each game its own deal), the paired difference with its 95% interval, and whether
 * the two agree: the paired difference's interval holds 0.
 */
import { parseArgs } from 'node:util';
import { meanCI, winRateCI, winShares } from '../eval/index.ts';
import { buildServer } from '../server/index.ts';

// ---- arguments -------------------------------------------------------------------------------
const ARGS = {
  /** Seeds played, each by the follower and by the quoted bot. */
  games: { type: 'string', default: '1000' },
  /** Players at each table. */
  players: { type: 'string', default: '4' },
  /** Game k is dealt from `${seed}/${k}`. */
  seed: { type: 'string', default: 'hint-follower' },
  /** The bot in every other seat (a catalogue entry). */
  opponent: { type: 'string', default: 'ppo' },
  /** Print a line every this many games (0: none). */
  every: { type: 'string', default: '100' },
} as const;

const { values } = parseArgs({ options: ARGS, strict: true });
const int = (name: keyof typeof ARGS, min: number, max: number): number => {
  const v = Number(values[name]);
  if (!Number.isInteger(v) || v < min || v > max) throw new Error(`--${name} must be a whole number from ${min} to ${max}, got ${values[name]}`);
  return v;
};
const games = int('games', 1, 100_000);
const players = int('players', 2, 6);
const every = int('every', 0, 100_000);
const seed = values.seed;
const opponent = values.opponent;
const QUOTED = 'ppo';

// ---- the server, in this process --------------------------------------------------------------
// The default limits: finished games make room for the next (a client keeps at most maxGamesPerClient).
const app = await buildServer({ rateLimit: 0 });

interface Answer {
  status: number;
  body: any;
}
async function call(method: 'GET' | 'POST' | 'PUT', url: string, token?: string, payload?: object): Promise<Answer> {
  const res = await app.inject({ method, url, payload, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.statusCode, body: res.json() };
}
function expectStatus(a: Answer, status: number, what: string): any {
  if (a.status !== status) throw new Error(`${what}: ${a.status} ${JSON.stringify(a.body).slice(0, 300)}`);
  return a.body;
}

/** Plays one seed with seat 0 following the hint; its scores, its actions, and the hints' fallbacks. */
async function follower(dealt: string): Promise<{ scores: number[]; actions: number[]; hints: number; fallbacks: number }> {
  const seats = ['remote', ...Array(players - 1).fill(opponent)];
  const made = expectStatus(await call('POST', '/v1/games', undefined, { seats, seed: dealt }), 201, 'create');
  const token = made.tokens[0].token as string;
  const game = `/v1/games/${made.id}`;
  expectStatus(await call('PUT', `${game}/settings`, token, { autoPass: false }), 200, 'settings');
  let state = expectStatus(await call('GET', `${game}/view`, token), 200, 'view');
  let hints = 0;
  let fallbacks = 0;
  while (!state.done) {
    if (!state.yourTurn) throw new Error(`game ${dealt}: the bots stopped at step ${state.step} with seat ${state.view?.decision?.actor} to act`);
    const hint = expectStatus(await call('GET', `${game}/hint`, token), 200, 'hint');
    hints++;
    if (hint.fallback !== null) fallbacks++;
    state = expectStatus(await call('POST', `${game}/actions`, token, { action: hint.action.id }), 200, 'act');
  }
  const replay = expectStatus(await call('GET', `${game}/replay`, token), 200, 'replay');
  return { scores: replay.scores, actions: replay.actions, hints, fallbacks };
}

/** Plays one seed with the quoted bot in seat 0. */
async function quoted(dealt: string): Promise<{ scores: number[]; actions: number[] }> {
  const seats = [QUOTED, ...Array(players - 1).fill(opponent)];
  const made = expectStatus(await call('POST', '/v1/games', undefined, { seats, seed: dealt }), 201, 'create');
  const replay = expectStatus(await call('GET', `/v1/games/${made.id}/replay`, made.watchToken), 200, 'replay');
  return { scores: replay.scores, actions: replay.actions };
}

// ---- the games ---------------------------------------------------------------------------------
const started = performance.now();
const follow: number[] = [];
const bot: number[] = [];
let same = 0;
let hints = 0;
let fallbacks = 0;
try {
  for (let k = 0; k < games; k++) {
    const dealt = `${seed}/${k}`;
    const f = await follower(dealt);
    const b = await quoted(dealt);
    follow.push(winShares(f.scores)[0]);
    bot.push(winShares(b.scores)[0]);
    if (f.actions.length === b.actions.length && f.actions.every((a, i) => a === b.actions[i])) same++;
    hints += f.hints;
    fallbacks += f.fallbacks;
    if (every > 0 && (k + 1) % every === 0) {
      const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
      console.log(`${k + 1} games, ${Math.round((performance.now() - started) / 1000)} s: follower ${pct(mean(follow))}, quoted bot ${pct(mean(bot))}`);
    }
  }
} finally {
  await app.close();
}

// ---- the figures -------------------------------------------------------------------------------
function pct(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}
const sum = (xs: number[]) => xs.reduce((a, x) => a + x, 0);
const rate = (xs: number[]) => {
  const [lo, hi] = winRateCI(xs, sum(xs), xs.length);
  return { mean: sum(xs) / xs.length, lo, hi };
};
const fr = rate(follow);
const br = rate(bot);
const diff = meanCI(follow.map((x, i) => x - bot[i]));
// No spread at all (every pair alike): the difference is 0, and so is its interval.
const [dlo, dhi] = Number.isNaN(diff.lo) || diff.hi === diff.lo ? [diff.mean, diff.mean] : [diff.lo, diff.hi];
const agree = dlo <= 0 && dhi >= 0;
const seconds = (performance.now() - started) / 1000;

console.log('');
console.log(`${games} seeded ${players}-player games (seeds ${seed}/0..${games - 1}), seat 0 against ${players - 1} × ${opponent}, par ${pct(1 / players)}`);
console.log(`hint follower (seat 0 plays GET hint): ${pct(fr.mean)} wins, 95% interval ${pct(fr.lo)} – ${pct(fr.hi)}`);
console.log(`quoted bot (${QUOTED} in seat 0):          ${pct(br.mean)} wins, 95% interval ${pct(br.lo)} – ${pct(br.hi)}`);
console.log(`paired difference (follower − bot): ${(100 * diff.mean).toFixed(2)} points, 95% interval ${(100 * dlo).toFixed(2)} – ${(100 * dhi).toFixed(2)}`);
console.log(`agree: ${agree ? 'yes' : 'no'} (the difference's interval ${agree ? 'holds' : 'excludes'} 0; each rate within the other's interval: ${fr.mean >= br.lo && fr.mean <= br.hi && br.mean >= fr.lo && br.mean <= fr.hi ? 'yes' : 'no'})`);
console.log(`games played alike, action for action: ${same} of ${games}; hints asked: ${hints}, of them by a fallback bot: ${fallbacks}`);
console.log(`wall time: ${seconds.toFixed(0)} s (${((1000 * seconds) / games).toFixed(0)} ms a pair)`);
if (!agree) process.exitCode = 1;
