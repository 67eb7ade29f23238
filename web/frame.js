/**
 * What one picture of the table needs, shared by live play and replays, and how seats are
 * named. The view types are the engine's own (env/observation/view.ts); the answers are the
 * API's (server/routes/, its answers' schemas in server/schemas.ts).
 *
 * @typedef {import('../env/observation/view.ts').PlayerView} PlayerView
 * @typedef {import('../env/observation/view.ts').PlayerPublicView} PlayerPublicView
 * @typedef {import('../env/observation/view.ts').FrontCardView} FrontCardView
 * @typedef {{ id: number, name: string, note?: string, plays?: string }} NamedAction  (a seat's own legal actions carry `note` and `plays`)
 * @typedef {{ seat: number, id: number, name: string }} TakenAction
 * @typedef {{ k: string, text: string | null }} NarratedEvent
 *
 * GET view / POST actions: a seat's state at step `step` (of `steps` taken so far).
 * @typedef {{ done: boolean, yourTurn: boolean, view: PlayerView, legalActions: NamedAction[], scores: number[] | null,
 *   step: number, steps: number, events: NarratedEvent[], lastAction: TakenAction | null, names?: string[], presence?: Presence[] }} SeatState
 *
 * GET replay/{step}: every seat's view at that step and the action taken from it.
 * @typedef {{ step: number, steps: number, views: PlayerView[], legalActions: NamedAction[], next: TakenAction | null,
 *   events: NarratedEvent[], scores: number[] }} ReplayFrame
 *
 * @typedef {object} Frame
 * @property {PlayerView} view  the view drawn (the bottom seat's)
 * @property {string[]} seats  each seat's bot, as the server names it (`ismcts:iterations=20`), or 'remote' for a person
 * @property {number | null} you  the person's seat, if a person plays
 * @property {number} bottom  the seat drawn nearest the viewer; the others go round clockwise
 * @property {(Record<string, number> | null)[] | null} hands  every seat's hand (replays), else null
 */

/** The seat spec of a person playing through the API (the page's own seat among them). */
export const REMOTE = 'remote';

/**
 * @param {{ seats: string[], you: number | null }} game
 * @param {number} bottom
 * @param {PlayerView} view  the bottom seat's
 * @param {Frame['hands']} [hands]
 * @returns {Frame}
 */
export const makeFrame = (game, bottom, view, hands = null) => ({ view, seats: game.seats, you: game.you, bottom, hands });

/**
 * The table's metadata as the server last gave it (GET view: `names`, `presence`): what each
 * seat is called and who is there. Kept here so every place that names a seat names it alike.
 * @typedef {'bot' | 'open' | 'connected' | 'away'} Presence
 */
/** @type {{ names: string[], presence: Presence[] }} */
const table = { names: [], presence: [] };

/** @param {{ names?: string[], presence?: Presence[] }} meta  a table's (none: "Player N", presence unknown) */
export function setTableMeta(meta) {
  table.names = meta.names ?? [];
  table.presence = meta.presence ?? [];
}

/** What the table calls a seat: a person's display name or a bot's ("Player 2" by default). @param {number} seat */
export const seatName = (seat) => table.names[seat] ?? `Player ${seat}`;

/** Who is at a seat now, if the server said. @param {number} seat @returns {Presence | undefined} */
export const seatPresence = (seat) => table.presence[seat];

/** "You" or "Player 2", to open a sentence. @param {number} seat @param {{ you: number | null }} f */
export const who = (seat, f) => (seat === f.you ? 'You' : seatName(seat));

/** "you" or "Player 2", within a sentence. @param {number} seat @param {{ you: number | null }} f */
export const whom = (seat, f) => (seat === f.you ? 'you' : seatName(seat));

/** "your" or "Player 2's", within a sentence; `start` capitalises "Your". @param {number} seat @param {{ you: number | null }} f @param {boolean} [start] */
export const whose = (seat, f, start = false) => (seat === f.you ? (start ? 'Your' : 'your') : `${seatName(seat)}'s`);

/** "ppo", "you". @param {number} seat @param {Frame} f */
export function seatAgent(seat, f) {
  if (seat === f.you) return 'you';
  return f.seats[seat] === REMOTE ? 'person' : f.seats[seat];
}
