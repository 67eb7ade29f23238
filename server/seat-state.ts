/**
 * What a token sees of a game at a step (GET view, POST actions): the seat's view (or the
 * public one), its legal actions with their consequences, the step's events. Every part comes
 * through the seat channel (env/observation/channel.ts), so nothing a seat may not see goes out.
 */
import { describeAction, SeatChannel } from '../env/index.ts';
import { ApiError, envAt, stepEvents, type LiveGame, type Viewer } from './games.ts';
import { tablePresence } from './presence.ts';
import { shownCommitment } from './seed-commitment.ts';

/** Action k, worded for `viewer` (seats by the table's names, the viewer's own "you"). */
export function played(game: LiveGame, k: number, viewer: Viewer = null) {
  const id = game.env.actions[k];
  return { seat: game.actors[k], id, name: describeAction(id, game.actors[k], game.env.players, { names: game.names, viewer }) };
}

/** What a viewer sees of the game after its first k actions (default: now), and what action k did; presence as of `now` (the store's clock). */
export function seatState(game: LiveGame, viewer: Viewer, k = game.env.actions.length, now = Date.now()) {
  const steps = game.env.actions.length;
  const env = envAt(game, k);
  const channel = new SeatChannel(env, viewer);
  const actor = env.done ? null : env.actor;
  const mine = k === steps && channel.isActor;
  return {
    id: game.id,
    seat: viewer,
    seats: game.seats,
    names: game.names,
    presence: tablePresence(game, now),
    done: game.env.done,
    actor,
    yourTurn: mine,
    view: channel.view() as unknown as Record<string, unknown>,
    text: channel.text(),
    legalActions: mine ? channel.choices(game.names) : [],
    openSeats: [...game.open.keys()].sort((a, b) => a - b),
    seed: shownCommitment(game.seed),
    scores: game.env.done ? game.env.scores() : null,
    step: k,
    steps,
    events: stepEvents(game, k, viewer),
    lastAction: k > 0 ? played(game, k - 1, viewer) : null,
  };
}

export function stepParam(game: LiveGame, k: number | undefined): number {
  const steps = game.env.actions.length;
  if (k !== undefined && k > steps) throw new ApiError(400, `at: the game has had ${steps} actions; ask for 0 to ${steps}`);
  return k ?? steps;
}
