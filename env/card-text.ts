/**
 * What every card does, and the terms a newcomer meets on the table (points and score, the
 * chart, PAUSE, abstinence), in words written from the ruleset object: every number is read
 * from it, so a corrected ruleset corrects the help text too. The mechanics are RULES.md's.
 * The web page shows these (hover and tap, the rules panel, the buttons' consequences);
 * GET /v1/ruleset serves them.
 */
import { CARD_IDS, CARD_NAMES, isNonAlcoholic, isShot, type CardId } from './cards.ts';
import { decodeAction } from './action-codec.ts';
import type { Ruleset } from './ruleset.ts';

const list = (xs: readonly (string | number)[]): string => xs.join(', ');
const pts = (n: number): string => `${n} point${Math.abs(n) === 1 ? '' : 's'}`;
const signed = (n: number): string => (n > 0 ? `+${n}` : `${n}`);
const actions = (n: number): string => (n === 0 ? 'costs no action' : `costs ${n} action${n === 1 ? '' : 's'}`);
const shotNames = (): string => list(CARD_IDS.filter((_, t) => isShot(t)).map((id) => CARD_NAMES[id]));

/** The beer table in one sentence: "1 beer 1 point, 2 beers 3 points / 1 drunk, ...". */
function beerTable(r: Ruleset): string {
  const row = (t: { points: number; drunkenness: number }[]) => t.map((x, i) => `${i + 1}: ${pts(x.points)}, drunkenness ${x.drunkenness}`).join('; ');
  const extra = r.beerTable.perExtraBeer;
  return `beers in front at digestion — ${row(r.beerTable.regular)} (with a small one among them: ${row(r.beerTable.withSmall)}); each beer beyond ${r.beerTable.regular.length}: ${signed(extra.points)} point, ${signed(extra.drunkenness)} drunkenness`;
}

const shotLine = (r: Ruleset): string =>
  `${pts(r.shotPoints)}; you take its shot-type token; each shot drunk adds drunkenness ${list(r.shotDrunkenness)} when you own 1…${r.shotDrunkenness.length} token types`;

/** The effect of each card, keyed by card id (CLOSING TIME included). */
export function cardTexts(r: Ruleset): Record<CardId | 'closing_time', string> {
  const c = (id: CardId) => r.cards[id].cost;
  const order = (id: CardId, what: string) => `Order (${actions(c(id))}). ${what}`;
  const shot = (id: CardId) => order(id, `A shot: ${shotLine(r)}. At most ${r.limits.shots} shot order a turn.`);
  const nonAlc = (id: CardId) => order(id, `Non-alcoholic: ${signed(r.cards[id].drunkenness ?? 0)} drunkenness at the roll, no points. On its own it is an abstinence, and it moves you ${r.abstinence.moveBackPerNonAlcoholic} more space back.`);
  const x = 'X card: played in another player\'s turn, when you are asked to react, at no action cost.';
  const sc = r.shotChoice;
  const choice = `each target discards a shot from hand (taking its token), or a beer and loses ${pts(sc.beerLoss)}, or a small beer and loses ${pts(sc.smallBeerLoss)}, or loses ${pts(sc.nothingLoss)}`;
  const texts: Partial<Record<CardId | 'closing_time', string>> = {
    beer: order('beer', `Points and drunkenness by the ${beerTable(r)}. At most ${r.limits.beers} beers a turn.`),
    small_beer: order('small_beer', `Counts as a beer, but the table "with a small one" applies (fewer points). At most ${r.limits.smallBeers} small beer a turn.`),
    tea: nonAlc('tea'),
    coffee: nonAlc('coffee'),
    utopenec: nonAlc('utopenec'),
    same: `Pub card (${actions(c('same'))}), aimed at a player; the only card you play this turn. You skip your digestion; at their next digestion you drink a copy of the orders they played and still have in front (not Flattery, nor an order given to them by Mixed-up), and roll for yourself. If they have no turn left before the game ends, you drink nothing.`,
    flattery: `Pub card (${actions(c('flattery'))}). Counts as a shot of your choice: ${shotLine(r)}. Not an order: it ignores the shot limit and Insulted bartender.`,
    shot_into_beer: `Pub card (${actions(c('shot_into_beer'))}) with a beer and a shot you played this turn: you may order one more shot beyond the limit. Also an X card (no cost): pour into the active player's beer a shot they have in front or, only if they have none, one from your hand (${shotNames()}) — its drunkenness and token, no points.`,
    lets_do_a_shot: `Pub card (${actions(c('lets_do_a_shot'))}), aimed at a player: ${choice.replace('each target', 'the target')}.`,
    shots_everyone: `Pub card (${actions(c('shots_everyone'))}), at every other player: ${choice}.`,
    brawl: `Pub card (${actions(c('brawl'))}). Starting with the player holding fewest cards, each player in turn takes one random card from every other player's hand.`,
    dont_want_it: `Pub card (${actions(c('dont_want_it'))}). Take the top card of the discard pile into your hand.`,
    insulted_bartender: `Pub card (${actions(c('insulted_bartender'))}), aimed at a player: in their next turn they may play no orders (pub cards and Flattery still), and a third abstinence in a row does not throw them out. A PAUSE turn uses it up.`,
    thats_my_order: `Pub card (${actions(c('thats_my_order'))}), aimed at a player: take one random card from their hand.`,
    excuse_me: `X card, played when a card is aimed at you: cancel its effect on you, or pass a card aimed at one player on to a neighbour (not back to who played it).`,
    mixed_up: `${x} Take one order the active player has in front into your hand and put an order from your hand in its place (it ignores their limits and costs; they regain the actions of the one taken).`,
    knocked_over: `${x} Discard one order the active player has in front (they regain its actions and may play on).`,
    warm_beer: `${x} One beer in front of the active player goes back to their hand; they regain its actions but cannot play it again this turn.`,
    closing_time: 'Shuffled into the draw pile at a reshuffle. Whoever draws it finishes that turn (drawn at cleanup, that turn is over); then every other player still in takes one last turn (a paused player\'s is the PAUSE turn), and the game ends.',
  };
  for (const id of CARD_IDS) if (isShot(CARD_IDS.indexOf(id))) texts[id] = shot(id);
  return texts as Record<CardId | 'closing_time', string>;
}

