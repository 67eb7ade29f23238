/**
 * The move preview in words: what each choice does and what digesting would give, as GET
 * preview worked it out from what the seat may see and the die's faces (nothing is worked
 * out here). A chance is said
 * as a certainty only when it is exactly 1, and as impossible only when it is exactly 0.
 * Each line carries its numbers as data-* attributes, so tests read them exactly.
 *
 * @typedef {{ spaces: number, chance: number }} MoveChance
 * @typedef {{ seat: number, points: number, newTokens: string[], bonusBefore: number, bonusAfter: number }} CopyPreview
 * @typedef {{ skips: boolean, abstinence: boolean, points: number, drunkenness: number,
 *   total: number | null, passChance: number | null, moves: MoveChance[], levelUpChance: number,
 *   wastedChance: number, thrownOut: boolean, outChance: number, newTokens: string[], bonusBefore: number,
 *   bonusAfter: number, copiers: CopyPreview[] }} DigestPreview
 * @typedef {{ step: number, now: DigestPreview | null, actions: ChoicePreview[] }} PreviewAnswer
 */
import { cardName } from './cards.js';
import { el } from './dom.js';
import { who, whom, whose } from './frame.js';

/** "+1 point", "-3 points". @param {number} n */
const points = (n) => `${n > 0 ? '+' : ''}${n} point${Math.abs(n) === 1 ? '' : 's'}`;

/** "33%"; never "0%" or "100%" for a chance that is not exactly that. @param {number} x */
const percent = (x) => (x > 0 && x < 0.005 ? 'under 1%' : x < 1 && x > 0.995 ? 'over 99%' : `${Math.round(x * 100)}%`);

/** "wasted: 33%", "wasted for certain", or nothing when it cannot happen. @param {string} what @param {number} chance */
const risk = (what, chance) => (chance === 1 ? `${what} for certain` : chance > 0 ? `${what}: ${percent(chance)}` : '');

/** "the Rum token (end bonus 1 → 3)", or nothing without a new token. @param {{ newTokens: string[], bonusBefore: number, bonusAfter: number }} p */
function tokenWords(p) {
  if (p.newTokens.length === 0) return '';
  const names = p.newTokens.map(cardName);
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return `the ${list} token${names.length === 1 ? '' : 's'} (end bonus ${p.bonusBefore} → ${p.bonusAfter})`;
}

/** "+3 points, drunkenness 1, roll total 2: 83% chance to pass the roll; you take the Rum token (end bonus 1 → 3)". @param {DigestPreview} p */
export function previewWords(p) {
  const tokens = tokenWords(p);
  return tokens ? `${digestWords(p)}; you take ${tokens}` : digestWords(p);
}

/** @param {DigestPreview} p */
function digestWords(p) {
  if (p.skips) return 'you skip this digestion (I\'ll get the same)';
  if (p.abstinence) {
    if (p.thrownOut) return 'an abstinence, the third in a row: you are thrown out, for certain';
    const back = p.moves.length === 1 && p.moves[0].spaces < 0 ? ` and move ${-p.moves[0].spaces} back` : '';
    return `an abstinence: ${points(p.points)}${back}`;
  }
  const pass = p.passChance === 1 ? 'the roll passes for certain' : p.passChance === 0 ? 'the roll cannot pass' : `${percent(p.passChance ?? 0)} chance to pass the roll`;
  const risks = [risk('next level', p.levelUpChance), risk('wasted', p.wastedChance)].filter(Boolean);
  return `${points(p.points)}, drunkenness ${p.drunkenness}, roll total ${p.total}: ${[pass, ...risks].join('; ')}`;
}

/** @param {string} lead @param {DigestPreview} p @param {Record<string, string | number>} [data] */
export function previewLine(lead, p, data = {}) {
  return el('span.preview-line', {
    dataset: {
      points: p.points, drunkenness: p.drunkenness, total: p.total ?? '', pass: p.passChance ?? '', abstinence: String(p.abstinence),
      levelUp: p.levelUpChance, wasted: p.wastedChance, out: p.outChance, thrownOut: String(p.thrownOut),
      newTokens: p.newTokens.join(','), bonusBefore: p.bonusBefore, bonusAfter: p.bonusAfter, ...data,
    },
  }, el('b', {}, lead), ' ', previewWords(p));
}

