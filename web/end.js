/** Final scores: one row per seat (data-seat, data-score), winners marked. */
import { el } from './dom.js';
import { seatAgent, seatName, who } from './frame.js';

/**
 * @param {number[]} scores  by seat
 * @param {number[]} winners
 * @param {import('./frame.js').Frame} f
 * @param {(() => void) | null} onReplay  offers "Replay this game" when given
 */
export function endPanel(scores, winners, f, onReplay) {
  const names = winners.map((s) => who(s, f));
  return el('section.end', { id: 'end' },
    el('h2', {}, 'Game over'),
    el('p.winners', {}, winners.length > 1 ? `Shared win: ${names.join(', ')}` : `Winner: ${names[0] ?? 'nobody'}`),
    el('table', { id: 'final-scores' },
      el('thead', {}, el('tr', {}, el('th', {}, 'Seat'), el('th', {}, 'Agent'), el('th', {}, 'Score'), el('th', {}, ''))),
      el('tbody', {}, scores.map((score, seat) => el('tr', {
        dataset: { seat, score },
        class: winners.includes(seat) ? 'winner' : null,
      }, el('td', {}, seatName(seat)), el('td', {}, seatAgent(seat, f)), el('td.num', {}, score), el('td', {}, winners.includes(seat) ? 'winner' : ''))))),
    onReplay ? el('button.primary', { id: 'replay-game', type: 'button', onclick: onReplay }, 'Replay this game') : null);
}
