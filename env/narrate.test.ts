import { describe, expect, it } from 'vitest';
import { NUM_ACTIONS } from './actions.ts';
import { KNOCKED_OVER, THATS_MY_ORDER } from './cards.ts';
import { applyStep, createState, legalActionsFast } from './engine/index.ts';
import { eventForSeat, HIDDEN, type GameEvent } from './events.ts';
import { narrateEvent, narrateEvents } from './narrate.ts';
import { randInt, seedRng } from './rng.ts';
import { DEFAULT_RULESET } from './ruleset.ts';

/**
 * Events of a real game (`czech-pub play --seed 484`: 4 players, uniform random agents, the
 * engine of 29 Nov 2026): the first event of each sort, each after the turn it fell in.
 * Frozen here so that engine changes, which change the random game, leave these lines alone.
 */
const RECORDED: GameEvent[] = [
  { k: 'turn', seat: 0, turn: 1 },
  { k: 'play', seat: 0, card: 10, target: 2 },
  { k: 'resolve', seat: 0, card: 10, target: 2 },
  { k: 'done', seat: 0 },
  { k: 'cleanup', seat: 0 },
  { k: 'draw', seat: 0, count: 1, cards: [5] },
  { k: 'turn', seat: 1, turn: 2 },
  { k: 'take', from: 3, to: 1, card: 8, by: 'thats_my_order' },
  { k: 'play', seat: 1, card: 8 },
  { k: 'x', seat: 3, card: 21, target: 8 },
  { k: 'x', seat: 3, card: 22, target: 0 },
  { k: 'digest', seat: 1, points: -1, drunkenness: 0, move: -1, abstinence: 1, level: 0, space: 0 },
  { k: 'turn', seat: 2, turn: 3 },
  { k: 'discard', seat: 2, card: 9 },
  { k: 'digest', seat: 0, copyOf: 2, points: -1, drunkenness: 0, move: -1, abstinence: 1, level: 0, space: 0 },
  { k: 'turn', seat: 3, turn: 4 },
  { k: 'take', from: 0, to: 3, card: 0, by: 'brawl' },
  { k: 'digest', seat: 3, points: 6, drunkenness: 1, total: -1, die: 4, move: 1, abstinence: 0, level: 0, space: 0 },
  { k: 'turn', seat: 0, turn: 5 },
  { k: 'shot_choice', seat: 1, choice: 'small_beer', card: 1, points: -3 },
  { k: 'shot_choice', seat: 2, choice: 'beer', card: 0, points: -2 },
  { k: 'shot_choice', seat: 3, choice: 'shot', card: 2, points: 0 },
  { k: 'turn', seat: 2, turn: 7 },
  { k: 'x', seat: 3, card: 12, target: 6, fromHand: false },
  { k: 'turn', seat: 0, turn: 9 },
  { k: 'x', seat: 2, card: 20, target: 0, give: 5 },
  { k: 'turn', seat: 2, turn: 11 },
  { k: 'play', seat: 2, card: 11, shot: 1 },
  { k: 'turn', seat: 0, turn: 13 },
  { k: 'excuse', seat: 3, card: 10, redirect: 2 },
  { k: 'turn', seat: 2, turn: 15 },
  { k: 'digest', seat: 0, copyOf: 2, points: 5, drunkenness: 2, total: 1, die: 2, move: 1, abstinence: 0, level: 0, space: 1 },
  { k: 'turn', seat: 3, turn: 16 },
  { k: 'digest', seat: 3, points: 11, drunkenness: 5, total: 3, die: 1, move: 3, abstinence: 0, level: 0, space: 0 },
  { k: 'turn', seat: 2, turn: 19 },
  { k: 'level_up', seat: 2, level: 1 },
  { k: 'turn', seat: 3, turn: 20 },
  { k: 'title', seat: 3, title: 0 },
  { k: 'turn', seat: 1, turn: 22 },
  { k: 'reshuffle', size: 78, closingPlaced: true },
  { k: 'turn', seat: 2, turn: 23 },
  { k: 'pause', seat: 2 },
  { k: 'turn', seat: 1, turn: 30 },
  { k: 'digest', seat: 1, points: 0, drunkenness: 0, move: 0, abstinence: 2, level: 0, space: 0 },
  { k: 'out', seat: 1, how: 'thrown_out' },
  { k: 'turn', seat: 3, turn: 44 },
  { k: 'shot_choice', seat: 2, choice: 'nothing', points: -5 },
  { k: 'turn', seat: 2, turn: 48 },
  { k: 'excuse', seat: 3, card: 15 },
  { k: 'turn', seat: 2, turn: 54 },
  { k: 'pick_up', seat: 2, card: 0 },
  { k: 'turn', seat: 3, turn: 55 },
  { k: 'closing', seat: 3 },
  { k: 'turn', seat: 2, turn: 56 },
  { k: 'end', scores: [38, 6, 18, 49], winners: [3] },
];

