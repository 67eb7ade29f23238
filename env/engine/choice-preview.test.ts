import { describe, expect, it } from 'vitest';
import { decodeAction, A_DONE, A_PASS, A_SHOT_NOTHING, NUM_ACTIONS, type ActionKind } from '../actions.ts';
import { CARD_IDS } from '../cards.ts';
import { CzechPubEnv } from '../env.ts';
import type { GameEvent } from '../events.ts';
import { seatFacts } from '../observation/visible.ts';
import { resampleState } from '../resample.ts';
import { randInt, seedRng } from '../rng.ts';
import { cloneState, type GameState } from '../state.ts';
import { canPreviewChoices, previewChoice, type ChoicePreview } from './choice-preview.ts';
import { applyAction } from './flow.ts';
import { applyStep, legalActions, rulesFor } from './index.ts';
import type { DigestPreview } from './preview.ts';
import { engineChange } from '../../test/helpers/engine-change.ts';

const R = rulesFor();
type Digest = Extract<GameEvent, { k: 'digest' }>;

const preview = (s: GameState, a: number): ChoicePreview => previewChoice(R, seatFacts(R, s, s.actor), a);

/** Decisions from random games at 2 to 6 players; play is random but leans to X cards and shot choices, which are rare. */
function positions(games: number, keep: number): GameState[] {
  const out: GameState[] = [];
  for (let g = 0; g < games; g++) {
    const env = new CzechPubEnv({ seed: `choice${g}`, players: 2 + (g % 5) });
    const rng = seedRng(`choice${g}:moves`);
    while (!env.done) {
      const s = env.state as GameState;
      if (randInt(rng, keep) === 0) out.push(cloneState(s));
      const legal = env.legalActions();
      const busy = legal.filter((a) => a !== A_PASS && a !== A_DONE);
      env.step(busy.length > 0 && randInt(rng, 2) === 0 ? busy[randInt(rng, busy.length)] : legal[randInt(rng, legal.length)]);
    }
  }
  return out;
}

const POSITIONS = positions(30, 3);

/** Plays on from `state` until `seat` digests: everyone else passes (or answers first), `seat` says done. */
function digestOf(state: GameState, seat: number, seed: string): { digest: Digest | null; out: boolean } {
  const s = cloneState(state);
  s.rng = seedRng(seed);
  const log: GameEvent[] = [];
  while (!s.over && !log.some((e) => e.k === 'digest' && e.seat === seat)) {
    const legal = legalActions(R, s);
    const mine = s.actor === s.active && legal.includes(A_DONE);
    applyStep(R, s, mine ? A_DONE : legal.includes(A_PASS) ? A_PASS : legal.includes(A_SHOT_NOTHING) ? A_SHOT_NOTHING : legal[0], log);
    if (log.some((e) => e.k === 'turn')) break;
  }
  const digest = log.find((e): e is Digest => e.k === 'digest' && e.seat === seat && e.copyOf === undefined) ?? null;
  return { digest, out: log.some((e) => e.k === 'out' && e.seat === seat) };
}

/** What the die cannot change of a digestion, as the preview and the engine's event say it. */
const fixed = (p: DigestPreview) => ({ points: p.points, drunkenness: p.drunkenness, total: p.total });
const fixedEvent = (e: Digest) => ({ points: e.points, drunkenness: e.drunkenness, total: e.total ?? null });

