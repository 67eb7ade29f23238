import { describe, expect, it } from 'vitest';
import { initBackend } from './backend.ts';
import { agreement, fitToTeacher, ReplayMismatchError, splitByGame, teacherDecisions, valueLabel, type PlayedGame } from './distill.ts';
import { createAgent } from '../agents/index.ts';
import { playGame, schedule } from '../eval/index.ts';
import { initWeights, type NetShape } from '../policy/index.ts';
import { NUM_ACTIONS, OBS_SIZE } from '../env/index.ts';

const SHAPE: NetShape = { inputs: OBS_SIZE, hidden: [32], actions: NUM_ACTIONS };

/** Games of `greedy` (entry 0) against `heuristic`, seats rotated, as a tournament plays them. */
async function games(n: number, players = 3) {
  const out: (PlayedGame & { agentDecisions: number[] })[] = [];
  for (const g of schedule({ entries: players, games: n, seed: 'distill-test', duplicate: true })) {
    const agents = g.seating.map((entry) => createAgent(entry === 0 ? 'greedy' : 'heuristic'));
    const r = await playGame(agents, { seed: g.seed });
    out.push({ seed: g.seed, seating: g.seating, scores: r.scores, actions: r.actions, agentDecisions: r.agentDecisions });
  }
  return out;
}

describe('teacherDecisions', () => {
  it("collects exactly the teacher's decisions with a choice, with its actions and rewards", async () => {
    const played = await games(6);
    const d = teacherDecisions(played, 0, SHAPE, 3, 'rank');
    // The teacher was asked at every decision with a choice (and only those): its decision count.
    const asked = played.reduce((s, g) => s + g.agentDecisions[g.seating.indexOf(0)], 0);
    expect(d.n).toBe(asked);
    for (let i = 0; i < d.n; i++) expect(d.mask[i * NUM_ACTIONS + d.action[i]]).toBe(1);
    // Rank rewards of a 3-player game lie in [-1, 1], one value per game.
    const byGame = new Map<number, number>();
    for (let i = 0; i < d.n; i++) {
      expect(byGame.get(d.game[i]) ?? d.ret[i]).toBe(d.ret[i]);
      byGame.set(d.game[i], d.ret[i]);
    }
    expect(Math.min(...d.ret)).toBeGreaterThanOrEqual(-1);
    expect(Math.max(...d.ret)).toBeLessThanOrEqual(1);
  });

  it('refuses a game whose replay does not end in its recorded scores', async () => {
    const [g] = await games(1);
    expect(() => teacherDecisions([{ ...g, scores: g.scores.map((s) => s + 1) }], 0, SHAPE, 3, 'rank')).toThrow(ReplayMismatchError);
    expect(() => teacherDecisions([{ ...g, actions: [...g.actions.slice(0, 5), 250] }], 0, SHAPE, 3, 'rank')).toThrow(/not legal at step 5/);
  });
});

describe('fitToTeacher', () => {
  it('holds out whole games, learns the teacher, and is the same for the same seed', async () => {
    await initBackend('cpu');
    const d = teacherDecisions(await games(15), 0, SHAPE, 3, 'rank');
    const { train, held } = splitByGame(d, 0.25, 's');
    const heldGames = new Set(held.map((i) => d.game[i]));
    expect(heldGames.size).toBe(Math.round(0.25 * 15));
    for (const i of train) expect(heldGames.has(d.game[i])).toBe(false);

    const start = initWeights(SHAPE, 's');
    const o = { epochs: 4, lr: 3e-3, minibatch: 64, vfCoef: 0.5, holdout: 0.25, seed: 's' };
    const fit = fitToTeacher(start, d, o);
    expect(fit.trainRows + fit.heldOutRows).toBe(d.n);
    expect(fit.best).toBeGreaterThan(0);
    // The kept epoch is the one whose most likely actions agree most with the teacher's on the held-out games.
    expect(Math.max(...fit.epochs.map((e) => e.heldOutAgreement))).toBe(fit.epochs[fit.best - 1].heldOutAgreement);
    expect(agreement(fit.weights, d, held)).toBe(fit.epochs[fit.best - 1].heldOutAgreement);
    // A random net agrees with greedy on a few held-out choices; the fitted one on many more.
    expect(agreement(fit.weights, d, held)).toBeGreaterThan(fit.startAgreement + 0.2);
    const again = fitToTeacher(start, d, o);
    expect(again.epochs).toEqual(fit.epochs);
  }, 300_000); // two fits of a net: work a busy machine stretches several times over
});

describe('valueLabel', () => {
  const line = (candidates: { a: number; p: number; diff: number | null; se: number | null }[]) => ({
    game: 'g', seat: 0, decision: 0, action: candidates[0].a, candidates: candidates.map((c) => ({ ...c, n: 8, mean: 0 })),
  });
  it("weighs each candidate's prior by exp(beta z), z its paired advantage in standard errors, clipped at 3", () => {
    const out = new Float32Array(NUM_ACTIONS);
    valueLabel(line([{ a: 5, p: 0.9, diff: null, se: null }, { a: 7, p: 0.1, diff: 0.2, se: 0.1 }, { a: 9, p: 0.05, diff: -1, se: 0.1 }]), 1, out);
    const w = [0.9, 0.1 * Math.exp(2), 0.05 * Math.exp(-3)];
    const total = w[0] + w[1] + w[2];
    expect(out[5]).toBeCloseTo(w[0] / total, 6);
    expect(out[7]).toBeCloseTo(w[1] / total, 6);
    expect(out[9]).toBeCloseTo(w[2] / total, 6);
    expect(out.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 6);
    // beta 0 is the prior, renormalised over the candidates.
    valueLabel(line([{ a: 1, p: 0.6, diff: null, se: null }, { a: 2, p: 0.2, diff: 5, se: 0 }]), 0, out);
    expect([out[1], out[2]]).toEqual([Math.fround(0.75), Math.fround(0.25)]);
    // A sure difference with no spread counts as the clip.
    valueLabel(line([{ a: 1, p: 0.5, diff: null, se: null }, { a: 2, p: 0.5, diff: 0.1, se: 0 }]), 1, out);
    expect(out[2] / out[1]).toBeCloseTo(Math.exp(3), 4);
  });
});

