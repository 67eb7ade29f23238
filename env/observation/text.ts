/** A seat's view as plain text, for people and for LLM agents. */
import { CARD_IDS, CARD_NAMES, type CardId } from '../cards.ts';
import type { FrontCardView, PlayerPublicView, PlayerView } from './view.ts';

const name = (id: CardId | 'closing_time'): string => CARD_NAMES[id];

function cardList(counts: Partial<Record<CardId, number>>): string {
  const parts: string[] = [];
  for (const id of CARD_IDS) {
    const k = counts[id] ?? 0;
    if (k > 0) parts.push(k > 1 ? `${k}× ${name(id)}` : name(id));
  }
  return parts.length > 0 ? parts.join(', ') : 'nothing';
}

function frontCard(c: FrontCardView): string {
  let s = name(c.card);
  if (c.as) s += ` (as ${name(c.as)})`;
  if (c.poured) s += c.fromHand ? ` (poured in by player ${c.placedBy})` : ' (poured into a beer)';
  else if (c.given) s += ` (given by player ${c.placedBy}'s Mixed-up)`;
  else if (c.placedBy !== undefined) s += ` (from player ${c.placedBy})`;
  return s;
}

function who(p: PlayerPublicView, viewer: number): string {
  return p.seat === viewer ? `Player ${p.seat} (you)` : `Player ${p.seat}`;
}

function playerLine(p: PlayerPublicView, view: PlayerView): string {
  const bits = [
    `${p.points} points (score now ${p.score})`,
    `level ${p.level}, space ${p.spaceValue >= 0 ? '+' : ''}${p.spaceValue}`,
    `${p.handSize} cards in hand`,
    `shot tokens: ${p.shotTokens.length > 0 ? p.shotTokens.map((t) => name(t)).join(', ') : 'none'}`,
  ];
  if (p.abstinence > 0) bits.push(`abstinence token (${p.abstinence === 1 ? 'one' : 'two'} stripe${p.abstinence === 1 ? '' : 's'})`);
  if (p.titles.length > 0) bits.push(`titles: ${p.titles.join(', ')}`);
  if (p.paused) bits.push('PAUSE');
  if (p.out) bits.push(p.out === 'wasted' ? 'WASTED (out)' : 'THROWN OUT (out)');
  if (p.insulted) bits.push('insulted the bartender (no orders)');
  if (p.copying !== null) bits.push(`will drink what player ${p.copying} drinks`);
  if (p.finalTurnTaken) bits.push('has had their last turn');
  const known = cardList(p.known);
  if (known !== 'nothing') bits.push(`you know their hand holds: ${known}`);
  let line = `- ${who(p, view.seat)}${p.seat === view.turnState.active ? ' [active]' : ''}: ${bits.join('; ')}`;
  if (p.front.length > 0) line += `\n  in front: ${p.front.map(frontCard).join(', ')}`;
  return line;
}

function decisionLine(v: PlayerView): string {
  const d = v.decision;
  if (d.kind === 'over') return 'The game is over.';
  const who = d.actor === v.seat ? 'You' : `Player ${d.actor}`;
  switch (d.kind) {
    case 'play':
      return `${who} ${d.actor === v.seat ? 'are' : 'is'} playing cards (turn of player ${v.turnState.active}).`;
    case 'discard':
      return `${who} ${d.actor === v.seat ? 'are' : 'is'} discarding instead of playing.`;
    case 'reaction':
      return `Reaction window after ${d.card ? name(d.card) : '"done"'} by player ${v.turnState.active}: ` +
        `${who} may play an X card or pass.`;
    case 'response':
      return `${name(d.card!)} by player ${d.playedBy} is aimed at ${d.actor === v.seat ? 'you' : `player ${d.actor}`}` +
        `${d.avoided && d.avoided.length > 0 ? ` (already avoided by player ${d.avoided.join(', ')})` : ''}.`;
  }
}

/** Renders the view; with `legal` (action id and description pairs) lists the choices too. */
export function renderText(v: PlayerView, legal?: { id: number; text: string }[]): string {
  const t = v.turnState;
  const lines = [
    `Czech Pub, ${v.players} players, turn ${v.turn}. You are player ${v.seat}.`,
    decisionLine(v),
    `Your hand (${v.handSize}): ${cardList(v.hand)}.`,
    `Player ${t.active}'s turn: ${t.actionsLeft} action${t.actionsLeft === 1 ? '' : 's'} left; ` +
      `beers ${t.beers}, small beers ${t.smallBeers}, shots ${t.shots}/${t.shotLimit}` +
      `${t.playedSame ? "; played I'll get the same (no more cards)" : ''}.`,
    'Players:',
    ...v.table.map((p) => playerLine(p, v)),
    `Draw pile: ${v.deck.size} cards. Discard pile: ${v.discard.size} cards` +
      `${v.discard.top ? `, top: ${name(v.discard.top)}` : ''}.`,
    v.closingTime.where === 'drawn'
      ? `CLOSING TIME was drawn by player ${v.closingTime.drawnBy}: everyone gets one last turn.`
      : v.closingTime.where === 'in_deck'
        ? `CLOSING TIME is in the draw pile, with ${v.closingTime.depth![0]} to ${v.closingTime.depth![1]} cards above it.`
        : 'CLOSING TIME is not in the draw pile yet.',
    `Titles left: ${v.titlesLeft.map((x) => `${x.name} (${x.points} points): ${x.left}`).join(', ')}.`,
  ];
  if (v.over && v.finalScores) {
    lines.push(`Final scores: ${v.finalScores.map((s, i) => `player ${i}: ${s}`).join(', ')}. ` +
      `Winner${v.winners!.length > 1 ? 's' : ''}: ${v.winners!.map((w) => `player ${w}`).join(', ')}.`);
  }
  if (legal && legal.length > 0) {
    lines.push('Your legal actions:', ...legal.map((l) => `  ${l.id}: ${l.text}`));
  }
  return lines.join('\n');
}