describe('narrateEvents on a recorded game', () => {
  it('tells every sort of event in words, tracking whose turn it is', () => {
    expect(narrateEvents(RECORDED)).toEqual([
      'Turn 1: Player 0.',
      "Player 0 plays I'll get the same at Player 2 (nothing else this turn).",
      "Player 0 will drink what Player 2 drinks at Player 2's next digestion.",
      'Player 0 is done playing.',
      'Player 0 draws 1 card: Peppermint.',
      'Turn 2: Player 1.',
      "Player 1 takes Coffee from Player 3's hand (That's my order).",
      'Player 1 plays Coffee.',
      "Player 3 plays Knocked-over glass: Player 1's Coffee is spilled.",
      "Player 3 plays That beer is warm: Player 1's Beer goes back to its owner's hand.",
      'Player 1 abstains: nothing that gets them drunk; -1 point, moves 1 space back (abstinence token: one stripe).',
      'Turn 3: Player 2.',
      'Player 2 discards Utopenec.',
      'Player 0 (drinking the same as Player 2) abstains: nothing that gets them drunk; -1 point, moves 1 space back (abstinence token: one stripe).',
      'Turn 4: Player 3.',
      "Player 3 takes Beer from Player 0's hand (Brawl).",
      'Player 3 digests: +6 points, drunkenness 1; with space -2 the total is -1; rolls 4 vs -1: moves 1 space forward.',
      'Turn 5: Player 0.',
      'Player 1 discards a Small beer from their hand and loses 3 points.',
      'Player 2 discards a Beer from their hand and loses 2 points.',
      'Player 3 discards Rum from their hand: no points lost, and its shot token is theirs.',
      'Turn 7: Player 2.',
      "Player 3 plays Shot into a beer: pours Player 2's own Vodka into Player 2's beer.",
      'Turn 9: Player 0.',
      "Player 2 plays Mixed-up: takes Player 0's Beer and puts their own Peppermint in its place.",
      'Turn 11: Player 2.',
      'Player 2 plays Flattery as Fernet.',
      'Turn 13: Player 0.',
      "Player 3 says Excuse me and sends I'll get the same on to Player 2.",
      'Turn 15: Player 2.',
      'Player 0 (drinking the same as Player 2) digests: +5 points, drunkenness 2; with space -1 the total is 1; rolls 2 vs 1: moves 1 space forward.',
      'Turn 16: Player 3.',
      'Player 3 digests: +11 points, drunkenness 5; with space -2 the total is 3; rolls 1 vs 3 (2 short): moves 3 spaces forward.',
      'Turn 19: Player 2.',
      'Player 2 reaches drunkenness level 2 (hand size 6) and turns the coaster to PAUSE.',
      'Turn 20: Player 3.',
      'Player 3 earns the title Regular.',
      'Turn 22: Player 1.',
      'The discard pile is shuffled into a new draw pile of 78 cards, with CLOSING TIME somewhere in it.',
      'Turn 23: Player 2.',
      'Player 2 has PAUSE: turns the coaster back and sits this turn out.',
      'Turn 30: Player 1.',
      'Player 1 abstains again: nothing that gets them drunk.',
      'Player 1 is thrown out of the pub for a third abstinence in a row.',
      'Turn 44: Player 3.',
      'Player 2 discards nothing and loses 5 points.',
      'Turn 48: Player 2.',
      'Player 3 says Excuse me and escapes Brawl.',
      'Turn 54: Player 2.',
      'Player 2 picks up Beer from the top of the discard pile.',
      'Turn 55: Player 3.',
      'Player 3 draws CLOSING TIME! This is their last turn; everyone else still in gets one more.',
      'Turn 56: Player 2.',
      'Game over. Scores: Player 0 38, Player 1 6, Player 2 18, Player 3 49. Winner: Player 3.',
    ]);
  });

  it('skips cleanup unless asked', () => {
    const cleanup = RECORDED.find((e) => e.k === 'cleanup')!;
    expect(narrateEvent(cleanup)).toBeNull();
    expect(narrateEvent(cleanup, { cleanup: true })).toBe('Player 0 clears the table and draws up.');
  });

  it('shows a card hidden from the viewer as "a card", and a draw seen by others as a count', () => {
    const take = RECORDED.find((e) => e.k === 'take' && e.by === 'thats_my_order')!;
    expect(narrateEvent(eventForSeat(take, 3))).toBe("Player 1 takes Coffee from Player 3's hand (That's my order).");
    expect(narrateEvent(eventForSeat(take, 0))).toBe("Player 1 takes a card from Player 3's hand (That's my order).");
    const draw = RECORDED.find((e) => e.k === 'draw')!;
    expect(narrateEvent(eventForSeat(draw, 0))).toBe('Player 0 draws 1 card: Peppermint.');
    expect(narrateEvent(eventForSeat(draw, 1))).toBe('Player 0 draws 1 card.');
  });
});

