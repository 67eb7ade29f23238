/**
 * Twin worlds that re-simulate: a game dealt anew in everything one viewer cannot see, then
 * played again from the deal with the same public choices, so that a record made from the
 * hands (who was asked, who passed, in what order) differs between the twins wherever it
 * depends on them.
 *
 * - The deal: every card the viewer does not hold (the other hands and the draw pile, CLOSING
 *   TIME left where it lies) is shuffled among the places it could be; the onlooker keeps no hand.
 * - The replay: at every step the twin must be asking the seat the game asked. The viewer plays
 *   its own choice; every other seat makes the same public choice (a pass stays a pass, a card
 *   played stays that card). Where a seat lacks the card it played, a card it holds unseen is
 *   traded for it with another unseen place (an unseen card of another hand, or of the pile),
 *   never a card anyone knows of (state.known, state.pileKnown), so the twin stays a world the
 *   viewer could be in.
 * - The dice rolled so far are public and stay; the dice to come, like the pile and the hands
 *   as they now stand, are dealt anew at the end (env/resample.ts).
 *
 * A twin whose table asks another seat than the game did has shown that the order of
 * decisions depends on what the viewer cannot see: `diverged` says where.
 */
import { CLOSING_TIME, HAND_TYPES } from '../../env/cards.ts';
import { CzechPubEnv } from '../../env/env.ts';
import { isLegal } from '../../env/engine/index.ts';
import { eventForSeat, type GameEvent } from '../../env/events.ts';
import type { Viewer } from '../../env/observation/channel.ts';
import { resampleState } from '../../env/resample.ts';
import { randInt, seedRng, shuffle, type RngState } from '../../env/rng.ts';
import type { GameState } from '../../env/state.ts';
import { envAt, type LiveGame } from '../../server/games.ts';

export interface Twin {
  /** The twin, as a game the server's exits read; null when it could not follow the game. */
  game: LiveGame | null;
  /** Where the twin asked another seat than the game did: a leak through the order of decisions. */
  diverged: { step: number; game: number; twin: number } | null;
  /** A step whose action the twin could not take, however its unseen cards were traded (the twin is dropped, not a leak). */
  stuck: number | null;
  /** Why it was stuck. */
  why?: string;
  /** Cards traded to follow the game's public choices. */
  trades: number;
}

const T = HAND_TYPES;

/**
 * Whether a card of type `t` in seat `p`'s hand is one the viewer does not know of (nor
 * anyone: knownPublic). What other seats know privately belongs to the hidden world, as
 * their hands do: a trade rewrites it (`settle`).
 */
function unseenInHand(s: GameState, p: number, t: number, viewer: Viewer): boolean {
  const n = s.players;
  const known = Math.max(s.knownPublic[p * T + t], viewer === null ? 0 : s.known[(viewer * n + p) * T + t]);
  return s.hand[p * T + t] > known;
}

/** Whether one more card of type `t` could lie in the draw pile as far as the viewer knows (pileKnown bounds what it may hold). */
function pileMayTake(s: GameState, t: number, viewer: Viewer): boolean {
  if (viewer === null) return true;
  return s.deck.filter((c) => c === t).length + 1 <= s.pileKnown[viewer * T + t];
}

/** After a trade: no seat knows of more cards in a hand than it holds (the others' knowledge follows the twin's hands). */
function settle(s: GameState): void {
  const n = s.players;
  for (let w = 0; w < n; w++) {
    for (let p = 0; p < n; p++) for (let t = 0; t < T; t++) s.known[(w * n + p) * T + t] = Math.min(s.known[(w * n + p) * T + t], s.hand[p * T + t]);
  }
}

/** What a trade may move: `give(t)` whether `p` may give a card of type t; `spare(q, t)` whether another place may part with one. */
interface TradeRules {
  give: (t: number) => boolean;
  spare: (q: number, t: number) => boolean;
  /** Give the cards `give` allows only, else those first and then any. */
  strict: boolean;
}

/**
 * Gives seat `p` one card of type `want`, taken from another unseen place (a hand or the
 * pile), in exchange for an unseen card of its own. False when no trade keeps the world one the viewer could be in.
 */
