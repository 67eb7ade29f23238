/**
 * A concise rules summary for a language model, written from the ruleset object: every
 * number (limits, tables, chart, costs, losses, bonuses) is read from it, so the summary
 * stays true when a user changes the ruleset. What each pub card and X card does is the text
 * people read on the web page (env/card-text.ts, cardTexts): one source for both.
 */
import { CARD_IDS, CARD_NAMES, cardTexts, isNonAlcoholic, isOrder, isShot, isXCard, type CardId, type Ruleset } from '../../env/index.ts';

const signed = (n: number): string => (n > 0 ? `+${n}` : `${n}`);
const list = (xs: readonly (string | number)[]): string => xs.join(', ');
const idsWhere = (kind: (t: number) => boolean): CardId[] => CARD_IDS.filter((_, t) => kind(t));
const name = (id: CardId): string => CARD_NAMES[id];

export function rulesSummary(r: Ruleset): string {
  const cost = (id: CardId) => `${name(id)} ${r.cards[id].cost}`;
  const beerRows = r.beerTable.regular.map((row, i) => {
    const small = r.beerTable.withSmall[i];
    return `${i + 1} beer${i === 0 ? '' : 's'}: ${row.points} point${row.points === 1 ? '' : 's'}, ${row.drunkenness} drunkenness (with a small one among them: ${small.points}, ${small.drunkenness})`;
  });
  const chart = r.chart.map((level, i) => `level ${i + 1}: spaces ${list(level.spaces.map(signed))}, hand ${level.handSize}`);
  const titles = r.titles.map((t) => `${t.name} at ${t.points} points`);
  const texts = cardTexts(r);
  // Orders are told by the digestion lines above; pub and X cards by the cards' own texts.
  const actionCards = CARD_IDS.filter((_, t) => !isOrder(t));
  return [
    `CZECH PUB: ${r.players.min}–${r.players.max} players order drinks, drink them and roll against their drunkenness. Most points (plus a shot-type bonus) at the end wins.`,
    '',
    `TURN: draw up to your hand size, then play cards (${r.limits.actionsPerTurn} actions a turn; each card costs actions), or instead discard any cards and redraw (that turn counts as abstinence). Then digest what is in front of you, clean up and redraw.`,
    `Limits per turn: at most ${r.limits.beers} beers, at most ${r.limits.smallBeers} of them small; at most ${r.limits.shots} shot order. Action costs: ${CARD_IDS.map(cost).join(', ')}.`,
    '',
    'DIGESTION: points and drunkenness of the orders in front of you:',
    ...beerRows.map((l) => `- ${l}`),
    `- each beer beyond ${r.beerTable.regular.length}: ${signed(r.beerTable.perExtraBeer.points)} point, ${signed(r.beerTable.perExtraBeer.drunkenness)} drunkenness`,
    `- each shot (${list(idsWhere(isShot).map(name))}; Flattery counts as one): ${r.shotPoints} points; you take its shot-type token; with k token types owned each shot gives drunkenness ${list(r.shotDrunkenness)} for k = 1…${r.shotDrunkenness.length}`,
    `- non-alcoholic orders reduce drunkenness: ${idsWhere(isNonAlcoholic).map((id) => `${name(id)} ${r.cards[id].drunkenness ?? 0}`).join(', ')}`,
    `Roll: total = drunkenness + the number on your chart space; roll a ${r.roll.dieSides}-sided die. Roll ≥ total: move ${r.roll.okMove} forward. Short by 1–${r.roll.failStep}: ${r.roll.failMove} forward, and one more space for every further ${r.roll.failStep} short.`,
    `Abstinence (nothing with drunkenness in front of you): lose ${list(r.abstinence.pointLoss)} points on the 1st/2nd in a row, thrown out on the 3rd; move ${r.abstinence.moveBack} back (+${r.abstinence.moveBackPerNonAlcoholic} per non-alcoholic order).`,
    `Drunkenness chart: ${chart.join('; ')}. Moving past the end of a level puts you on the next level and PAUSE (skip your next turn); past the end of level ${r.chart.length} you are wasted (out, keeping your points).`,
    '',
    `CARDS: pub cards are played in your own turn; X cards (${list(idsWhere(isXCard).map(name))}, and ${name('shot_into_beer')} as X) are played in others' turns, against the active player's cards, when you are asked to react.`,
    ...actionCards.map((id) => `- ${name(id)}: ${texts[id]}`),
    '',
    `END: ${texts.closing_time} Final score = points + shot-type bonus ${list(r.shotBonus)} for 1–${r.shotBonus.length} types owned. Titles: ${list(titles)}.`,
  ].join('\n');
}
