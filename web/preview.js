/**
 * The move preview in words: what digesting would give, as GET preview computed it with the
 * engine's digestion (nothing is worked out here). Each line carries its numbers as data-*
 * attributes, so tests read them exactly.
 *
 * @typedef {{ points: number, drunkenness: number, total: number | null, passChance: number | null,
 *   abstinence: boolean, thrownOut: boolean, skips: boolean }} DigestPreview
 * @typedef {DigestPreview & { id: number, name: string }} ActionPreview
 * @typedef {{ step: number, now: DigestPreview | null, actions: ActionPreview[] }} PreviewAnswer
 */
import { el } from './dom.js';

/** "+1 point", "-3 points". @param {number} n */
const points = (n) => `${n > 0 ? '+' : ''}${n} point${Math.abs(n) === 1 ? '' : 's'}`;

/** "+3 points, drunkenness 1, roll total 2: the die passes 5 in 6 (83%)". @param {DigestPreview} p */
export function previewWords(p) {
  if (p.skips) return 'you skip this digestion (I\'ll get the same)';
  if (p.abstinence) return p.thrownOut ? 'an abstinence: you are thrown out' : `an abstinence: ${points(p.points)}`;
  const pass = p.passChance === null ? '' : `, ${Math.round(p.passChance * 100)}% chance to pass the roll`;
  return `${points(p.points)}, drunkenness ${p.drunkenness}, roll total ${p.total}${pass}`;
}

/** @param {string} lead @param {DigestPreview} p @param {Record<string, string | number>} [data] */
export function previewLine(lead, p, data = {}) {
  return el('span.preview-line', {
    dataset: { points: p.points, drunkenness: p.drunkenness, total: p.total ?? '', pass: p.passChance ?? '', abstinence: String(p.abstinence), ...data },
  }, el('b', {}, lead), ' ', previewWords(p));
}
