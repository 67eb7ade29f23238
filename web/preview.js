/**
 * The move preview in words: what each choice does and what digesting would give, as GET
 * preview worked it out from what the seat may see and the die's faces (nothing is worked
 * out here). A chance is said
 * as a certainty only when it is exactly 1, and as impossible only when it is exactly 0.
 * Each line carries its numbers as data-* attributes, so tests read them exactly.
 *
 * @typedef {{ spaces: number, chance: number }} MoveChance
 * @typedef {{ skips: boolean, abstinence: boolean, points: number, drunkenness: number,
 *   total: number | null, passChance: number | null, moves: MoveChance[], levelUpChance: number,
 *   wastedChance: number, thrownOut: boolean, outChance: number }} DigestPreview
 * @typedef {{ step: number, now: DigestPreview | null, actions: ChoicePreview[] }} PreviewAnswer
 */
import { cardName } from './cards.js';
import { el } from './dom.js';
import { who, whose } from './frame.js';

/** "+1 point", "-3 points". @param {number} n */
const points = (n) => `${n > 0 ? '+' : ''}${n} point${Math.abs(n) === 1 ? '' : 's'}`;

/** "33%"; never "0%" or "100%" for a chance that is not exactly that. @param {number} x */
const percent = (x) => (x > 0 && x < 0.005 ? 'under 1%' : x < 1 && x > 0.995 ? 'over 99%' : `${Math.round(x * 100)}%`);

/** "wasted: 33%", "wasted for certain", or nothing when it cannot happen. @param {string} what @param {number} chance */
const risk = (what, chance) => (chance === 1 ? `${what} for certain` : chance > 0 ? `${what}: ${percent(chance)}` : '');

/** "+3 points, drunkenness 1, roll total 2: 83% chance to pass the roll". @param {DigestPreview} p */
export function previewWords(p) {
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
      levelUp: p.levelUpChance, wasted: p.wastedChance, out: p.outChance, thrownOut: String(p.thrownOut), ...data,
    },
  }, el('b', {}, lead), ' ', previewWords(p));
}

/**
 * @typedef {{ seat: number, after: string[] }} FrontChange
 * @typedef {{ seat: number, change: number }} PointsChange
 * @typedef {{ kind: 'out' | 'wasted', chance: number }} ChoiceRisk
 * @typedef {{ id: number, name: string, handLoses: string[], handGains: string[], fronts: FrontChange[],
 *   points: PointsChange[], passesTo: number, certain: boolean, digest: DigestPreview | null,
 *   digestWhen: 'now' | 'after_done' | 'after_discarding' | null,
 *   target: { seat: number, before: DigestPreview, after: DigestPreview } | null, risk: ChoiceRisk | null }} ChoicePreview
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
    const sum = (/** @type {DigestPreview} */ p) => (p.skips ? 'no digestion' : p.abstinence ? `an abstinence (${points(p.points)})` : `${points(p.points)}, drunkenness ${p.drunkenness}`);
    lines.push(`${whose(t.seat, f, true)} digestion if done now: ${sum(t.after)} (was ${sum(t.before)}).`);
  }
  if (!a.certain) lines.push(a.digestWhen ? 'You then draw up to your hand size.' : 'Then cards are taken at random from hands, which nobody can foresee.');
  if (lines.length === 0 && !a.digest) lines.push('Nothing changes.');
  const moves = a.digest && !a.digest.skips ? moveWords(a.digest) : '';
  const digest = a.digest && a.digestWhen
    ? el('span.preview-line', {}, el('b', {}, WHEN[a.digestWhen]), ' ', previewWords(a.digest), moves ? `; ${moves}` : '')
    : null;
  const d = a.digest;
  return el(`div.choice-preview${a.risk ? '.preview-risk' : ''}`, {
    dataset: {
      action: a.id, risk: a.risk?.kind ?? '', riskChance: a.risk?.chance ?? 0, certain: String(a.certain),
      changes: JSON.stringify({ handLoses: a.handLoses, handGains: a.handGains, fronts: a.fronts, points: a.points }),
      digestWhen: a.digestWhen ?? '', points: d?.points ?? '', drunkenness: d?.drunkenness ?? '', total: d?.total ?? '',
      pass: d?.passChance ?? '', out: d?.outChance ?? '', thrownOut: String(d?.thrownOut ?? false),
      target: a.target ? JSON.stringify({ seat: a.target.seat, points: a.target.after.points, drunkenness: a.target.after.drunkenness, total: a.target.after.total }) : '',
    },
  },
  a.risk ? el('p.risk-words', { role: 'alert' }, el('b', {}, 'Warning: '), riskWords(a.risk), '.') : null,
  lines.length > 0 || !digest ? el('p', {}, el('b', {}, `${a.name}:`), ' ', lines.join(' ')) : el('p', {}, el('b', {}, `${a.name}.`)),
  digest ? el('p', {}, digest) : null);
}
