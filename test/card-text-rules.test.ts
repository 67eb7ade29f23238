/**
 * A card's help (env/card-text.ts, written from the ruleset) and its rule in docs/rules.md
 * say the same: for every card, the facts that matter (its count and cost, its effect's key
 * numbers and its key phrase) are looked for in both, so neither can drift from the other
 * (as the help's "the orders they have in front" once did from the page's "the orders the
 * target played"). The numbers are the default ruleset's, the one the page describes. A fact
 * worded differently on purpose is a new pair of patterns here, not a looser one.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cardTexts, glossary } from '../env/card-text.ts';
import { CARD_IDS, isXCard, type CardId } from '../env/cards.ts';
import { beerScore } from '../env/engine/drinking.ts';
import { DEFAULT_RULESET as R } from '../env/ruleset.ts';

type Id = CardId | 'closing_time';

const RULES = fs.readFileSync(new URL('../docs/rules.md', import.meta.url), 'utf8');

/** One line of text: Markdown emphasis gone, the typographic minus a hyphen, spaces collapsed. */
const flat = (text: string): string => text.replace(/\*\*/g, '').replace(/−/g, '-').replace(/\s+/g, ' ').trim();

/**
 * The paragraph, list item or table of `doc` whose first line starts with `start` (after "- "
 * for an item), to its end (a blank line, the next item, heading or table); it must be the only
 * one that starts so.
 */