function trade(s: GameState, p: number, want: number, viewer: Viewer, rules: TradeRules, rng: RngState): boolean {
  const n = s.players;
  const gives: number[] = [];
  for (let t = 0; t < T; t++) {
    if (t !== want && s.hand[p * T + t] > 0 && unseenInHand(s, p, t, viewer) && (!rules.strict || rules.give(t))) gives.push(t);
  }
  gives.sort((a, b) => Number(rules.give(b)) - Number(rules.give(a)));
  const sources: ({ hand: number } | { pile: number })[] = [];
  for (let q = 0; q < n; q++) {
    if (q !== p && q !== viewer && s.hand[q * T + want] > 0 && unseenInHand(s, q, want, viewer) && rules.spare(q, want)) sources.push({ hand: q });
  }
  s.deck.forEach((c, i) => {
    if (c === want) sources.push({ pile: i });
  });
  shuffle(rng, sources);
  for (const give of gives) {
    for (const src of sources) {
      if ('hand' in src) {
        s.hand[src.hand * T + want]--;
        s.hand[src.hand * T + give]++;
      } else {
        if (!pileMayTake(s, give, viewer)) continue;
        s.deck[src.pile] = give;
      }
      s.hand[p * T + give]--;
      s.hand[p * T + want]++;
      settle(s);
      return true;
    }
  }
  return false;
}

/**
 * Lays `cards` where the draw pile's next draws will take them (after `offset` cards drawn
 * before them in the step), trading with other pile places or unseen hand cards. False when it cannot.
 */
function arrangePile(s: GameState, offset: number, cards: readonly number[], viewer: Viewer, spare: TradeRules['spare'], laid: Set<number>): boolean {
  // Where the next draws take from: the pile's top down, CLOSING TIME (drawn as itself, not into a hand) passed over.
  const places: number[] = [];
  for (let at = s.deck.length - 1; at >= 0; at--) if (s.deck[at] !== CLOSING_TIME) places.push(at);
  for (let i = 0; i < cards.length; i++) {
    const pos = places[offset + i];
    if (pos === undefined) return false;
    laid.add(pos);
    if (s.deck[pos] === cards[i]) continue;
    // Another place in the pile, below the cards already laid.
    const j = places.find((at) => !laid.has(at) && s.deck[at] === cards[i]) ?? -1;
    if (j >= 0) {
      [s.deck[j], s.deck[pos]] = [s.deck[pos], s.deck[j]];
      continue;
    }
    const q = [...Array(s.players).keys()].find((h) => h !== viewer && s.hand[h * T + cards[i]] > 0 && unseenInHand(s, h, cards[i], viewer) && spare(h, cards[i]));
    if (q === undefined || !pileMayTake(s, cards[i], viewer)) return false;
    s.hand[q * T + cards[i]]--;
    s.hand[q * T + s.deck[pos]]++;
    s.deck[pos] = cards[i];
    settle(s);
  }
  return true;
}