/**
 * What every card does in a few words, for its face on the table (the full text is
 * cardTexts'): the cost first ("free" or "N act."), then the effect, numbers from the ruleset.
 */
export function cardShortTexts(r: Ruleset): Record<CardId | 'closing_time', string> {
  const cost = (id: CardId) => (r.cards[id].cost === 0 ? 'free' : `${r.cards[id].cost} act.`);
  const on = (id: CardId, what: string) => `${cost(id)} · ${what}`;
  const first = r.beerTable.regular[0];
  const nonAlc = (id: CardId) => on(id, `${signed(r.cards[id].drunkenness ?? 0)} drunk, no points`);
  const texts: Partial<Record<CardId | 'closing_time', string>> = {
    beer: on('beer', `drink: ${pts(first.points)}, more with more`),
    small_beer: on('small_beer', 'a beer worth fewer points'),
    tea: nonAlc('tea'),
    coffee: nonAlc('coffee'),
    utopenec: nonAlc('utopenec'),
    same: on('same', "drink what a player orders next"),
    flattery: on('flattery', 'a shot of your choice'),
    shot_into_beer: on('shot_into_beer', 'one more shot; X: pour one'),
    lets_do_a_shot: on('lets_do_a_shot', 'one player: a shot, or lose points'),
    shots_everyone: on('shots_everyone', 'all others: a shot, or lose points'),
    brawl: on('brawl', 'all take a card from every hand'),
    dont_want_it: on('dont_want_it', 'take the top discard'),
    insulted_bartender: on('insulted_bartender', 'a player orders nothing next turn'),
    thats_my_order: on('thats_my_order', 'take a random card from a player'),
    excuse_me: 'X · cancel or pass on a card aimed at you',
    mixed_up: "X · swap one of their orders for yours",
    knocked_over: 'X · discard an order in front of them',
    warm_beer: 'X · a beer of theirs goes back to hand',
    closing_time: 'last round for everyone',
  };
  for (const id of CARD_IDS) if (isShot(CARD_IDS.indexOf(id))) texts[id] = on(id, `shot: ${pts(r.shotPoints)} and its token`);
  return texts as Record<CardId | 'closing_time', string>;
}

export interface Term {
  term: string;
  text: string;
}

