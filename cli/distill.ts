/**
 * `czech-pub distill`: expert iteration. Each round the search (`ppo-search` on the current
 * policy) plays a duplicate tournament against the chosen opponents; its choices in those games
 * (and in every earlier round's) train the policy and value heads (training/distill.ts); the
 * new policy is evaluated against the same opponents and becomes the next round's search's
 * net. Everything a round makes is in its folder under --out:
 *
 *   distill.json            the options and every finished round's figures (rewritten per round)
 *   start-evaluation/       the starting policy on the evaluation deals (the reference)
 *   round-K/games/          the search's games (a tournament folder: resumable, reportable)
 *   round-K/model.json      the policy after round K
 *   round-K/evaluation/     that policy on the evaluation deals
 *
 * A stopped run goes on with `--resume DIR`: finished rounds are kept, a round's unfinished
 * tournament resumes, and --rounds may be raised.
 */
import fs from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { createAgent, loadPolicy, shippedModel } from '../agents/index.ts';
import { entrySummary, parseGameLine, roundedGames, runTournament, type TournamentResult } from '../eval/index.ts';
import { optionDefaults, REWARD_SCHEMES, type RewardScheme } from '../env/index.ts';
import { saveCheckpoint } from '../policy/index.ts';
import { BACKENDS, fitToTeacher, LABELS, readSearchLines, teacherDecisions, type EpochMetrics, type PlayedGame } from '../training/index.ts';
import { EXIT_FAILURE, EXIT_OK, UsageError, type Io } from './io.ts';
import { helpText, parseOptions, PLAYERS_MAX, PLAYERS_MIN, type CommandSpec } from './options.ts';
import { interrupted, onStopSignals } from './stop-signals.ts';
import { asUsageError, progress } from './tournament.ts';
import { startBackend } from './train.ts';

export const DISTILL = {
  name: 'distill',
  synopsis: '[--players P] [--init CHECKPOINT] [options] | --resume DIR [--rounds N]',
  description: `Expert iteration: the search on the current policy (ppo-search) plays games against the
opponents; the policy and its value head are trained on the search's choices and the games'
outcomes; the next round searches on the new policy. Each round's games, model and evaluation
are kept in --out; --resume DIR goes on from where a run stopped.`,
  options: {
    players: { type: 'int', arg: 'P', min: PLAYERS_MIN, max: PLAYERS_MAX, default: 4, help: 'players per game' },
    init: { type: 'string', arg: 'CHECKPOINT', default: '', defaultText: 'the shipped model for P players', help: 'the policy the first round searches on and trains from' },
    rounds: { type: 'int', arg: 'N', min: 1, max: 1000, default: 1, help: 'rounds of search games then training; with --resume, the new total' },
    games: { type: 'int', arg: 'G', min: 1, max: 10_000_000, default: 1000, help: 'search games per round, rounded up to whole rotations' },
    search: {
      type: 'string', arg: 'OPTIONS', default: '', defaultText: "ppo-search's defaults",
      help: "the search's options, as after ppo-search's checkpoint (e.g. iterations=96:candidates=8)",
    },
    opponents: { type: 'list', arg: 'A,B', default: ['heuristic'], help: 'who plays the other seats: one spec for all, or P - 1 specs' },
    labels: {
      type: 'choice', arg: 'L', choices: LABELS, default: 'choice',
      help: "what the policy learns: the search's choice, or (values) a distribution over its candidates by the values its looks found",
    },
    'label-beta': { type: 'number', arg: 'X', min: 0, max: 100, default: 2, help: 'with --labels values: a candidate weighs its prior times exp(X * z), z its advantage in standard errors' },
    epochs: { type: 'int', arg: 'N', min: 1, max: 1000, default: 8, help: "passes over the data per round; the epoch whose play agrees most with the search's on the held-out games is kept" },
    lr: { type: 'number', arg: 'X', min: 0, above: true, max: 1, default: 1e-4, help: 'Adam learning rate' },
    minibatch: { type: 'int', arg: 'N', min: 1, max: 1_000_000, default: 512, help: 'samples per minibatch' },
    'vf-coef': { type: 'number', arg: 'X', min: 0, max: 100, default: 0.5, help: 'value loss coefficient' },
    holdout: { type: 'number', arg: 'X', min: 0, max: 0.5, default: 0.1, help: "share of the games held out to choose each round's epoch" },
    'eval-games': { type: 'int', arg: 'G', min: 0, max: 10_000_000, default: 1000, help: 'games evaluating each policy against the opponents; 0 = none' },
    seed: { type: 'int', arg: 'S', min: 0, max: 2 ** 31 - 1, default: 1, help: 'seed of the games, the held-out split and the training order' },
    workers: { type: 'int', arg: 'W', min: 0, max: 256, defaultText: 'one per core', help: 'worker threads playing the games; 0 plays in this thread' },
    backend: { type: 'choice', arg: 'B', choices: BACKENDS, default: 'auto', help: 'TensorFlow.js backend of the training (auto: node, else wasm, else cpu)' },
    out: { type: 'folder', default: 'distill', help: 'the run folder: a new or empty folder' },
    resume: { type: 'folder', arg: 'DIR', help: 'go on with the run in DIR (its options are kept; --rounds, --workers and --backend may be given anew)' },
  },
} as const satisfies CommandSpec;

