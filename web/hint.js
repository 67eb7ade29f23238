/**
 * The Hint button of the decision area: asks the server what the Strong bot would play at the
 * person's decision (GET hint) and says it in the preview's own words, "Strong would play
 * Beer (70%): …", with the next most likely choices; the action button it names is marked
 * (`.hinted`). Nothing is worked out here: the choice, its probability and its preview are the
 * server's. Asked only when the person presses the button, once per decision.
 *
 * @typedef {{ id: number, name: string, probability: number | null }} HintChoice
 * @typedef {{ step: number, bot: { name: string, displayName: string }, fallback: string | null,
 *   action: HintChoice, runnersUp: HintChoice[], preview: import('./preview.js').ChoicePreview | null }} HintAnswer
 */
import { api, ApiError } from './api.js';
import { el, fill } from './dom.js';
import { choicePreview } from './preview.js';

/** "70%"; never "0%" or "100%" for a probability that is not exactly that. @param {number} p */
const percent = (p) => (p > 0 && p < 0.005 ? 'under 1%' : p < 1 && p > 0.995 ? 'over 99%' : `${Math.round(p * 100)}%`);

/** " (70%)", or nothing for a bot without probabilities. @param {HintChoice} c */
const chance = (c) => (c.probability === null ? '' : ` (${percent(c.probability)})`);

/**
 * The hint in words: who would play what and how sure it is, the preview of that choice, the
 * runners-up, and why another bot answers when Strong cannot.
 * @param {HintAnswer} h @param {{ you: number | null }} f
 */
export function hintWords(h, f) {
  return el('div.hint-answer', { dataset: { action: h.action.id, probability: h.action.probability ?? '', bot: h.bot.name } },
    el('p.hint-lead', {}, el('b', {}, `${h.bot.displayName} would play ${h.action.name}`), `${chance(h.action)}:`),
    h.preview ? choicePreview(h.preview, f) : el('p', {}, 'No preview for this choice.'),
    h.runnersUp.length > 0 ? el('p.hint-others', {}, `Next most likely: ${h.runnersUp.map((c) => `${c.name}${chance(c)}`).join(', ')}.`) : null,
    h.fallback ? el('p.hint-fallback', {}, `${h.fallback}.`) : null);
}

/** Marks the action button the hint names (and unmarks any other). @param {ParentNode} root @param {number} id */
function mark(root, id) {
  for (const b of root.querySelectorAll('button.action')) {
    const named = /** @type {HTMLElement} */ (b).dataset.action === String(id);
    b.classList.toggle('hinted', named);
    if (named) b.setAttribute('aria-describedby', [b.getAttribute('aria-describedby'), 'hint-answer'].filter(Boolean).join(' '));
  }
}

/**
 * The Hint button and where its answer goes, for the person's decision now. Put it in the
 * decision area with the action buttons (it marks the one named among the buttons beside it).
 * @param {string} id  the game
 * @param {string} token  the seat's token
 * @param {{ you: number | null }} f  the seat's frame (frame.js makeFrame)
 * @returns {HTMLElement}
 */
export function hintControl(id, token, f) {
  const out = el('div.hint-output', { id: 'hint-answer', 'aria-live': 'polite' });
  const button = el('button.hint-button', { type: 'button', 'aria-controls': 'hint-answer' }, 'Hint');
  const box = el('div.hint-box', {}, button, out);
  button.addEventListener('click', async () => {
    button.setAttribute('disabled', '');
    fill(out, 'Asking Strong…');
    try {
      const h = /** @type {HintAnswer} */ (await api.hint(id, token));
      fill(out, hintWords(h, f));
      mark(box.parentElement ?? document, h.action.id);
    } catch (e) {
      const passed = e instanceof ApiError && e.status === 409;
      fill(out, el('p.hint-error', {}, passed ? 'A hint is for your decision, and this one has passed.' : `No hint: ${e instanceof Error ? e.message : String(e)}`));
      button.removeAttribute('disabled');
    }
  });
  return box;
}
