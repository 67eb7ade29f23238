/**
 * What a token sees of a game at a step (GET view, POST actions): the seat's view (or the
 * public one), its legal actions with their consequences, the step's events. Built from the
 * engine's view functions only, so nothing a seat may not see goes out.
 */
import { decodeAction, describeAction } from '../env/actions.ts';
import { actionConsequence } from '../env/card-text.ts';
import { CARD_IDS } from '../env/cards.ts';
import type { CzechPubEnv } from '../env/env.ts';
import { ApiError, envAt, named, stepEvents, type LiveGame, type Viewer } from './games.ts';

export function played(game: LiveGame, k: number) {
  const id = game.env.actions[k];
  return { seat: game.actors[k], id, name: describeAction(id, game.actors[k], game.env.players) };
}

/** What a viewer sees of the game after its first k actions (default: now), and what action k did. */
export function seatState(game: LiveGame, viewer: Viewer, k = game.env.actions.length) {
  const steps = game.env.actions.length;
  const env = envAt(game, k);
  const toAct = env.done ? null : env.currentPlayer;
  const mine = viewer !== null && k === steps && toAct === viewer;
  return {
    id: game.id,
    seat: viewer,
    seats: game.seats,
    done: game.env.done,
    toAct,
    yourTurn: mine,
    view: (viewer === null ? env.publicView() : env.view(viewer)) as unknown as Record<string, unknown>,
    text: viewer === null ? null : env.text(viewer),
    legalActions: mine ? noted(env.legalActions(), viewer, env) : [],
    openSeats: [...game.open.keys()].sort((a, b) => a - b),
    scores: game.env.done ? game.env.scores() : null,
    step: k,
    steps,
    events: stepEvents(game, k, viewer),
    lastAction: k > 0 ? played(game, k - 1) : null,
  };
}

/**
 * A seat's legal actions with what each costs or causes where its name does not say, and the
 * card from the hand each play puts down (so the page can play a card clicked in the hand).
 */
function noted(legal: number[], seat: number, env: CzechPubEnv) {
  const ruleset = env.config.ruleset;
  const token = env.view(seat).table[seat].abstinence;
  return named(legal, seat, env.players).map((a) => {
    const note = actionConsequence(ruleset, a.id, token);
    const d = decodeAction(a.id);
    const plays = d.group === 'order' || d.group === 'pub' ? CARD_IDS[d.card] : undefined;
    return { ...a, ...(note ? { note } : {}), ...(plays ? { plays } : {}) };
  });
}

export function stepParam(game: LiveGame, k: number | undefined): number {
  const steps = game.env.actions.length;
  if (k !== undefined && k > steps) throw new ApiError(400, `at: the game has had ${steps} actions; ask for 0 to ${steps}`);
  return k ?? steps;
}
