/**
 * What a choice's preview says it gives the other seats (`seats`), and the shot tokens a
 * digestion preview says it gives, against the engine: over generated positions, every legal
 * choice is played in the real game, and where the preview calls the outcome certain each
 * seat's tokens, bonus, points, cards moved and turn limits must be what the engine did. The
 * chances a seat asked to answer holds a card are checked three ways: a chance of 0 or 1
 * against the real hands, every chance against worlds resampled from the deciding seat's
 * view, and a few by hand in named cases.
 */
import { describe, expect, it } from 'vitest';
import {
  A_DONE, A_EXCUSE_CANCEL, A_PASS, A_SHOT_DISCARD, A_SHOT_NOTHING, actionFromKey, decodeAction, type ActionKind,
} from '../actions.ts';
import { BEER, CARD_IDS, EXCUSE_ME, HAND_TYPES, RUM, SHOT_TYPES, SMALL_BEER, type CardId } from '../cards.ts';
import { CzechPubEnv } from '../env.ts';
import type { GameEvent } from '../events.ts';
import { publicEntry, seatFacts } from '../observation/visible.ts';
import { resampleState } from '../resample.ts';
import { randInt, seedRng } from '../rng.ts';
import { cloneState, PHASE_PLAY, PHASE_REACTION, PHASE_RESPONSE, type GameState } from '../state.ts';
import { act, C, scenario, setHand, tokens, type Game } from '../../test/helpers/scenario.ts';
import { frontLabel, previewChoice, type AnswerChances, type ChoicePreview, type SeatEffect } from './choice-preview.ts';
import { applyAction, scoreOf } from './flow.ts';
import { legalActions, rulesFor } from './index.ts';

const R = rulesFor();
const LIM = R.ruleset.limits;
const SHOTS = Array.from({ length: SHOT_TYPES }, (_, i) => RUM + i);

const preview = (s: GameState, a: number): ChoicePreview => previewChoice(R, seatFacts(R, s, s.actor), a);

/** The kinds of choice that touch other seats (or answer a card): positions offering one are kept more often. */
const TOUCHING = new Set<ActionKind>([
  'lets_do_a_shot', 'shots_everyone', 'thats_my', 'same', 'insult', 'brawl', 'knock', 'mixed', 'warm', 'pour_front', 'pour_hand',
  'excuse_cancel', 'excuse_left', 'excuse_right', 'shot_discard', 'shot_beer', 'shot_small', 'shot_nothing', 'sib',
]);

/** Decisions from random games at 2 to 6 players, play leaning to cards other than pass and done. */
function positions(games: number): GameState[] {
  const out: GameState[] = [];
  for (let g = 0; g < games; g++) {
    const env = new CzechPubEnv({ seed: `seats${g}`, players: 2 + (g % 5) });
    const rng = seedRng(`seats${g}:moves`);
    while (!env.done) {
      const s = env.state as GameState;
      const legal = env.legalActions();
      const touching = legal.some((a) => TOUCHING.has(decodeAction(a).kind));
      if (randInt(rng, touching ? 2 : 12) === 0) out.push(cloneState(s));
      const busy = legal.filter((a) => a !== A_PASS && a !== A_DONE);
      env.step(busy.length > 0 && randInt(rng, 3) > 0 ? busy[randInt(rng, busy.length)] : legal[randInt(rng, legal.length)]);
    }
  }
  return out;
}

const POSITIONS = positions(14);

/** Every legal choice at each position with its preview, worked out once for the tests that share them. */
let previewed: { s: GameState; choices: { a: number; p: ChoicePreview }[] }[] | null = null;
const PREVIEWED = () => (previewed ??= POSITIONS.map((s) => ({ s, choices: legalActions(R, s).map((a) => ({ a, p: preview(s, a) })) })));

/** The end-of-game bonus as the engine's final score has it. */
const bonus = (s: GameState, seat: number): number => scoreOf(R, s, seat) - s.points[seat];
const tokenNames = (mask: number): string[] => SHOTS.filter((t) => mask & (1 << (t - RUM))).map((t) => CARD_IDS[t]);
const sorted = (xs: string[]): string[] => [...xs].sort();