function passage(doc: string, start: string): string {
  const lines = doc.split('\n');
  const at = lines.flatMap((l, i) => (l.startsWith(`- ${start}`) || l.startsWith(start) ? [i] : []));
  if (at.length !== 1) throw new Error(`docs/rules.md: ${at.length} passages start with ${JSON.stringify(start)}, not 1`);
  const first = lines[at[0]];
  const goesOn = (l: string): boolean => {
    if (first.startsWith('- ')) return l.startsWith('  ');
    if (first.startsWith('|')) return l.startsWith('|');
    return l.trim() !== '' && !/^(- |#|\|)/.test(l);
  };
  let end = at[0] + 1;
  while (end < lines.length && goesOn(lines[end])) end++;
  return flat(lines.slice(at[0], end).join('\n').replace(/^- /, ''));
}

/** Where docs/rules.md states each card's rule: the starts of its passages. */
const SHOT_PASSAGES = ['**Shots**:', '**Limits per turn**', '**Shots and tokens**'];
const NON_ALC_PASSAGES = ['**Non-alcoholic orders**', 'The printed drunkenness of the non-alcoholic orders'];
const PASSAGES: Record<Id, string[]> = {
  beer: ['**Beer**', '**Limits per turn**', '| beers |', 'Each beer beyond 3'],
  small_beer: ['**Beer**', '**Limits per turn**', '| beers |'],
  rum: SHOT_PASSAGES, fernet: SHOT_PASSAGES, becherovka: SHOT_PASSAGES, peppermint: SHOT_PASSAGES, vodka: SHOT_PASSAGES,
  tea: NON_ALC_PASSAGES, coffee: NON_ALC_PASSAGES, utopenec: NON_ALC_PASSAGES,
  same: ["**I'll get the same** (aimed"],
  flattery: ['**Flattery**'],
  shot_into_beer: ['**Shot into a beer**, own turn', '**Shot into a beer**, as an X card'],
  lets_do_a_shot: ["**Let's do a shot**", '**The shot choice**'],
  shots_everyone: ['**Shots, everyone!**', '**The shot choice**'],
  brawl: ['**Brawl**'],
  dont_want_it: ["**You don't want it anymore?**"],
  insulted_bartender: ['**Insulted bartender**'],
  thats_my_order: ["**That's my order**"],
  excuse_me: ['**Excuse me** (discarded'],
  mixed_up: ['**Mixed-up**:'],
  knocked_over: ['**Knocked-over glass**:'],
  warm_beer: ['**That beer is warm**'],
  closing_time: ['**The pub closes**', '**Drawing CLOSING TIME**'],
};

interface Fact {
  /** What must agree, in words: the failure names it. */
  says: string;
  /** Found in the card's help text. */
  help: RegExp;
  /** Found in the card's passages of docs/rules.md. */
  doc: RegExp;
}

const sc = R.shotChoice;
/** "(costs 1 action)", "(costs no action)": how a help text states a cost. */
const helpCost = (id: CardId): RegExp => {
  const cost = R.cards[id].cost;
  return new RegExp(`\\(${cost === 0 ? 'costs no action' : `costs ${cost} actions?`}\\)`);
};
const orList = (xs: number[]) => `${xs.slice(0, -1).join(', ')} or ${xs.at(-1)}`;
const shotFacts = (id: CardId): Fact[] => [
  { says: 'its cost', help: helpCost(id), doc: new RegExp(`\\(cost ${R.cards[id].cost} each\\)`) },
  { says: 'points per shot', help: new RegExp(`\\b${R.shotPoints} points`), doc: new RegExp(`\\b${R.shotPoints} points each`) },
  { says: 'the shot limit', help: new RegExp(`At most ${R.limits.shots} shot order`), doc: new RegExp(`at most ${R.limits.shots} shot order`) },
  { says: 'drunkenness by the token types owned', help: new RegExp(R.shotDrunkenness.join(', ')), doc: new RegExp(`adds ${orList(R.shotDrunkenness)} drunkenness`) },
  { says: 'drinking one gives its token', help: /take its shot-type token/, doc: /gives its token/ },
];
const nonAlcFacts = (id: CardId): Fact[] => [
  { says: 'its cost', help: helpCost(id), doc: new RegExp(`Tea, Coffee, Utopenec \\(costs ${R.cards.tea.cost}, ${R.cards.coffee.cost}, ${R.cards.utopenec.cost}\\)`) },
  { says: 'printed drunkenness', help: new RegExp(`${R.cards[id].drunkenness} drunkenness`), doc: new RegExp(`\`cards\\.${id}\\.drunkenness\` \\(${R.cards[id].drunkenness}\\)`) },
  { says: 'no points', help: /no points/, doc: /No points/ },
  { says: 'alone, an abstinence', help: /On its own it is an abstinence/, doc: /On their own they are an abstinence/ },
  { says: 'one more space back in an abstinence', help: new RegExp(`moves you ${R.abstinence.moveBackPerNonAlcoholic} more space back`), doc: /each one then moves the figure one more space back/ },
];
const choiceFacts: Fact[] = [
  { says: 'discard a shot, taking its token', help: /discards a shot from hand \(taking its token\)/, doc: /discard a shot card from the hand \(taking that shot's token/ },
  { says: 'a beer and the points it costs', help: new RegExp(`a beer and loses ${sc.beerLoss} points`), doc: new RegExp(`a beer and lose ${sc.beerLoss} points`) },
  { says: 'a small beer and the points it costs', help: new RegExp(`a small beer and loses ${sc.smallBeerLoss} points`), doc: new RegExp(`a small beer and lose ${sc.smallBeerLoss}\\b`) },
  { says: 'nothing, and the points it costs', help: new RegExp(`or loses ${sc.nothingLoss} points`), doc: new RegExp(`or lose ${sc.nothingLoss} points`) },
];
/** A row of the beer table: "2: 3 points, drunkenness 1" in the help, "| 2 | 3, 1 | 2, 0 |" on the page. */
const beerRows = (small: boolean): Fact[] => R.beerTable.regular.map((regular, i) => {
  const row = small ? R.beerTable.withSmall[i] : regular;
  const other = R.beerTable.withSmall[i];
  return {
    says: `${i + 1} beer(s)${small ? ' with a small one' : ''}: ${row.points} points, ${row.drunkenness} drunkenness`,
    help: new RegExp(`${i + 1}: ${row.points} points?, drunkenness ${row.drunkenness}`),
    doc: new RegExp(`\\| ${i + 1} \\| ${regular.points}, ${regular.drunkenness} \\| ${other.points}, ${other.drunkenness} \\|`),
  };
});
/** A pub card's cost: "(costs 2 actions)" in its help, "(cost 2)" or "(aimed at another player, cost 1; ..." opening its rule. */
const costFact = (id: CardId): Fact => ({ says: 'its cost', help: helpCost(id), doc: new RegExp(`^[^(]+\\([^)]*\\bcost ${R.cards[id].cost}\\b`) });

const FACTS: Record<Id, Fact[]> = {
  beer: [
    { says: 'its cost', help: helpCost('beer'), doc: new RegExp(`^Beer \\(cost ${R.cards.beer.cost}\\)`) },
    { says: 'the beer limit', help: new RegExp(`At most ${R.limits.beers} beers a turn`), doc: new RegExp(`at most ${R.limits.beers} beers`) },
    { says: 'the "with a small one" row', help: /with a small one/, doc: /"with a small one" row/ },
    ...beerRows(false),
    ...beerRows(true),
    { says: 'each beer beyond the table', help: new RegExp(`beyond ${R.beerTable.regular.length}: \\+${R.beerTable.perExtraBeer.points} point, \\+${R.beerTable.perExtraBeer.drunkenness} drunkenness`), doc: new RegExp(`beyond ${R.beerTable.regular.length} .*adds ${R.beerTable.perExtraBeer.points} point .*and ${R.beerTable.perExtraBeer.drunkenness} drunkenness`) },
  ],
  small_beer: [
    { says: 'its cost', help: helpCost('small_beer'), doc: new RegExp(`Small beer \\(cost ${R.cards.small_beer.cost}\\)`) },
    { says: 'the small-beer limit', help: new RegExp(`At most ${R.limits.smallBeers} small beer a turn`), doc: new RegExp(`of which at most ${R.limits.smallBeers} small`) },
    { says: 'the "with a small one" row', help: /the table "with a small one" applies/, doc: /"with a small one" row applies/ },
  ],
  rum: shotFacts('rum'), fernet: shotFacts('fernet'), becherovka: shotFacts('becherovka'), peppermint: shotFacts('peppermint'), vodka: shotFacts('vodka'),
  tea: nonAlcFacts('tea'), coffee: nonAlcFacts('coffee'), utopenec: nonAlcFacts('utopenec'),
  same: [
    costFact('same'),
    { says: 'the only card of the turn', help: /the only card you play this turn/, doc: /the only card of the turn/ },
    { says: 'its player skips their own digestion', help: /You skip your digestion/, doc: /skips their own digestion/ },
    { says: 'only the orders the target played are copied', help: /a copy of the orders they played/, doc: /a copy of the orders the target played/ },
    { says: 'not Flattery, not an order given by Mixed-up', help: /not Flattery, nor an order given to them by Mixed-up/, doc: /Not copied: Flattery, an order given to the target by Mixed-up/ },
    { says: 'the copier rolls for themselves', help: /roll for yourself/, doc: /rolls with their own space/ },
    { says: 'nothing if the target has no turn left', help: /no turn left before the game ends, you drink nothing/, doc: /the game ends before the target's next turn/ },
  ],
  flattery: [
    costFact('flattery'),
    { says: 'a shot of the chosen type', help: /Counts as a shot of your choice/, doc: /counts as a shot of the type the player names/ },
    { says: 'its points', help: new RegExp(`\\b${R.shotPoints} points`), doc: new RegExp(`\\b${R.shotPoints} points`) },
    { says: 'not an order', help: /Not an order/, doc: /It is not an order/ },
    { says: 'outside the shot limit', help: /ignores the shot limit/, doc: /does not count towards the shot limit/ },
    { says: 'playable while insulted', help: /ignores [^.]*Insulted bartender/, doc: /can be played while insulted/ },
  ],
  shot_into_beer: [
    costFact('shot_into_beer'),
    { says: 'needs a beer and a shot the player played', help: /with a beer and a shot you played this turn/, doc: /small beer they played themselves .*a shot order they played themselves/ },
    { says: 'one more shot beyond the limit', help: /one more shot beyond the limit/, doc: /one more shot order this turn beyond the limit/ },
    { says: 'as an X card, a shot in front first, from the hand only without one', help: /a shot they have in front or, only if they have none, one from your hand/, doc: /a shot order lying in front of the active player .*only when there is no such shot, a shot card from their own hand/ },
    { says: 'a poured shot: drunkenness and token, no points', help: /its drunkenness and token, no points/, doc: /scores nothing, but it still adds its drunkenness and brings its token/ },
  ],
  lets_do_a_shot: [
    costFact('lets_do_a_shot'),
    { says: 'aimed at one player', help: /aimed at a player: the target/, doc: /aimed at another player/ },
    ...choiceFacts,
  ],
  shots_everyone: [
    costFact('shots_everyone'),
    { says: 'every other player', help: /at every other player/, doc: /every other player/ },
    ...choiceFacts,
  ],
  brawl: [
    costFact('brawl'),
    { says: 'the fewest cards go first', help: /Starting with the player holding fewest cards/, doc: /The smallest hand goes first/ },
    { says: 'one random card from every other hand', help: /takes one random card from every other player's hand/, doc: /drawing a random card out of each other brawler's hand/ },
  ],
  dont_want_it: [
    costFact('dont_want_it'),
    { says: 'the top card of the discard pile', help: /Take the top card of the discard pile into your hand/, doc: /take the top card of the discard pile into one's hand/ },
  ],
  insulted_bartender: [
    costFact('insulted_bartender'),
    { says: 'no orders in the next turn', help: /in their next turn they may play no orders/, doc: /through the target's next turn .*the target can play no orders/ },
    { says: 'pub cards and Flattery allowed', help: /pub cards and Flattery still/, doc: /pub cards, Flattery included, are allowed/ },
    { says: 'no throwing out on a third abstinence', help: /a third abstinence in a row does not throw them out/, doc: /a third abstinence in a row does not throw them out/ },
    { says: 'a PAUSE turn uses it up', help: /A PAUSE turn uses it up/, doc: /is a PAUSE turn .*the card is used up on it/ },
  ],
  thats_my_order: [
    costFact('thats_my_order'),
    { says: "one random card from the target's hand", help: /take one random card from their hand/, doc: /take one random card from the target's hand/ },
  ],
  excuse_me: [
    { says: 'cancel the effect on oneself', help: /cancel its effect on you/, doc: /cancel the effect on oneself/ },
    { says: 'redirect a card aimed at one player to a neighbour', help: /pass a card aimed at one player on to a neighbour/, doc: /against a card aimed at one player only, redirect it to the left or right neighbour/ },
    { says: 'never back to who played it', help: /not back to who played it/, doc: /not allowed onto the player who played the card/ },
  ],
  mixed_up: [
    { says: 'an order taken into the hand, one from the hand put in its place', help: /Take one order the active player has in front into your hand and put an order from your hand in its place/, doc: /take one order in front of the active player into one's own hand .*put an order from one's hand in front of them instead/ },
    { says: 'the given order costs nothing and counts towards no limit', help: /ignores their limits and costs/, doc: /costs the active player nothing and counts towards no limit/ },
    { says: "the taken order's actions are regained", help: /they regain the actions of the one taken/, doc: /the taken card's actions are regained/ },
  ],
  knocked_over: [
    { says: 'any order in front is discarded', help: /Discard one order the active player has in front/, doc: /discard one order in front of the active player \(any order/ },
    { says: 'its actions are regained', help: /they regain its actions/, doc: /They regain its actions/ },
  ],
  warm_beer: [
    { says: 'a beer goes back to the hand', help: /One beer in front of the active player goes back to their hand/, doc: /one beer or small beer in front of the active player goes back into their hand/ },
    { says: 'its actions are regained, and it cannot be played again this turn', help: /they regain its actions but cannot play it again this turn/, doc: /they regain its actions, and that card .*cannot be played again this turn/ },
  ],
  closing_time: [
    { says: "the drawer's turn is their last", help: /Whoever draws it finishes that turn \(drawn at cleanup, that turn is over\)/, doc: /the turn in which CLOSING TIME is drawn is the drawer's last, whenever in the turn it was drawn \(at the start, when discarding, at cleanup/ },
    { says: 'then every other player still in has one last turn', help: /then every other player still in takes one last turn/, doc: /Then each remaining player in the game gets one final turn/ },
    { says: "a paused player's last turn is the PAUSE turn", help: /a paused player's is the PAUSE turn/, doc: /A player whose final turn is a PAUSE turn spends it on the PAUSE/ },
  ],
};

/** The glossary's terms against the page, by the same rule. */
const TERMS: Record<string, { passages: string[]; facts: Fact[] }> = {
  PAUSE: {
    passages: ['**A PAUSE turn**', '**Leaving a row**'],
    facts: [
      { says: 'a PAUSE turn flips the coaster back and draws up', help: /only flip it back and draw up/, doc: /turning it over and drawing up to their hand size, nothing else/ },
      { says: 'no aiming at a paused player', help: /cannot be aimed at while paused/, doc: /While paused a player cannot be aimed at/ },
    ],
  },
  Abstinence: {
    passages: ['**Abstinence**: a player'],
    facts: [
      { says: 'what avoids it: any beer, shot or Flattery', help: /nothing alcoholic in front of you \(no beer, shot or Flattery; a lone beer avoids it\)/, doc: /no beer, small beer, shot \(own, given or poured\) or Flattery to drink at digestion abstains, even a single beer/ },
      { says: 'the points lost', help: new RegExp(`lose ${R.abstinence.pointLoss[0]} point the first .* ${R.abstinence.pointLoss[1]} points the second`), doc: new RegExp(`lose ${R.abstinence.pointLoss[0]} point and take .* on the second, ${R.abstinence.pointLoss[1]} points`) },
      { says: 'the move back', help: new RegExp(`move ${R.abstinence.moveBack} space back \\(\\+${R.abstinence.moveBackPerNonAlcoholic} per non-alcoholic order\\)`), doc: new RegExp(`moves ${R.abstinence.moveBack} space back .* plus ${R.abstinence.moveBackPerNonAlcoholic} per non-alcoholic order`) },
    ],
  },
};

/** The card table of docs/rules.md: count and cost cell by card id. */
function cardTable(doc: string): Map<string, { count: number; cost: string }> {
  const rows = new Map<string, { count: number; cost: string }>();
  for (const m of doc.matchAll(/^\| `(\w+)`[^\n]*\| (\d+) \| ([^|\n]+) \|$/gm)) rows.set(m[1], { count: Number(m[2]), cost: m[3].trim() });
  return rows;
}

/** Every way `help` and `doc` disagree on a card's count, cost or facts, or on a glossary term, in words. */
function disagreements(help: Record<Id, string>, doc: string): string[] {
  const out: string[] = [];
  const table = cardTable(doc);
  for (const id of CARD_IDS) {
    const row = table.get(id);
    const t = CARD_IDS.indexOf(id);
    const { count, cost } = R.cards[id];
    if (!row) {
      out.push(`${id}: no row in the card table`);
      continue;
    }
    if (row.count !== count) out.push(`${id}: the card table says ${row.count} cards, the ruleset ${count}`);
    const docCost = isXCard(t) ? '0' : id === 'shot_into_beer' ? `${cost} (0 as an X card)` : String(cost);
    if (row.cost !== docCost) out.push(`${id}: the card table's cost is "${row.cost}", the ruleset's "${docCost}"`);
    if (isXCard(t) !== /^X card/.test(help[id])) out.push(`${id}: the help ${isXCard(t) ? 'does not call' : 'calls'} it an X card`);
  }
  const check = (who: string, facts: Fact[], helpText: string, passages: string[]) => {
    const texts = passages.map((p) => passage(doc, p));
    for (const f of facts) {
      if (!f.help.test(flat(helpText))) out.push(`${who}: its help does not say ${f.says} (${f.help})`);
      if (!texts.some((text) => f.doc.test(text))) out.push(`${who}: docs/rules.md does not say ${f.says} (${f.doc})`);
    }
  };
  for (const id of [...CARD_IDS, 'closing_time' as const]) check(id, FACTS[id], help[id], PASSAGES[id]);
  const terms = glossary(R);
  for (const [term, { passages, facts }] of Object.entries(TERMS)) {
    const text = terms.find((g) => g.term === term)?.text;
    if (text === undefined) out.push(`glossary: no term ${term}`);
    else check(`glossary ${term}`, facts, text, passages);
  }
  return out;
}

describe("a card's help and docs/rules.md", () => {
  const help = cardTexts(R);

  it('agree on every card: count, cost, key numbers and key phrases (and the glossary on PAUSE and abstinence)', () => {
    expect(Object.keys(FACTS).sort()).toEqual([...CARD_IDS, 'closing_time'].sort());
    for (const [id, facts] of Object.entries(FACTS)) expect(facts.length, id).toBeGreaterThan(1);
    expect(disagreements(help, RULES)).toEqual([]);
  });

  it("work the beer table's rule for beers beyond it as the engine does (the help states the rule)", () => {
    // "4 regular beers give 7 points and 4 drunkenness, ..., 5 with a small one 7 and 3".
    const text = passage(RULES, 'Each beer beyond 3');
    const examples = [...text.matchAll(/(\d+) (regular beers|with a small one) (?:give )?(\d+)(?: points)? and (\d+)/g)];
    expect(examples.length).toBeGreaterThanOrEqual(4);
    for (const [said, beers, kind, points, drunkenness] of examples) {
      expect({ points: Number(points), drunkenness: Number(drunkenness) }, said).toEqual(beerScore(R, Number(beers), kind !== 'regular beers'));
    }
  });

  it('tell a drifted text from a good one, in the help and in the page', () => {
    // The help's old wording of I'll get the same, and a page with a wrong loss and count.
    const drifted = { ...help, same: help.same.replace('the orders they played and still have in front', 'the orders they have in front then') };
    expect(disagreements(drifted, RULES)).toEqual([expect.stringMatching(/^same: its help does not say only the orders the target played are copied/)]);
    const page = RULES.replace('beer and lose 2 points', 'beer and lose 4 points').replace('| order: beer | 27 | 0 |', '| order: beer | 26 | 0 |');
    const found = disagreements(help, page);
    expect(found).toContain('beer: the card table says 26 cards, the ruleset 27');
    expect(found.filter((d) => /a beer and the points it costs/.test(d))).toHaveLength(2);
  });
});
