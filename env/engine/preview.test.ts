import { describe, expect, it } from 'vitest';
import { decodeAction } from '../action-codec.ts';
import { A_DONE, A_PASS } from '../actions.ts';
import { CzechPubEnv } from '../env.ts';
import type { GameEvent } from '../events.ts';
import { factsOfView, makeView } from '../observation/view.ts';
import { seatFacts } from '../observation/visible.ts';
import { resampleState } from '../resample.ts';
import { randInt, seedRng } from '../rng.ts';
import { cloneState, type GameState } from '../state.ts';
import { digestionStep } from './digestion.ts';
import { applyPlay } from './effects.ts';
import { applyStep, legalActions, rulesFor } from './index.ts';
import { canPreview, factsState, previewDigestion, previewsAction, type DigestPreview } from './preview.ts';

const R = rulesFor();
const RS = R.ruleset;
const LAST = RS.chart.length - 1;

type Digest = Extract<GameEvent, { k: 'digest' }>;

/** The choices a preview covers at a position: saying done now, then each order or Flattery. */
const choices = (s: GameState): (number | undefined)[] => [undefined, ...legalActions(R, s).filter(previewsAction)];

const preview = (s: GameState, a?: number): DigestPreview => previewDigestion(R, seatFacts(R, s, s.active), a);

/** Every preview at a position, as the bytes the server would send. */
const previewBytes = (s: GameState, make: (s: GameState, a?: number) => unknown): string =>
  JSON.stringify(choices(s).map((a) => make(s, a)));

/**
 * The preview as it was before it worked from the seat's facts, rewritten here to show what
 * the checks below catch: the engine's digestion on a copy of the whole state, with its live
 * generator.
 */
function livePreview(state: GameState, a?: number) {
  const s = cloneState(state);
  const log: GameEvent[] = [];
  if (a !== undefined) applyPlay({ r: R, s, log: null }, decodeAction(a), () => undefined);
  digestionStep({ r: R, s, log });
  const ev = log.find((e): e is Digest => e.k === 'digest' && e.seat === state.active && e.copyOf === undefined);
  return ev ? { points: ev.points, total: ev.total, thrownOut: log.some((e) => e.k === 'out' && e.seat === state.active) } : null;
}

/** Positions where the seat to act chooses what to play, from random games at 2 to 6 players. */
function positions(games: number, keep: number): GameState[] {
  const out: GameState[] = [];
  for (let g = 0; g < games; g++) {
    const players = 2 + (g % 5);
    const env = new CzechPubEnv({ seed: `pos${g}`, players });
    const rng = seedRng(`pos${g}:moves`);
    while (!env.done) {
      const s = env.state as GameState;
      if (canPreview(seatFacts(R, s, s.active)) && randInt(rng, keep) === 0) out.push(cloneState(s));
      const legal = env.legalActions();
      env.step(legal[randInt(rng, legal.length)]);
    }
  }
  return out;
}

/** The same positions with the seat's figure put on each space of the chart's last row. */
const lastRow = (ps: GameState[]): GameState[] => ps.map((p, i) => {
  const s = cloneState(p);
  s.level[s.active] = LAST;
  s.space[s.active] = i % RS.chart[LAST].spaces.length;
  return s;
});

/** The same positions with the seat's figure spread over every row and space of the chart. */
const anywhere = (ps: GameState[]): GameState[] => ps.map((p, i) => {
  const s = cloneState(p);
  s.level[s.active] = i % RS.chart.length;
  s.space[s.active] = (i * 7) % RS.chart[s.level[s.active]].spaces.length;
  return s;
});

/** The same positions after two abstinences in a row: abstaining now is the third. */
const thirdAbstinence = (ps: GameState[]): GameState[] => ps.map((p) => {
  const s = cloneState(p);
  s.abstinence[s.active] = RS.abstinence.pointLoss.length;
  return s;
});

const SAMPLED = positions(10, 4);
const LAST_ROW = lastRow(SAMPLED);
const ANYWHERE = anywhere(SAMPLED);
const THIRD = thirdAbstinence(SAMPLED);

