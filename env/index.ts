/**
 * The Czech Pub engine and its multi-agent environment: what every other folder imports of
 * env/. The rules as one validated ruleset; the fixed action space (ids, names, codec); the
 * game state and the engine's pure functions (create, legal actions, step, replay, scores);
 * the environment classes (one game, a vector of games); a seat's observation (its view, the
 * encoded tensor and its layout, the text rendering, the seat channel every per-seat output
 * passes through); events and their narration; rewards; the seeded generator; the version
 * stamps that make results comparable; and the option declarations the trainer and the CLI
 * share. Files inside env/ import each other directly, never this index.
 */
export * from './actions.ts';
export * from './cards.ts';
export * from './env.ts';
export * from './events.ts';
export * from './rewards.ts';
export * from './spec.ts';
export * from './ruleset.ts';
export * from './vector.ts';
export { resampleState } from './resample.ts';
export { nextFloat, randInt, seedRng, shuffle, type RngState } from './rng.ts';
export { encodeObservation, encodeView, OBS_LAYOUT, OBS_SIZE, OBSERVATION_VERSION, PLAYER_FEATURES, PLAYER_LAYOUT, TURN_LAYOUT } from './observation/encode.ts';
export { renderText } from './observation/text.ts';
export { foldAction, foldDecision, foldEvents, infoKeyStart } from './observation/infoset.ts';
export { RevealedGame, SeatChannel, type Choice, type NarratedEvent, type Viewer } from './observation/channel.ts';
export { SeatPast, type Candidate, type PastDecision, type PastPosition } from './beliefs/past.ts';
export { previewDigestion, type DigestPreview } from './engine/preview.ts';
// The digestion's arithmetic, for the bots that plan with the engine's own numbers.
export { beerScore, rollMove } from './engine/drinking.ts';
export {
  makePublicView, makeView, type DecisionView, type FrontCardView, type PlayerPublicView, type PlayerView, type PublicView, type ShotId,
  type TurnView,
} from './observation/view.ts';
export {
  applyStep, cardCensus, createState, END_REASONS, endReason, finalScores, IllegalActionError, isLegal, legalActions, legalActionsFast,
  replay, rulesFor, winners, type Chance, type EndReason, type GameConfig,
} from './engine/index.ts';
// GameState.out's codes and the count of a token mask, to read a state's fields.
export { cloneState, PHASE_NAMES, popcount, THROWN_OUT, WASTED, type GameState, type PhaseName } from './state.ts';
export { cardShortTexts, cardTexts, glossary, type Term } from './card-text.ts';
export { narrateEvent, narrateEvents, type NarrateOptions } from './narrate.ts';
export {
  bound, camel, checkOptions, optionDefaults, optionProblem, PLAYERS_MAX, PLAYERS_MIN, type Bound, type Camel, type CommandSpec, type Context,
  type OptionSpec, type OptionSpecs, type Parsed, type Values,
} from './options.ts';