/**
 * @typedef {{ seat: number, after: string[] }} FrontChange
 * @typedef {{ seat: number, change: number }} PointsChange
 * @typedef {{ kind: 'out' | 'wasted', chance: number }} ChoiceRisk
 * @typedef {{ actions: number, shots: number, beers: number, smallBeers: number }} LimitChange
 * @typedef {{ newToken: number, bonusBefore: number, bonusWithToken: number, shot: number, beer: number, smallBeer: number,
 *   noCard: number, losses: { beer: number, smallBeer: number, nothing: number } }} ShotChoiceChances
 * @typedef {{ card: string, by: number, excuseMe: number, shotChoice: ShotChoiceChances | null }} AnswerChances
 * @typedef {{ seat: number, newTokens: string[], bonusBefore: number, bonusAfter: number, points: number,
 *   handLoses: string[], handGains: string[], handSize: number, frontLoses: string[], frontGains: string[],
 *   limits: LimitChange | null, answer: AnswerChances | null }} SeatEffect
 * @typedef {{ id: number, name: string, handLoses: string[], handGains: string[], fronts: FrontChange[],
 *   points: PointsChange[], passesTo: number, certain: boolean, digest: DigestPreview | null,
 *   digestWhen: 'now' | 'after_done' | 'after_discarding' | null,
 *   target: { seat: number, before: DigestPreview, after: DigestPreview } | null, risk: ChoiceRisk | null,
 *   seats: SeatEffect[] }} ChoicePreview
 */

/** "Beer, Rum poured into a beer". @param {string[]} labels */
function frontWords(labels) {
  if (labels.length === 0) return 'nothing';
  return labels.map((l) => {
    const [card, ...marks] = l.split('+');
    const [id, shot] = card.split(':');
    const name = shot ? `${cardName(id)} as ${cardName(shot)}` : cardName(id);
    const notes = marks.map((m) => ({ poured: 'poured into a beer', added: 'from a hand', given: 'given by Mixed-up', placed: 'placed by another player' })[m] ?? m);
    return notes.length > 0 ? `${name} (${notes.join(', ')})` : name;
  }).join(', ');
}

/** "1 space forward 83%, 2 spaces 17%": where the digestion sends the figure. @param {DigestPreview} p */
function moveWords(p) {
  if (p.moves.length === 0 || p.abstinence) return '';
  const ways = p.moves.map((m) => `${m.spaces} space${m.spaces === 1 ? '' : 's'} ${m.chance === 1 ? 'for certain' : percent(m.chance)}`);
  return `moves forward ${ways.join(', ')}`;
}

/** What a risk does to the seat: as a fact, and after "can". */
const RISK_VERBS = {
  out: ['throws you out of the game', 'throw you out of the game'],
  wasted: ['wastes you (out of the game, keeping your points)', 'waste you (out of the game, keeping your points)'],
};

/** The warning a risky choice carries: "this can waste you (17%)". @param {ChoiceRisk} r */
export function riskWords(r) {
  const [does, may] = RISK_VERBS[r.kind];
  return r.chance === 1 ? `this ${does}, for certain` : `this can ${may}: ${percent(r.chance)}`;
}

const WHEN = { now: 'Digesting then:', after_done: 'Then done:', after_discarding: 'When you stop discarding:' };

/** "You take" or "Player 2 takes". @param {number} seat @param {{ you: number | null }} f @param {string} verb @param {string} [verbs] */
const says = (seat, f, verb, verbs = `${verb}s`) => `${who(seat, f)} ${seat === f.you ? verb : verbs}`;

/** "64% they hold one", "they surely hold one", "they cannot hold one". @param {number} x @param {string} what */
function odds(x, what) {
  if (x === 1) return `they surely hold ${what}`;
  if (x === 0) return `they cannot hold ${what}`;
  return `${percent(x)} they hold ${what}`;
}

/** The chance a seat holds none of the cards a shot choice takes: "12% they hold none". @param {number} x */
const noneWords = (x) => (x === 1 ? 'they hold none, for certain' : x === 0 ? 'they surely hold one' : `${percent(x)} they hold none`);

/**
 * What accepting a card aimed at a seat means, said after "else", given who played it.
 * @type {Record<string, (by: number, f: { you: number | null }) => string>}
 */