/** What the die decides at the seat's own digestion: play on from `state` (nobody reacting) under dice from `seed`. */
function simulate(state: GameState, a: number | undefined, seed: string) {
  const s = cloneState(state);
  const seat = s.active;
  s.rng = seedRng(seed);
  const log: GameEvent[] = [];
  if (a !== undefined) applyStep(R, s, a, log);
  while (!s.over && s.active === seat && !log.some((e) => e.k === 'digest' && e.seat === seat)) {
    const legal = legalActions(R, s);
    if (s.actor === seat && !legal.includes(A_DONE)) throw new Error('the seat cannot say done');
    applyStep(R, s, s.actor === seat ? A_DONE : legal.includes(A_PASS) ? A_PASS : legal[0], log);
  }
  const digest = log.find((e): e is Digest => e.k === 'digest' && e.seat === seat && e.copyOf === undefined) ?? null;
  const out = log.find((e): e is Extract<GameEvent, { k: 'out' }> => e.k === 'out' && e.seat === seat);
  return { digest, out: out?.how ?? null, levelUp: log.some((e) => e.k === 'level_up' && e.seat === seat) };
}

describe('previewDigestion', () => {
  it("equals the engine's digestion of the same cards: now, and after each order or Flattery", () => {
    let compared = 0;
    let rolled = 0;
    for (const s of SAMPLED) {
      for (const a of choices(s)) {
        const p = preview(s, a);
        const { digest: ev } = simulate(s, a, 'same');
        if (!ev) {
          expect(p.skips).toBe(true);
          continue;
        }
        expect({ points: p.points, drunkenness: p.drunkenness, total: p.total }).toEqual({ points: ev.points, drunkenness: ev.drunkenness, total: ev.total ?? null });
        expect(p.abstinence).toBe(ev.total === undefined);
        if (p.total !== null) {
          rolled++;
          const sides = RS.roll.dieSides;
          expect(p.passChance).toBeCloseTo(Math.max(0, Math.min(sides, sides - p.total + 1)) / sides, 12);
        }
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(100);
    expect(rolled).toBeGreaterThan(50);
  });

  it("builds the seat's own front back exactly from its public facts", () => {
    for (const s of SAMPLED) expect(factsState(R, seatFacts(R, s, s.active)).front[s.active]).toEqual(s.front[s.active]);
  });

  it('leaves the state untouched and refuses a seat that is not choosing what to play', () => {
    const env = new CzechPubEnv({ seed: 'p4', players: 3 });
    const s = env.state as GameState;
    const before = JSON.stringify(s);
    const seat = env.actor;
    for (const a of env.legalActions().filter(previewsAction)) preview(s, a);
    expect(JSON.stringify(s)).toBe(before);
    expect(() => previewDigestion(R, seatFacts(R, s, (seat + 1) % 3))).toThrow(/not choosing/);
  });
});

describe('a preview knows only what the seat knows', () => {
  it('is the same byte for byte when everything the seat cannot see is dealt anew, or only the dice to come', () => {
    const sets = { sampled: SAMPLED, 'last row': LAST_ROW, anywhere: ANYWHERE, 'third abstinence': THIRD };
    const seen: string[] = [];
    for (const [name, ps] of Object.entries(sets)) {
      let liveChanged = 0;
      for (const [i, s] of ps.entries()) {
        const worlds = [
          ...['a', 'b', 'c'].map((k) => resampleState(R, s, s.active, `${name}:${i}:${k}`)),
          { ...cloneState(s), rng: seedRng(`${name}:${i}:dice`) },
        ];
        const mine = previewBytes(s, preview);
        for (const w of worlds) expect(previewBytes(w, preview)).toBe(mine);
        // A caller holding only the seat's view, sent as JSON, gets the same preview.
        const posted = factsOfView(R, JSON.parse(JSON.stringify(makeView(R, s, s.active))));
        expect(previewBytes(s, (_, a) => previewDigestion(R, posted, a))).toBe(mine);
        const live = previewBytes(s, livePreview);
        if (worlds.some((w) => previewBytes(w, livePreview) !== live)) liveChanged++;
      }
      seen.push(`${name}: ${ps.length} positions, the old live-generator preview changed in ${liveChanged}`);
      if (name === 'last row') expect(liveChanged).toBeGreaterThan(0);
    }
    console.log(`independence: ${seen.join('; ')}`);
  });
});

describe("a preview's chances", () => {
  it("on the chart's last row equal the die's faces counted by hand", () => {
    const row = RS.chart[LAST].spaces;
    const sides = RS.roll.dieSides;
    let checked = 0;
    let partial = 0;
    for (const s of LAST_ROW) {
      const space = s.space[s.active];
      for (const a of choices(s)) {
        const p = preview(s, a);
        if (p.total === null) continue;
        expect(p.total).toBe(p.drunkenness + row[space]);
        let pass = 0;
        let wasted = 0;
        const moves = new Map<number, number>();
        for (let face = 1; face <= sides; face++) {
          const short = p.total - face;
          const move = short <= 0 ? RS.roll.okMove : RS.roll.failMove + Math.floor((short - 1) / RS.roll.failStep);
          if (short <= 0) pass++;
          if (space + move >= row.length) wasted++;
          moves.set(move, (moves.get(move) ?? 0) + 1);
        }
        expect(p.passChance).toBe(pass / sides);
        expect(p.wastedChance).toBe(wasted / sides);
        expect(p.outChance).toBe(wasted / sides);
        expect(p.levelUpChance).toBe(0);
        expect(p.thrownOut).toBe(false);
        expect(p.moves).toEqual([...moves].sort((x, y) => x[0] - y[0]).map(([spaces, n]) => ({ spaces, chance: n / sides })));
        if (wasted > 0 && wasted < sides) partial++;
        checked++;
      }
    }
    console.log(`last row: ${checked} rolled previews counted by hand, ${partial} with a wasted chance strictly between 0 and 1`);
    expect(checked).toBeGreaterThan(50);
    expect(partial).toBeGreaterThan(10);
  });

  it('say a third abstinence in a row throws out whatever the die, unless the seat is insulted', () => {
    let out = 0;
    for (const s of THIRD) {
      const p = preview(s);
      if (p.skips || !p.abstinence) continue;
      const insulted = seatFacts(R, s, s.active).insulted[s.active] === 1;
      expect(p).toMatchObject({ thrownOut: !insulted, outChance: insulted ? 0 : 1, wastedChance: 0, passChance: null });
      if (!insulted) {
        expect(p.moves).toEqual([]);
        out++;
      }
    }
    expect(out).toBeGreaterThan(10);
  });

  it('hold over 1,000 real rolls: the certain always happens, the impossible never, frequencies as stated', () => {
    const tally = { pass: [0, 0, 0], wasted: [0, 0, 0], levelUp: [0, 0, 0] }; // observed, expected, variance
    const note = (k: keyof typeof tally, happened: boolean, chance: number) => {
      if (chance === 1) expect(happened).toBe(true);
      if (chance === 0) expect(happened).toBe(false);
      tally[k][0] += happened ? 1 : 0;
      tally[k][1] += chance;
      tally[k][2] += chance * (1 - chance);
    };
    let rolls = 0;
    let outs = 0;
    // Where the die decides whether the seat leaves, the old preview told it beforehand.
    let decided = 0;
    let foretold = 0;
    for (const [i, s] of [...SAMPLED, ...LAST_ROW, ...ANYWHERE, ...THIRD].entries()) {
      for (const a of choices(s)) {
        const p = preview(s, a);
        for (let k = 0; k < 3; k++) {
          const seed = `roll:${i}:${a}:${k}`;
          const o = simulate(s, a, seed);
          if (p.skips) {
            expect(o.digest).toBeNull();
            continue;
          }
          if (o.out === 'thrown_out') outs++;
          if (p.thrownOut) expect(o.out).toBe('thrown_out');
          if (o.out !== null) expect(p.outChance).toBeGreaterThan(0);
          if (p.outChance === 1) expect(o.out).not.toBeNull();
          if (p.total === null) continue;
          rolls++;
          note('pass', o.digest!.die! >= p.total, p.passChance!);
          note('wasted', o.out === 'wasted', p.wastedChance);
          note('levelUp', o.levelUp, p.levelUpChance);
          expect(p.moves.find((m) => m.spaces === o.digest!.move)?.chance ?? 0).toBeGreaterThan(0);
          if (p.outChance > 0 && p.outChance < 1) {
            decided++;
            if (livePreview({ ...cloneState(s), rng: seedRng(seed) }, a)!.thrownOut === (o.out !== null)) foretold++;
          }
        }
      }
    }
    const words = Object.entries(tally).map(([k, [seen, expected, variance]]) => {
      // Far beyond chance: 5 standard deviations of the sum of the rolls' own chances.
      expect(Math.abs(seen - expected)).toBeLessThanOrEqual(5 * Math.sqrt(variance) + 1);
      return `${k} ${seen} seen, ${expected.toFixed(1)} expected (sd ${Math.sqrt(variance).toFixed(1)})`;
    });
    console.log(`rolls: ${rolls} simulated, ${outs} thrown out as previewed; ${words.join('; ')}; the old preview foretold ${foretold} of ${decided} roll-decided exits`);
    expect(foretold).toBe(decided);
    expect(rolls).toBeGreaterThanOrEqual(1000);
  });
});
