/**
 * Fits the learned evaluation (value-model.ts): plays heuristic self-play games, records
 * every seat's features (features.ts) at every turn start and the points it went on to
 * score, and fits those points by least squares. Run from the repository root:
 *
 *   node --import tsx agents/ismcts/fit-value.ts [games per player count = 400] > agents/ismcts/value-model.ts
 */
import { CzechPubEnv, DEFAULT_RULESET, rulesetFingerprint } from '../../env/index.ts';
import { EnvObservation } from '../observation.ts';
import { createAgent } from '../default-registry.ts';
import { NUM_FEATURES, seatFeatures } from './features.ts';

const games = Number(process.argv[2] ?? 400);
const rows: Float64Array[] = [];
const targets: number[] = [];
for (let players = 2; players <= 6; players++) {
  for (let g = 0; g < games; g++) {
    const seed = `fit/${players}/${g}`;
    const env = new CzechPubEnv({ seed, players, log: false });
    const agents = Array.from({ length: players }, (_, seat) => {
      const a = createAgent('heuristic');
      a.reset?.({ seat, players, seed: `${seed}/${seat}` });
      return a;
    });
    const pending: { x: Float64Array; seat: number; score: number }[] = [];
    let turn = -1;
    while (!env.done) {
      if (env.state.turn !== turn) {
        turn = env.state.turn;
        const x = seatFeatures(env, env.view(0), new Float64Array(players * NUM_FEATURES));
        const scores = env.scores();
        for (let p = 0; p < players; p++) {
          if (x[p * NUM_FEATURES] === 0) continue;
          pending.push({ x: x.slice(p * NUM_FEATURES, (p + 1) * NUM_FEATURES), seat: p, score: scores[p] });
        }
      }
      const seat = env.actor;
      env.step(agents[seat].act(new EnvObservation(env, seat)) as number);
    }
    const final = env.scores();
    for (const r of pending) {
      rows.push(r.x);
      targets.push(final[r.seat] - r.score);
    }
  }
}

/** Ridge least squares by the normal equations and Gaussian elimination. */
function fit(cols: number[]): number[] {
  const k = cols.length;
  const a = Array.from({ length: k }, () => new Float64Array(k + 1));
  for (let i = 0; i < rows.length; i++) {
    const x = rows[i];
    for (let r = 0; r < k; r++) {
      const xr = x[cols[r]];
      if (xr === 0) continue;
      for (let c = 0; c < k; c++) a[r][c] += xr * x[cols[c]];
      a[r][k] += xr * targets[i];
    }
  }
  for (let r = 0; r < k; r++) a[r][r] += 1e-3 * rows.length;
  for (let c = 0; c < k; c++) {
    let piv = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(a[r][c]) > Math.abs(a[piv][c])) piv = r;
    [a[c], a[piv]] = [a[piv], a[c]];
    for (let r = 0; r < k; r++) {
      if (r === c) continue;
      const m = a[r][c] / a[c][c];
      for (let j = c; j <= k; j++) a[r][j] -= m * a[c][j];
    }
  }
  return cols.map((_, r) => a[r][k] / a[r][r]);
}

function r2(pred: (x: Float64Array) => number): number {
  const mean = targets.reduce((s, y) => s + y, 0) / targets.length;
  let ss = 0;
  let res = 0;
  rows.forEach((x, i) => {
    ss += (targets[i] - mean) ** 2;
    res += (targets[i] - pred(x)) ** 2;
  });
  return 1 - res / ss;
}

const all = Array.from({ length: NUM_FEATURES }, (_, i) => i);
const w = fit(all);
const chartOnly = fit([0, 1]);
const note = [
  `${rows.length} samples from ${games} heuristic self-play games at each of 2–6 players`,
  `R² of the points still to come: chart value alone ${r2((x) => x[1]).toFixed(3)}, ` +
    `refitted ${r2((x) => chartOnly[0] * x[0] + chartOnly[1] * x[1]).toFixed(3)}, ` +
    `all features ${r2((x) => w.reduce((s, wi, i) => s + wi * x[i], 0)).toFixed(3)}`,
];
console.log(`/**
 * The learned evaluation's weights over features.ts, made by fit-value.ts:
 * ${note.join('\n * ')}.
 */
export const VALUE_WEIGHTS: readonly number[] = [
${w.map((v) => `  ${v.toFixed(4)},`).join('\n')}
];

/** The fingerprint (env/spec.ts) of the rules those games were played under: the weights know no others. */
export const VALUE_RULESET_FINGERPRINT = '${rulesetFingerprint(DEFAULT_RULESET)}';`);
