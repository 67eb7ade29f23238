/**
 * Game events as English lines a person can follow: for game logs, the CLI and spectators.
 * Pure: it reads the event (and the ruleset, for title names and hand sizes) and nothing else.
 *
 *   narrateEvent({ k: 'play', seat: 0, card: 13, target: 2 })
 *     // "Player 0 plays Let's do a shot at Player 2."
 *
 * Reaction events name only the card hit, not whose it is; `narrateEvents` remembers whose
 * turn it is from the 'turn' events and names the owner. A card stripped from an event for
 * the viewing seat (HIDDEN) reads as "a card"; a draw without its cards gives the count only.
 */
import {
  cardName, DONT_WANT_IT, FLATTERY, INSULTED_BARTENDER, KNOCKED_OVER, LETS_DO_A_SHOT, MIXED_UP, SAME,
  SHOT_INTO_BEER, shotType, THATS_MY_ORDER, WARM_BEER,
} from './cards.ts';
import { HIDDEN, type GameEvent } from './events.ts';
import { DEFAULT_RULESET, type Ruleset } from './ruleset.ts';

export interface NarrateOptions {
  ruleset?: Ruleset;
  /** Display names by seat; default "Player N". */
  names?: readonly string[];
  /** Seat whose turn it is (names the owner of the cards X cards hit). */
  active?: number;
  /** Also narrate cleanup (default: skipped, it says nothing new). */
  cleanup?: boolean;
  /** The reader's own seat: told in the second person ("You play Beer.", "Strong takes a card from your hand."). */
  you?: number;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
const signed = (n: number): string => (n > 0 ? `+${n}` : `${n}`);
/** Ends a sentence with a full stop unless it already ends with one (card names may end in ! or ?). */
const stop = (s: string): string => (/[.!?]$/.test(s) ? s : `${s}.`);

/** Stands for the reader's seat while a line is made; `secondPerson` words it. */
const YOU = '\u0000you';

function who(seat: number, o: NarrateOptions): string {
  if (seat === o.you) return YOU;
  return o.names?.[seat] ?? `Player ${seat}`;
}

/** The verbs the lines use after their subject, third person to second ("reaches" to "reach"). */
const VERBS = [
  'plays', 'draws', 'discards', 'is', 'has', 'says', 'sends', 'escapes', 'takes', 'picks', 'digests', 'abstains', 'rolls',
  'moves', 'reaches', 'turns', 'sits', 'earns', 'loses', 'keeps', 'puts', 'pours', 'drinks', 'clears', 'will',
];
const BASE: Record<string, string> = { is: 'are', has: 'have', will: 'will', reaches: 'reach' };
const base = (verb: string): string => BASE[verb] ?? verb.slice(0, -1);
const AFTER_YOU = new RegExp(`${YOU}( \\([^)]*\\))? (${VERBS.join('|')})\\b`, 'g');
const FOLLOWING = new RegExp(`\\b(${VERBS.filter((v) => v !== 'is').join('|')})\\b`, 'g');

/**
 * A line made with the reader's seat as YOU, in the second person: its verbs conjugated and,
 * where the reader is the subject (the line starts with them), "their" read as "your".
 */
function secondPerson(line: string): string {
  let out = line;
  if (out.startsWith(YOU)) {
    const [head, ...rest] = out.split(/(?<=[:;]) /);
    // The subject's verbs and possessives, in every clause (those with another subject use none of these verbs but "is").
    const own = (part: string) => part.replace(FOLLOWING, base).replace(/\btheirs\b/g, 'yours').replace(/\btheir\b/g, 'your').replace(/\bthem\b/g, 'you')
      .replace(/\bno longer gets\b/, 'no longer get');
    out = [own(head), ...rest.map((r) => (r.startsWith('nothing that') ? r.replace(/\bthem\b/g, 'you') : own(r)))].join(' ');
  }
  out = out.replace(AFTER_YOU, (_m, aside: string | undefined, verb: string) => `${YOU}${aside ?? ''} ${base(verb)}`);
  out = out.replace(new RegExp(`${YOU}'s`, 'g'), 'your').replace(new RegExp(YOU, 'g'), 'you');
  return out.charAt(0).toUpperCase() + out.slice(1);
}

function card(t: number): string {
  return t === HIDDEN ? 'a card' : cardName(t);
}

function list(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** "Player 0's" or, without knowing the active seat, "the active player's". */
function owner(o: NarrateOptions): string {
  return o.active === undefined ? "the active player's" : `${who(o.active, o)}'s`;
}

function play(ev: Extract<GameEvent, { k: 'play' }>, o: NarrateOptions): string {
  const p = who(ev.seat, o);
  if (ev.card === FLATTERY && ev.shot !== undefined) return `${p} plays Flattery as ${cardName(shotType(ev.shot))}.`;
  if (ev.card === SAME && ev.target !== undefined) {
    return `${p} plays I'll get the same at ${who(ev.target, o)} (nothing else this turn).`;
  }
  if (ev.card === SHOT_INTO_BEER) return `${p} plays Shot into a beer (one more shot allowed).`;
  if (ev.card === DONT_WANT_IT) return `${p} plays You don't want it anymore?`;
  if (ev.target !== undefined) return `${p} plays ${cardName(ev.card)} at ${who(ev.target, o)}.`;
  return stop(`${p} plays ${cardName(ev.card)}`);
}

function reaction(ev: Extract<GameEvent, { k: 'x' }>, o: NarrateOptions): string {
  const p = who(ev.seat, o);
  const their = owner(o);
  switch (ev.card) {
    case KNOCKED_OVER:
      return `${p} plays Knocked-over glass: ${their} ${cardName(ev.target)} is spilled.`;
    case MIXED_UP:
      return `${p} plays Mixed-up: takes ${their} ${cardName(ev.target)} and puts their own ${card(ev.give ?? HIDDEN)} in its place.`;
    case WARM_BEER:
      return `${p} plays That beer is warm: ${their} ${cardName(ev.target)} goes back to its owner's hand.`;
    case SHOT_INTO_BEER:
      return ev.fromHand
        ? `${p} plays Shot into a beer: pours their own ${cardName(ev.target)} into ${their} beer.`
        : `${p} plays Shot into a beer: pours ${their} own ${cardName(ev.target)} into ${their} beer.`;
    default:
      return `${p} plays ${cardName(ev.card)} on ${their} ${cardName(ev.target)}.`;
  }
}

function resolve(ev: Extract<GameEvent, { k: 'resolve' }>, o: NarrateOptions): string {
  const by = who(ev.seat, o);
  const t = who(ev.target, o);
  switch (ev.card) {
    case SAME:
      return `${by} will drink what ${t} drinks at ${t}'s next digestion.`;
    case INSULTED_BARTENDER:
      return `${t} has insulted the bartender: no orders until the end of their next turn.`;
    case THATS_MY_ORDER:
      return `${by}'s That's my order hits ${t}.`;
    case LETS_DO_A_SHOT:
      return `${t} must answer ${by}'s Let's do a shot.`;
    default:
      return `${by}'s ${cardName(ev.card)} takes effect on ${t}.`;
  }
}

function shotChoice(ev: Extract<GameEvent, { k: 'shot_choice' }>, o: NarrateOptions): string {
  const p = who(ev.seat, o);
  const loss = ev.points < 0 ? `loses ${plural(-ev.points, 'point')}` : 'loses no points';
  switch (ev.choice) {
    case 'shot':
      return `${p} discards ${card(ev.card ?? HIDDEN)} from their hand: no points lost, and its shot token is theirs.`;
    case 'beer':
      return `${p} discards a Beer from their hand and ${loss}.`;
    case 'small_beer':
      return `${p} discards a Small beer from their hand and ${loss}.`;
    case 'nothing':
      return `${p} discards nothing and ${loss}.`;
  }
}

function digest(ev: Extract<GameEvent, { k: 'digest' }>, o: NarrateOptions): string {
  const p = who(ev.seat, o) + (ev.copyOf !== undefined ? ` (drinking the same as ${who(ev.copyOf, o)})` : '');
  const points = `${signed(ev.points)} ${Math.abs(ev.points) === 1 ? 'point' : 'points'}`;
  if (ev.total === undefined || ev.die === undefined) {
    // Thrown out: the engine reports the third abstinence with no loss and no move.
    if (ev.points === 0 && ev.move === 0) return `${p} abstains again: nothing that gets them drunk.`;
    const back = ev.move < 0 ? `, moves ${plural(-ev.move, 'space')} back` : '';
    const stripes = ev.abstinence >= 2 ? 'two stripes' : 'one stripe';
    return `${p} abstains: nothing that gets them drunk; ${points}${back} (abstinence token: ${stripes}).`;
  }
  const space = ev.total - ev.drunkenness;
  const short = ev.die < ev.total ? ` (${ev.total - ev.die} short)` : '';
  return `${p} digests: ${points}, drunkenness ${ev.drunkenness}; with space ${signed(space)} the total is ${ev.total}; ` +
    `rolls ${ev.die} vs ${ev.total}${short}: moves ${plural(ev.move, 'space')} forward.`;
}

/** One event as one line, or null for events not worth a line (cleanup, unless asked for). */
export function narrateEvent(ev: GameEvent, o: NarrateOptions = {}): string | null {
  if (o.you === undefined) return line(ev, o);
  if (ev.k === 'turn' && ev.seat === o.you) return `Turn ${ev.turn}: your turn.`;
  const said = line(ev, o);
  return said === null ? null : secondPerson(said);
}

function line(ev: GameEvent, o: NarrateOptions): string | null {
  const rs = o.ruleset ?? DEFAULT_RULESET;
  switch (ev.k) {
    case 'turn':
      return `Turn ${ev.turn}: ${who(ev.seat, o)}.`;
    case 'pause':
      return `${who(ev.seat, o)} has PAUSE: turns the coaster back and sits this turn out.`;
    case 'draw': {
      const shown = ev.cards.length > 0 ? `: ${list(ev.cards.map(card))}` : '';
      return stop(`${who(ev.seat, o)} draws ${plural(ev.count, 'card')}${shown}`);
    }
    case 'reshuffle':
      return `The discard pile is shuffled into a new draw pile of ${plural(ev.size, 'card')}` +
        `${ev.closingPlaced ? ', with CLOSING TIME somewhere in it' : ''}.`;
    case 'closing':
      return `${who(ev.seat, o)} draws CLOSING TIME! This is their last turn; everyone else still in gets one more.`;
    case 'play':
      return play(ev, o);
    case 'discard':
      return stop(`${who(ev.seat, o)} discards ${cardName(ev.card)}`);
    case 'done':
      return `${who(ev.seat, o)} is done playing.`;
    case 'excuse':
      return ev.redirect !== undefined
        ? `${who(ev.seat, o)} says Excuse me and sends ${cardName(ev.card)} on to ${who(ev.redirect, o)}.`
        : stop(`${who(ev.seat, o)} says Excuse me and escapes ${cardName(ev.card)}`);
    case 'resolve':
      return resolve(ev, o);
    case 'shot_choice':
      return shotChoice(ev, o);
    case 'take':
      return `${who(ev.to, o)} takes ${card(ev.card)} from ${who(ev.from, o)}'s hand ` +
        `(${ev.by === 'brawl' ? 'Brawl' : "That's my order"}).`;
    case 'pick_up':
      return `${who(ev.seat, o)} picks up ${cardName(ev.card)} from the top of the discard pile.`;
    case 'x':
      return reaction(ev, o);
    case 'digest':
      return digest(ev, o);
    case 'title':
      return `${who(ev.seat, o)} earns the title ${rs.titles[ev.title]?.name ?? `#${ev.title}`}.`;
    case 'level_up': {
      const level = rs.chart[ev.level];
      return `${who(ev.seat, o)} reaches drunkenness level ${ev.level + 1}` +
        `${level ? ` (hand size ${level.handSize})` : ''} and turns the coaster to PAUSE.`;
    }
    case 'out':
      return ev.how === 'wasted'
        ? `${who(ev.seat, o)} is WASTED and out of the game (keeps their points).`
        : `${who(ev.seat, o)} is thrown out of the pub for a third abstinence in a row.`;
    case 'copy_lost':
      return `${who(ev.seat, o)} no longer gets to drink what ${who(ev.target, o)} drinks.`;
    case 'cleanup':
      return o.cleanup ? `${who(ev.seat, o)} clears the table and draws up.` : null;
    case 'end': {
      const scores = ev.scores.map((s, seat) => `${who(seat, o)} ${s}`).join(', ');
      const w = list(ev.winners.map((seat) => who(seat, o)));
      return `Game over. Scores: ${scores}. ${ev.winners.length > 1 ? `Winners (shared): ${w}` : `Winner: ${w}`}.`;
    }
  }
}

/** A list of events as lines (events without a line left out), tracking whose turn it is. */
export function narrateEvents(events: readonly GameEvent[], opts: NarrateOptions = {}): string[] {
  const o: NarrateOptions = { ...opts };
  const out: string[] = [];
  for (const ev of events) {
    if (ev.k === 'turn') o.active = ev.seat;
    const line = narrateEvent(ev, o);
    if (line !== null) out.push(line);
  }
  return out;
}
