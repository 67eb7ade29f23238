/**
 * The ruleset as GET /v1/ruleset gives it, loaded once before the first game: the drunkenness
 * chart, the cards (display name, kind and what each does, in card order), the glossary of
 * the table's terms and the action space's groups. Every help text is the server's, written
 * from the ruleset (env/card-text.ts): the page types no rule or number of its own.
 */

/** @typedef {{ id: string, name: string, kind: string, text: string, short?: string }} CardInfo  `short`: the effect in a few words, for the card's face */
/** @typedef {{ first: number, last: number, kind: string }} ActionGroup */
/** @typedef {{ term: string, text: string }} Term */
/**
 * @typedef {{ ruleset: { chart: { spaces: number[] }[] }, cards: CardInfo[], closingTime: { name: string, text: string, short?: string },
 *   glossary: Term[], actionGroups: ActionGroup[] }} RulesetAnswer
 */

/** @type {{ spaces: number[] }[]} */
let chart = [];
/** @type {Map<string, CardInfo>} */
let cards = new Map();
/** @type {ActionGroup[]} */
let groups = [];
/** @type {Term[]} */
let terms = [];
/** @type {CardInfo | null} */
let closing = null;

/** @param {RulesetAnswer} answer */
export function setRules(answer) {
  chart = answer.ruleset.chart;
  cards = new Map(answer.cards.map((c) => [c.id, c]));
  closing = { id: 'closing_time', kind: 'closing', ...answer.closingTime };
  groups = answer.actionGroups;
  terms = answer.glossary;
}

/** The drunkenness chart: one row per level, each with its printed spaces. */
export const drunkChart = () => chart;

/** Every card id, in card order. */
export const cardIds = () => [...cards.keys()];

/** A card (CLOSING TIME included) by id. @param {string} id */
export const cardInfo = (id) => (id === 'closing_time' ? closing ?? undefined : cards.get(id));

export const actionGroups = () => groups;

/** The glossary's entries, in the server's order. */
export const glossaryTerms = () => terms;

/** One glossary entry's text ('' if the server has none by that name). @param {string} term */
export const termText = (term) => terms.find((t) => t.term === term)?.text ?? '';