const ACCEPTED = {
  same: (by, f) => `${whom(by, f)} ${by === f.you ? 'copy' : 'copies'} their orders at their digestion`,
  insulted_bartender: () => 'they can order nothing in their next turn',
  thats_my_order: (by, f) => `${whom(by, f)} ${by === f.you ? 'take' : 'takes'} a card at random from their hand`,
  brawl: () => 'they join the brawl',
};

/**
 * What a choice gives one seat, in words, or '' when the lines above already say all of it
 * (the person's own cards and anyone's points): a token taken, a limit freed, a card moved
 * that the person does not give or take, and the answer a seat the choice asks may give.
 * @param {SeatEffect} e @param {{ you: number | null }} f
 */
function seatWords(e, f) {
  const parts = [];
  const tokens = tokenWords(e);
  if (tokens) parts.push(`${says(e.seat, f, 'take')} ${tokens}`);
  const l = e.limits;
  if (l) {
    const poured = e.frontGains.find((x) => x.includes('+poured'));
    const gone = e.frontLoses[0];
    const why = poured ? ` (the poured ${cardName(poured.split(/[+:]/)[0])} no longer counts while a beer stays in front)` : gone ? ` (the ${cardName(gone.split(/[+:]/)[0])} is gone from the front)` : '';
    const beer = l.beers > 0 ? (l.smallBeers > 0 ? 'another beer or small beer' : 'another beer') : l.smallBeers > 0 ? 'another small beer' : '';
    const more = [l.shots > 0 ? 'another shot' : '', beer].filter(Boolean);
    const regains = l.actions > 0 ? `${says(e.seat, f, 'regain')} ${l.actions} action${l.actions === 1 ? '' : 's'}` : '';
    if (more.length > 0) parts.push(`${regains ? `${regains} and` : who(e.seat, f)} may order ${more.join(' or ')} this turn${why}`);
    else if (regains) parts.push(regains);
  }
  if (e.seat !== f.you && e.handGains.length > 0) parts.push(`${says(e.seat, f, 'take')} ${frontWords(e.handGains)} into their hand`);
  const unseen = e.handSize - (e.handGains.length - e.handLoses.length);
  if (unseen !== 0) parts.push(`${whose(e.seat, f, true)} hand ${unseen > 0 ? 'gains' : 'loses'} ${Math.abs(unseen)} card${Math.abs(unseen) === 1 ? '' : 's'} taken at random`);
  const a = e.answer;
  if (a) {
    const excuse = odds(a.excuseMe, 'Excuse me');
    const c = a.shotChoice;
    if (c && c.bonusWithToken > c.bonusBefore) {
      parts.push(`${who(e.seat, f)} may discard a shot to take its token: ${odds(c.newToken, 'one they lack')} (end bonus ${c.bonusBefore} → ${c.bonusWithToken})`);
    } else if (c) {
      parts.push(`${who(e.seat, f)} owns every shot token: a shot discarded (${odds(c.shot, 'one')}) gives them nothing more`);
    }
    const accepted = ACCEPTED[a.card]?.(a.by, f) ?? 'it takes effect';
    const refuse = a.excuseMe === 0 ? 'no Excuse me can spare them' : `${excuse} to refuse it`;
    if (c) parts.push(`with no shot, beer or small beer in hand they lose ${c.losses.nothing} points (${noneWords(c.noCard)}); ${refuse}`);
    else if (a.excuseMe === 0) parts.push(`${who(e.seat, f)} cannot refuse it (${excuse}): ${accepted}`);
    else parts.push(`${who(e.seat, f)} may refuse it with Excuse me (${excuse}); else ${accepted}`);
  }
  return parts.join('; ');
}

/** One line per seat the choice touches, where there is something to say; its numbers as data-* attributes. @param {ChoicePreview} a @param {{ you: number | null }} f */
function seatLines(a, f) {
  return a.seats.flatMap((e) => {
    const words = seatWords(e, f);
    if (!words) return [];
    const c = e.answer?.shotChoice;
    return [el('span.preview-seat', {
      dataset: {
        seat: e.seat, newTokens: e.newTokens.join(','), bonusBefore: e.bonusBefore, bonusAfter: e.bonusAfter, points: e.points,
        handSize: e.handSize, actions: e.limits?.actions ?? 0, shots: e.limits?.shots ?? 0, beers: e.limits?.beers ?? 0,
        answers: e.answer?.card ?? '', excuseMe: e.answer?.excuseMe ?? '', newToken: c?.newToken ?? '', bonusWithToken: c?.bonusWithToken ?? '',
        noCard: c?.noCard ?? '',
      },
    }, `${words[0].toUpperCase()}${words.slice(1)}.`)];
  });
}

