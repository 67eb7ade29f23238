import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ResultsSchema, RESULTS_SCHEMA_FILE, resultsSchemaText } from './results-schema.ts';
import { runTournament } from './tournament.ts';

describe('results.json schema', () => {
  it('is published as docs/results.schema.json exactly as the zod schema makes it (npm run docs:schema)', () => {
    expect(fs.readFileSync(RESULTS_SCHEMA_FILE, 'utf8')).toBe(resultsSchemaText());
  });

  it("describes a run's results, and refuses a field it does not know", async () => {
    const r = JSON.parse(JSON.stringify(await runTournament({ agents: ['random', 'greedy', 'random'], games: 6, seed: 'schema', workers: 0 })));
    expect(ResultsSchema.safeParse(r).success).toBe(true);
    expect(ResultsSchema.safeParse({ ...r, extra: 1 }).success).toBe(false);
    expect(ResultsSchema.safeParse({ ...r, format: 'czech-pub-tournament/1' }).success).toBe(false);
  });
});