/** The active player's room left this turn, from the public facts of a state. */
function room(s: GameState) {
  const f = seatFacts(R, s, s.active);
  const beers = LIM.beers - f.beers;
  return { actions: f.actionsLeft, shots: f.shotLimit - f.shots, beers, smallBeers: Math.min(beers, LIM.smallBeers - f.smallBeers) };
}

/** What the engine did to `seat` from `a` to `b`, written apart from the preview's code: the fields a preview's SeatEffect has. */
function engineEffect(a: GameState, b: GameState, seat: number, rooms: ReturnType<typeof room>[]) {
  const hand = (s: GameState) => {
    const out: string[] = [];
    for (let t = 0; t < HAND_TYPES; t++) for (let k = s.hand[seat * HAND_TYPES + t]; k > 0; k--) out.push(CARD_IDS[t]);
    return out;
  };
  const minus = (xs: string[], ys: string[]) => {
    const left = [...ys];
    return xs.filter((x) => {
      const i = left.indexOf(x);
      if (i < 0) return true;
      left.splice(i, 1);
      return false;
    });
  };
  const front = (s: GameState) => s.front[seat].map((e) => frontLabel(publicEntry(e, seat)));
  const [ra, rb] = rooms;
  const limits = { actions: rb.actions - ra.actions, shots: rb.shots - ra.shots, beers: rb.beers - ra.beers, smallBeers: rb.smallBeers - ra.smallBeers };
  const changed = Object.values(limits).some((v) => v !== 0);
  return {
    newTokens: tokenNames(b.tokens[seat] & ~a.tokens[seat]),
    bonusBefore: bonus(a, seat),
    bonusAfter: bonus(b, seat),
    points: b.points[seat] - a.points[seat],
    handLoses: sorted(minus(hand(a), hand(b))),
    handGains: sorted(minus(hand(b), hand(a))),
    handSize: b.handSize[seat] - a.handSize[seat],
    frontLoses: sorted(minus(front(a), front(b))),
    frontGains: sorted(minus(front(b), front(a))),
    limits: seat === a.active && changed ? limits : null,
  };
}

const shownFields = (e: SeatEffect) => ({
  newTokens: e.newTokens, bonusBefore: e.bonusBefore, bonusAfter: e.bonusAfter, points: e.points, handLoses: sorted(e.handLoses),
  handGains: sorted(e.handGains), handSize: e.handSize, frontLoses: sorted(e.frontLoses), frontGains: sorted(e.frontGains), limits: e.limits,
});

/** Nothing happened to the seat. */
const untouched = (e: ReturnType<typeof engineEffect>) =>
  e.newTokens.length === 0 && e.points === 0 && e.handLoses.length + e.handGains.length === 0 && e.handSize === 0 &&
  e.frontLoses.length + e.frontGains.length === 0 && e.limits === null;

/** The card types each of an answer's chances is about, for the seat that answers. */
function chanceTypes(s: GameState, seat: number, a: AnswerChances): [string, number, number[]][] {
  const out: [string, number, number[]][] = [['excuseMe', a.excuseMe, [EXCUSE_ME]]];
  const c = a.shotChoice;
  if (c) {
    const lacked = SHOTS.filter((t) => !(s.tokens[seat] & (1 << (t - RUM))));
    out.push(['newToken', c.newToken, lacked], ['shot', c.shot, SHOTS], ['beer', c.beer, [BEER]], ['smallBeer', c.smallBeer, [SMALL_BEER]]);
    out.push(['anyCard', 1 - c.noCard, [...SHOTS, BEER, SMALL_BEER]]);
  }
  return out;
}

const holds = (s: GameState, seat: number, types: number[]): boolean => types.some((t) => s.hand[seat * HAND_TYPES + t] > 0);

