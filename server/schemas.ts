/**
 * Response shapes of the API, for the OpenAPI document (/docs/json) and the serializer: every
 * route lists its success status (200, 201, 202) and its errors, which all share one shape,
 * named once in the document (components.schemas.Error) and referenced by every error response.
 * Views are described as objects (their fields: env/observation/view.ts); the rest exactly.
 */
import { z } from 'zod';
import { MAX_SEED_CHARS } from '../eval/index.ts';
import { PRESENCES } from './presence.ts';

const namedAction = z.object({ id: z.number().int(), name: z.string() });

export const errorBody = z.looseObject({
  error: z.string().describe('What was wrong with the request (never what the server holds).'),
  code: z.string().optional().describe("A kind of fault a client may act on: 'game-gone' (404) when the server no longer holds the game."),
  legalActions: z.array(namedAction).optional()
    .describe("Only in a 409 answer to an action: the seat's legal actions now (none when it is not its turn or the game is over)."),
}).meta({ id: 'Error', description: 'An error: every 4xx and 5xx answer has this shape.' });

/**
 * The schemas the document names in components.schemas and references where they are used:
 * those with an id in zod's registry (`.meta({ id })`), as fastify-type-provider-zod reads it.
 */
export const NAMED = ['Error'];

const ERROR_TEXT: Record<number, string> = {
  400: 'Malformed request: the message names the field.',
  401: 'No token: send Authorization: Bearer <token>.',
  403: 'The token opens no seat of this game, or may only watch; or the server runs no tournaments.',
  404: 'No such game, bot, tournament or step.',
  409: 'Not now: not your turn, an illegal action, the game not over (replays), or already over; no open seat left.',
  413: 'Request body too large.',
  421: 'The Host header names no host this server answers to (a guard against DNS rebinding).',
  422: 'A replay that cannot be played here: another ruleset, an illegal action, or a record that stops early.',
  429: 'A limit: requests per second, live games or tournaments (in all or yours), event streams.',
};

/** The error responses of a route, by status: those named, and 421, which any route gives a Host it does not serve. */
export function errors(...codes: number[]) {
  return Object.fromEntries([...codes, 421].map((c) => [c, { description: ERROR_TEXT[c], content: { 'application/json': { schema: errorBody } } }]));
}

/** Routes that read a game need a seat token or the watch token. */
export const SEAT_TOKEN = [{ seatToken: [] as string[] }];
/** Routes anyone may call (limited per client, as every route). */
export const NO_TOKEN: { [scheme: string]: string[] }[] = [];

export const SECURITY_SCHEMES = {
  seatToken: {
    type: 'http' as const,
    scheme: 'bearer',
    description: 'A seat token (from POST /v1/games: `tokens[].token`) opens that seat; the game\'s `watchToken` opens the onlooker\'s view and, once the game is over, the replay.',
  },
};

/** The operations' groups (each operation names one). */
export const TAGS = [
  { name: 'server', description: 'The server: its health and the rules every game here is played under.' },
  { name: 'bots', description: "The operator's bots: the catalogue, and one decision for a posted view." },
  { name: 'games', description: 'Games held on the server: create, join from the lobby, and play a seat with its token.' },
  { name: 'replays', description: 'Finished games, step by step: a game played here, or one a tournament sent.' },
  { name: 'tournaments', description: 'Tournaments of catalogue bots, run as background jobs.' },
];

const seatAction = namedAction.extend({
  note: z.string().optional().describe('What choosing it costs or causes, when its name does not say (points lost, an abstinence).'),
  plays: z.string().optional().describe('The card id it plays from the hand: the order or pub card, the X card of a reaction, Excuse me.'),
});
const objectView = z.looseObject({}).describe('A seat\'s view (PlayerView, env/observation/view.ts), or the public view for the watch token.');
const event = z.looseObject({ k: z.string(), text: z.string().nullable() }).describe('An event as the viewer saw it, with its narration.');

export const botOption = z.union([
  z.object({ min: z.number(), max: z.number(), integer: z.boolean().optional() }),
  z.object({ values: z.array(z.union([z.string(), z.number(), z.boolean()])) }),
]);

export const botList = z.object({
  bots: z.array(z.object({
    name: z.string().describe('What to name in a seat, a tournament or the act route: `name` or `name:option=value:...`.'),
    displayName: z.string().describe('What players see it called at the table ("Regular"); the operator may set it.'),
    strength: z.string().nullable().describe('How hard it is to beat, in players\' words ("Medium"); entries with one come first, weakest first. Null: a bot for research, offered after them.'),
    agent: z.string().describe('The kind of agent it plays.'),
    description: z.string(),
    options: z.record(z.string(), botOption).describe('Options a client may set, with their range or values.'),
    servesPostedViews: z.boolean().describe('Whether POST /v1/bots/{spec}/act can ask it (search and language-model bots need a game held here).'),
    seatsLiveGames: z.boolean().describe('Whether it can fill a seat of a game made by POST /v1/games (the page offers only these).'),
    heavy: z.boolean().describe('Its decisions run on the bot worker threads, under a time and memory limit.'),
  })),
});