/** The game `game` as it stood after `steps` actions, re-simulated in a world dealt anew for `viewer`. */
export function resimulate(game: LiveGame, viewer: Viewer, seed: string, steps = game.env.actions.length): Twin {
  const original = game.env;
  const rng = seedRng(seed);
  const env = new CzechPubEnv({ ...original.config, log: true });
  const s = env.state as GameState;
  const r = env.compiledRules;
  const n = s.players;

  // The deal: everything the viewer does not hold, shuffled among the places it could be.
  const pool: number[] = [];
  for (let p = 0; p < n; p++) if (p !== viewer) for (let t = 0; t < T; t++) for (let k = 0; k < s.hand[p * T + t]; k++) pool.push(t);
  for (const t of s.deck) if (t !== CLOSING_TIME) pool.push(t);
  shuffle(rng, pool);
  for (let p = 0; p < n; p++) {
    if (p === viewer) continue;
    for (let t = 0; t < T; t++) s.hand[p * T + t] = 0;
    for (let k = 0; k < s.handSize[p]; k++) s.hand[p * T + pool.pop()!]++;
  }
  for (let i = 0; i < s.deck.length; i++) if (s.deck[i] !== CLOSING_TIME) s.deck[i] = pool.pop()!;
  // At the deal each seat knows the pile less its own hand (env/engine/flow.ts newGame).
  for (let p = 0; p < n; p++) for (let t = 0; t < T; t++) s.pileKnown[p * T + t] = r.count[t] - s.hand[p * T + t];
  // What the deal's log says of the cards drawn, as the twin dealt them.
  const log = env.fullLog as GameEvent[];
  for (let i = 0; i < log.length; i++) {
    const e = log[i];
    if (e.k === 'draw' && e.seat !== viewer) log[i] = { ...e, cards: e.cards.map(() => randInt(rng, T)) };
  }

  const actors: number[] = [];
  const logAt = [env.eventCount];
  let trades = 0;
  for (let k = 0; k < steps; k++) {
    const a = original.actions[k];
    const seat = game.actors[k];
    if (env.actor !== seat) return { game: null, diverged: { step: k, game: seat, twin: env.actor }, stuck: null, trades };
    // Cards the step shows the viewer (one discarded from a hand by an X card, one picked up) are where the game had them.
    const { shown, spilled } = shownTypes(game, k, viewer);
    const events = game.env.fullLog.slice(game.logAt[k], game.logAt[k + 1]);
    const draws = events.some((e) => e.k === 'draw' && (e.seat === viewer || spilled.has(e.seat)));
    if (shown.size > 0 || spilled.size > 0 || draws) {
      const had = [...Array(n).keys()].map((p) => gameHand(game, k, p));
      // A seat that goes out lays its hand on the discard pile, face up: all of it is shown.
      const needs = (p: number, t: number) => spilled.has(p) || shown.has(t);
      const spare = (q: number, t: number) => !needs(q, t) || s.hand[q * T + t] > had[q][t];
      for (let p = 0; p < n; p++) {
        if (p === viewer) continue;
        const rules = { give: (u: number) => !needs(p, u) || s.hand[p * T + u] > had[p][u], spare, strict: true };
        for (let t = 0; t < T; t++) {
          if (!needs(p, t)) continue;
          while (s.hand[p * T + t] < had[p][t] && trade(s, p, t, viewer, rules, rng)) trades++;
        }
      }
      // What the viewer draws is what it drew in the game, and what a seat going out draws in the
      // same step is shown with its hand: the pile lays those cards where the step's draws take them.
      let drawn = 0;
      const laid = new Set<number>();
      for (const e of events) {
        if (e.k === 'reshuffle') break;
        if (e.k !== 'draw') continue;
        if ((e.seat === viewer || spilled.has(e.seat)) && !arrangePile(s, drawn, e.cards, viewer, spare, laid)) {
          return { game: null, diverged: null, stuck: k, why: 'the pile could not hold the cards the step draws', trades };
        }
        drawn += e.cards.length;
      }
    }
    if (seat !== viewer && !isLegal(r, s, a)) {
      // The seat makes the game's public choice: it trades unseen cards for the ones that choice needs.
      const had = gameHand(game, k, seat);
      for (let tries = 0; tries < T && !isLegal(r, s, a); tries++) {
        const short = [...Array(T).keys()].filter((t) => s.hand[seat * T + t] < had[t]);
        if (short.length === 0) break;
        const want = short[randInt(rng, short.length)];
        if (!trade(s, seat, want, viewer, { give: (t) => s.hand[seat * T + t] > had[t], spare: () => true, strict: false }, rng)) break;
        trades++;
      }
    }
    if (!isLegal(r, s, a)) return { game: null, diverged: null, stuck: k, why: 'the seat could not get the cards its choice needs', trades };
    actors.push(seat);
    env.stepLegal(a);
    logAt.push(env.eventCount);
    // The public table must be the game's (a card laid face up from a hand the twin could not match makes the twin no world the viewer could be in).
    const then = envAt(game, k + 1).state as GameState;
    if (JSON.stringify([then.discard, then.front]) !== JSON.stringify([s.discard, s.front])) return { game: null, diverged: null, stuck: k, why: 'the public table differs', trades };
    // What the viewer saw come into its hand (its draws, a card taken to or from it) is what it saw in the game.
    if (viewer !== null && !sameOwnCards(game, k, viewer, env, logAt, rng)) return { game: null, diverged: null, stuck: k, why: "the viewer's own cards could not be matched", trades };
  }
  // The future: the hands, the pile and the dice to come dealt anew once more (the state is the twin env's own, replaced in place).
  // (The onlooker's twin keeps its re-simulated hands and pile, as no seat's knowledge bounds them: only the dice to come are new.)
  if (viewer === null) s.rng = seedRng(`${seed}/dice`);
  else Object.assign(s, resampleState(r, s, viewer, `${seed}/now`));
  return { game: { ...game, env, actors, logAt, scrub: null }, diverged: null, stuck: null, trades };
}

/**
 * After the twin's step k: the viewer's own events carry the cards the game's did (the pile
 * and the other hands differ, so a draw or a take may have brought another card), and its
 * hand is the game's, the difference traded with unseen places. False when that cannot be done.
 */
