/**
 * Conformance suite, in the spirit of PettingZoo's api_test and OpenSpiel's basic tests:
 * thousands of seeded random games at every player count, checking the environment's
 * contract at every step rather than any particular rule.
 */
import { describe, expect, it } from 'vitest';
import { NUM_ACTIONS } from '../env/actions.ts';
import { CLOSING_TIME, HAND_TYPES } from '../env/cards.ts';
import { applyStep, cardCensus, createState, IllegalActionError, legalActions, replay } from '../env/engine/index.ts';
import { encodeObservation, OBS_SIZE } from '../env/observation/encode.ts';
import { makeView } from '../env/observation/view.ts';
import { resampleState } from '../env/resample.ts';
import { randInt, seedRng, shuffle, type RngState } from '../env/rng.ts';
import { compileRuleset, DEFAULT_RULESET } from '../env/ruleset.ts';
import { cloneState, type GameState } from '../env/state.ts';

const RULES = compileRuleset(DEFAULT_RULESET);
// Plain local copies of the imported constants the per-step checks read: under vitest's module
// runner each use of an imported binding is a property read, and in these loops those reads
// took most of the sweeps' time (the 6-player sweep: 24 s, 7 s with these).
const TYPES = HAND_TYPES;
const CLOSING = CLOSING_TIME;
const ACTIONS = NUM_ACTIONS;
const COUNTS = [2, 3, 4, 5, 6];
const pick = (rng: RngState, legal: readonly number[]) => legal[randInt(rng, legal.length)];

function encode(s: GameState, seat: number): Float32Array {
  const out = new Float32Array(OBS_SIZE);
  encodeObservation(RULES, s, seat, out);
  return out;
}

/** Throws unless every card is in exactly one place and hand sizes agree (cheap: called every step). */
function checkCardsAccounted(s: GameState): void {
  const { counts, closing } = cardCensus(s);
  for (let t = 0; t < TYPES; t++) {
    if (counts[t] !== RULES.count[t]) throw new Error(`card type ${t}: ${counts[t]} found, ${RULES.count[t]} exist`);
  }
  if (closing !== 'aside' && closing !== 'deck' && closing !== 'drawn') throw new Error(`CLOSING TIME is ${closing}`);
  const inDeck = new Array<number>(TYPES).fill(0);
  for (const t of s.deck) if (t !== CLOSING) inDeck[t]++;
  for (let p = 0; p < s.players; p++) {
    for (let t = 0; t < TYPES; t++) {
      if (inDeck[t] > s.pileKnown[p * TYPES + t]) throw new Error(`seat ${p} rules out a card type ${t} that is in the draw pile`);
    }
  }
  for (let p = 0; p < s.players; p++) {
    let sum = 0;
    for (let t = 0; t < TYPES; t++) {
      if (s.hand[p * TYPES + t] < 0) throw new Error(`negative count in seat ${p}'s hand`);
      sum += s.hand[p * TYPES + t];
    }
    if (sum !== s.handSize[p]) throw new Error(`seat ${p}: hand size ${s.handSize[p]} but ${sum} cards`);
    for (let t = 0; t < TYPES; t++) {
      const held = s.hand[p * TYPES + t];
      if (s.knownPublic[p * TYPES + t] > held) throw new Error(`everyone "knows" seat ${p} holds a card it does not`);
      for (let o = 0; o < s.players; o++) {
        const k = s.known[(o * s.players + p) * TYPES + t];
        if (o !== p && (k > held || k < s.knownPublic[p * TYPES + t])) throw new Error(`seat ${o}'s knowledge of seat ${p}'s hand is wrong`);
      }
    }
  }
}

const sameArray = (a: ArrayLike<number>, b: ArrayLike<number>): boolean => {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};

/** Plays one random game; calls `check` before each decision. Returns the actions taken. */
function playRandom(players: number, seed: number, askForced: boolean, check?: (s: GameState, legal: number[], step: number) => void): { actions: number[]; state: GameState } {
  const { state } = createState({ players, seed, askForced });
  const rng = seedRng(`policy:${seed}`);
  const actions: number[] = [];
  while (!state.over) {
    const legal = legalActions(RULES, state);
    check?.(state, legal, actions.length);
    const a = pick(rng, legal);
    applyStep(RULES, state, a);
    actions.push(a);
    if (actions.length > 20_000) throw new Error(`game ${players}/${seed} did not end`);
  }
  return { actions, state };
}