export const seedShown = z.object({
  commitment: z.string().describe('SHA-256 (hex) of the salt followed by the seed: fixed before the deal; the replay reveals the seed and the salt, so anyone can check it.'),
  chosen: z.boolean().describe('The creator chose the seed (only a table without open seats may): they could know every hand.'),
});

export const actAnswer = z.object({ action: z.number().int(), name: z.string() });

export const created = z.object({
  id: z.string(),
  players: z.number().int(),
  seats: z.array(z.string()).describe("'remote' or the bot's name with its options, per seat."),
  names: z.array(z.string()).describe('What each seat is called at the table.'),
  tokens: z.array(z.object({ seat: z.number().int(), token: z.string() })).describe('One secret token per remote seat.'),
  watchToken: z.string(),
  seed: seedShown,
});

/** Who is at a seat (server/presence.ts). */
export const presence = z.enum(PRESENCES)
  .describe("'bot'; 'open': waiting in the lobby for someone to join; 'connected': a person whose event stream is open or who asked lately; 'away': a person who has not.");

export const seatState = z.object({
  id: z.string(),
  seat: z.number().int().nullable().describe('The token\'s seat; null for the watch token.'),
  seats: z.array(z.string()).describe("'remote' or the bot's name with its options, per seat."),
  names: z.array(z.string()).describe('What each seat is called at the table: a person\'s display name (default "Player N"), a bot\'s catalogue display name. Text to show as text, never markup.'),
  presence: z.array(presence).describe('Who is at each seat now.'),
  done: z.boolean(),
  actor: z.number().int().nullable().describe('The seat deciding now; null once the game is over.'),
  yourTurn: z.boolean(),
  view: objectView,
  text: z.string().nullable(),
  legalActions: z.array(seatAction),
  openSeats: z.array(z.number().int()).describe('Seats waiting for someone to join from the lobby.'),
  seed: seedShown,
  scores: z.array(z.number()).nullable(),
  step: z.number().int(),
  steps: z.number().int(),
  events: z.array(event),
  lastAction: z.object({ seat: z.number().int(), id: z.number().int(), name: z.string() }).nullable(),
});

export const eventsAnswer = z.object({ events: z.array(event), next: z.number().int(), done: z.boolean() });

export const historyAnswer = z.object({
  entries: z.array(z.object({
    step: z.number().int(),
    lastAction: z.object({ seat: z.number().int(), id: z.number().int(), name: z.string() }).nullable().describe('The action that led to this step (null for step 0, the deal).'),
    events: z.array(event).describe("The step's events as the token's seat saw them."),
  })),
  steps: z.number().int().describe('Actions taken so far: the present is step `steps`.'),
  next: z.number().int().nullable().describe('The step to ask from for the rest; null when this answer reaches the present.'),
});

/**
 * A game's seed as a client may send it (a game, a tournament) and as a replay carries it: one
 * bound for all of them, the replay link's (eval/replay-record.ts), so a game played here
 * always fits its replay and a replay brings in no seed a game could not have.
 */
export const MAX_SEED = MAX_SEED_CHARS;
export const gameSeed = z.union([z.string().max(MAX_SEED, `a seed is at most ${MAX_SEED} characters`), z.number().int()]);

const fault = z.object({ step: z.number().int(), seat: z.number().int(), reason: z.string() });

export const replayAnswer = z.object({
  seed: gameSeed,
  salt: z.string().describe('With the seed, what the commitment hashed: SHA-256(salt + seed) equals seedCommitment.'),
  seedCommitment: z.string(),
  seedChosen: z.boolean(),
  players: z.number().int(),
  seats: z.array(z.string()),
  reward: z.string(),
  askForced: z.boolean().describe('Every seat was asked at every decision, forced ones too (every game the server deals): replay the actions with the env option of that name.'),
  actions: z.array(z.number().int()),
  scores: z.array(z.number()),
  faults: z.array(fault).describe('Decisions a bot could not make in time or memory: the seat played its first legal action.'),
});

export const replayFrame = z.object({
  step: z.number().int(),
  steps: z.number().int(),
  views: z.array(objectView),
  decision: z.looseObject({}),
  legalActions: z.array(namedAction),
  next: z.object({ seat: z.number().int(), id: z.number().int(), name: z.string() }).nullable(),
  events: z.array(event),
  scores: z.array(z.number()),
});

