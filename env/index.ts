/** Czech Pub engine and multi-agent environment: the public API. */
export * from './actions.ts';
export * from './cards.ts';
export * from './env.ts';
export * from './events.ts';
export * from './rewards.ts';
export * from './spec.ts';
export * from './ruleset.ts';
export * from './vector.ts';
export { resampleState } from './resample.ts';
export { encodeObservation, encodeView, OBS_LAYOUT, OBS_SIZE, OBSERVATION_VERSION, PLAYER_FEATURES, PLAYER_LAYOUT, TURN_LAYOUT } from './observation/encode.ts';
export { renderText } from './observation/text.ts';
export { RevealedGame, SeatChannel, type Choice, type NarratedEvent, type Viewer } from './observation/channel.ts';
export { previewDigestion, type DigestPreview } from './engine/preview.ts';
export { makePublicView, makeView, type DecisionView, type FrontCardView, type PlayerPublicView, type PlayerView, type PublicView, type TurnView } from './observation/view.ts';
export {
  applyStep, cardCensus, createState, finalScores, IllegalActionError, isLegal, legalActions, legalActionsFast,
  replay, rulesFor, winners, type GameConfig,
} from './engine/index.ts';
export { cloneState, PHASE_NAMES, type GameState, type PhaseName } from './state.ts';