/** What a seat cannot see, changed by hand: the draw pile reshuffled, unknown cards swapped between other hands. */
function perturbHidden(s: GameState, seat: number, rng: RngState): GameState {
  const t = cloneState(s);
  const closingAt = t.deck.indexOf(CLOSING);
  const rest = t.deck.filter((c) => c !== CLOSING);
  shuffle(rng, rest);
  if (closingAt >= 0) rest.splice(closingAt, 0, CLOSING);
  t.deck = rest;
  const n = t.players;
  const others = Array.from({ length: n }, (_, p) => p).filter((p) => p !== seat && t.handSize[p] > 0);
  if (others.length >= 2) {
    const [p, q] = [others[0], others[others.length - 1]];
    // Swap one card that the seat does not know about from each hand.
    const free = (x: number) => {
      for (let c = 0; c < TYPES; c++) {
        if (t.hand[x * TYPES + c] > t.known[(seat * n + x) * TYPES + c]) return c;
      }
      return -1;
    };
    const a = free(p);
    const b = free(q);
    if (a >= 0 && b >= 0) {
      t.hand[p * TYPES + a]--;
      t.hand[q * TYPES + a]++;
      t.hand[q * TYPES + b]--;
      t.hand[p * TYPES + b]++;
      // Others' knowledge must stay true of the new hands.
      for (let o = 0; o < n; o++) {
        for (const x of [p, q]) {
          if (o === x) continue;
          for (let c = 0; c < TYPES; c++) {
            const k = (o * n + x) * TYPES + c;
            t.known[k] = Math.min(t.known[k], t.hand[x * TYPES + c]);
          }
        }
      }
    }
  }
  t.rng = seedRng(`dice:${randInt(rng, 1e9)}`);
  return t;
}

