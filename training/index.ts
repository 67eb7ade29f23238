/**
 * Training: PPO self-play with TensorFlow.js, what other folders import of training/. The
 * option declarations (`TRAIN_OPTIONS`, their defaults, which may change on resume), a run
 * (`runTraining`: a run directory, checkpoints, evaluations, resume) and the trainer under it
 * (`train`, its metrics); an exploiter's summary (exploit.json, .md, .svg) and a searching
 * exploiter's (exploit-search.json, .md, .svg); expert iteration's training on a search's games
 * (`teacherDecisions`, `fitToTeacher`); the backend choice; and rollouts: how chunks of games
 * are specified, played (`ChunkPlayer`), encoded to cross a thread or a queue and replayed by
 * the learner, the sources that play them (`RolloutSource`), and the module a chunk thread runs
 * with the messages it exchanges.
 * Importing this loads TensorFlow.js.
 */
export { BACKENDS, initBackend, type BackendChoice } from './backend.ts';
export {
  fitToTeacher, LABELS, readSearchLines, ReplayMismatchError, teacherDecisions, type DistillData, type EpochMetrics, type FitOptions, type FitResult,
  type LabelSource, type Labels, type PlayedGame,
} from './distill.ts';
export {
  CHANGEABLE_ON_RESUME, TRAIN_DEFAULTS, TRAIN_OPTIONS, UNBOUNDED_STEPS, type TrainOptionName, type TrainOptions,
} from './options.ts';
export {
  curveAgainst, NothingToTrainError, readRunOptions, runTraining, seedPatterns, trainingSummary, type SeedPatterns, type EvalPoint, type KeptPolicy, type RunEvents, type RunResult,
  type SeatEvaluation, type TrainingSummary,
} from './run.ts';
export { train, type IterationMetrics } from './ppo.ts';
export type { EvalResult } from './evaluate.ts';
export { TfNet } from './net.ts';
export {
  EXPLOIT_FORMAT, EXPLOIT_MEANING, evaluationSeed, exploitMarkdown, exploitSeeds, exploitSvg, type ExploiterRecord, type ExploitRecord,
} from './exploit.ts';
export {
  EXPLOIT_SEARCH_FORMAT, EXPLOIT_SEARCH_MEANING, exploitSearchMarkdown, exploitSearchSvg, SEARCHERS, type BestResponsePoint, type ExploitSearchRecord, type Searcher,
} from './exploit-search.ts';
export {
  ChunkPlayer, decodeChunk, encodeChunk, parsePool, replayChunk, RolloutBuffer, RolloutTally, type ChunkGame, type ChunkSpec,
  type EncodedChunkGame, type PoolEntry,
} from './collect.ts';
export { CHUNK_WORKER_MODULE, type IterationChunks, type RolloutRequest, type RolloutSource } from './rollouts.ts';
export type { ChunkRequest, ChunkThreadMessage, ChunkThreadSetup } from './chunk-worker.ts';
export {
  RECIPE_CHOICES, RECIPE_FORMAT, RECIPE_OPPONENT, recipeEvaluationSeed, recipeMarkdown, recipeSvg, trainCommandLine, type CurvePointRecord,
  type RecipeRecord,
} from './recipe.ts';
