/** Property tests (fast-check) over seeds, player counts, policies and inputs. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { actionFromKey, actionKey, describeAction, NUM_ACTIONS } from '../env/actions.ts';
import { applyStep, createState, finalScores, legalActions, winners } from '../env/engine/index.ts';
import { encodeObservation, OBS_SIZE } from '../env/observation/encode.ts';
import { resampleState } from '../env/resample.ts';
import { terminalRewards } from '../env/rewards.ts';
import { randInt, seedRng } from '../env/rng.ts';
import { compileRuleset, DEFAULT_RULESET, parseRuleset, RulesetError } from '../env/ruleset.ts';
import { cloneState, popcount } from '../env/state.ts';

const RULES = compileRuleset(DEFAULT_RULESET);

describe('properties', () => {
  it('any seed, player count, policy and asking mode: the game ends and is scored by the rules', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 6 }), fc.integer(), fc.integer(), fc.boolean(), (players, seed, policy, askForced) => {
        const { state } = createState({ players, seed, askForced });
        const rng = seedRng(policy);
        let steps = 0;
        while (!state.over && steps++ < 20_000) {
          const legal = legalActions(RULES, state);
          applyStep(RULES, state, legal[randInt(rng, legal.length)]);
        }
        expect(state.over).toBe(true);
        const scores = finalScores(RULES, state);
        scores.forEach((v, p) => {
          const k = popcount(state.tokens[p]);
          expect(v).toBe(state.points[p] + (k ? DEFAULT_RULESET.shotBonus[k - 1] : 0));
        });
        const best = Math.max(...scores);
        expect(winners(RULES, state)).toEqual(scores.flatMap((v, p) => (v === best ? [p] : [])));
      }),
      { numRuns: 150 },
    );
  });

  it('a clone stepped on never changes the original', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 6 }), fc.integer(), fc.integer({ min: 0, max: 80 }), (players, seed, steps) => {
        const { state } = createState({ players, seed });
        const rng = seedRng(seed);
        for (let i = 0; i < steps && !state.over; i++) applyStep(RULES, state, legalActions(RULES, state)[0]);
        const before = JSON.stringify(state);
        const c = cloneState(state);
        while (!c.over) {
          const legal = legalActions(RULES, c);
          applyStep(RULES, c, legal[randInt(rng, legal.length)]);
        }
        expect(JSON.stringify(state)).toBe(before);
      }),
      { numRuns: 100 },
    );
  });

  it('resampling with any seed keeps the seat’s observation', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 6 }), fc.integer(), fc.integer({ min: 0, max: 200 }), fc.nat(), fc.string(),
        (players, seed, steps, seatPick, rseed) => {
          const { state } = createState({ players, seed });
          const rng = seedRng(`p${seed}`);
          for (let i = 0; i < steps && !state.over; i++) {
            const legal = legalActions(RULES, state);
            applyStep(RULES, state, legal[randInt(rng, legal.length)]);
          }
          const seat = seatPick % players;
          const a = new Float32Array(OBS_SIZE);
          const b = new Float32Array(OBS_SIZE);
          encodeObservation(RULES, state, seat, a);
          encodeObservation(RULES, resampleState(RULES, state, seat, rseed), seat, b);
          expect(Array.from(b)).toEqual(Array.from(a));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('rewards: win sums to 1, rank and score sum to 0, and a higher score never gets less', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 150 }), { minLength: 2, maxLength: 6 }), (scores) => {
        const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
        expect(sum(terminalRewards('win', scores))).toBeCloseTo(1, 9);
        expect(sum(terminalRewards('rank', scores))).toBeCloseTo(0, 9);
        expect(sum(terminalRewards('score', scores))).toBeCloseTo(0, 9);
        for (const scheme of ['win', 'rank', 'score'] as const) {
          const r = terminalRewards(scheme, scores);
          for (let i = 0; i < scores.length; i++) {
            for (let j = 0; j < scores.length; j++) if (scores[i] > scores[j]) expect(r[i]).toBeGreaterThanOrEqual(r[j]);
          }
        }
      }),
    );
  });

  it('every action has a unique key that maps back to it, and a description', () => {
    const keys = new Set<string>();
    for (let a = 0; a < NUM_ACTIONS; a++) {
      keys.add(actionKey(a));
      expect(actionFromKey(actionKey(a))).toBe(a);
      expect(describeAction(a, 0, 4)).not.toMatch(/invalid/);
    }
    expect(keys.size).toBe(NUM_ACTIONS);
    fc.assert(
      fc.property(fc.integer().filter((a) => a < 0 || a >= NUM_ACTIONS), (a) => {
        expect(actionKey(a)).toMatch(/^invalid/);
        expect(actionFromKey(actionKey(a))).toBe(-1);
      }),
    );
  });

  it('a ruleset with any one number changed is either accepted or refused naming that field', () => {
    const paths: (string | number)[][] = [];
    const walk = (v: unknown, path: (string | number)[]) => {
      if (typeof v === 'number') paths.push(path);
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...path, Array.isArray(v) ? Number(k) : k]);
    };
    walk(DEFAULT_RULESET, []);
    fc.assert(
      fc.property(fc.constantFrom(...paths), fc.oneof(fc.integer({ min: -10, max: 200 }), fc.double({ noNaN: false })), (path, value) => {
        const r = JSON.parse(JSON.stringify(DEFAULT_RULESET));
        let o = r;
        for (const k of path.slice(0, -1)) o = o[k];
        o[path[path.length - 1]] = value;
        try {
          parseRuleset(r);
        } catch (e) {
          expect(e).toBeInstanceOf(RulesetError);
          const msg = (e as Error).message;
          // The message names the changed field, or a field whose check it broke.
          expect(msg.includes(path.join('.')) || /players|start|cards|titles|closingTime/.test(msg)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
