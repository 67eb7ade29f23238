/**
 * The schema of a tournament's results.json (tournament and llm-bench `--out`), as zod: every
 * results.json is checked against it as it is written (writeReports), so no run can write one
 * the schema does not describe, and docs/results.schema.json, its JSON Schema, is made from it
 * (`npm run docs:schema`; a test fails when the file differs). A change of shape changes
 * RESULTS_FORMAT's version.
 */
import { z } from 'zod';
import { CALL_FAULT_KINDS } from '../agents/index.ts';
import { END_REASONS, RulesetSchema } from '../env/index.ts';

/** A figure; null where it is not defined (a mean of no games: JSON has no NaN). */
const num = z.number().nullable();
const int = z.number().int();
const interval = z.tuple([num, num]);

const AgentSummarySchema = z.strictObject({
  spec: z.string().describe('the agent as the tables name it (its label)'),
  seats: int.describe('seats it fills in each game'),
  games: int, wins: num.describe('shared wins count fractionally'), winRate: num, winRateCI: interval.describe('95% Student-t interval over per-deal means'),
  meanScore: num, scoreCI: interval, meanRank: num,
  rating: num.describe('openskill Plackett-Luce mu'), ratingSigma: num, ratingOrdinal: num.describe('mu - 3 sigma'),
  wastedRate: num, thrownOutRate: num, decisions: int, msPerDecision: num,
});

const ProvenanceSchema = z.strictObject({
  host: z.string().describe("the model server's host and port; no path or credentials"),
  servedModels: z.array(z.string()).describe("model ids the server's answers named"),
  settings: z.record(z.string(), z.unknown()).describe('the request settings as last sent, after any adaptation'),
  rulesHash: z.string().describe('hash of the rules text the model was told'),
  promptHash: z.string().describe("hash of a fixed position's decision prompt: the template"),
  sdk: z.string().describe('the client library and its version'),
});

const UsageSchema = z.strictObject({
  spec: z.string(), decisions: int, requests: int, unfinishedRequests: int.describe('of the requests, those of games dropped unfinished at a stop'), invalidAnswers: int, invalidRate: num, plainTextAnswers: int,
  faultRetries: int, fallbacks: int, fallbackRate: num,
  faultFallbacks: int.describe('of the fallbacks, those the server caused'),
  adaptations: z.array(z.string()).describe('what was changed to be answered'),
  provenance: ProvenanceSchema.nullable(),
  byKind: z.record(z.string(), z.strictObject({ decisions: int, firstTry: int, corrected: int, fallbacks: int, truncations: int, firstTryRate: num }))
    .describe('by kind of decision: play (own turn), discard, reaction, response'),
  // Optional: results.json files written before it was added lack it.
  faults: z.partialRecord(z.enum(CALL_FAULT_KINDS), int).optional().describe("failed requests by the kind of fault: the server's, never charged to the model"),
  costPerGame: num, costPerDecision: num, costPerWin: num,
  // Optional: results.json files written before these were added lack them.
  costSource: z.enum(['provider', 'prices']).nullable().optional().describe("what costPerGame, costPerDecision and costPerWin are from: the server's reported cost (every answer had one) or the price table"),
  cachedTokens: int.optional().describe("of the prompt tokens, those read from the server's prompt cache"),
  providerCost: num.optional().describe('the cost the server reported (usage.cost), summed; null when no answer reported one'),
  truncations: int.describe('answers cut off before they were whole; never read as moves'),
  // Optional: results.json files written before these were added lack them.
  usageReports: int.optional().describe('replies that reported their usage: the token counts are theirs'),
  usageMissing: int.optional().describe('answers whose usage the server did not report: not in the token counts ("not reported", never 0)'),
  refusals: int.optional().describe('answers refused by the model or held back by a filter; never read as moves'),
  replies: z.record(z.string(), int).optional().describe("every reply by its class: answer, truncated, filtered, fault:<kind> (rate-limit, quota, overloaded, too-large, ...), unknown"),
  latencyMedianMs: num, latencyP95Ms: num, promptTokens: int, completionTokens: int, reasoningTokens: int,
  requestsPerGame: num, estimatedCost: num.nullable(), invalid: z.boolean().describe('more fallbacks than maxFallbackRate: the results measure the fallback'),
});

export const ResultsSchema = z.strictObject({
  format: z.literal('czech-pub-tournament/2'),
  harness: z.strictObject({ package: z.string().describe("this package's name and version"), node: z.string() }),
  env: z.strictObject({
    engineVersion: int, actionSpaceVersion: int, observationVersion: int, numActions: int, observationSize: int, maxPlayers: int,
    ruleset: z.strictObject({ name: z.string(), fingerprint: z.string() }),
  }),
  config: z.strictObject({
    agents: z.array(z.string()).describe('the agent specs, one per seat of the schedule, to play the run again'),
    players: int, games: int, seed: z.string(), duplicate: z.boolean(), askForced: z.boolean(), maxDecisions: int, workers: int,
    ruleset: RulesetSchema,
  }),
  labels: z.array(z.string()),
  gamesScheduled: int, gamesPlayed: int,
  complete: z.boolean().describe('false when the run was stopped: the figures are of the finished games'),
  stoppedBy: z.string().optional(),
  stop: z.strictObject({
    entry: int, kind: z.enum(CALL_FAULT_KINDS),
    budget: z.strictObject({ entry: z.string(), scope: z.enum(['game', 'tournament', 'client-minute', 'cost']), limit: num }).optional(),
  }).optional(),
  elapsedSec: num, gamesPerSec: num, startedAt: z.string(), finishedAt: z.string(),
  summary: z.strictObject({
    agents: z.array(AgentSummarySchema),
    headToHead: z.record(z.string(), z.record(z.string(), num)),
    games: int, deals: int.describe('the sample size of the intervals'), meanTurns: num, meanDecisions: num, truncatedGames: int,
    endings: z.partialRecord(z.enum(END_REASONS), int).describe('how many games ended each way: at closing time, with one player left, with everyone out, at the decision cap'),
  }),
  highlights: z.array(z.strictObject({ kind: z.enum(['upset', 'longest', 'closest']), index: int, why: z.string(), link: z.string() })),
  usage: z.array(UsageSchema),
  maxFallbackRate: num,
});

/** The JSON Schema of results.json (docs/results.schema.json). */
export function resultsJsonSchema(): Record<string, unknown> {
  return { title: "czech-pub's results.json", ...(z.toJSONSchema(ResultsSchema, { io: 'input' }) as Record<string, unknown>) };
}

/** docs/results.schema.json, where the docs publish the schema. */
export const RESULTS_SCHEMA_FILE = new URL('../docs/results.schema.json', import.meta.url);

/** The file's text as resultsJsonSchema makes it. */
export const resultsSchemaText = () => `${JSON.stringify(resultsJsonSchema(), null, 2)}\n`;

// Run as a script (npm run docs:schema), not when imported. Its own name is checked as well as the
// program's: in the single-file engine every module's URL is the bundle's, which is the program.
if (import.meta.url.endsWith('/results-schema.ts') && process.argv[1]?.endsWith('results-schema.ts')) {
  const { writeFileSync } = await import('node:fs');
  writeFileSync(RESULTS_SCHEMA_FILE, resultsSchemaText());
  console.log('docs/results.schema.json written');
}