type Parsed = NonNullable<ReturnType<typeof parseOptions<typeof DISTILL.options>>>;
type Options = Omit<Parsed['values'], 'resume' | 'workers' | 'backend' | 'out'> & { init: string };

/** The search's transcript in a round's games folder: one line per search (agents/ppo/search.ts SearchLine). */
const SEARCH_LINES = 'search.jsonl';

export const DISTILL_FORMAT = 'czech-pub-distill/1';
const SUMMARY = 'distill.json';

interface Evaluation {
  folder: string;
  games: number;
  winRate: number;
  winRateCI: [number, number];
  overPar: number;
}

interface RoundRecord {
  round: number;
  teacher: string;
  model: string;
  /** The search's games of this round, and the decisions with a choice (all rounds so far) trained on. */
  games: number;
  searchWinRate: number;
  rows: number;
  heldOutRows: number;
  /** Held-out share of the search's choices that the policy already played, before and after the round's training. */
  startAgreement: number;
  agreement: number;
  keptEpoch: number;
  epochs: EpochMetrics[];
  trainSeconds: number;
  playSeconds: number;
  evaluation: Evaluation | null;
}

interface DistillRecord {
  format: typeof DISTILL_FORMAT;
  players: number;
  options: Options;
  start: Evaluation | null;
  rounds: RoundRecord[];
  command: string[];
}

const teacherSpec = (model: string, search: string) => `ppo-search:${model}${search === '' ? '' : `:${search}`}`;

function others(o: Options): string[] {
  return o.opponents.length === 1 ? Array.from({ length: o.players - 1 }, () => o.opponents[0]) : o.opponents;
}