function sameOwnCards(game: LiveGame, k: number, viewer: number, env: CzechPubEnv, logAt: number[], rng: RngState): boolean {
  const theirs = game.env.fullLog.slice(game.logAt[k], game.logAt[k + 1]);
  const log = env.fullLog as GameEvent[];
  const from = logAt[k];
  if (log.length - from !== theirs.length) return false;
  for (let i = 0; i < theirs.length; i++) {
    const e = log[from + i];
    const o = theirs[i];
    if (e.k !== o.k) return false;
    if (e.k === 'draw' && o.k === 'draw' && e.seat === viewer) log[from + i] = { ...e, cards: [...o.cards] };
    if (e.k === 'take' && o.k === 'take' && (e.from === viewer || e.to === viewer)) log[from + i] = { ...e, card: o.card };
  }
  const s = env.state as GameState;
  const then = envAt(game, k + 1).state as GameState;
  const want = then.hand.slice(viewer * T, (viewer + 1) * T);
  // What the viewer knows of the pile and of the other hands is its own: as in the game (and the hands must agree with it).
  const n = s.players;
  for (let t = 0; t < T; t++) s.pileKnown[viewer * T + t] = then.pileKnown[viewer * T + t];
  for (let i = viewer * n * T; i < (viewer + 1) * n * T; i++) s.known[i] = then.known[i];
  for (let t = 0; t < T; t++) {
    while (s.hand[viewer * T + t] < want[t]) {
      // The viewer holds a card of another type instead: it goes where an unseen `t` was.
      const extra = [...Array(T).keys()].find((u) => s.hand[viewer * T + u] > want[u]);
      if (extra === undefined || !tradeInto(s, viewer, t, extra, rng)) return false;
    }
  }
  for (let q = 0; q < n; q++) for (let t = 0; t < T; t++) if (s.hand[q * T + t] < s.known[(viewer * n + q) * T + t]) return false;
  return true;
}

/** Gives `p` an unseen card of type `want` from another hand or the pile, that place getting `give` from `p`. */
function tradeInto(s: GameState, p: number, want: number, give: number, rng: RngState): boolean {
  const places: ({ hand: number } | { pile: number })[] = [];
  for (let q = 0; q < s.players; q++) if (q !== p && s.hand[q * T + want] > 0 && unseenInHand(s, q, want, p)) places.push({ hand: q });
  s.deck.forEach((c, i) => {
    if (c === want && pileMayTake(s, give, p)) places.push({ pile: i });
  });
  if (places.length === 0) return false;
  const place = places[randInt(rng, places.length)];
  if ('hand' in place) {
    s.hand[place.hand * T + want]--;
    s.hand[place.hand * T + give]++;
  } else {
    s.deck[place.pile] = give;
  }
  s.hand[p * T + want]++;
  s.hand[p * T + give]--;
  settle(s);
  return true;
}

/** The card types the events of the game's step k show the viewer, and the seats whose whole hand it shows (going out). */
function shownTypes(game: LiveGame, k: number, viewer: Viewer): { shown: Set<number>; spilled: Set<number> } {
  const out = new Set<number>();
  const spilled = new Set<number>();
  for (const e of game.env.fullLog.slice(game.logAt[k], game.logAt[k + 1])) {
    if (e.k === 'out') spilled.add(e.seat);
    const seen = eventForSeat(e, viewer ?? -1) as Record<string, unknown>;
    for (const key of ['card', 'give']) if (typeof seen[key] === 'number' && (seen[key] as number) >= 0 && (seen[key] as number) < T) out.add(seen[key] as number);
    if (Array.isArray(seen.cards)) for (const c of seen.cards) if (typeof c === 'number' && c >= 0 && c < T) out.add(c);
  }
  // Cards laid on the discard pile, face up, whatever the events say of them.
  const [before, after] = [k, k + 1].map((i) => (envAt(game, i).state as GameState).discard.slice());
  // A reshuffle in the step took the discard pile into the draw pile: what lies there now was laid after it.
  if (game.env.fullLog.slice(game.logAt[k], game.logAt[k + 1]).some((e) => e.k === 'reshuffle')) before.length = 0;
  for (const t of after) {
    const i = before.indexOf(t);
    if (i >= 0) before.splice(i, 1);
    else if (t < T) out.add(t);
  }
  return { shown: out, spilled };
}

/** The game's hand of `seat` before its action k. */
function gameHand(game: LiveGame, k: number, seat: number): number[] {
  return (envAt(game, k).state as GameState).hand.slice(seat * T, (seat + 1) * T);
}