describe("a choice preview's seats", () => {
  it("equal the engine's outcome for every seat where it is certain: tokens, bonus, points, cards moved, limits", () => {
    const kinds = new Map<ActionKind, number>();
    let others = 0;
    let freedShots = 0;
    let freedActions = 0;
    let tokensTaken = 0;
    let unseenMoves = 0;
    for (const { s, choices } of PREVIEWED()) {
      for (const { a, p } of choices) {
        const after = cloneState(s);
        const log: GameEvent[] = [];
        applyAction({ r: R, s: after, log }, a);
        if (log.some((e) => e.k === 'digest')) continue;
        const kind = decodeAction(a).kind;
        const rooms = [room(s), room(after)];
        for (let seat = 0; seat < s.players; seat++) {
          const real = engineEffect(s, after, seat, rooms);
          const shown = p.seats.find((e) => e.seat === seat);
          if (!p.certain) {
            // Only what is certain is listed: a card taken at random is counted, never named.
            if (shown && kind === 'pass') {
              expect(shown.handSize).toBe(real.handSize);
              unseenMoves++;
            }
            continue;
          }
          if (!shown) {
            expect(untouched(real), `${kind}: seat ${seat} changed but is not listed`).toBe(true);
            continue;
          }
          expect(shownFields(shown), `${kind} for seat ${seat}`).toEqual(real);
          if (untouched(real)) expect(shown.answer).not.toBeNull();
          if (seat !== s.actor) others++;
          if ((shown.limits?.shots ?? 0) > 0 && seat !== s.actor) freedShots++;
          if ((shown.limits?.actions ?? 0) > 0 && seat !== s.actor) freedActions++;
          if (shown.newTokens.length > 0) tokensTaken++;
        }
        if (p.certain) kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
    }
    console.log(`seats compared by kind: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}; ${others} effects on other seats, ` +
      `${freedShots} freed shot limits, ${freedActions} regained actions, ${tokensTaken} tokens taken, ${unseenMoves} unseen cards counted`);
    for (const k of ['lets_do_a_shot', 'shots_everyone', 'knock', 'mixed', 'warm', 'pour_front', 'pour_hand', 'shot_discard', 'excuse_left'] as const) {
      expect(kinds.get(k) ?? 0, k).toBeGreaterThan(0);
    }
    expect(freedShots).toBeGreaterThan(5);
    expect(freedActions).toBeGreaterThan(20);
    expect(tokensTaken).toBeGreaterThan(5);
    expect(unseenMoves).toBeGreaterThan(2);
  });

  it('ask the seats a card reaches, with chances of 0 and 1 exactly where the real hands leave no doubt', () => {
    let answers = 0;
    let sure = 0;
    let bonuses = 0;
    for (const { s, choices } of PREVIEWED()) {
      for (const { a, p } of choices) {
        const after = cloneState(s);
        applyAction({ r: R, s: after, log: null }, a);
        const asked = p.seats.filter((e) => e.answer !== null).map((e) => e.seat);
        // A card played, or sent on by Excuse me, asks the seats the engine asks: the next to answer now, the rest of a Shots, everyone! after.
        const d = decodeAction(a);
        if (s.phase === PHASE_PLAY || d.kind === 'excuse_left' || d.kind === 'excuse_right') {
          const engine = after.phase === PHASE_RESPONSE && after.effect ? [after.actor, ...after.effect.queue] : [];
          expect(asked, d.kind).toEqual(engine.sort((x, y) => x - y));
        } else {
          expect(asked).toEqual([]);
        }
        for (const e of p.seats) {
          if (!e.answer) continue;
          answers++;
          for (const [what, chance, types] of chanceTypes(s, e.seat, e.answer)) {
            if (chance === 0) expect(holds(s, e.seat, types), what).toBe(false);
            if (chance === 1) expect(holds(s, e.seat, types), what).toBe(true);
            if (chance === 0 || chance === 1) sure++;
          }
          if (e.seat !== after.actor) continue;
          // The first asked: its legal answers are what it holds, and a lacked shot discarded gives the bonus said.
          const legal = legalActions(R, after);
          expect(legal.includes(A_EXCUSE_CANCEL)).toBe(holds(s, e.seat, [EXCUSE_ME]));
          const c = e.answer.shotChoice;
          if (!c) continue;
          const lacked = legal.filter((x) => x >= A_SHOT_DISCARD && x < A_SHOT_DISCARD + SHOT_TYPES && !(after.tokens[e.seat] & (1 << (x - A_SHOT_DISCARD))));
          expect(lacked.length > 0).toBe(holds(s, e.seat, SHOTS.filter((t) => !(s.tokens[e.seat] & (1 << (t - RUM))))));
          expect(c.bonusBefore).toBe(bonus(after, e.seat));
          if (lacked.length > 0) {
            const answered = cloneState(after);
            applyAction({ r: R, s: answered, log: null }, lacked[0]);
            expect(bonus(answered, e.seat)).toBe(c.bonusWithToken);
            bonuses++;
          }
          const nothing = cloneState(after);
          applyAction({ r: R, s: nothing, log: null }, A_SHOT_NOTHING);
          expect(nothing.points[e.seat] - after.points[e.seat]).toBe(-c.losses.nothing);
        }
      }
    }
    console.log(`answers: ${answers} seats asked, ${sure} chances of 0 or 1 held by the real hands, ${bonuses} token bonuses played out`);
    expect(answers).toBeGreaterThan(100);
    expect(bonuses).toBeGreaterThan(10);
  });

  it('state chances that worlds resampled from the deciding seat match, within 5 standard deviations', () => {
    const WORLDS = 120;
    let items = 0;
    let positions = 0;
    const total = { seen: 0, expected: 0, variance: 0 };
    for (const [i, { s, choices }] of PREVIEWED().entries()) {
      const wanted: { seat: number; what: string; chance: number; types: number[] }[] = [];
      const seen = new Set<string>();
      for (const { p } of choices) {
        for (const e of p.seats) {
          if (!e.answer) continue;
          for (const [what, chance, types] of chanceTypes(s, e.seat, e.answer)) {
            const key = `${e.seat}:${what}`;
            if (seen.has(key)) continue;
            seen.add(key);
            wanted.push({ seat: e.seat, what, chance, types });
          }
        }
      }
      if (wanted.length === 0) continue;
      positions++;
      const hits = new Array<number>(wanted.length).fill(0);
      for (let w = 0; w < WORLDS; w++) {
        const world = resampleState(R, s, s.actor, `seats:${i}:${w}`);
        wanted.forEach((x, k) => { if (holds(world, x.seat, x.types)) hits[k]++; });
      }
      wanted.forEach((x, k) => {
        const expected = WORLDS * x.chance;
        const sd = Math.sqrt(WORLDS * x.chance * (1 - x.chance));
        if (x.chance === 0 || x.chance === 1) expect(hits[k], `${x.what} at position ${i}`).toBe(expected);
        else expect(Math.abs(hits[k] - expected), `${x.what} at position ${i}: ${hits[k]} of ${WORLDS}, chance ${x.chance}`).toBeLessThanOrEqual(5 * sd + 1);
        total.seen += hits[k];
        total.expected += expected;
        total.variance += sd * sd;
        items++;
      });
    }
    const sd = Math.sqrt(total.variance);
    console.log(`resampled: ${items} chances at ${positions} positions over ${WORLDS} worlds each; held ${total.seen}, expected ${total.expected.toFixed(1)} (sd ${sd.toFixed(1)})`);
    expect(Math.abs(total.seen - total.expected)).toBeLessThanOrEqual(5 * sd + 1);
    expect(items).toBeGreaterThan(200);
  });
});

/** Plays on with applyAction (nobody reacting, `seat` saying done) until the active player has digested; the log and the state then. */
function digestRun(state: GameState, a: number | null): { s: GameState; log: GameEvent[] } {
  const s = cloneState(state);
  s.rng = seedRng('seats:dice');
  const log: GameEvent[] = [];
  const seat = s.active;
  if (a !== null) applyAction({ r: R, s, log }, a);
  while (!s.over && !log.some((e) => e.k === 'digest' && e.seat === seat && e.copyOf === undefined)) {
    const legal = legalActions(R, s);
    const next = s.actor === seat && legal.includes(A_DONE) ? A_DONE : legal.includes(A_PASS) ? A_PASS : legal.includes(A_SHOT_NOTHING) ? A_SHOT_NOTHING : legal[0];
    applyAction({ r: R, s, log }, next);
    if (log.some((e) => e.k === 'turn')) break;
  }
  return { s, log };
}

describe("a digestion preview's tokens", () => {
  it("equal the engine's: the seat's own digestion, an X card's target, and whoever copies them", () => {
    let own = 0;
    let targets = 0;
    let copies = 0;
    let gained = 0;
    for (const [i, p0] of POSITIONS.entries()) {
      const s = cloneState(p0);
      // Every third position: another seat in the game copies the active player with I'll get the same.
      const copier = [1, 2, 3, 4, 5].map((k) => (s.active + k) % s.players).find((o) => o !== s.active && s.out[o] === 0 && s.copying[o] < 0);
      if (i % 3 === 0 && copier !== undefined) s.copying[copier] = s.active;
      for (const a of legalActions(R, s)) {
        const d = decodeAction(a);
        const p = preview(s, a);
        const digest = s.phase === PHASE_PLAY && (d.kind === 'done' || d.kind === 'order' || d.kind === 'flattery') ? p.digest : s.phase === PHASE_REACTION ? p.target?.after : null;
        if (!digest || digest.skips) continue;
        const seat = s.active;
        const run = digestRun(s, s.phase === PHASE_PLAY && d.kind === 'done' ? null : a);
        const ev = run.log.find((e) => e.k === 'digest' && e.seat === seat && e.copyOf === undefined);
        if (!ev) continue;
        // No choice compared here changes tokens or points before the digestion: `s` is the state before it.
        expect(digest.newTokens).toEqual(tokenNames(run.s.tokens[seat] & ~s.tokens[seat]));
        expect([digest.bonusBefore, digest.bonusAfter]).toEqual([bonus(s, seat), bonus(run.s, seat)]);
        const copied = run.log.filter((e): e is Extract<GameEvent, { k: 'digest' }> => e.k === 'digest' && e.copyOf === seat);
        expect(digest.copiers.map((c) => ({ seat: c.seat, points: c.points, newTokens: c.newTokens, bonus: [c.bonusBefore, c.bonusAfter] }))).toEqual(
          copied.map((e) => ({ seat: e.seat, points: e.points, newTokens: tokenNames(run.s.tokens[e.seat] & ~s.tokens[e.seat]), bonus: [bonus(s, e.seat), bonus(run.s, e.seat)] })),
        );
        if (s.phase === PHASE_PLAY) own++;
        else targets++;
        copies += copied.length;
        gained += digest.newTokens.length;
      }
    }
    console.log(`digestion tokens: ${own} own digestions, ${targets} X-card targets, ${copies} copies compared; ${gained} tokens gained`);
    expect(own).toBeGreaterThan(300);
    expect(targets).toBeGreaterThan(20);
    expect(copies).toBeGreaterThan(30);
    expect(gained).toBeGreaterThan(50);
  });
});

/** A scenario whose draw pile holds every card not dealt, so the seats' count of the unseen cards is the real one. */
function table(hands: CardId[][], discard: CardId[] = []): Game {
  const g = scenario({ players: hands.length, deck: [] });
  hands.forEach((h, seat) => setHand(g, seat, h));
  g.s.discard = discard.map((id) => C[id]);
  const left = Array.from(R.count);
  for (const t of [...hands.flat(), ...discard].map((id) => C[id])) left[t]--;
  g.s.deck = left.flatMap((n, t) => new Array<number>(n).fill(t));
  // Nothing known of the pile beyond its cards: it may hold any card not seen.
  for (let seat = 0; seat < hands.length; seat++) for (let t = 0; t < HAND_TYPES; t++) g.s.pileKnown[seat * HAND_TYPES + t] = R.count[t];
  return g;
}

const choose = (n: number, k: number): number => (k < 0 || k > n ? 0 : k === 0 ? 1 : (choose(n - 1, k - 1) * n) / k);
const seatOf = (p: ChoicePreview, seat: number): SeatEffect => p.seats.find((e) => e.seat === seat)!;

describe('named cases from issue 43', () => {
  it("Let's do a shot: the chance the target holds a shot it lacks, by hand", () => {
    const g = table([['lets_do_a_shot', 'beer'], ['beer', 'beer', 'coffee', 'tea', 'brawl'], ['beer', 'beer', 'beer', 'beer', 'beer']]);
    g.s.tokens[1] = tokens('rum');
    const p = preview(g.s, actionFromKey('play:lets_do_a_shot:+1'));
    const c = seatOf(p, 1).answer!.shotChoice!;
    // Seat 0 sees its own 2 cards: 98 unseen, 16 of them shots seat 1 lacks; seat 1 holds 5.
    expect(c.newToken).toBeCloseTo(1 - choose(98 - 16, 5) / choose(98, 5), 12);
    expect(c.shot).toBeCloseTo(1 - choose(98 - 20, 5) / choose(98, 5), 12);
    expect([c.bonusBefore, c.bonusWithToken]).toEqual([1, 3]);
    expect(seatOf(p, 1).answer!.excuseMe).toBeCloseTo(1 - choose(98 - 4, 5) / choose(98, 5), 12);
  });

  it("a pile known to hold no Vodka: the unseen Vodkas are in the hands", () => {
    const shots: CardId[] = ['rum', 'fernet', 'becherovka', 'peppermint'];
    const g = table([['shots_everyone', 'beer', 'beer'], ['beer', 'beer', 'beer', 'beer', 'beer'], ['beer', 'beer', 'beer', 'beer', 'beer']],
      shots.flatMap((id) => [id, id, id, id]));
    // The four Vodkas are somewhere in seats 1 and 2's ten cards: the real deal does not matter to the count.
    for (let t = 0; t < HAND_TYPES; t++) g.s.pileKnown[t] = t === C.vodka ? 0 : R.count[t];
    const p = preview(g.s, actionFromKey('play:shots_everyone'));
    for (const seat of [1, 2]) expect(seatOf(p, seat).answer!.shotChoice!.newToken).toBeCloseTo(1 - choose(6, 5) / choose(10, 5), 12);
  });

  it('a shot choice: you take the Rum token, end bonus 1 → 3', () => {
    const g = table([['lets_do_a_shot', 'beer'], ['rum', 'beer', 'tea'], ['beer']]);
    g.s.tokens[1] = tokens('fernet');
    act(g, 'play:lets_do_a_shot:+1');
    const p = preview(g.s, actionFromKey('shot_choice:rum'));
    expect(seatOf(p, 1)).toMatchObject({ newTokens: ['rum'], bonusBefore: 1, bonusAfter: 3, handLoses: ['rum'], handSize: -1, points: 0 });
    act(g, 'shot_choice:rum');
    expect(bonus(g.s, 1)).toBe(3);
  });

  it("Shot into a beer as an X card on the active player's own Rum lets them order another shot", () => {
    const g = table([['beer', 'rum', 'fernet', 'beer'], ['shot_into_beer', 'knocked_over'], ['beer']]);
    act(g, 'play:beer', 'pass', 'play:rum');
    expect(g.s.actor).toBe(1);
    const p = preview(g.s, actionFromKey('x:shot_into_beer:front:rum'));
    expect(seatOf(p, 0).limits).toEqual({ actions: 0, shots: 1, beers: 0, smallBeers: 0 });
    expect(p.target!.after).toMatchObject({ newTokens: ['rum'], bonusBefore: 0, bonusAfter: 1 });
    const knock = preview(g.s, actionFromKey('x:knocked_over:rum'));
    expect(seatOf(knock, 0).limits).toEqual({ actions: 1, shots: 1, beers: 0, smallBeers: 0 });
    act(g, 'x:shot_into_beer:front:rum', 'pass');
    expect(legalActions(R, g.s)).toContain(actionFromKey('play:fernet'));
  });
});
