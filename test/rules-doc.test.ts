/**
 * docs/rules.md covers the ruleset it describes: every card id (a new card without its rule
 * fails here), and every field of the standard ruleset by its path (`limits.beers`,
 * `roll.failStep`, …), so an assumed number points at the field an owner of the game corrects.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CARD_IDS } from '../env/cards.ts';
import { DEFAULT_RULESET } from '../env/ruleset.ts';

const RULES = fs.readFileSync(new URL('../docs/rules.md', import.meta.url), 'utf8');

/**
 * The paths of a ruleset's fields, each object's keys below it; the cards are named by id and
 * their fields as `cards.<id>.<field>`, the closing-time placements by `closingTime`.
 */
function fieldPaths(o: object, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) => {
    const p = prefix + k;
    if (p === 'name' || p === 'version') return [];
    if (p === 'cards') return ['cards.<id>.count', 'cards.<id>.cost'];
    if (p === 'closingTime' || Array.isArray(v) || typeof v !== 'object') return [p];
    return fieldPaths(v, `${p}.`);
  });
}

describe('docs/rules.md', () => {
  it('names every card by its id', () => {
    const missing = [...CARD_IDS, 'closing_time'].filter((id) => !RULES.includes(`\`${id}\``));
    expect(missing).toEqual([]);
  });

  it('names every field of the standard ruleset by its path', () => {
    const paths = fieldPaths(DEFAULT_RULESET);
    expect(paths).toEqual(expect.arrayContaining(['limits.beers', 'roll.failStep', 'beerTable.perExtraBeer.points', 'closingTime']));
    expect(paths.filter((p) => !RULES.includes(p))).toEqual([]);
  });
});