describe.each(COUNTS)('conformance at %i players', (players) => {
  it('1000 random games: a legal action until the end, every card accounted for, masks match, games end', () => {
    let decisions = 0;
    for (let seed = 0; seed < 1000; seed++) {
      const askForced = seed % 4 === 3;
      const { state } = playRandom(players, seed, askForced, (s, legal) => {
        if (legal.length === 0) throw new Error(`no legal action: game ${players}/${seed}`);
        if (s.actor < 0 || s.out[s.actor] !== 0) throw new Error(`seat ${s.actor} asked but cannot act`);
        if (new Set(legal).size !== legal.length) throw new Error('duplicate legal actions');
        for (const a of legal) if (!(a >= 0 && a < ACTIONS)) throw new Error(`action ${a} out of range`);
        if (!askForced && legal.length < 2) throw new Error('asked with a single legal action');
        checkCardsAccounted(s);
        decisions++;
      });
      expect(state.over).toBe(true);
      checkCardsAccounted(state);
    }
    expect(decisions).toBeGreaterThan(1000 * players * 10);
  });

  it('an illegal action is refused and changes nothing', () => {
    for (let seed = 0; seed < 60; seed++) {
      const rng = seedRng(`illegal:${seed}`);
      playRandom(players, seed, false, (s, legal, step) => {
        if (step % 5 !== 0) return;
        const before = JSON.stringify(s);
        let bad = randInt(rng, ACTIONS);
        while (legal.includes(bad)) bad = (bad + 1) % ACTIONS;
        for (const a of [bad, -1, ACTIONS, 2.5, Number.NaN]) {
          let error: unknown = null;
          try {
            applyStep(RULES, s, a);
          } catch (e) {
            error = e;
          }
          if (!(error instanceof IllegalActionError)) throw new Error(`action ${a} was not refused`);
          if (JSON.stringify(s) !== before) throw new Error(`refused action ${a} changed the state`);
        }
      });
    }
  });

  it('observations have a fixed shape and finite values for every seat', () => {
    for (let seed = 0; seed < 60; seed++) {
      playRandom(players, seed, false, (s, legal, step) => {
        if (step % 3 !== 0) return;
        for (let seat = 0; seat < players; seat++) {
          const obs = encode(s, seat);
          expect(obs.length).toBe(OBS_SIZE);
          for (let i = 0; i < OBS_SIZE; i++) {
            if (!Number.isFinite(obs[i])) throw new Error(`obs[${i}] = ${obs[i]} for seat ${seat}`);
          }
        }
      });
    }
  });

  it('the same seed gives the same game; a replay of its actions gives the same final state', () => {
    for (let seed = 0; seed < 100; seed++) {
      const a = playRandom(players, seed, false);
      const b = playRandom(players, seed, false);
      expect(b.actions).toEqual(a.actions);
      expect(JSON.stringify(b.state)).toBe(JSON.stringify(a.state));
      const r = replay({ players, seed }, a.actions);
      expect(JSON.stringify(r.state)).toBe(JSON.stringify(a.state));
    }
  });

  it('serialising mid-game and continuing gives the same game', () => {
    for (let seed = 0; seed < 100; seed++) {
      const { actions, state: final } = playRandom(players, seed, false);
      const cut = Math.floor(actions.length / 2);
      const g = createState({ players, seed });
      for (const a of actions.slice(0, cut)) applyStep(g.rules, g.state, a);
      const revived: GameState = JSON.parse(JSON.stringify(g.state));
      for (const a of actions.slice(cut)) applyStep(g.rules, revived, a);
      expect(JSON.stringify(revived)).toBe(JSON.stringify(final));
    }
  });

  it("changing what a seat cannot see does not change that seat's observation, view or legal actions", () => {
    for (let seed = 0; seed < 80; seed++) {
      const rng = seedRng(`perturb:${seed}`);
      playRandom(players, seed, false, (s, legal, step) => {
        if (step % 4 !== 0) return;
        const seat = randInt(rng, players);
        const t = perturbHidden(s, seat, rng);
        checkCardsAccounted(t);
        if (!sameArray(encode(t, seat), encode(s, seat))) throw new Error(`seat ${seat}'s observation changed`);
        if (JSON.stringify(makeView(RULES, t, seat)) !== JSON.stringify(makeView(RULES, s, seat))) {
          throw new Error(`seat ${seat}'s view changed`);
        }
        if (s.actor === seat && !sameArray(legalActions(RULES, t), legal)) throw new Error('legal actions changed');
      });
    }
  });

  it("the resampler keeps the seat's observation, deals every card, and the copy plays on to the end", () => {
    for (let seed = 0; seed < 60; seed++) {
      const rng = seedRng(`resample:${seed}`);
      playRandom(players, seed, false, (s, legal, step) => {
        if (step % 6 !== 0) return;
        const seat = randInt(rng, players);
        const t = resampleState(RULES, s, seat, `r${seed}:${step}`);
        checkCardsAccounted(t);
        if (!sameArray(t.handSize, s.handSize)) throw new Error('hand sizes changed');
        if (!sameArray(encode(t, seat), encode(s, seat))) throw new Error(`seat ${seat}'s observation changed`);
        for (let p = 0; p < players; p++) {
          for (let c = 0; c < TYPES; c++) {
            const i = p * TYPES + c;
            if (p === seat && t.hand[i] !== s.hand[i]) throw new Error('own hand changed');
            if (t.hand[i] < t.known[(seat * players + p) * TYPES + c]) throw new Error('a known card is missing');
            // Nothing private to other seats survives: they know only the public part.
            for (let o = 0; o < players; o++) {
              if (o === seat || o === p || p === seat) continue;
              if (t.known[(o * players + p) * TYPES + c] !== t.knownPublic[i]) throw new Error('private knowledge leaked into the copy');
            }
            if (p !== seat && t.pileKnown[i] !== t.pileKnown[seat * TYPES + c]) throw new Error("another seat's draws leaked into the copy");
          }
        }
        if (step % 30 === 0) {
          const play = seedRng(`resample-play:${seed}:${step}`);
          let guard = 0;
          while (!t.over && guard++ < 20_000) applyStep(RULES, t, pick(play, legalActions(RULES, t)));
          expect(t.over).toBe(true);
          checkCardsAccounted(t);
        }
      });
    }
  });
});