/**
 * A choice's preview in words, one line a fact: what it does at once, the digestion it
 * starts or that saying done after would give, and a warning when it risks the game. Its
 * numbers are data-* attributes (data-changes holds what changes at once, as JSON).
 * @param {ChoicePreview} a @param {{ you: number | null }} f
 */
export function choicePreview(a, f) {
  const lines = [];
  if (a.handLoses.length > 0) lines.push(`You give up ${frontWords(a.handLoses)}.`);
  if (a.handGains.length > 0) lines.push(`You take ${frontWords(a.handGains)} into your hand.`);
  for (const fr of a.fronts) lines.push(`${whose(fr.seat, f, true)} front becomes: ${frontWords(fr.after)}.`);
  for (const pc of a.points) lines.push(`${who(pc.seat, f)} ${pc.seat === f.you ? (pc.change < 0 ? 'lose' : 'gain') : pc.change < 0 ? 'loses' : 'gains'} ${points(Math.abs(pc.change)).replace('+', '')}.`);
  if (a.passesTo >= 0) lines.push(`${who(a.passesTo, f)} must answer it instead.`);
  if (a.target) {
    const t = a.target;
    const sum = (/** @type {DigestPreview} */ p) => {
      const tokens = tokenWords(p);
      const what = p.skips ? 'no digestion' : p.abstinence ? `an abstinence (${points(p.points)})` : `${points(p.points)}, drunkenness ${p.drunkenness}`;
      return tokens ? `${what}, ${tokens}` : what;
    };
    lines.push(`${whose(t.seat, f, true)} digestion if done now: ${sum(t.after)} (was ${sum(t.before)}).`);
  }
  if (!a.certain) lines.push(a.digestWhen ? 'You then draw up to your hand size.' : 'Then cards are taken at random from hands, which nobody can foresee.');
  const seats = seatLines(a, f);
  if (lines.length === 0 && !a.digest && seats.length === 0) lines.push('Nothing changes.');
  const moves = a.digest && !a.digest.skips ? moveWords(a.digest) : '';
  const copies = (a.digest?.copiers ?? []).map((c) => {
    const tokens = tokenWords(c);
    return `${says(c.seat, f, 'drink')} the copy: ${points(c.points)}${tokens ? `, ${tokens}` : ''}`;
  });
  const digest = a.digest && a.digestWhen
    ? el('span.preview-line', {}, el('b', {}, WHEN[a.digestWhen]), ' ', previewWords(a.digest), moves ? `; ${moves}` : '', ...copies.map((c) => `; ${c}`))
    : null;
  const d = a.digest;
  return el(`div.choice-preview${a.risk ? '.preview-risk' : ''}`, {
    dataset: {
      action: a.id, risk: a.risk?.kind ?? '', riskChance: a.risk?.chance ?? 0, certain: String(a.certain),
      changes: JSON.stringify({ handLoses: a.handLoses, handGains: a.handGains, fronts: a.fronts, points: a.points }),
      digestWhen: a.digestWhen ?? '', points: d?.points ?? '', drunkenness: d?.drunkenness ?? '', total: d?.total ?? '',
      pass: d?.passChance ?? '', out: d?.outChance ?? '', thrownOut: String(d?.thrownOut ?? false),
      target: a.target ? JSON.stringify({
        seat: a.target.seat, points: a.target.after.points, drunkenness: a.target.after.drunkenness, total: a.target.after.total,
        newTokens: a.target.after.newTokens, bonusBefore: a.target.after.bonusBefore, bonusAfter: a.target.after.bonusAfter,
      }) : '',
      newTokens: d?.newTokens.join(',') ?? '', bonusBefore: d?.bonusBefore ?? '', bonusAfter: d?.bonusAfter ?? '',
      seats: JSON.stringify(a.seats),
    },
  },
  a.risk ? el('p.risk-words', { role: 'alert' }, el('b', {}, 'Warning: '), riskWords(a.risk), '.') : null,
  lines.length > 0 || !digest ? el('p', {}, el('b', {}, `${a.name}:`), ' ', lines.join(' ')) : el('p', {}, el('b', {}, `${a.name}.`)),
  ...seats.map((line) => el('p.preview-seats', {}, line)),
  digest ? el('p', {}, digest) : null);
}
