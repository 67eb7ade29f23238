/**
 * The ruleset as GET /v1/ruleset gives it, loaded once before the first game: the drunkenness
 * chart, the cards (display name and kind, in card order) and the action space's groups.
 */

/** @typedef {{ id: string, name: string, kind: string }} CardInfo */
/** @typedef {{ first: number, last: number, kind: string }} ActionGroup */
/** @typedef {{ ruleset: { chart: { spaces: number[] }[] }, cards: CardInfo[], actionGroups: ActionGroup[] }} RulesetAnswer */

/** @type {{ spaces: number[] }[]} */
let chart = [];
/** @type {Map<string, CardInfo>} */
let cards = new Map();
/** @type {ActionGroup[]} */
let groups = [];

/** @param {RulesetAnswer} answer */
export function setRules(answer) {
  chart = answer.ruleset.chart;
  cards = new Map(answer.cards.map((c) => [c.id, c]));
  groups = answer.actionGroups;
}

/** The drunkenness chart: one row per level, each with its printed spaces. */
export const drunkChart = () => chart;

/** Every card id, in card order. */
export const cardIds = () => [...cards.keys()];

/** @param {string} id */
export const cardInfo = (id) => cards.get(id);

export const actionGroups = () => groups;
