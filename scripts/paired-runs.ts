/**
 * One seat's agent in two tournament runs on the same deals, compared game by game: the
 * pilot of docs/results/2026-12-05-beliefs.md (ppo-search with and without beliefs, each
 * against the same three heuristic seats).
 *
 *   npx tsx scripts/paired-runs.ts results/beliefs-pilot/policy results/beliefs-pilot/uniform
 *
 * Both runs must have played the same schedule (the same --seed, --games and seat count, one
 * agent that differs): game k of one is game k of the other, the same deal and seating. In each
 * run the agent compared is the one that is not `--others` (default heuristic). Per deal (its
 * games, one per rotation) the agent's mean win share (tied winners share the win), mean final
 * score and mean score above the table's mean; then the mean over deals of run A minus run B,
 * with a 95% Student-t interval over deals (eval/stats.ts meanCI); and each agent's milliseconds
 * per decision it was asked.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { meanCI } from '../eval/index.ts';

const { values, positionals } = parseArgs({ options: { others: { type: 'string', default: 'heuristic' } }, allowPositionals: true, strict: true });
if (positionals.length !== 2) throw new Error('name two run folders (tournament --out), A and B');

interface Line {
  index: number;
  deal: number;
  seed: string;
  scores: number[];
  winners: number[];
  agents: string[];
  agentDecisions: number[];
  agentMillis: number[];
}

function read(dir: string): Map<number, Line> {
  const lines = fs.readFileSync(path.join(dir, 'games.jsonl'), 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Line);
  return new Map(lines.map((l) => [l.index, l]));
}

const [a, b] = positionals.map(read);
const seatOf = (g: Line) => {
  const seats = g.agents.flatMap((s, i) => (s === values.others ? [] : [i]));
  if (seats.length !== 1) throw new Error(`game ${g.index}: want one seat that is not ${values.others}, got ${seats.length}`);
  return seats[0];
};
const figures = (g: Line) => {
  const seat = seatOf(g);
  const mean = g.scores.reduce((x, y) => x + y, 0) / g.scores.length;
  return { name: g.agents[seat], win: g.winners.includes(seat) ? 1 / g.winners.length : 0, score: g.scores[seat], above: g.scores[seat] - mean, ms: g.agentMillis[seat], asked: g.agentDecisions[seat] };
};

const byDeal = new Map<number, { a: ReturnType<typeof figures>[]; b: ReturnType<typeof figures>[] }>();
const names = { a: '', b: '' };
const time = { a: [0, 0], b: [0, 0] };
for (const [k, ga] of a) {
  const gb = b.get(k);
  if (!gb) continue;
  if (ga.seed !== gb.seed || ga.deal !== gb.deal) throw new Error(`game ${k}: the runs dealt it differently (${ga.seed} and ${gb.seed})`);
  const [fa, fb] = [figures(ga), figures(gb)];
  names.a = fa.name;
  names.b = fb.name;
  time.a[0] += fa.ms;
  time.a[1] += fa.asked;
  time.b[0] += fb.ms;
  time.b[1] += fb.asked;
  if (!byDeal.has(ga.deal)) byDeal.set(ga.deal, { a: [], b: [] });
  byDeal.get(ga.deal)!.a.push(fa);
  byDeal.get(ga.deal)!.b.push(fb);
}
const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
const games = [...byDeal.values()].reduce((n, d) => n + d.a.length, 0);
console.log(`${names.a} (A) against ${names.b} (B): ${games} games on ${byDeal.size} deals played by both`);
console.log('| figure | A | B | A − B (95% over deals) |');
console.log('|---|---|---|---|');
for (const [key, label, scale, digits] of [['win', 'win share', 100, 1], ['score', 'final score', 1, 2], ['above', 'score above the table mean', 1, 2]] as const) {
  const perDeal = [...byDeal.values()].map((d) => ({ a: mean(d.a.map((f) => f[key])), b: mean(d.b.map((f) => f[key])) }));
  const ca = meanCI(perDeal.map((d) => d.a * scale));
  const cb = meanCI(perDeal.map((d) => d.b * scale));
  const diff = meanCI(perDeal.map((d) => (d.a - d.b) * scale));
  const f = (x: number) => x.toFixed(digits);
  console.log(`| ${label}${scale === 100 ? ' (%)' : ''} | ${f(ca.mean)} (${f(ca.lo)}–${f(ca.hi)}) | ${f(cb.mean)} (${f(cb.lo)}–${f(cb.hi)}) | ${f(diff.mean)} (${f(diff.lo)}–${f(diff.hi)}) |`);
}
console.log(`ms per decision asked: A ${(time.a[0] / time.a[1]).toFixed(1)} over ${time.a[1]}, B ${(time.b[0] / time.b[1]).toFixed(1)} over ${time.b[1]}`);
