/** A player's place at the table: everything public about them, drawn from a PlayerPublicView. */
import { cardEl, cardName, countedCards, shotIds } from './cards.js';
import { el } from './dom.js';
import { seatAgent, seatName, seatPresence } from './frame.js';
import { drunkChart, termText } from './rules.js';

/**
 * @typedef {import('./frame.js').Frame} Frame
 * @typedef {import('./frame.js').PlayerView} PlayerView
 * @typedef {import('./frame.js').PlayerPublicView} PlayerPublicView
 */

/** @param {number} n */
const signed = (n) => (n > 0 ? `+${n}` : `${n}`);

/**
 * The drunkenness chart (rows = levels, each with its printed spaces), the player's space marked.
 * @param {{ level: number, space: number, spaceValue: number }} p
 */
function chartEl(p) {
  // Explained where it stands: the table's title is the glossary's, each space says what its number does.
  return el('table.chart', { 'aria-label': `drunkenness level ${p.level}, space ${p.space + 1}`, title: termText('Drunkenness chart') },
    el('caption', {}, `level ${p.level}: ${signed(p.spaceValue)} to each roll`),
    el('tbody', {}, drunkChart().map((row, i) => {
      const current = i === p.level - 1;
      return el('tr', { class: current ? 'current' : null, dataset: { level: i + 1 } },
        el('th', {}, i + 1),
        row.spaces.map((v, s) => {
          const here = current && s === p.space;
          return el('td', { class: here ? 'here' : null, title: `level ${i + 1}: ${signed(v)} to the roll's total${here ? ' (here now)' : ''}` }, signed(v));
        }));
    })));
}

/** @param {import('./frame.js').FrontCardView} c */
function frontNote(c) {
  return [
    c.as && `as ${cardName(c.as)}`,
    c.poured && 'poured',
    c.given && 'given',
    c.fromHand && 'from a hand',
    c.placedBy !== undefined && `by ${seatName(c.placedBy)}`,
  ].filter(Boolean).join(', ');
}

/** @param {PlayerPublicView} p */
function tokensEl(p) {
  const owned = new Set(/** @type {string[]} */ (p.shotTokens));
  return el('div.tokens', {},
    // Named for a screen reader ("Rum: owned"); owned ones are filled and ringed, the others hollow and dashed.
    shotIds().map((s) => el(`span.token.t-${s}`, {
      class: owned.has(s) ? 'owned' : null, role: 'img', 'aria-label': `${cardName(s)}: ${owned.has(s) ? 'owned' : 'not owned'}`,
      title: `${cardName(s)} token${owned.has(s) ? ', owned' : ' (not yet)'}`,
    }, cardName(s)[0])),
    p.abstinence > 0 ? el('span.abstinence', { title: `abstinence token, ${p.abstinence === 1 ? 'one stripe' : 'two stripes'}. ${termText('Abstinence')}`, dataset: { stripes: p.abstinence } }, `abstinence ${'|'.repeat(p.abstinence)}`) : null,
    p.titles.map((t) => el('span.title', {}, t)));
}

/**
 * @param {PlayerPublicView} p @param {PlayerView} view
 * @param {{ active: boolean, deciding: boolean }} now  whose turn it is, who decides
 */
function badges(p, view, now) {
  const out = [];
  if (now.active) out.push(el('span.badge.b-turn', {}, 'turn'));
  if (now.deciding) out.push(el('span.badge.b-deciding', {}, 'deciding'));
  if (p.paused) out.push(el('span.badge.b-pause', { title: termText('PAUSE') }, 'PAUSE'));
  if (p.out) out.push(el('span.badge.b-out', {}, p.out === 'wasted' ? 'WASTED' : 'THROWN OUT'));
  if (p.insulted) out.push(el('span.badge.b-insulted', {}, 'insulted'));
  if (p.copying !== null) out.push(el('span.badge.b-copying', {}, `copies ${seatName(p.copying)}`));
  if (p.finalTurnTaken) out.push(el('span.badge', {}, 'last turn taken'));
  if (view.winners?.includes(p.seat)) out.push(el('span.badge.b-winner', {}, 'winner'));
  return out;
}

/** Who is at a seat, in a word (the lobby says it too). */
export const PRESENCE_TEXT = { bot: 'bot', open: 'seat free', connected: 'here', away: 'away' };
const PRESENCE_TITLE = {
  bot: 'a bot: it plays at once',
  open: 'waiting in the lobby for someone to join',
  connected: 'a person at the table now',
  away: 'a person who has not looked at the game for a while: the game waits for them at their turn',
};

/** Who is at the seat (people only; a replay knows nothing of it). @param {number} seat @param {Frame} f */
function presenceEl(seat, f) {
  const p = seatPresence(seat);
  if (!p || p === 'bot' || f.hands) return null;
  return el(`span.presence.p-${p}`, { dataset: { presence: p }, title: PRESENCE_TITLE[p] }, PRESENCE_TEXT[p]);
}

/** @param {PlayerPublicView} p @param {Frame} f */
export function playerPanel(p, f) {
  const view = f.view;
  const known = f.hands ? {} : p.known;
  const hand = f.hands?.[p.seat];
  const now = { active: !view.over && view.turnState.active === p.seat, deciding: view.decision.actor === p.seat };
  const classes = [p.seat === f.you && 'you', now.active && 'active', now.deciding && 'deciding', p.out && 'out'];
  return el('section.player', { dataset: { seat: p.seat }, class: classes.filter(Boolean).join(' ') },
    el('div.place', {},
      el('header', {}, el('span.name', {}, seatName(p.seat)), el('span.agent', {}, seatAgent(p.seat, f)), presenceEl(p.seat, f), badges(p, view, now)),
      el('div.stats', {},
        el('span', { title: termText('Points and score') }, 'points ', el('b.points', {}, p.points)),
        el('span', { title: `points + shot-type bonus. ${termText('Points and score')}` }, 'score ', el('b.score', {}, p.score)),
        el('span', {}, 'hand ', el('b.hand-size', {}, p.handSize))),
      chartEl(p),
      tokensEl(p),
      el('div.front', { 'aria-label': 'in front' }, p.front.length > 0
        ? p.front.map((c) => cardEl(c.card, { mini: true, note: frontNote(c) }))
        : el('span.empty', {}, 'nothing in front')),
      Object.keys(known).length > 0 ? el('div.known', {}, el('span.label', {}, 'known in hand'), countedCards(known, { mini: true })) : null,
      hand ? el('div.seat-hand', {}, el('span.label', {}, 'hand'), countedCards(hand, { mini: true })) : null));
}