describe('narrateEvent on events the recorded game lacks', () => {
  it('narrates being wasted, shared wins, hidden Brawl takes and lost copies', () => {
    expect(narrateEvent({ k: 'out', seat: 1, how: 'wasted' })).toBe('Player 1 is WASTED and out of the game (keeps their points).');
    expect(narrateEvent({ k: 'end', scores: [10, 12, 12], winners: [1, 2] })).toBe(
      'Game over. Scores: Player 0 10, Player 1 12, Player 2 12. Winners (shared): Player 1 and Player 2.',
    );
    expect(narrateEvent({ k: 'take', from: 0, to: 1, card: HIDDEN, by: 'brawl' })).toBe(
      "Player 1 takes a card from Player 0's hand (Brawl).",
    );
    expect(narrateEvent({ k: 'copy_lost', seat: 0, target: 2 })).toBe('Player 0 no longer gets to drink what Player 2 drinks.');
    expect(narrateEvent({ k: 'draw', seat: 2, count: 2, cards: [THATS_MY_ORDER, 16] })).toBe(
      "Player 2 draws 2 cards: That's my order and You don't want it anymore?",
    );
  });

  it('uses display names and the ruleset\'s title names, and says "the active player" when unknown', () => {
    const ruleset = { ...DEFAULT_RULESET, titles: [{ name: 'Štamgast', points: 20, tokens: 6 }] };
    expect(narrateEvent({ k: 'title', seat: 0, title: 0 }, { ruleset, names: ['Pepa'] })).toBe('Pepa earns the title Štamgast.');
    expect(narrateEvent({ k: 'x', seat: 1, card: KNOCKED_OVER, target: 0 })).toBe(
      "Player 1 plays Knocked-over glass: the active player's Beer is spilled.",
    );
  });
});

describe('narrateEvent on live games', () => {
  /** Full event log of a game between uniform random agents, as `czech-pub play` plays it. */
  function randomGame(seed: string, players: number): GameEvent[] {
    const log: GameEvent[] = [];
    const { rules, state } = createState({ players, seed }, log);
    const rng = seedRng(`${seed}/agents`);
    const legal = new Int32Array(NUM_ACTIONS);
    while (!state.over) applyStep(rules, state, legal[randInt(rng, legalActionsFast(rules, state, legal))], log, true);
    return log;
  }

  it('gives every event but cleanup a complete sentence, for every viewer', () => {
    for (const players of [2, 4, 6]) {
      const log = randomGame(`narrate-${players}`, players);
      for (let seat = 0; seat < players; seat++) {
        const lines = narrateEvents(log.map((e) => eventForSeat(e, seat)));
        expect(lines).toHaveLength(log.filter((e) => e.k !== 'cleanup').length);
        for (const line of lines) {
          expect(line).toMatch(/^(Turn \d+: Player \d|Player \d|The discard pile|Game over\.)/);
          expect(line).toMatch(/[.!?]$/);
          expect(line).not.toMatch(/undefined|NaN|null|#/);
        }
      }
    }
  });

  it('tells a seat its own part in the second person, and every other line as before with its seat as "you"', () => {
    const names = ['Anna', 'Kuba', 'Rosa', 'Tomáš', 'Eva', 'Bára'];
    const third = /\b(You|you)( \([^)]*\))? (plays|draws|discards|is|has|says|sends|escapes|takes|picks|digests|abstains|rolls|moves|reaches|turns|sits|earns|loses|keeps|puts|pours|drinks|clears)\b/;
    let own = 0;
    for (const players of [2, 4, 6]) {
      const log = randomGame(`narrate-you-${players}`, players);
      for (let seat = 0; seat < players; seat++) {
        const seen = log.map((e) => eventForSeat(e, seat));
        const plain = narrateEvents(seen, { names });
        const told = narrateEvents(seen, { names, you: seat });
        expect(told).toHaveLength(plain.length);
        told.forEach((line, i) => {
          expect(line).not.toMatch(third);
          expect(line).not.toMatch(/\u0000|You's|you's|\bthem drunk\b.*\byou\b/);
          expect(line).not.toContain(names[seat]);
          expect(line).toMatch(/^[A-Z+-]/);
          if (!plain[i].includes(names[seat])) expect(line).toBe(plain[i]);
          else {
            own++;
            expect(line).toMatch(/\b(you|your|You|Your)\b/);
          }
        });
      }
    }
    expect(own).toBeGreaterThan(100);
    expect(narrateEvent({ k: 'digest', seat: 1, points: 3, drunkenness: 1, total: 3, die: 2, move: 3, abstinence: 0 } as GameEvent, { names, you: 1 }))
      .toBe('You digest: +3 points, drunkenness 1; with space +2 the total is 3; roll 2 vs 3 (1 short): move 3 spaces forward.');
    expect(narrateEvent({ k: 'take', to: 0, from: 1, card: KNOCKED_OVER, by: 'thats_my_order' } as GameEvent, { names, you: 1 }))
      .toBe("Anna takes Knocked-over glass from your hand (That's my order).");
  });
});
