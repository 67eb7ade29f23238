/**
 * Final scores with their parts: points, the shot-type bonus (score − points: the engine adds
 * it, env/engine/flow.ts scoreOf), the shot types owned and the titles taken. One row per seat
 * (data-seat, data-score), winners marked.
 */
import { el } from './dom.js';
import { seatAgent, seatName, who } from './frame.js';
import { termText } from './rules.js';

/**
 * @param {number[]} scores  by seat
 * @param {number[]} winners
 * @param {import('./frame.js').Frame} f
 * @param {(() => void) | null} onReplay  offers "Replay this game" when given
 */
export function endPanel(scores, winners, f, onReplay) {
  const names = winners.map((s) => who(s, f));
  const th = (/** @type {string} */ text, title = '', cls = '') => el('th', { title: title || null, class: cls || null }, text);
  return el('section.end', { id: 'end' },
    el('h2', {}, 'Game over'),
    el('p.winners', {}, winners.length > 1 ? `Shared win: ${names.join(', ')}` : `Winner: ${names[0] ?? 'nobody'}`),
    el('div.end-scroll', {}, el('table', { id: 'final-scores' },
      el('thead', {}, el('tr', {}, th('Seat'), th('Agent', '', 'agent'), th('Points'), th('Bonus', termText('Points and score')), th('Score'), th('Titles', '', 'titles'), th('Shot types', '', 'opt'), th('', '', 'opt'))),
      el('tbody', {}, scores.map((score, seat) => {
        const p = f.view.table[seat];
        return el('tr', { dataset: { seat, score, points: p.points, bonus: score - p.points }, class: winners.includes(seat) ? 'winner' : null },
          el('td.seat-name', {}, seatName(seat)), el('td.agent', {}, seatAgent(seat, f)),
          el('td.num', {}, p.points),
          el('td.num', {}, `+${score - p.points}`),
          el('td.num.total', {}, score),
          el('td.titles', {}, p.titles.join(', ') || '—'),
          el('td.opt', {}, `${p.shotTokens.length}`),
          el('td.opt', {}, [winners.includes(seat) ? 'winner' : '', p.out ? ` (${p.out === 'wasted' ? 'wasted' : 'thrown out'})` : '']));
      })))),
    el('p.small', {}, termText('Points and score')),
    onReplay ? el('button.primary', { id: 'replay-game', type: 'button', onclick: onReplay }, 'Replay this game') : null);
}