/** Everything that would fail later, refused before anything is written. */
function check(o: Options): void {
  if (o.opponents.length !== 1 && o.opponents.length !== o.players - 1) {
    throw new UsageError(`--opponents: give one spec or ${o.players - 1} (one per other seat), not ${o.opponents.length}`);
  }
  for (const spec of [...new Set(o.opponents)]) {
    try {
      createAgent(spec);
    } catch (e) {
      throw new UsageError(`--opponents: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  try {
    loadPolicy(o.init);
    createAgent(teacherSpec(o.init, o.search));
  } catch (e) {
    throw new UsageError(`${/option/.test((e as Error).message) ? '--search' : '--init'}: ${(e as Error).message.split('\n')[0]}`);
  }
}

function readRecord(dir: string): DistillRecord {
  const file = path.join(dir, SUMMARY);
  if (!fs.existsSync(file)) throw new UsageError(`--resume: ${dir} holds no ${SUMMARY}: it is not the folder of a distill run`);
  let r: DistillRecord;
  try {
    r = JSON.parse(fs.readFileSync(file, 'utf8')) as DistillRecord;
  } catch (e) {
    throw new UsageError(`--resume: ${file} is not JSON (${(e as Error).message.split('\n')[0]})`);
  }
  if (r?.format !== DISTILL_FORMAT) throw new UsageError(`--resume: ${file} is not a ${DISTILL_FORMAT} file`);
  return r;
}

/** The finished games of a tournament folder, for replay. */
function playedGames(folder: string): PlayedGame[] {
  const text = fs.readFileSync(path.join(folder, 'games.jsonl'), 'utf8');
  return text.split('\n').filter((l) => l.trim() !== '').map((l): PlayedGame => parseGameLine(l));
}

export async function distillCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseOptions(DISTILL, args);
  if (!parsed) {
    io.out(helpText(DISTILL));
    return EXIT_OK;
  }
  const { resume, workers: w, backend, out: outOption, ...given } = parsed.values;
  const workers = w ?? availableParallelism();
  let out: string;
  let record: DistillRecord;
  if (resume !== undefined) {
    out = resume;
    record = readRecord(resume);
    if (parsed.given.has('rounds')) record.options.rounds = given.rounds;
    check(record.options);
  } else {
    out = outOption;
    const o: Options = { ...given, init: given.init === '' ? shippedModel(given.players) : given.init };
    check(o);
    // Each round's model is named in the next round's agent spec, where ':' separates options.
    if (out.includes(':')) throw new UsageError(`--out ${out}: a folder whose path holds ':' cannot be named in an agent spec; choose another`);
    if (fs.existsSync(out) && fs.readdirSync(out).length > 0) throw new UsageError(`--out ${out} already holds files; name a new or empty folder, or --resume it`);
    fs.mkdirSync(out, { recursive: true });
    record = { format: DISTILL_FORMAT, players: o.players, options: o, start: null, rounds: [], command: ['czech-pub', 'distill', ...args] };
  }
  // Options added since a run began take their defaults.
  const { resume: _r, workers: _w, backend: _b, out: _o, ...defaults } = optionDefaults(DISTILL.options);
  const o: Options = { ...defaults, ...record.options };
  record.options = o;
  const save = () => fs.writeFileSync(path.join(out, SUMMARY), `${JSON.stringify(record, null, 2)}\n`);
  save();
  await startBackend(backend);

  const start = loadPolicy(o.init);
  const reward: RewardScheme = (REWARD_SCHEMES as readonly string[]).includes(start.options.reward as string) ? (start.options.reward as RewardScheme) : 'rank';
  const P = o.players;
  const par = 1 / P;

  // Ctrl-C (or SIGTERM, SIGHUP) stops the tournament under way; what it finished stays for --resume.
  const controller = new AbortController();
  const stopListening = onStopSignals((signal) => {
    io.err(`${interrupted(signal)}: stopping; --resume goes on from here.`);
    controller.abort();
  });
  const play = async (what: string, agents: string[], games: number, seed: string, folder: string, transcripts?: (string | null)[]): Promise<TournamentResult | null> => {
    io.err(what);
    const bar = progress(io);
    try {
      const r = await runTournament({
        agents, players: P, games, seed, workers, ruleset: start.ruleset, out: folder, signal: controller.signal, ...(transcripts ? { transcripts } : {}),
        resume: fs.existsSync(path.join(folder, 'run.json')), onGame: (done, total) => bar.update(done, total),
      });
      return r.complete ? r : null;
    } catch (e) {
      throw asUsageError(e);
    } finally {
      bar.stop();
    }
  };
  const evaluate = async (label: string, model: string, folder: string): Promise<Evaluation | null> => {
    if (o.evalGames === 0) return null;
    const r = await play(`${label}: ppo:${model} against ${others(o).join(', ')}`, [`ppo:${model}`, ...others(o)], o.evalGames, `distill-eval-${o.seed}`, folder);
    if (!r) return null;
    const mine = entrySummary(r);
    io.err(`${label}: ${(100 * mine.winRate).toFixed(1)}% (${(100 * mine.winRateCI[0]).toFixed(1)}–${(100 * mine.winRateCI[1]).toFixed(1)}%), ${(mine.winRate / par).toFixed(2)}× par`);
    return { folder, games: mine.games, winRate: mine.winRate, winRateCI: mine.winRateCI, overPar: mine.winRate / par };
  };
  const stopped = () => {
    io.err(`stopped: what finished is in ${out}; go on with --resume ${out}`);
    return EXIT_FAILURE;
  };

  try {
    if (o.evalGames > 0 && !record.start) {
      record.start = await evaluate('start', o.init, path.join(out, 'start-evaluation'));
      if (!record.start) return stopped();
      save();
    }
    for (let k = record.rounds.length + 1; k <= o.rounds; k++) {
      const dir = path.join(out, `round-${k}`);
      const model = k === 1 ? o.init : record.rounds[k - 2].model;
      const teacher = teacherSpec(model, o.search);
      const t0 = performance.now();
      const gamesDir = path.join(dir, 'games');
      fs.mkdirSync(gamesDir, { recursive: true });
      const games = await play(
        `round ${k}: ${teacher} against ${others(o).join(', ')}`, [teacher, ...others(o)], o.games, `distill-${o.seed}/round-${k}`, gamesDir,
        [path.join(gamesDir, SEARCH_LINES), ...others(o).map(() => null)],
      );
      if (!games) return stopped();
      const playSeconds = (performance.now() - t0) / 1000;
      const search = entrySummary(games);
      // Every round's games so far: a later teacher's choices add to an earlier one's.
      const folders = Array.from({ length: k }, (_, i) => path.join(out, `round-${i + 1}`, 'games'));
      const all = folders.flatMap(playedGames);
      const previous = loadPolicy(model);
      const lines = o.labels === 'values' ? new Map(folders.flatMap((f) => [...readSearchLines(path.join(f, SEARCH_LINES))])) : undefined;
      const data = teacherDecisions(all, 0, previous.weights.shape, P, reward, start.ruleset, { labels: o.labels, lines, beta: o.labelBeta });
      io.err(`round ${k}: training on ${data.n} decisions of the search (${all.length} games)${o.labels === 'values' ? `, ${data.valueLabelled} labelled by their values` : ''}`);
      const fit = fitToTeacher(previous.weights, data, { epochs: o.epochs, lr: o.lr, minibatch: o.minibatch, vfCoef: o.vfCoef, holdout: o.holdout, seed: `${o.seed}/round-${k}` }, (line) => io.err(`round ${k}: ${line}`));
      const file = path.join(dir, 'model.json');
      const kept = fit.epochs[fit.best - 1];
      saveCheckpoint(file, {
        ruleset: start.ruleset, players: P, iteration: k, steps: data.n,
        options: { ...start.options, ruleset: undefined, distill: { ...o, round: k, teacher } },
        metrics: { keptEpoch: fit.best, ...(kept ?? {}) }, createdAt: new Date().toISOString(), weights: fit.weights,
      });
      if (fit.best === 0) io.err(`round ${k}: no epoch agreed with the search more than the starting net on the held-out games; the round's model is the start's`);
      const round: RoundRecord = {
        round: k, teacher, model: file, games: search.games, searchWinRate: search.winRate, rows: fit.trainRows, heldOutRows: fit.heldOutRows,
        startAgreement: fit.startAgreement, agreement: kept?.heldOutAgreement ?? fit.startAgreement, keptEpoch: fit.best, epochs: fit.epochs,
        trainSeconds: fit.seconds, playSeconds, evaluation: null,
      };
      const evaluation = await evaluate(`round ${k}`, file, path.join(dir, 'evaluation'));
      if (o.evalGames > 0 && !evaluation) return stopped();
      round.evaluation = evaluation;
      record.rounds.push(round);
      save();
    }
  } finally {
    stopListening();
  }
  for (const r of record.rounds) {
    const e = r.evaluation;
    io.out(`round ${r.round}: search ${(100 * r.searchWinRate).toFixed(1)}% over ${r.games} games; policy agreement ${(100 * r.startAgreement).toFixed(1)}% → ${(100 * r.agreement).toFixed(1)}%` +
      (e ? `; policy ${(100 * e.winRate).toFixed(1)}% (${(100 * e.winRateCI[0]).toFixed(1)}–${(100 * e.winRateCI[1]).toFixed(1)}%), ${e.overPar.toFixed(2)}× par` : ''));
  }
  if (record.start) io.out(`start: ${(100 * record.start.winRate).toFixed(1)}% (${(100 * record.start.winRateCI[0]).toFixed(1)}–${(100 * record.start.winRateCI[1]).toFixed(1)}%) on the same deals`);
  io.out(`Models and figures in ${out}/ (${SUMMARY}); evaluation games: ${roundedGames(o.evalGames, P)} a policy.`);
  return EXIT_OK;
}