export const jobAnswer = z.object({
  id: z.string(),
  status: z.enum(['running', 'done', 'failed', 'cancelled', 'timed-out']),
  done: z.number().int(),
  total: z.number().int(),
  agents: z.array(z.string()),
  error: z.string().optional(),
  summary: z.looseObject({}).optional().describe('Once ended: the headline figures per agent (as `czech-pub tournament --json`).'),
  leaderboard: z.string().optional(),
});

export const rulesetAnswer = z.object({
  ruleset: z.looseObject({}).describe('Every number of the game (env/ruleset.ts).'),
  fingerprint: z.string().describe("The ruleset's fingerprint (env/spec.ts): results and checkpoints made under these rules record it."),
  cards: z.array(z.object({ id: z.string(), type: z.number().int(), name: z.string(), kind: z.string(), text: z.string().describe('What the card does, from the ruleset (env/card-text.ts).'), short: z.string().describe("The card's effect in a few words, for its face (env/card-text.ts cardShortTexts).") })),
  closingTime: z.object({ name: z.string(), text: z.string(), short: z.string() }),
  glossary: z.array(z.object({ term: z.string(), text: z.string() })).describe('The terms of the table (points and score, the chart, PAUSE, abstinence), from the ruleset.'),
  players: z.object({ min: z.number().int(), max: z.number().int() }),
  actionSpaceVersion: z.number().int(),
  actionGroups: z.array(z.object({ first: z.number().int(), last: z.number().int(), kind: z.string() })),
});

export const health = z.object({
  status: z.literal('ok'),
  uptimeSec: z.number(),
  ruleset: z.object({ name: z.string(), fingerprint: z.string() }).describe('The rules every game here is played under.'),
});

export const lobbyAnswer = z.object({
  games: z.array(z.object({
    id: z.string(),
    players: z.number().int(),
    seats: z.array(z.object({
      seat: z.number().int(), who: z.string().describe("'person' or the bot's name"), open: z.boolean(),
      name: z.string().describe('What the seat is called at the table (text, never markup).'), presence,
    })),
    turn: z.number().int(),
    seed: seedShown,
    ageSec: z.number(),
  })),
});

/** env/engine/preview.ts DigestPreview: every chance is exact over the die's faces; 1 is a certainty, 0 cannot happen. */
const chance = () => z.number().min(0).max(1);
const digestPreview = z.object({
  skips: z.boolean().describe("The seat skips this digestion (it played I'll get the same): nothing happens."),
  abstinence: z.boolean().describe('Nothing giving drunkenness is in front: an abstinence, no roll.'),
  points: z.number().int().describe('Points the digestion adds (negative for an abstinence); the die never changes them.'),
  drunkenness: z.number().int().describe('Drunkenness of the cards in front (0 for an abstinence).'),
  total: z.number().int().nullable().describe("Drunkenness plus the chart space's number, which the die must reach; null without a roll."),
  passChance: chance().nullable().describe('The chance the die reaches the total (the usual one space forward); null without a roll.'),
  moves: z.array(z.object({ spaces: z.number().int(), chance: chance() }))
    .describe("Spaces the figure is sent and their chances, fewest first: forward after a roll, back (negative) after an abstinence; a row's end turns the rest of a move into leaving the row. Empty when skipping or thrown out."),
  levelUpChance: chance().describe("The chance of moving past the row's last space onto the next level (then a PAUSE turn)."),
  wastedChance: chance().describe("The chance of moving past the last space of the chart's last row: wasted, out of the game, keeping the points."),
  thrownOut: z.boolean().describe('Thrown out whatever the die shows (a third abstinence in a row, unless insulted).'),
  outChance: chance().describe('The chance of leaving the game this digestion, wasted or thrown out.'),
  newTokens: z.array(z.string()).describe('Shot tokens the digestion gives, by shot card id: the types drunk that the seat did not own.'),
  bonusBefore: z.number().int().describe("The seat's end-of-game shot-type bonus (the ruleset's `shotBonus`, by the number of types owned) before the digestion."),
  bonusAfter: z.number().int().describe('That bonus after the digestion.'),
  copiers: z.array(z.object({
    seat: z.number().int(),
    points: z.number().int().describe('Points the copy adds (negative for an abstinence: nothing to copy).'),
    newTokens: z.array(z.string()),
    bonusBefore: z.number().int(),
    bonusAfter: z.number().int(),
  })).describe("The seats copying this one with I'll get the same, who drink their copy right after it, and what it gives them."),
});