/** The table's terms a newcomer needs, from the ruleset: the goal first. */
export function glossary(r: Ruleset): Term[] {
  const [first, second] = r.abstinence.pointLoss;
  // Whether the chart's numbers (added to every roll's total) grow along it, as in the standard
  // rules: never falling within a level, each level starting no lower than the one before.
  const rising = (xs: number[]) => xs.every((v, i) => i === 0 || v >= xs[i - 1]);
  const starts = r.chart.map((l) => l.spaces[0]);
  const harder = r.chart.every((l) => rising(l.spaces)) && rising(starts) && r.chart[r.chart.length - 1].spaces.at(-1)! > starts[0];
  const chart = r.chart.map((l, i) => `level ${i + 1}: ${list(l.spaces.map(signed))} (hand ${l.handSize})`).join('; ');
  return [
    {
      term: 'Goal',
      text: `Finish with the highest score. Drinks give points when you digest them, but digesting moves you forward along the drunkenness chart${harder ? ', and the further along you are, the harder the roll' : ''}: past the end of level ${r.chart.length} you are wasted, out of the game with the points you have. ` +
        'The game ends once CLOSING TIME is drawn and everyone still in has had a last turn, or when only one player is left, after their one more turn.',
    },
    { term: 'Turn', text: `Draw up to your hand size, then play cards (${r.limits.actionsPerTurn} actions a turn; each card's cost is on its help) and say done; or, before playing anything, discard any cards and draw up instead — that turn is an abstinence. Then you digest what is in front of you.` },
    { term: 'Points and score', text: `Points come from digesting drinks and go down for abstinences and shot choices. Score = points + the shot-type bonus (${list(r.shotBonus)} for owning 1…${r.shotBonus.length} of the shot tokens). Highest score at the end wins.` },
    { term: 'Digestion and the roll', text: `Drunkenness of what is in front of you plus the number on your chart space is the total; a ${r.roll.dieSides}-sided die is rolled. Roll ≥ total: move ${r.roll.okMove} space forward. Short by 1–${r.roll.failStep}: ${r.roll.failMove} forward, one more for every further ${r.roll.failStep}.` },
    { term: 'Drunkenness chart', text: `Each row is a level; the marked cell is your space, and its number is added to every roll's total. ${chart}. Moving past a row's end puts you at the start of the next level, with a smaller hand; past the end of level ${r.chart.length} you are wasted: out, keeping your points.` },
    { term: 'PAUSE', text: 'On reaching a new level your coaster shows PAUSE: your next turn you only flip it back and draw up. You cannot be aimed at while paused.' },
    { term: 'Abstinence', text: `A digestion with nothing alcoholic in front of you (no beer, shot or Flattery; a lone beer avoids it): lose ${pts(first)} the first time in a row (one-stripe token), ${pts(second)} the second (two stripes), and the third throws you out. You move ${r.abstinence.moveBack} space back (+${r.abstinence.moveBackPerNonAlcoholic} per non-alcoholic order). Any drinking turn clears the token.` },
    { term: 'Titles', text: `Taken when your points first reach ${list(r.titles.map((t) => `${t.points} (${t.name}, ${t.tokens} available)`))}. They give no points.` },
  ];
}

/**
 * What choosing an action costs or causes, when its name does not say it (points lost, the
 * turn becoming an abstinence); null when there is nothing to add. `abstinence` is what this
 * player's next abstinence would cost (their abstinence token now).
 */
export function actionConsequence(r: Ruleset, action: number, abstinenceToken: number): string | null {
  const d = decodeAction(action);
  const sc = r.shotChoice;
  const loss = r.abstinence.pointLoss;
  const abst = abstinenceToken >= loss.length ? 'you are thrown out (third abstinence in a row), unless insulted' : `you lose ${pts(loss[abstinenceToken])} and move ${r.abstinence.moveBack} back`;
  switch (d.kind) {
    case 'discard':
      return `Discarding means no card can be played this turn: the turn is an abstinence (${abst}).`;
    case 'stop_discard':
      return `You draw up to your hand size; the turn is an abstinence (${abst}).`;
    case 'shot_beer':
      return `You lose ${pts(sc.beerLoss)}; the beer gives nothing.`;
    case 'shot_small':
      return `You lose ${pts(sc.smallBeerLoss)}; the small beer gives nothing.`;
    case 'shot_nothing':
      return `You lose ${pts(sc.nothingLoss)}.`;
    case 'shot_discard':
      return 'You lose no points, and take that shot\'s token if you lack it.';
    case 'same':
      return 'You skip your digestion this turn and drink their orders at their next digestion.';
    case 'order':
      return isNonAlcoholic(d.card) ? `${signed(r.cards[CARD_IDS[d.card]].drunkenness ?? 0)} drunkenness; alone it is an abstinence.` : null;
    default:
      return null;
  }
}
