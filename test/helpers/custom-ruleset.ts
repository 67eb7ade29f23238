/**
 * A ruleset unlike the default one, within what the encoder holds (at most 4 chart levels and
 * 4 titles): fewer beers, a three-level chart with other spaces and hand sizes, 2-5 players.
 * Written to a temporary file for `--ruleset FILE`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_RULESET, parseRuleset, type Ruleset } from '../../env/ruleset.ts';

export function customRuleset(): Ruleset {
  const r = structuredClone(DEFAULT_RULESET);
  return parseRuleset({
    ...r,
    name: 'short-pub',
    players: { min: 2, max: 5 },
    cards: { ...r.cards, beer: { ...r.cards.beer, count: 21 } },
    chart: [
      { spaces: [-1, 0, 1, 2], handSize: 6 },
      { spaces: [1, 2, 3], handSize: 5 },
      { spaces: [3, 4], handSize: 4 },
    ],
  });
}

/** Writes `content` (default: the custom ruleset as JSON) to a fresh temporary folder; returns the file. */
export function writeRulesetFile(content: string = JSON.stringify(customRuleset(), null, 2), name = 'rules.json'): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-ruleset-')), name);
  fs.writeFileSync(file, content);
  return file;
}