/** env/engine/choice-preview.ts SeatEffect. */
const seatEffect = z.object({
  seat: z.number().int(),
  newTokens: z.array(z.string()).describe("Shot tokens the seat takes at once, by shot card id (a shot choice's discarded shot it lacked)."),
  bonusBefore: z.number().int().describe("Its end-of-game shot-type bonus (the ruleset's `shotBonus`) before the choice."),
  bonusAfter: z.number().int().describe('That bonus after the choice.'),
  points: z.number().int().describe('Points changed at once.'),
  handLoses: z.array(z.string()).describe('Card ids leaving its hand at once where the table sees which, one entry a card.'),
  handGains: z.array(z.string()).describe('Card ids entering its hand at once where the table sees which.'),
  handSize: z.number().int().describe("The change in its hand's size at once, a card moving unseen included (That's my order)."),
  frontLoses: z.array(z.string()).describe('Cards leaving its front at once, labelled as in `fronts`.'),
  frontGains: z.array(z.string()).describe('Cards joining its front at once.'),
  limits: z.object({
    actions: z.number().int(), shots: z.number().int(), beers: z.number().int(), smallBeers: z.number().int(),
  }).nullable().describe("The active player's room left this turn (actions, shot orders, beers, small beers), after the choice less before: positive is freed (a knocked-over order, a poured shot that no longer counts), negative used; null for other seats and when nothing changes."),
  answer: z.object({
    card: z.string().describe('The card it answers.'),
    by: z.number().int().describe('The seat that played that card.'),
    excuseMe: chance().describe('The chance it holds Excuse me.'),
    shotChoice: z.object({
      newToken: chance().describe('The chance it holds a shot card whose token it lacks: discarding that takes the token.'),
      bonusBefore: z.number().int(),
      bonusWithToken: z.number().int().describe('Its end-of-game bonus with one shot type more.'),
      shot: chance(),
      beer: chance(),
      smallBeer: chance(),
      noCard: chance().describe('The chance it holds no shot, beer or small beer: it then loses `losses.nothing` points unless it uses Excuse me.'),
      losses: z.object({ beer: z.number().int(), smallBeer: z.number().int(), nothing: z.number().int() }).describe("Points each way costs (the ruleset's `shotChoice`)."),
    }).nullable().describe("Let's do a shot and Shots, everyone!: its shot choice; null for other cards."),
  }).nullable().describe("The card the choice asks the seat to answer next, with the chances it holds the cards for each answer, counted from what the deciding seat cannot see (every deal consistent with its view equally likely); null when it is not asked."),
});

const choicePreview = z.object({
  id: z.number().int(),
  name: z.string(),
  handLoses: z.array(z.string()).describe("Card ids leaving the seat's hand at once, one entry a card."),
  handGains: z.array(z.string()).describe("Card ids entering the seat's hand at once (only when certain)."),
  fronts: z.array(z.object({ seat: z.number().int(), after: z.array(z.string()) }))
    .describe('Fronts the choice changes at once, as they would be after it: a card id, `:shot` for Flattery, `+poured`, `+added`, `+given`, `+placed`.'),
  points: z.array(z.object({ seat: z.number().int(), change: z.number().int() })).describe("Points changed at once (a shot choice's loss)."),
  passesTo: z.number().int().describe("Excuse me's redirect: the seat asked instead; else -1."),
  certain: z.boolean().describe('False when the choice also does what the seat cannot foresee (a card taken at random, a brawl, drawing up): the lists then hold only what is certain.'),
  digest: digestPreview.nullable().describe("The seat's own digestion this turn, per `digestWhen`; null when it does not digest."),
  digestWhen: z.enum(['now', 'after_done', 'after_discarding']).nullable()
    .describe('`now`: the choice starts the digestion (done, the end of discarding); `after_done`: saying done right after; `after_discarding`: once discarding ends. Always with nobody reacting.'),
  target: z.object({ seat: z.number().int(), before: digestPreview, after: digestPreview }).nullable()
    .describe("An X card: the digestion of the player whose order it hits if they said done, before and after the card."),
  risk: z.object({ kind: z.enum(['out', 'wasted']), chance: chance().describe('Exact over the die faces; 1 for certain.') }).nullable()
    .describe('That digestion may throw the seat out (`out`: a third abstinence) or waste it (past the chart\'s end); null when it cannot. The page asks before sending such a choice.'),
  seats: z.array(seatEffect).describe('What the choice gives each seat it touches, the seat itself included, in seat order.'),
});

export const previewAnswer = z.object({
  step: z.number().int(),
  now: digestPreview.nullable().describe('Digesting what is in front now (saying done with no reaction); null at any decision but choosing what to play.'),
  actions: z.array(choicePreview).describe("Every legal choice of the seat to act, with what it does; empty at another seat's decision."),
});

export const replayOpened = z.object({
  id: z.string(),
  players: z.number().int(),
  seats: z.array(z.string()),
  watchToken: z.string().describe('Opens the replay frames: GET /v1/games/{id}/replay/{step}.'),
  steps: z.number().int(),
  scores: z.array(z.number()),
});
