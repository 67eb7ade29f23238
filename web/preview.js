/**
 * The move preview in words: what digesting would give, as GET preview worked it out from
 * what the seat may see and the die's faces (nothing is worked out here). A chance is said
 * as a certainty only when it is exactly 1, and as impossible only when it is exactly 0.
 * Each line carries its numbers as data-* attributes, so tests read them exactly.
 *
 * @typedef {{ spaces: number, chance: number }} MoveChance
 * @typedef {{ skips: boolean, abstinence: boolean, points: number, drunkenness: number,
 *   total: number | null, passChance: number | null, moves: MoveChance[], levelUpChance: number,
 *   wastedChance: number, thrownOut: boolean, outChance: number }} DigestPreview
 * @typedef {DigestPreview & { id: number, name: string }} ActionPreview
 * @typedef {{ step: number, now: DigestPreview | null, actions: ActionPreview[] }} PreviewAnswer
 */
import { el } from './dom.js';

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
