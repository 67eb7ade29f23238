/**
 * `czech-pub llm-bench`: a language model against opponents in a duplicate tournament, with
 * the model-usage report (decisions sent, invalid answers, retries, fallbacks, latency,
 * tokens, estimated cost). Games run in this thread, several at once, so requests overlap up
 * to the concurrency limit.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  ASSUMED_ANSWER_TOKENS, ASSUMED_CALL_SECONDS, assertResumable, beginRunFolder, GAMES_FILE, jsonSummary, leaderboardMarkdown, measurePrompts, resolveConfig, roundedGames, RUN_FILE, runTournament, TRANSCRIPT_FILE, type Price,
} from '../eval/index.ts';
import {
  BudgetSpentError, costCells, LLM_DEFAULTS, costSpent, createAgent, Gate, readLedger, tokenCost, LlmAgent, LlmServerError, onLlmFault, type GateSpec,
} from '../agents/index.ts';
import { EXIT_FAILURE, EXIT_OK, UsageError, type Io } from './io.ts';
import { helpText, parseOptions, PLAYERS_MAX, PLAYERS_MIN, type CommandSpec } from './options.ts';
import { interrupted, onStopSignals } from './stop-signals.ts';
import { asUsageError, lockRunFolder } from './tournament.ts';

export const LLM_BENCH = {
  name: 'llm-bench',
  synopsis: '--model M[,M2,...] [options]',
  description: `Plays each model (llm:M) in a seat of its own against opponents in the others, seats rotated
and deals duplicated (so several models meet the same deals), and reports win rates, ratings
and what each cost.`,
  options: {
    model: { type: 'list', arg: 'M[,M2...]', required: true, help: 'model names as the server knows them; one seat each' },
    'base-url': { type: 'list', arg: 'U[,U2...]', defaultText: '$OPENAI_BASE_URL, else OpenAI', help: "OpenAI-compatible server: one for every model, or one per model in --model's order" },
    'api-key-env': { type: 'list', arg: 'V[,V2...]', defaultText: 'OPENAI_API_KEY', help: "environment variable holding the API key: one for every model, or one per model" },
    opponents: { type: 'string', arg: 'A', default: 'heuristic', help: 'agent spec for the other seats' },
    players: { type: 'int', arg: 'N', min: PLAYERS_MIN, max: PLAYERS_MAX, defaultText: 'the number of models, at least 4', help: 'players' },
    games: { type: 'int', arg: 'G', min: 1, max: 1_000_000, default: 40, help: 'games, rounded up to whole rotations' },
    seed: { type: 'string', arg: 'S', default: '1', help: 'tournament seed' },
    concurrency: { type: 'int', arg: 'C', min: 1, max: 256, default: 4, help: 'requests in flight at once, and games played at once' },
    rpm: { type: 'ints', arg: 'N[,N2...]', min: 0, max: 1_000_000, defaultText: '0, no limit', help: "request starts a minute, paced here (a free model's rate limit): one for every model, or one per model" },
    'no-structured': { type: 'flag', help: 'ask for plain text instead of a JSON schema (for servers without it)' },
    'max-tokens': { type: 'int', arg: 'T', min: 1, max: 1_000_000, defaultText: "4000, the agent's", help: 'tokens an answer may take, reasoning included; raise it when answers are cut off' },
    'timeout-ms': { type: 'int', arg: 'MS', min: 1, max: 3_600_000, defaultText: "60000, the agent's", help: 'time for a whole answer, the preflight\'s too (a model still loading answers late)' },
    'reasoning-effort': { type: 'choice', choices: ['low', 'medium', 'high'], help: 'sent as reasoning_effort, for reasoning models' },
    temperature: { type: 'number', arg: 'X', min: 0, max: 2, defaultText: "0, the agent's", help: 'sampling temperature (a server that refuses one plays at its default, and says so)' },
    'max-retries': { type: 'int', arg: 'R', min: 0, max: 100, defaultText: "4, the agent's", help: 'retries of a failed request (timeout, connection, 5xx) before the decision falls back; a 429 is waited out, up to the agent\'s maxWaitMs' },
    'backoff-ms': { type: 'int', arg: 'MS', min: 1, max: 600_000, defaultText: "500, the agent's", help: 'the first wait before retrying a fault, doubled at each retry (a Retry-After overrides it)' },
    prices: { type: 'file', help: 'JSON {"<model or spec>": {"promptPerMillion": 0.15, "completionPerMillion": 0.6}}' },
    'max-cost': {
      type: 'number', arg: 'USD', min: 0, max: 1_000_000, above: true,
      help: "stop the run before its spend could pass USD dollars: before each call (the preflight's too) its worst case (its prompt and --max-tokens at the model's price) is reserved, a call that would pass USD is not sent, and the run stops as at Ctrl-C (needs a price in --prices for every model; the spend is read from the run's ledger, transcript.jsonl, so with --resume the earlier part's counts)",
    },
    transcript: { type: 'string', arg: 'FILE', help: 'without --out: append a line for every request and fallback to FILE (JSONL; docs/llm.md)' },
    out: { type: 'folder', help: 'write run.json, games.jsonl, results.json, leaderboard.md, report.html and transcript.jsonl (the ledger of every call) here (added to on --resume)' },
    resume: { type: 'flag', help: 'go on with the run in --out: its finished games are kept, the rest of its schedule played (give the same options)' },
    ruleset: { type: 'ruleset', help: "play under this ruleset: micro, standard, or a JSON file (the model's rules summary describes it)" },
    'allow-fallbacks': { type: 'flag', help: "exit 0 even when more than 5% of a model's decisions fell back (still marked INVALID)" },
    json: { type: 'flag', help: 'print the summary as JSON' },
    'dry-run': {
      type: 'flag',
      help: "send nothing: a stand-in plays the model's seat and the prompts it would be sent are measured (tokens exact for OpenAI's models, else characters/4), with the cost from --prices",
    },
    'stand-in': { type: 'string', arg: 'A', default: 'heuristic', help: "the agent that plays the model's seat in a dry run" },
  },
} as const satisfies CommandSpec;

function readPrices(file: string): Record<string, Price> {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`--prices: cannot read ${file} as JSON (${(e as Error).message.split('\n')[0]})`);
  }
  if (!raw || typeof raw !== 'object') throw new UsageError(`--prices: ${file} must hold an object of model → prices`);
  for (const [k, v] of Object.entries(raw)) {
    const p = v as Partial<Price>;
    if (!(Number(p?.promptPerMillion) >= 0) || !(Number(p?.completionPerMillion) >= 0)) {
      throw new UsageError(`--prices: '${k}' needs promptPerMillion and completionPerMillion (US dollars per million tokens)`);
    }
  }
  return raw as Record<string, Price>;
}

export async function llmBenchCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseOptions(LLM_BENCH, args);
  if (!parsed) {
    io.out(helpText(LLM_BENCH));
    return EXIT_OK;
  }
  const values = parsed.values;
  const models = values.model;
  if (new Set(models).size !== models.length) throw new UsageError(`--model: a model is named twice in '${models.join(',')}'`);
  const players = values.players ?? Math.min(parsed.ruleset.players.max, Math.max(4, models.length));
  if (models.length > players) throw new UsageError(`--model: ${models.length} models for ${players} seats; give --players ${models.length} or more`);
  const { games, concurrency, seed, out } = values;
  if (values.resume && out === undefined) throw new UsageError('--resume goes on with the run in --out DIR: give --out');
  const opponent = values.opponents;
  const ruleset = parsed.ruleset;
  /** A per-model option's value for model i: one value for all, or one per model. */
  const perModel = <T>(name: string, given: readonly T[] | undefined) => {
    if (given !== undefined && given.length !== 1 && given.length !== models.length) {
      throw new UsageError(`--${name}: give one value for every model or one per model (${models.length}), got ${given.length}`);
    }
    return (i: number) => (given === undefined ? undefined : given[given.length === 1 ? 0 : i]);
  };
  const baseUrlOf = perModel('base-url', values.baseUrl);
  const keyEnvOf = perModel('api-key-env', values.apiKeyEnv);
  const rpmOf = perModel('rpm', values.rpm);
  // With --out, the run keeps its transcript beside its games: the ledger of its calls, and what the pages show the model said.
  if (values.transcript !== undefined && out !== undefined) {
    throw new UsageError(`--transcript: a run with --out keeps its transcript, the ledger of its calls, in ${path.join(out, TRANSCRIPT_FILE)}; give --transcript only without --out`);
  }
  const ownTranscript = out !== undefined;
  const transcript = ownTranscript ? path.join(out, TRANSCRIPT_FILE) : values.transcript;
  const opts = [
    `concurrency=${concurrency}`,
    values.noStructured ? 'structured=false' : '',
    values.maxRetries !== undefined ? `maxRetries=${values.maxRetries}` : '',
    values.backoffMs !== undefined ? `backoffMs=${values.backoffMs}` : '',
    values.maxTokens !== undefined ? `maxTokens=${values.maxTokens}` : '',
    values.timeoutMs !== undefined ? `timeoutMs=${values.timeoutMs}` : '',
    values.reasoningEffort !== undefined ? `reasoningEffort=${values.reasoningEffort}` : '',
    values.temperature !== undefined ? `temperature=${values.temperature}` : '',
  ].filter(Boolean);
  const specs = models.map((m, i) => {
    const own = [
      baseUrlOf(i) !== undefined ? `baseUrl=${baseUrlOf(i)}` : '',
      keyEnvOf(i) !== undefined ? `apiKeyEnv=${keyEnvOf(i)}` : '',
      rpmOf(i) !== undefined ? `rpm=${rpmOf(i)}` : '',
    ].filter(Boolean);
    return `llm:${m}:${[...own, ...opts].join(':')}`;
  });
  // Tables name a model by what it is, not by where its server or transcript is.
  const labels = [...models.map((m) => `llm:${m}`), ...Array.from({ length: players - models.length }, () => opponent)];
  const agents = [...specs, ...Array.from({ length: players - models.length }, () => opponent)];
  const labelOf = new Map(specs.map((spec, i) => [spec, labels[i]]));
  // Everything a run checks is checked first, dry run included.
  const prices = values.prices !== undefined ? readPrices(values.prices) : undefined;
  const priceOf = (m: string) => prices?.[`llm:${m}`] ?? prices?.[m];
  const maxCost = values.maxCost;
  if (maxCost !== undefined) {
    const unpriced = models.filter((m) => priceOf(m) === undefined);
    if (unpriced.length > 0) throw new UsageError(`--max-cost needs a price in --prices for every model, to know what a call costs: none for ${unpriced.map((m) => `'${m}'`).join(', ')}`);
  }
  try {
    resolveConfig({ agents, players, games, seed, labels, ruleset });
    if (values.dryRun) resolveConfig({ agents: [values.standIn, ...agents.slice(1)], players, games, seed, ruleset });
  } catch (e) {
    throw asUsageError(e);
  }
  if (values.dryRun) {
    // The games the run will play (whole rotations), each model's prompts counted by its own tokenizer.
    const scheduled = roundedGames(games, players);
    const measured = await Promise.all(models.map((m) => measurePrompts(values.standIn, opponent, players, scheduled, seed, m, ruleset, !values.noStructured)));
    const maxTokens = values.maxTokens ?? LLM_DEFAULTS.maxTokens;
    const r = measured[0];
    // Per model: each plays every game of the run in its own seat.
    const costs = models.map((m, i) => {
      const t = measured[i];
      const price = priceOf(m);
      const perGame = price ? tokenCost(t.promptTokensPerGame, t.completionTokensPerGame, price) : null;
      // At worst: every prompt at its bound and every answer at --max-tokens, as a reasoning model may take; what a budget reserves.
      const worstPerGame = price ? tokenCost(t.boundPromptTokensPerGame, t.callsPerGame * maxTokens, price) : null;
      return {
        model: m, tokenizer: t.tokenizer, promptTokensPerGame: t.promptTokensPerGame, costPerGame: perGame, costPerRun: perGame === null ? null : perGame * scheduled,
        worstCostPerGame: worstPerGame, worstCostPerRun: worstPerGame === null ? null : worstPerGame * scheduled,
      };
    });
    // Wall time: the games run --concurrency at once, each model's calls one after another within a game.
    const callsPerGame = measured.reduce((n, t) => n + t.callsPerGame, 0);
    const rounds = Math.ceil(scheduled / Math.min(concurrency, scheduled));
    const wallSeconds = rounds * callsPerGame * ASSUMED_CALL_SECONDS;
    const wallSecondsAtMost = rounds * callsPerGame * ((values.timeoutMs ?? LLM_DEFAULTS.timeoutMs) / 1000);
    // With a budget: how many of the run's games it pays for, at the estimate.
    const perGameAll = costs.reduce((sum, c) => sum + (c.costPerGame ?? 0), 0);
    const fits = maxCost === undefined ? null : perGameAll > 0 ? Math.min(scheduled, Math.floor(maxCost / perGameAll)) : scheduled;
    if (values.json) io.out(JSON.stringify({ ...r, costs, maxTokens, wallSeconds, wallSecondsAtMost, assumedCallSeconds: ASSUMED_CALL_SECONDS, ...(fits !== null ? { maxCost, gamesWithinMaxCost: fits } : {}) }));
    else {
      io.out(`Dry run: ${r.games} ${players}-player games, '${r.standIn}' in the model's seat against '${opponent}'.`);
      io.out(`Model calls per game (decisions with a real choice): ${r.callsPerGame.toFixed(1)}`);
      io.out(`System prompt: ${r.systemChars} characters, ${r.systemTokens} tokens (sent with every call).`);
      io.out(`Decision prompt: median ${r.decisionCharsMedian} characters, 95th percentile ${r.decisionCharsP95}, mean ${r.decisionCharsMean.toFixed(0)}.`);
      io.out(`Characters sent per game: about ${Math.round(r.callsPerGame * (r.systemChars + r.decisionCharsMean))}.`);
      io.out(`Tokens per game: about ${Math.round(r.promptTokensPerGame)} in (${r.tokenizer}) and ${Math.round(r.completionTokensPerGame)} out (${ASSUMED_ANSWER_TOKENS} a call assumed; a reasoning model adds its thinking).`);
      io.out(`As one conversation per game (conversation=true: the rules once, the game so far with every call): about ${Math.round(r.conversationPromptTokensPerGame)} in.`);
      for (const c of costs) {
        io.out(c.costPerGame === null
          ? `llm:${c.model}: no price in --prices, so no cost estimate.`
          : `llm:${c.model}: about ${Math.round(c.promptTokensPerGame)} tokens in a game (${c.tokenizer}), $${c.costPerGame.toFixed(4)} a game, $${c.costPerRun!.toFixed(2)} for the ${scheduled} games of this run; ` +
            `at most $${c.worstCostPerGame!.toFixed(4)} a game, $${c.worstCostPerRun!.toFixed(2)} for the run, if every answer took all --max-tokens (${maxTokens}) as a reasoning model may (what --max-cost reserves for each call).`);
      }
      const hours = (sec: number) => (sec < 3600 ? `${Math.round(sec / 60)} min` : `${(sec / 3600).toFixed(1)} h`);
      io.out(`Wall time: ${callsPerGame.toFixed(1)} model calls a game, ${Math.min(concurrency, scheduled)} games at once (--concurrency): about ${hours(wallSeconds)} at ${ASSUMED_CALL_SECONDS} s a call (assumed; before corrections and retries), at most ${hours(wallSecondsAtMost)} if every call took --timeout-ms.`);
      if (fits !== null) {
        io.out(fits >= scheduled
          ? `--max-cost $${maxCost}: the estimate of all ${scheduled} games ($${(perGameAll * scheduled).toFixed(2)}) is within it.`
          : `--max-cost $${maxCost}: at the estimate, about ${fits} of the ${scheduled} games fit; the run stops before its spend would pass it.`);
        const worstAll = costs.reduce((sum, c) => sum + (c.worstCostPerGame ?? 0), 0);
        if (worstAll > 0) io.out(`--max-cost $${maxCost}: if every answer took all --max-tokens, ${Math.min(scheduled, Math.floor(maxCost! / worstAll))} games; each call is sent only when its worst case fits in what is left.`);
      }
    }
    return EXIT_OK;
  }
  // One writer per folder: a second run on it is refused, naming the first, before it sends or writes anything.
  const lock = out === undefined ? undefined : lockRunFolder(out, 'llm-bench', io);
  if (lock === null) return EXIT_FAILURE;
  // Ctrl-C, SIGTERM or SIGHUP, from the lock on: the games finished so far are written with
  // every report, marked incomplete; --resume goes on. Before the first game, the run stops there.
  const controller = new AbortController();
  const stopListening = onStopSignals((signal) => {
    io.err(`${interrupted(signal)}: finishing with the games played so far (--resume goes on with the run).`);
    controller.abort();
  });
  // Faults as they happen (the preflight's and what it adapted to included): the first of each kind in full, then a count at the end.
  const faults = new Map<string, number>();
  onLlmFault((spec, fault) => {
    const kind = `${labelOf.get(spec) ?? 'llm'}: ${fault}`;
    const n = (faults.get(kind) ?? 0) + 1;
    faults.set(kind, n);
    if (n === 1) io.err(`model fault (${kind}); further faults of this kind are counted`);
  });
  try {
    // A folder --resume cannot go on with is refused before anything is sent.
    if (values.resume) assertResumable({ agents, labels, players, games, seed, ruleset, prices, workers: 0, out: out!, kind: 'llm-bench' });
    // What the run spent before, read from its ledger (the transcript), counts against its budget.
    const spentEarlier = maxCost !== undefined && values.resume && transcript !== undefined ? ledgerSpend(transcript, specs, (i) => priceOf(models[i])!) : 0;
    // The budget: one set of cells for the whole run, each model's gate pricing its own calls at their worst case.
    let budget: BigInt64Array | null = null;
    let gates: (GateSpec | null)[] | undefined;
    if (maxCost !== undefined) {
      budget = costCells(spentEarlier);
      gates = agents.map((_, i) => (i < models.length ? { entry: labels[i], cost: { limitUsd: maxCost, cells: budget!, price: priceOf(models[i])! } } : null));
    }
    // A run begun anew begins its folder (run.json, games.jsonl) and its transcript anew; --resume
    // adds to them. Before the preflight: its requests are the run's too, each in the ledger
    // before it is sent, and a kill during it leaves a folder --resume goes on with.
    const fresh = ownTranscript && !values.resume;
    if (fresh) beginRunFolder({ agents, labels, players, games, seed, ruleset, prices, workers: 0, out: out!, kind: 'llm-bench' });
    if (transcript !== undefined) {
      fs.mkdirSync(path.dirname(transcript), { recursive: true });
      if (fresh) fs.writeFileSync(transcript, '');
    }
    // Before any game: each server's own refusal, at once.
    for (const [i, spec] of specs.entries()) {
      const agent = createAgent(spec) as LlmAgent;
      if (transcript !== undefined) agent.useTranscript(transcript);
      if (gates?.[i]) agent.useGate(new Gate(gates[i]!));
      try {
        await agent.preflight();
      } catch (e) {
        // A run that never began, and whose requests cost nothing, leaves nothing behind.
        if (fresh && readLedgerSpendless(transcript!)) for (const f of [transcript!, path.join(out!, RUN_FILE), path.join(out!, GAMES_FILE)]) fs.rmSync(f, { force: true });
        if (e instanceof BudgetSpentError) {
          io.err(`llm-bench: ${e.message}: the budget left ($${(maxCost! - costSpent(budget!)).toFixed(4)}) does not cover one call at its worst case (its prompt and --max-tokens at the model's prices). Nothing was played; raise --max-cost or lower --max-tokens.`);
          return EXIT_FAILURE;
        }
        if (!(e instanceof LlmServerError)) throw e;
        io.err(`llm-bench: ${e.message}`);
        io.err(`Nothing was played. ${e.advice}`);
        return EXIT_FAILURE;
      }
      if (controller.signal.aborted) {
        io.err('llm-bench: stopped before the first game; the preflight\'s requests are in the ledger.');
        return EXIT_FAILURE;
      }
    }
    const r = await runTournament({
      agents, labels, players, games, seed, workers: 0, parallel: concurrency, prices, kind: 'llm-bench',
      ruleset, out, lock, resume: values.resume, signal: controller.signal, gates,
      // The transcript is the models' own, not part of their specs: a run's specs are the same wherever it writes.
      transcripts: transcript === undefined ? undefined : agents.map((_, i) => (i < models.length ? transcript : null)),
      onGame: (done, total) => {
        if (!values.json && (done === total || done % Math.max(1, Math.floor(total / 10)) === 0)) io.err(`${done}/${total} games`);
      },
    });
    if (values.json) io.out(JSON.stringify(jsonSummary(r)));
    else io.out(leaderboardMarkdown(r, 'llm-bench'));
    for (const [kind, n] of faults) io.err(`model faults: ${n} × ${kind}`);
    if (controller.signal.aborted && r.complete) io.err('llm-bench: the games in play were the last: the run is complete, nothing is left to --resume.');
    if (r.stoppedBy !== undefined) io.err(`llm-bench: stopped after ${r.gamesPlayed} of ${r.gamesScheduled} games: ${r.stoppedBy}. The results above are of the finished games only (incomplete).`);
    if (budget !== null) {
      const more = r.stop?.budget?.scope === 'cost' ? '; raise --max-cost and --resume to play the rest' : '';
      io.err(`llm-bench: spent $${costSpent(budget).toFixed(4)} of --max-cost $${maxCost}${values.resume ? ' (the earlier part of the run included)' : ''}${more}.`);
    }
    for (const u of r.usage.filter((x) => x.truncations > 0)) {
      io.err(`llm-bench: ${u.spec}: ${u.truncations} answers were cut off before they were whole (at the token limit, or inside their reasoning or JSON) and none was read as a move; the model spent its tokens before answering: raise maxTokens (${u.spec}:maxTokens=...)`);
    }
    const invalid = r.usage.filter((u) => u.invalid);
    for (const u of invalid) {
      const cause = u.faultFallbacks > 0 ? `, ${u.faultFallbacks} of ${u.fallbacks} because the server kept failing, not because of the model's answers` : '';
      io.err(`llm-bench: ${u.spec} is INVALID: ${(100 * u.fallbackRate).toFixed(1)}% of its decisions fell back (more than ${(100 * r.maxFallbackRate).toFixed(0)}%${cause})${values.allowFallbacks ? '; exit 0 as --allow-fallbacks asks' : '; --allow-fallbacks to exit 0 anyway'}`);
    }
    return r.complete && (invalid.length === 0 || values.allowFallbacks === true) ? EXIT_OK : EXIT_FAILURE;
  } catch (e) {
    throw asUsageError(e);
  } finally {
    onLlmFault(null);
    stopListening();
    lock?.release();
  }
}

/** Whether a ledger holds only requests that cost nothing (refused by their status before any work). */
function readLedgerSpendless(file: string): boolean {
  if (!fs.existsSync(file)) return true;
  const free = { promptPerMillion: 1, completionPerMillion: 1 };
  return [...readLedger(fs.readFileSync(file, 'utf8')).values()].every((t) => t.spend(free) === 0);
}

/**
 * What a run spent so far on its models, read from its ledger (the transcript: every request
 * with its charge, a request cut off by a kill at its worst case): nothing is lost or counted
 * twice across stops, kills, `report` and resumes.
 */
function ledgerSpend(file: string, specs: readonly string[], priceOf: (i: number) => Price): number {
  if (!fs.existsSync(file)) return 0;
  const ledger = readLedger(fs.readFileSync(file, 'utf8'));
  return specs.reduce((sum, spec, i) => sum + (ledger.get(spec)?.spend(priceOf(i)) ?? 0), 0);
}