describe('previewChoice', () => {
  it("equals the engine's outcome of every kind of choice where it is certain", () => {
    const kinds = new Map<ActionKind, number>();
    let digests = 0;
    let targets = 0;
    let risks = 0;
    for (const [i, s] of POSITIONS.entries()) {
      const seat = s.actor;
      expect(canPreviewChoices(seatFacts(R, s, seat))).toBe(true);
      for (const a of legalActions(R, s)) {
        const d = decodeAction(a);
        const p = preview(s, a);
        kinds.set(d.kind, (kinds.get(d.kind) ?? 0) + 1);
        // The decision alone, as the engine makes it (no one else's turn run on).
        const after = cloneState(s);
        const log: GameEvent[] = [];
        applyAction({ r: R, s: after, log }, a);
        const digested = log.some((e) => e.k === 'digest');
        if (!digested) {
          const real = engineChange(s, after, seat);
          if (p.certain) expect({ handLoses: p.handLoses, handGains: p.handGains, fronts: p.fronts, points: p.points }).toEqual(real);
          else for (const c of p.handLoses) expect(real.handLoses).toContain(c);
          if (p.passesTo >= 0) expect(after.actor).toBe(p.passesTo);
        }
        if (p.digest && !p.digest.skips) {
          // The digestion the choice starts, or the one saying done right after starts, with nobody reacting.
          const run = p.digestWhen === 'now' && digested ? { digest: log.find((e): e is Digest => e.k === 'digest' && e.seat === seat && e.copyOf === undefined) ?? null, out: log.some((e) => e.k === 'out' && e.seat === seat) } : digestOf(after, seat, `c${i}:${a}`);
          if (run.digest) {
            expect(fixed(p.digest)).toEqual(fixedEvent(run.digest));
            digests++;
          }
          if (p.risk === null) expect(run.out).toBe(false);
          if (p.risk?.chance === 1) expect(run.out).toBe(true);
        }
        if (p.risk) {
          expect(p.risk.chance).toBe(p.digest!.outChance);
          risks++;
        }
        if (p.target) {
          // An X card: the digestion of the player it hits, if they said done with no more reactions.
          const run = digestOf(after, p.target.seat, `t${i}:${a}`);
          if (run.digest && !p.target.after.skips) {
            expect(fixed(p.target.after)).toEqual(fixedEvent(run.digest));
            targets++;
          }
        }
        expect(p.digest === null).toBe(s.active !== seat);
      }
    }
    const seen = [...kinds].map(([k, n]) => `${k} ${n}`).join(', ');
    console.log(`choices previewed by kind: ${seen}; ${digests} digestions, ${targets} X-card targets compared; ${risks} with a risk`);
    // Every kind of choice the action space has.
    for (let a = 0; a < NUM_ACTIONS; a++) expect(kinds.get(decodeAction(a).kind) ?? 0, decodeAction(a).kind).toBeGreaterThan(0);
    expect(digests).toBeGreaterThan(500);
    expect(targets).toBeGreaterThan(20);
    expect(risks).toBeGreaterThan(0);
  });

  it('is the same byte for byte when everything the seat cannot see is dealt anew, dice included', () => {
    let compared = 0;
    for (const [i, s] of POSITIONS.entries()) {
      if (i % 4 !== 0) continue;
      const seat = s.actor;
      const all = (w: GameState) => JSON.stringify(legalActions(R, w).map((a) => previewChoice(R, seatFacts(R, w, seat), a)));
      const mine = all(s);
      for (const k of ['a', 'b']) expect(all(resampleState(R, s, seat, `choice:${i}:${k}`))).toBe(mine);
      expect(all({ ...cloneState(s), rng: seedRng(`choice:${i}:dice`) })).toBe(mine);
      compared++;
    }
    expect(compared).toBeGreaterThan(50);
  });

  it("flags a third abstinence in a row: done and discarding throw the seat out, an order does not", () => {
    let flagged = 0;
    for (const p0 of POSITIONS) {
      const f0 = seatFacts(R, p0, p0.actor);
      if (p0.actor !== p0.active || p0.phase !== 0 || p0.played > 0 || f0.insulted[p0.active] || p0.playedSame) continue;
      const s = cloneState(p0);
      s.abstinence[s.active] = R.ruleset.abstinence.pointLoss.length;
      for (const a of legalActions(R, s)) {
        const d = decodeAction(a);
        const p = preview(s, a);
        if (d.kind === 'done' || d.kind === 'discard') {
          expect(p.risk).toEqual({ kind: 'out', chance: 1 });
          expect(digestOf(s, s.active, 'x').out || d.kind === 'discard').toBe(true);
          flagged++;
        }
        if (d.kind === 'order' && ['beer', 'rum', 'small_beer'].includes(CARD_IDS[d.card])) expect(p.risk?.kind).not.toBe('out');
      }
    }
    expect(flagged).toBeGreaterThan(10);
  });
});
