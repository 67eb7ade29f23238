/**
 * The OpenAPI document's types (/docs/json), made by openapi-typescript: npm run docs:api-types.
 * Do not edit; server/openapi-types.ts explains.
 */

export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the server serves, and the rules it plays */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/bots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The bots that can fill a seat, with the options a client may set */
        get: operations["listBots"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ruleset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The rules' numbers, the cards' names and texts, and a glossary */
        get: operations["getRuleset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/bots/{spec}/act": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A bot's action for a posted view and its legal actions (stateless) */
        post: operations["askBot"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/games": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The lobby: games in progress with a seat open to anyone
         * @description The lobby: games in progress with a seat open to anyone (created with an `open` seat), newest first. Public facts only.
         */
        get: operations["listOpenGames"];
        put?: never;
        /** A game: its seats filled by bots, remote players or the lobby; the seat tokens */
        post: operations["createGame"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/games/{id}/view": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The token's view: legal actions, whose turn, the last action's events */
        get: operations["getView"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/games/{id}/actions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The token's seat plays an action; bot seats then play on
         * @description With `step`, the action answers the decision at that step only: if the game has moved on (an X card played in between asked the seat again), it is refused with 409 `code: decision-changed` and nothing is played, so a click meant for the decision before never lands on the one after.
         */
        post: operations["playAction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/games/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What the token's seat saw, from its N-th event on */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/games/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the token's seat saw, step by step, from step K on (paged)
         * @description Steps from `from` (default 0) on, at most `limit` (default and most 500) of them: for each, the action that led to it and its events as the token's seat saw them (what a page that was there from the start has in its log). `next` is the step to ask from for the rest, null once there is none.
         */
        get: operations["getHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/games/{id}/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The token's events as Server-Sent Events, live
         * @description Server-Sent Events: each event's id is the seat's event count, so a reconnect with Last-Event-ID resumes; `step` (no id) when the game moved on without an event the seat sees, or a seat was joined; a comment line every heartbeat; ends with `end`, `gone` (the game is no longer held) or `closed` (its place went to another client's stream while all were taken: reconnect later).
         */
        get: operations["streamEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/games/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A finished game: its seed, seats and every action */
        get: operations["getReplay"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/games/{id}/replay/{step}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A finished game's step: every seat's view and the choice made */
        get: operations["getReplayFrame"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/games/{id}/join": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Takes an open seat of a lobby game: the seat's token
         * @description Takes an open seat: its token, handed out once. Anyone may join a lobby game; that is what an open seat is for (a client holds at most maxJoinedSeatsPerClient such seats in games in progress: 429).
         */
        post: operations["joinGame"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/games/{id}/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * For the seat to act: what each legal choice would do, and what digesting would give
         * @description For the seat to act, at any decision: what each legal choice would do at once (cards leaving and entering its hand, fronts and points changed), the seat's digestion it starts or that saying done right after would give, an X card's change to the digestion of the player it hits, and a `risk` when that digestion may waste the seat or throw it out; while it chooses what to play, also what digesting now would give. Worked out from what the seat may see and the die's faces (the engine's card code and digestion on the seat's facts, once per face, never the game's dice to come): what depends on hidden cards is left out (`certain: false`). At most one entry per legal action. Empty at another seat's decision.
         */
        get: operations["getPreview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/games/{id}/hint": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * For the seat to act: what the Strong bot would play, how sure it is, and why
         * @description For the seat to act: the action the Strong bot (catalogue entry `ppo`) would play there, with its probability under the bot's policy and the two next most likely actions with theirs, and that action's entry of GET preview (the same object), which says what it would do. The bot is told what a bot in that seat would be, from the seat's facts alone (never the game's seed: its own is made from the game's id and the seat), and it plays along with the seat's earlier decisions as that bot would. Where Strong cannot advise, the heuristic (Regular) does, without probabilities, and `fallback` says why. A 409 (`code: not-seat-to-act`) at another seat's decision or once the game is over.
         */
        get: operations["getHint"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/games/{id}/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The token's seat's settings: auto-pass */
        get: operations["getSettings"];
        /**
         * Changes the token's seat's settings; auto-pass then passes if it now applies
         * @description Fields left out keep their values. If the seat is deciding and auto-pass now passes for it, it does at once, and the bots play on.
         */
        put: operations["putSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/replays": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A tournament's game (link, line or record), replayed and held for its frames
         * @description A finished game from its replay link (a report's `#replay=` part), a tournament's games.jsonl line as it is (its agents name the seats), or a record: replayed under this server's rules, every action checked, then served like any finished game's replay (GET /v1/games/{id}/replay/{step} with the watch token).
         */
        post: operations["openReplay"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tournaments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A tournament of catalogue bots, run as a background job */
        post: operations["startTournament"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tournaments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A tournament's progress; once ended, its summary */
        get: operations["getTournament"];
        put?: never;
        post?: never;
        /**
         * Stops a tournament, or drops a finished one
         * @description Stops a running tournament (its finished games are kept and summarised), or drops a finished one.
         */
        delete: operations["stopTournament"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description An error: every 4xx and 5xx answer has this shape. */
        Error: {
            /** @description What was wrong with the request (never what the server holds). */
            error: string;
            /** @description A kind of fault a client may act on: 'game-gone' (404) when the server no longer holds the game. */
            code?: string;
            /** @description Only in a 409 answer to an action: the seat's legal actions now (none when it is not its turn or the game is over). */
            legalActions?: {
                id: number;
                name: string;
            }[];
        } & {
            [key: string]: unknown;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                        uptimeSec: number;
                        /** @description The rules every game here is played under. */
                        ruleset: {
                            name: string;
                            fingerprint: string;
                        };
                    };
                };
            };
            /** @description The Host header names no host this server answers to (a guard against DNS rebinding). */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listBots: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        bots: {
                            /** @description What to name in a seat, a tournament or the act route: `name` or `name:option=value:...`. */
                            name: string;
                            /** @description What players see it called at the table ("Regular"); the operator may set it. */
                            displayName: string;
                            /** @description How hard it is to beat, in players' words ("Medium"); entries with one come first, weakest first. Null: a bot for research, offered after them. */
                            strength: string | null;
                            /** @description The kind of agent it plays. */
                            agent: string;
                            description: string;
                            /** @description Options a client may set, with their range or values. */
                            options: {
                                [key: string]: {
                                    min: number;
                                    max: number;
                                    integer?: boolean;
                                } | {
                                    values: (string | number | boolean)[];
                                };
                            };
                            /** @description Whether POST /v1/bots/{spec}/act can ask it (search and language-model bots need a game held here). */
                            servesPostedViews: boolean;
                            /** @description Whether it can fill a seat of a game made by POST /v1/games (the page offers only these). */
                            seatsLiveGames: boolean;
                            /** @description Its decisions run on the bot worker threads, under a time and memory limit. */
                            heavy: boolean;
                        }[];
                    };
                };
            };
            /** @description The Host header names no host this server answers to (a guard against DNS rebinding). */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A limit: requests per second, live games or tournaments (in all or yours), event streams. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRuleset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Every number of the game (env/ruleset.ts). */
                        ruleset: {
                            [key: string]: unknown;
                        };
                        /** @description The ruleset's fingerprint (env/spec.ts): results and checkpoints made under these rules record it. */
                        fingerprint: string;
                        cards: {
                            id: string;
                            type: number;
                            name: string;
                            kind: string;
                            /** @description What the card does, from the ruleset (env/card-text.ts). */
                            text: string;
                            /** @description The card's effect in a few words, for its face (env/card-text.ts cardShortTexts). */
                            short: string;
                        }[];
                        closingTime: {
                            name: string;
                            text: string;
                            short: string;
                        };
                        /** @description The terms of the table (points and score, the chart, PAUSE, abstinence), from the ruleset. */
                        glossary: {
                            term: string;
                            text: string;
                        }[];
                        players: {
                            min: number;
                            max: number;
                        };
                        actionSpaceVersion: number;
                        actionGroups: {
                            first: number;
                            last: number;
                            kind: string;
                        }[];
                    };
                };
            };
            /** @description The Host header names no host this server answers to (a guard against DNS rebinding). */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A limit: requests per second, live games or tournaments (in all or yours), event streams. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    askBot: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                spec: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A seat's view as GET /v1/games/{id}/view gives it (PlayerView); checked field by field. */
                    view: unknown;
                    legalActions: number[];
                    /** @description Ignored: the server encodes the posted view itself, so any bot (ppo included) needs only the view. Accepted so that older clients sending it keep working. */
                    encoding?: number[];
                    /** @description An opaque name for the game this decision belongs to (what an `http:` agent sends): bots that draw at random are seeded from it, so one game's decisions share a stream. */
                    game?: string;
                    /** @description Older clients' name for `game`. */
                    seed?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        action: number;
                        name: string;
                    };
                };
            };
            /** @description Malformed request: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such game, bot, tournament or step. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Host header names no host this server answers to (a guard against DNS rebinding). */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A limit: requests per second, live games or tournaments (in all or yours), event streams. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listOpenGames: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        games: {
                            id: string;
                            players: number;
                            seats: {
                                seat: number;
                                /** @description 'person' or the bot's name */
                                who: string;
                                open: boolean;
                                /** @description What the seat is called at the table (text, never markup). */
                                name: string;
                                /**
                                 * @description 'bot'; 'open': waiting in the lobby for someone to join; 'connected': a person whose event stream is open or who asked lately; 'away': a person who has not.
                                 * @enum {string}
                                 */
                                presence: "bot" | "open" | "connected" | "away";
                            }[];
                            turn: number;
                            seed: {
                                /** @description SHA-256 (hex) of the salt followed by the seed: fixed before the deal; the replay reveals the seed and the salt, so anyone can check it. */
                                commitment: string;
                                /** @description The creator chose the seed (only a table without open seats may): they could know every hand. */
                                chosen: boolean;
                            };
                            ageSec: number;
                        }[];
                    };
                };
            };
            /** @description The Host header names no host this server answers to (a guard against DNS rebinding). */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A limit: requests per second, live games or tournaments (in all or yours), event streams. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createGame: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Per seat: 'remote' for a seat played through the API (its token comes back here), 'open' for a seat anyone may take from the lobby (POST /v1/games/{id}/join), or a bot from GET /v1/bots. */
                    seats: string[];
                    /** @description Deals the game. Without one, a random seed is drawn. Every game commits to its seed (`seed.commitment`, in every view and the lobby) and reveals it with the commitment's salt in the replay. Refused for a game with an 'open' seat; a table of 'remote' and bot seats may set one, and its views say so (`seed.chosen`). */
                    seed?: string | number;
                    /** @enum {string} */
                    reward?: "win" | "rank" | "score";
                    /** @description Per seat, a display name for a 'remote' seat (null or absent: "Player N"); bots are called by their catalogue name, and whoever joins an open seat names themselves. */
                    names?: (string | null)[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        players: number;
                        /** @description 'remote' or the bot's name with its options, per seat. */
                        seats: string[];
                        /** @description What each seat is called at the table. */
                        names: string[];
                        /** @description One secret token per remote seat. */
                        tokens: {
                            seat: number;
                            token: string;
                        }[];
                        watchToken: string;
                        seed: {
                            /** @description SHA-256 (hex) of the salt followed by the seed: fixed before the deal; the replay reveals the seed and the salt, so anyone can check it. */
                            commitment: string;
                            /** @description The creator chose the seed (only a table without open seats may): they could know every hand. */
                            chosen: boolean;
                        };
                    };
                };
            };
            /** @description Malformed request: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Host header names no host this server answers to (a guard against DNS rebinding). */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A limit: requests per second, live games or tournaments (in all or yours), event streams. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getView: {
        parameters: {
            query?: {
                at?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @description The token's seat; null for the watch token. */
                        seat: number | null;
                        /** @description 'remote' or the bot's name with its options, per seat. */
                        seats: string[];
                        /** @description What each seat is called at the table: a person's display name (default "Player N"), a bot's catalogue display name. Text to show as text, never markup. */
                        names: string[];
                        /** @description Who is at each seat now. */
                        presence: ("bot" | "open" | "connected" | "away")[];
                        done: boolean;
                        /** @description The seat deciding now; null once the game is over. */
                        actor: number | null;
                        yourTurn: boolean;
                        /** @description A seat's view (PlayerView, env/observation/view.ts), or the public view for the watch token. */
                        view: {
                            [key: string]: unknown;
                        };
                        text: string | null;
                        legalActions: {
                            id: number;
                            name: string;
                            /** @description What choosing it costs or causes, when its name does not say (points lost, an abstinence). */
                            note?: string;
                            /** @description The card id it plays from the hand: the order or pub card, the X card of a reaction, Excuse me. */
                            plays?: string;
                        }[];
                        /** @description Seats waiting for someone to join from the lobby. */
                        openSeats: number[];
                        seed: {
                            /** @description SHA-256 (hex) of the salt followed by the seed: fixed before the deal; the replay reveals the seed and the salt, so anyone can check it. */
                            commitment: string;
                            /** @description The creator chose the seed (only a table without open seats may): they could know every hand. */
                            chosen: boolean;
                        };
                        scores: number[] | null;
                        step: number;
                        steps: number;
                        events: ({
                            k: string;
                            text: string | null;
                        } & {
                            [key: string]: unknown;
                        })[];
                        lastAction: {
                            seat: number;
                            id: number;
                            name: string;
                        } | null;
                    };
                };
            };
            /** @description Malformed request: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token: send Authorization: Bearer <token>. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token opens no seat of this game, or may only watch; or the server runs no tournaments. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such game, bot, tournament or step. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Host header names no host this server answers to (a guard against DNS rebinding). */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A limit: requests per second, live games or tournaments (in all or yours), event streams. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    playAction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    action: number;
                    /** @description The step of the decision this action answers (GET view's `step`); refused with 409 if the game is at another. */
                    step?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @description The token's seat; null for the watch token. */
                        seat: number | null;
                        /** @description 'remote' or the bot's name with its options, per seat. */
                        seats: string[];
                        /** @description What each seat is called at the table: a person's display name (default "Player N"), a bot's catalogue display name. Text to show as text, never markup. */
                        names: string[];
                        /** @description Who is at each seat now. */
                        presence: ("bot" | "open" | "connected" | "away")[];
                        done: boolean;
                        /** @description The seat deciding now; null once the game is over. */
                        actor: number | null;
                        yourTurn: boolean;
                        /** @description A seat's view (PlayerView, env/observation/view.ts), or the public view for the watch token. */
                        view: {
                            [key: string]: unknown;
                        };
                        text: string | null;
                        legalActions: {
                            id: number;
                            name: string;
                            /** @description What choosing it costs or causes, when its name does not say (points lost, an abstinence). */
                            note?: string;
                            /** @description The card id it plays from the hand: the order or pub card, the X card of a reaction, Excuse me. */
                            plays?: string;
                        }[];
                        /** @description Seats waiting for someone to join from the lobby. */
                        openSeats: number[];
                        seed: {
                            /** @description SHA-256 (hex) of the salt followed by the seed: fixed before the deal; the replay reveals the seed and the salt, so anyone can check it. */
                            commitment: string;
                            /** @description The creator chose the seed (only a table without open seats may): they could know every hand. */
                            chosen: boolean;
                        };
                        scores: number[] | null;
                        step: number;
                        steps: number;
                        events: ({
                            k: string;
                            text: string | null;
                        } & {
                            [key: string]: unknown;
                        })[];
                        lastAction: {
                            seat: number;
                            id: number;
                            name: string;
                        } | null;
                    };
                };
            };
            /** @description Malformed request: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token: send Authorization: Bearer <token>. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token opens no seat of this game, or may only watch; or the server runs no tournaments. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such game, bot, tournament or step. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not now: not your turn, an illegal action, the game not over (replays), or already over; no open seat left. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Host header names no host this server answers to (a guard against DNS rebinding). */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A limit: requests per second, live games or tournaments (in all or yours), event streams. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                since?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        events: ({
                            k: string;
                            text: string | null;
                        } & {
                            [key: string]: unknown;
                        })[];
                        next: number;
                        done: boolean;
                    };
                };
            };
            /** @description Malformed request: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token: send Authorization: Bearer <token>. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token opens no seat of this game, or may only watch; or the server runs no tournaments. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such game, bot, tournament or step. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Host header names no host this server answers to (a guard against DNS rebinding). */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A limit: requests per second, live games or tournaments (in all or yours), event streams. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHistory: {
        parameters: {
            query?: {
                from?: string;
                limit?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entries: {
                            step: number;
                            /** @description The action that led to this step (null for step 0, the deal). */
                            lastAction: {
                                seat: number;
                                id: number;
                                name: string;
                            } | null;
                            /** @description The step's events as the token's seat saw them. */
                            events: ({
                                k: string;
                                text: string | null;
                            } & {
                                [key: string]: unknown;
                            })[];
                        }[];
                        /** @description Actions taken so far: the present is step `steps`. */
                        steps: number;
                        /** @description The step to ask from for the rest; null when this answer reaches the present. */
                        next: number | null;
                    };
                };
            };
            /** @description Malformed request: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token: send Authorization: Bearer <token>. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token opens no seat of this game, or may only watch; or the server runs no tournaments. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such game, bot, tournament or step. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Host header names no host this server answers to (a guard against DNS rebinding). */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A limit: requests per second, live games or tournaments (in all or yours), event streams. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    streamEvents: {
        parameters: {
            query?: {
                since?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Malformed request: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token: send Authorization: Bearer <token>. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token opens no seat of this game, or may only watch; or the server runs no tournaments. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such game, bot, tournament or step. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Host header names no host this server answers to (a guard against DNS rebinding). */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A limit: requests per second, live games or tournaments (in all or yours), event streams. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReplay: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        seed: string | number;
                        /** @description With the seed, what the commitment hashed: SHA-256(salt + seed) equals seedCommitment. */
                        salt: string;
                        seedCommitment: string;
                        seedChosen: boolean;
                        players: number;
                        seats: string[];
                        reward: string;
                        /** @description Every seat was asked at every decision, forced ones too (every game the server deals): replay the actions with the env option of that name. */
                        askForced: boolean;
                        actions: number[];
                        scores: number[];
                        /** @description Decisions a bot could not make in time or memory: the seat played its first legal action. */
                        faults: {
                            step: number;
                            seat: number;
                            reason: string;
                        }[];
                    };
                };
            };
            /** @description No token: send Authorization: Bearer <token>. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token opens no seat of this game, or may only watch; or the server runs no tournaments. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such game, bot, tournament or step. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not now: not your turn, an illegal action, the game not over (replays), or already over; no open seat left. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Host header names no host this server answers to (a guard against DNS rebinding). */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A limit: requests per second, live games or tournaments (in all or yours), event streams. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReplayFrame: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                step: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        step: number;
                        steps: number;
                        views: {
                            [key: string]: unknown;
                        }[];
                        decision: {
                            [key: string]: unknown;
                        };
                        legalActions: {
                            id: number;
                            name: string;
                        }[];
                        next: {
                            seat: number;
                            id: number;
                            name: string;
                        } | null;
                        events: ({
                            k: string;
                            text: string | null;
                        } & {
                            [key: string]: unknown;
                        })[];
                        scores: number[];
                    };
                };
            };
            /** @description Malformed request: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token: send Authorization: Bearer <token>. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token opens no seat of this game, or may only watch; or the server runs no tournaments. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such game, bot, tournament or step. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not now: not your turn, an illegal action, the game not over (replays), or already over; no open seat left. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Host header names no host this server answers to (a guard against DNS rebinding). */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A limit: requests per second, live games or tournaments (in all or yours), event streams. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    joinGame: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description An open seat; default: the first open one. */
                    seat?: number;
                    /** @description A display name for the seat, shown to everyone at the table (1 to 24 characters once trimmed). Default: "Player N". */
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        seat: number;
                        token: string;
                        seed: {
                            /** @description SHA-256 (hex) of the salt followed by the seed: fixed before the deal; the replay reveals the seed and the salt, so anyone can check it. */
                            commitment: string;
                            /** @description The creator chose the seed (only a table without open seats may): they could know every hand. */
                            chosen: boolean;
                        };
                    };
                };
            };
            /** @description Malformed request: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such game, bot, tournament or step. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not now: not your turn, an illegal action, the game not over (replays), or already over; no open seat left. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Host header names no host this server answers to (a guard against DNS rebinding). */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A limit: requests per second, live games or tournaments (in all or yours), event streams. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPreview: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        step: number;
                        /** @description Digesting what is in front now (saying done with no reaction); null at any decision but choosing what to play. */
                        now: {
                            /** @description The seat skips this digestion (it played I'll get the same): nothing happens. */
                            skips: boolean;
                            /** @description Nothing giving drunkenness is in front: an abstinence, no roll. */
                            abstinence: boolean;
                            /** @description Points the digestion adds (negative for an abstinence); the die never changes them. */
                            points: number;
                            /** @description Drunkenness of the cards in front (0 for an abstinence). */
                            drunkenness: number;
                            /** @description Drunkenness plus the chart space's number, which the die must reach; null without a roll. */
                            total: number | null;
                            /** @description The chance the die reaches the total (the usual one space forward); null without a roll. */
                            passChance: number | null;
                            /** @description Spaces the figure is sent and their chances, fewest first: forward after a roll, back (negative) after an abstinence; a row's end turns the rest of a move into leaving the row. Empty when skipping or thrown out. */
                            moves: {
                                spaces: number;
                                chance: number;
                            }[];
                            /** @description The chance of moving past the row's last space onto the next level (then a PAUSE turn). */
                            levelUpChance: number;
                            /** @description The chance of moving past the last space of the chart's last row: wasted, out of the game, keeping the points. */
                            wastedChance: number;
                            /** @description Thrown out whatever the die shows (a third abstinence in a row, unless insulted). */
                            thrownOut: boolean;
                            /** @description The chance of leaving the game this digestion, wasted or thrown out. */
                            outChance: number;
                            /** @description Shot tokens the digestion gives, by shot card id: the types drunk that the seat did not own. */
                            newTokens: string[];
                            /** @description The seat's end-of-game shot-type bonus (the ruleset's `shotBonus`, by the number of types owned) before the digestion. */
                            bonusBefore: number;
                            /** @description That bonus after the digestion. */
                            bonusAfter: number;
                            /** @description The seats copying this one with I'll get the same, who drink their copy right after it, and what it gives them. */
                            copiers: {
                                seat: number;
                                /** @description Points the copy adds (negative for an abstinence: nothing to copy). */
                                points: number;
                                newTokens: string[];
                                bonusBefore: number;
                                bonusAfter: number;
                            }[];
                        } | null;
                        /** @description Every legal choice of the seat to act, with what it does; empty at another seat's decision. */
                        actions: {
                            id: number;
                            name: string;
                            /** @description Card ids leaving the seat's hand at once, one entry a card. */
                            handLoses: string[];
                            /** @description Card ids entering the seat's hand at once (only when certain). */
                            handGains: string[];
                            /** @description Fronts the choice changes at once, as they would be after it: a card id, `:shot` for Flattery, `+poured`, `+added`, `+given`, `+placed`. */
                            fronts: {
                                seat: number;
                                after: string[];
                            }[];
                            /** @description Points changed at once (a shot choice's loss). */
                            points: {
                                seat: number;
                                change: number;
                            }[];
                            /** @description Excuse me's redirect: the seat asked instead; else -1. */
                            passesTo: number;
                            /** @description False when the choice also does what the seat cannot foresee (a card taken at random, a brawl, drawing up): the lists then hold only what is certain. */
                            certain: boolean;
                            /** @description The seat's own digestion this turn, per `digestWhen`; null when it does not digest. */
                            digest: {
                                /** @description The seat skips this digestion (it played I'll get the same): nothing happens. */
                                skips: boolean;
                                /** @description Nothing giving drunkenness is in front: an abstinence, no roll. */
                                abstinence: boolean;
                                /** @description Points the digestion adds (negative for an abstinence); the die never changes them. */
                                points: number;
                                /** @description Drunkenness of the cards in front (0 for an abstinence). */
                                drunkenness: number;
                                /** @description Drunkenness plus the chart space's number, which the die must reach; null without a roll. */
                                total: number | null;
                                /** @description The chance the die reaches the total (the usual one space forward); null without a roll. */
                                passChance: number | null;
                                /** @description Spaces the figure is sent and their chances, fewest first: forward after a roll, back (negative) after an abstinence; a row's end turns the rest of a move into leaving the row. Empty when skipping or thrown out. */
                                moves: {
                                    spaces: number;
                                    chance: number;
                                }[];
                                /** @description The chance of moving past the row's last space onto the next level (then a PAUSE turn). */
                                levelUpChance: number;
                                /** @description The chance of moving past the last space of the chart's last row: wasted, out of the game, keeping the points. */
                                wastedChance: number;
                                /** @description Thrown out whatever the die shows (a third abstinence in a row, unless insulted). */
                                thrownOut: boolean;
                                /** @description The chance of leaving the game this digestion, wasted or thrown out. */
                                outChance: number;
                                /** @description Shot tokens the digestion gives, by shot card id: the types drunk that the seat did not own. */
                                newTokens: string[];
                                /** @description The seat's end-of-game shot-type bonus (the ruleset's `shotBonus`, by the number of types owned) before the digestion. */
                                bonusBefore: number;
                                /** @description That bonus after the digestion. */
                                bonusAfter: number;
                                /** @description The seats copying this one with I'll get the same, who drink their copy right after it, and what it gives them. */
                                copiers: {
                                    seat: number;
                                    /** @description Points the copy adds (negative for an abstinence: nothing to copy). */
                                    points: number;
                                    newTokens: string[];
                                    bonusBefore: number;
                                    bonusAfter: number;
                                }[];
                            } | null;
                            /**
                             * @description `now`: the choice starts the digestion (done, the end of discarding); `after_done`: saying done right after; `after_discarding`: once discarding ends. Always with nobody reacting.
                             * @enum {string|null}
                             */
                            digestWhen: "now" | "after_done" | "after_discarding" | null;
                            /** @description An X card: the digestion of the player whose order it hits if they said done, before and after the card. */
                            target: {
                                seat: number;
                                before: {
                                    /** @description The seat skips this digestion (it played I'll get the same): nothing happens. */
                                    skips: boolean;
                                    /** @description Nothing giving drunkenness is in front: an abstinence, no roll. */
                                    abstinence: boolean;
                                    /** @description Points the digestion adds (negative for an abstinence); the die never changes them. */
                                    points: number;
                                    /** @description Drunkenness of the cards in front (0 for an abstinence). */
                                    drunkenness: number;
                                    /** @description Drunkenness plus the chart space's number, which the die must reach; null without a roll. */
                                    total: number | null;
                                    /** @description The chance the die reaches the total (the usual one space forward); null without a roll. */
                                    passChance: number | null;
                                    /** @description Spaces the figure is sent and their chances, fewest first: forward after a roll, back (negative) after an abstinence; a row's end turns the rest of a move into leaving the row. Empty when skipping or thrown out. */
                                    moves: {
                                        spaces: number;
                                        chance: number;
                                    }[];
                                    /** @description The chance of moving past the row's last space onto the next level (then a PAUSE turn). */
                                    levelUpChance: number;
                                    /** @description The chance of moving past the last space of the chart's last row: wasted, out of the game, keeping the points. */
                                    wastedChance: number;
                                    /** @description Thrown out whatever the die shows (a third abstinence in a row, unless insulted). */
                                    thrownOut: boolean;
                                    /** @description The chance of leaving the game this digestion, wasted or thrown out. */
                                    outChance: number;
                                    /** @description Shot tokens the digestion gives, by shot card id: the types drunk that the seat did not own. */
                                    newTokens: string[];
                                    /** @description The seat's end-of-game shot-type bonus (the ruleset's `shotBonus`, by the number of types owned) before the digestion. */
                                    bonusBefore: number;
                                    /** @description That bonus after the digestion. */
                                    bonusAfter: number;
                                    /** @description The seats copying this one with I'll get the same, who drink their copy right after it, and what it gives them. */
                                    copiers: {
                                        seat: number;
                                        /** @description Points the copy adds (negative for an abstinence: nothing to copy). */
                                        points: number;
                                        newTokens: string[];
                                        bonusBefore: number;
                                        bonusAfter: number;
                                    }[];
                                };
                                after: {
                                    /** @description The seat skips this digestion (it played I'll get the same): nothing happens. */
                                    skips: boolean;
                                    /** @description Nothing giving drunkenness is in front: an abstinence, no roll. */
                                    abstinence: boolean;
                                    /** @description Points the digestion adds (negative for an abstinence); the die never changes them. */
                                    points: number;
                                    /** @description Drunkenness of the cards in front (0 for an abstinence). */
                                    drunkenness: number;
                                    /** @description Drunkenness plus the chart space's number, which the die must reach; null without a roll. */
                                    total: number | null;
                                    /** @description The chance the die reaches the total (the usual one space forward); null without a roll. */
                                    passChance: number | null;
                                    /** @description Spaces the figure is sent and their chances, fewest first: forward after a roll, back (negative) after an abstinence; a row's end turns the rest of a move into leaving the row. Empty when skipping or thrown out. */
                                    moves: {
                                        spaces: number;
                                        chance: number;
                                    }[];
                                    /** @description The chance of moving past the row's last space onto the next level (then a PAUSE turn). */
                                    levelUpChance: number;
                                    /** @description The chance of moving past the last space of the chart's last row: wasted, out of the game, keeping the points. */
                                    wastedChance: number;
                                    /** @description Thrown out whatever the die shows (a third abstinence in a row, unless insulted). */
                                    thrownOut: boolean;
                                    /** @description The chance of leaving the game this digestion, wasted or thrown out. */
                                    outChance: number;
                                    /** @description Shot tokens the digestion gives, by shot card id: the types drunk that the seat did not own. */
                                    newTokens: string[];
                                    /** @description The seat's end-of-game shot-type bonus (the ruleset's `shotBonus`, by the number of types owned) before the digestion. */
                                    bonusBefore: number;
                                    /** @description That bonus after the digestion. */
                                    bonusAfter: number;
                                    /** @description The seats copying this one with I'll get the same, who drink their copy right after it, and what it gives them. */
                                    copiers: {
                                        seat: number;
                                        /** @description Points the copy adds (negative for an abstinence: nothing to copy). */
                                        points: number;
                                        newTokens: string[];
                                        bonusBefore: number;
                                        bonusAfter: number;
                                    }[];
                                };
                            } | null;
                            /** @description That digestion may throw the seat out (`out`: a third abstinence) or waste it (past the chart's end); null when it cannot. The page asks before sending such a choice. */
                            risk: {
                                /** @enum {string} */
                                kind: "out" | "wasted";
                                /** @description Exact over the die faces; 1 for certain. */
                                chance: number;
                            } | null;
                            /** @description What the choice gives each seat it touches, the seat itself included, in seat order. */
                            seats: {
                                seat: number;
                                /** @description Shot tokens the seat takes at once, by shot card id (a shot choice's discarded shot it lacked). */
                                newTokens: string[];
                                /** @description Its end-of-game shot-type bonus (the ruleset's `shotBonus`) before the choice. */
                                bonusBefore: number;
                                /** @description That bonus after the choice. */
                                bonusAfter: number;
                                /** @description Points changed at once. */
                                points: number;
                                /** @description Card ids leaving its hand at once where the table sees which, one entry a card. */
                                handLoses: string[];
                                /** @description Card ids entering its hand at once where the table sees which. */
                                handGains: string[];
                                /** @description The change in its hand's size at once, a card moving unseen included (That's my order). */
                                handSize: number;
                                /** @description Cards leaving its front at once, labelled as in `fronts`. */
                                frontLoses: string[];
                                /** @description Cards joining its front at once. */
                                frontGains: string[];
                                /** @description The active player's room left this turn (actions, shot orders, beers, small beers), after the choice less before: positive is freed (a knocked-over order, a poured shot that no longer counts), negative used; null for other seats and when nothing changes. */
                                limits: {
                                    actions: number;
                                    shots: number;
                                    beers: number;
                                    smallBeers: number;
                                } | null;
                                /** @description The card the choice asks the seat to answer next, with the chances it holds the cards for each answer, counted from what the deciding seat cannot see (every deal consistent with its view equally likely); null when it is not asked. */
                                answer: {
                                    /** @description The card it answers. */
                                    card: string;
                                    /** @description The seat that played that card. */
                                    by: number;
                                    /** @description The chance it holds Excuse me. */
                                    excuseMe: number;
                                    /** @description Let's do a shot and Shots, everyone!: its shot choice; null for other cards. */
                                    shotChoice: {
                                        /** @description The chance it holds a shot card whose token it lacks: discarding that takes the token. */
                                        newToken: number;
                                        bonusBefore: number;
                                        /** @description Its end-of-game bonus with one shot type more. */
                                        bonusWithToken: number;
                                        shot: number;
                                        beer: number;
                                        smallBeer: number;
                                        /** @description The chance it holds no shot, beer or small beer: it then loses `losses.nothing` points unless it uses Excuse me. */
                                        noCard: number;
                                        /** @description Points each way costs (the ruleset's `shotChoice`). */
                                        losses: {
                                            beer: number;
                                            smallBeer: number;
                                            nothing: number;
                                        };
                                    } | null;
                                } | null;
                            }[];
                        }[];
                    };
                };
            };
            /** @description No token: send Authorization: Bearer <token>. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token opens no seat of this game, or may only watch; or the server runs no tournaments. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such game, bot, tournament or step. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Host header names no host this server answers to (a guard against DNS rebinding). */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A limit: requests per second, live games or tournaments (in all or yours), event streams. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The decision the hint is for (as in GET view and GET preview). */
                        step: number;
                        bot: {
                            /** @description Its catalogue entry (GET /v1/bots). */
                            name: string;
                            displayName: string;
                        };
                        /** @description Why another bot than Strong is quoted (the server has no Strong bot, or its model for this table could not be loaded); null when Strong is. */
                        fallback: string | null;
                        /** @description What the bot would play: its most likely action. */
                        action: {
                            id: number;
                            name: string;
                            /** @description Under the bot's policy (softmax over the legal actions); null for a bot without one (the fallback). */
                            probability: number | null;
                        };
                        /** @description The next most likely actions, most likely first (empty for a bot without probabilities). */
                        runnersUp: {
                            id: number;
                            name: string;
                            /** @description Under the bot's policy (softmax over the legal actions); null for a bot without one (the fallback). */
                            probability: number | null;
                        }[];
                        /** @description The action's entry of GET preview at this step; null where the preview has none. */
                        preview: {
                            id: number;
                            name: string;
                            /** @description Card ids leaving the seat's hand at once, one entry a card. */
                            handLoses: string[];
                            /** @description Card ids entering the seat's hand at once (only when certain). */
                            handGains: string[];
                            /** @description Fronts the choice changes at once, as they would be after it: a card id, `:shot` for Flattery, `+poured`, `+added`, `+given`, `+placed`. */
                            fronts: {
                                seat: number;
                                after: string[];
                            }[];
                            /** @description Points changed at once (a shot choice's loss). */
                            points: {
                                seat: number;
                                change: number;
                            }[];
                            /** @description Excuse me's redirect: the seat asked instead; else -1. */
                            passesTo: number;
                            /** @description False when the choice also does what the seat cannot foresee (a card taken at random, a brawl, drawing up): the lists then hold only what is certain. */
                            certain: boolean;
                            /** @description The seat's own digestion this turn, per `digestWhen`; null when it does not digest. */
                            digest: {
                                /** @description The seat skips this digestion (it played I'll get the same): nothing happens. */
                                skips: boolean;
                                /** @description Nothing giving drunkenness is in front: an abstinence, no roll. */
                                abstinence: boolean;
                                /** @description Points the digestion adds (negative for an abstinence); the die never changes them. */
                                points: number;
                                /** @description Drunkenness of the cards in front (0 for an abstinence). */
                                drunkenness: number;
                                /** @description Drunkenness plus the chart space's number, which the die must reach; null without a roll. */
                                total: number | null;
                                /** @description The chance the die reaches the total (the usual one space forward); null without a roll. */
                                passChance: number | null;
                                /** @description Spaces the figure is sent and their chances, fewest first: forward after a roll, back (negative) after an abstinence; a row's end turns the rest of a move into leaving the row. Empty when skipping or thrown out. */
                                moves: {
                                    spaces: number;
                                    chance: number;
                                }[];
                                /** @description The chance of moving past the row's last space onto the next level (then a PAUSE turn). */
                                levelUpChance: number;
                                /** @description The chance of moving past the last space of the chart's last row: wasted, out of the game, keeping the points. */
                                wastedChance: number;
                                /** @description Thrown out whatever the die shows (a third abstinence in a row, unless insulted). */
                                thrownOut: boolean;
                                /** @description The chance of leaving the game this digestion, wasted or thrown out. */
                                outChance: number;
                                /** @description Shot tokens the digestion gives, by shot card id: the types drunk that the seat did not own. */
                                newTokens: string[];
                                /** @description The seat's end-of-game shot-type bonus (the ruleset's `shotBonus`, by the number of types owned) before the digestion. */
                                bonusBefore: number;
                                /** @description That bonus after the digestion. */
                                bonusAfter: number;
                                /** @description The seats copying this one with I'll get the same, who drink their copy right after it, and what it gives them. */
                                copiers: {
                                    seat: number;
                                    /** @description Points the copy adds (negative for an abstinence: nothing to copy). */
                                    points: number;
                                    newTokens: string[];
                                    bonusBefore: number;
                                    bonusAfter: number;
                                }[];
                            } | null;
                            /**
                             * @description `now`: the choice starts the digestion (done, the end of discarding); `after_done`: saying done right after; `after_discarding`: once discarding ends. Always with nobody reacting.
                             * @enum {string|null}
                             */
                            digestWhen: "now" | "after_done" | "after_discarding" | null;
                            /** @description An X card: the digestion of the player whose order it hits if they said done, before and after the card. */
                            target: {
                                seat: number;
                                before: {
                                    /** @description The seat skips this digestion (it played I'll get the same): nothing happens. */
                                    skips: boolean;
                                    /** @description Nothing giving drunkenness is in front: an abstinence, no roll. */
                                    abstinence: boolean;
                                    /** @description Points the digestion adds (negative for an abstinence); the die never changes them. */
                                    points: number;
                                    /** @description Drunkenness of the cards in front (0 for an abstinence). */
                                    drunkenness: number;
                                    /** @description Drunkenness plus the chart space's number, which the die must reach; null without a roll. */
                                    total: number | null;
                                    /** @description The chance the die reaches the total (the usual one space forward); null without a roll. */
                                    passChance: number | null;
                                    /** @description Spaces the figure is sent and their chances, fewest first: forward after a roll, back (negative) after an abstinence; a row's end turns the rest of a move into leaving the row. Empty when skipping or thrown out. */
                                    moves: {
                                        spaces: number;
                                        chance: number;
                                    }[];
                                    /** @description The chance of moving past the row's last space onto the next level (then a PAUSE turn). */
                                    levelUpChance: number;
                                    /** @description The chance of moving past the last space of the chart's last row: wasted, out of the game, keeping the points. */
                                    wastedChance: number;
                                    /** @description Thrown out whatever the die shows (a third abstinence in a row, unless insulted). */
                                    thrownOut: boolean;
                                    /** @description The chance of leaving the game this digestion, wasted or thrown out. */
                                    outChance: number;
                                    /** @description Shot tokens the digestion gives, by shot card id: the types drunk that the seat did not own. */
                                    newTokens: string[];
                                    /** @description The seat's end-of-game shot-type bonus (the ruleset's `shotBonus`, by the number of types owned) before the digestion. */
                                    bonusBefore: number;
                                    /** @description That bonus after the digestion. */
                                    bonusAfter: number;
                                    /** @description The seats copying this one with I'll get the same, who drink their copy right after it, and what it gives them. */
                                    copiers: {
                                        seat: number;
                                        /** @description Points the copy adds (negative for an abstinence: nothing to copy). */
                                        points: number;
                                        newTokens: string[];
                                        bonusBefore: number;
                                        bonusAfter: number;
                                    }[];
                                };
                                after: {
                                    /** @description The seat skips this digestion (it played I'll get the same): nothing happens. */
                                    skips: boolean;
                                    /** @description Nothing giving drunkenness is in front: an abstinence, no roll. */
                                    abstinence: boolean;
                                    /** @description Points the digestion adds (negative for an abstinence); the die never changes them. */
                                    points: number;
                                    /** @description Drunkenness of the cards in front (0 for an abstinence). */
                                    drunkenness: number;
                                    /** @description Drunkenness plus the chart space's number, which the die must reach; null without a roll. */
                                    total: number | null;
                                    /** @description The chance the die reaches the total (the usual one space forward); null without a roll. */
                                    passChance: number | null;
                                    /** @description Spaces the figure is sent and their chances, fewest first: forward after a roll, back (negative) after an abstinence; a row's end turns the rest of a move into leaving the row. Empty when skipping or thrown out. */
                                    moves: {
                                        spaces: number;
                                        chance: number;
                                    }[];
                                    /** @description The chance of moving past the row's last space onto the next level (then a PAUSE turn). */
                                    levelUpChance: number;
                                    /** @description The chance of moving past the last space of the chart's last row: wasted, out of the game, keeping the points. */
                                    wastedChance: number;
                                    /** @description Thrown out whatever the die shows (a third abstinence in a row, unless insulted). */
                                    thrownOut: boolean;
                                    /** @description The chance of leaving the game this digestion, wasted or thrown out. */
                                    outChance: number;
                                    /** @description Shot tokens the digestion gives, by shot card id: the types drunk that the seat did not own. */
                                    newTokens: string[];
                                    /** @description The seat's end-of-game shot-type bonus (the ruleset's `shotBonus`, by the number of types owned) before the digestion. */
                                    bonusBefore: number;
                                    /** @description That bonus after the digestion. */
                                    bonusAfter: number;
                                    /** @description The seats copying this one with I'll get the same, who drink their copy right after it, and what it gives them. */
                                    copiers: {
                                        seat: number;
                                        /** @description Points the copy adds (negative for an abstinence: nothing to copy). */
                                        points: number;
                                        newTokens: string[];
                                        bonusBefore: number;
                                        bonusAfter: number;
                                    }[];
                                };
                            } | null;
                            /** @description That digestion may throw the seat out (`out`: a third abstinence) or waste it (past the chart's end); null when it cannot. The page asks before sending such a choice. */
                            risk: {
                                /** @enum {string} */
                                kind: "out" | "wasted";
                                /** @description Exact over the die faces; 1 for certain. */
                                chance: number;
                            } | null;
                            /** @description What the choice gives each seat it touches, the seat itself included, in seat order. */
                            seats: {
                                seat: number;
                                /** @description Shot tokens the seat takes at once, by shot card id (a shot choice's discarded shot it lacked). */
                                newTokens: string[];
                                /** @description Its end-of-game shot-type bonus (the ruleset's `shotBonus`) before the choice. */
                                bonusBefore: number;
                                /** @description That bonus after the choice. */
                                bonusAfter: number;
                                /** @description Points changed at once. */
                                points: number;
                                /** @description Card ids leaving its hand at once where the table sees which, one entry a card. */
                                handLoses: string[];
                                /** @description Card ids entering its hand at once where the table sees which. */
                                handGains: string[];
                                /** @description The change in its hand's size at once, a card moving unseen included (That's my order). */
                                handSize: number;
                                /** @description Cards leaving its front at once, labelled as in `fronts`. */
                                frontLoses: string[];
                                /** @description Cards joining its front at once. */
                                frontGains: string[];
                                /** @description The active player's room left this turn (actions, shot orders, beers, small beers), after the choice less before: positive is freed (a knocked-over order, a poured shot that no longer counts), negative used; null for other seats and when nothing changes. */
                                limits: {
                                    actions: number;
                                    shots: number;
                                    beers: number;
                                    smallBeers: number;
                                } | null;
                                /** @description The card the choice asks the seat to answer next, with the chances it holds the cards for each answer, counted from what the deciding seat cannot see (every deal consistent with its view equally likely); null when it is not asked. */
                                answer: {
                                    /** @description The card it answers. */
                                    card: string;
                                    /** @description The seat that played that card. */
                                    by: number;
                                    /** @description The chance it holds Excuse me. */
                                    excuseMe: number;
                                    /** @description Let's do a shot and Shots, everyone!: its shot choice; null for other cards. */
                                    shotChoice: {
                                        /** @description The chance it holds a shot card whose token it lacks: discarding that takes the token. */
                                        newToken: number;
                                        bonusBefore: number;
                                        /** @description Its end-of-game bonus with one shot type more. */
                                        bonusWithToken: number;
                                        shot: number;
                                        beer: number;
                                        smallBeer: number;
                                        /** @description The chance it holds no shot, beer or small beer: it then loses `losses.nothing` points unless it uses Excuse me. */
                                        noCard: number;
                                        /** @description Points each way costs (the ruleset's `shotChoice`). */
                                        losses: {
                                            beer: number;
                                            smallBeer: number;
                                            nothing: number;
                                        };
                                    } | null;
                                } | null;
                            }[];
                        } | null;
                    };
                };
            };
            /** @description No token: send Authorization: Bearer <token>. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token opens no seat of this game, or may only watch; or the server runs no tournaments. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such game, bot, tournament or step. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not now: not your turn, an illegal action, the game not over (replays), or already over; no open seat left. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Host header names no host this server answers to (a guard against DNS rebinding). */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A limit: requests per second, live games or tournaments (in all or yours), event streams. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSettings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Pass for the seat when every legal action but pass is an X card it does not watch for (with none unwatched: when pass is its only legal action). On by default. */
                        autoPass: boolean;
                        /** @description X cards the seat is not asked about: auto-pass passes even when the seat could play one. Default: none (every X card is watched for). */
                        unwatched: ("knocked_over" | "mixed_up" | "warm_beer" | "shot_into_beer")[];
                        /**
                         * @description The reaction windows the seat is asked at: 'all' where it could play a watched X card (the default); 'answering' only where one answers the card just played (knocks over, swaps or warms that order, pours that shot or into that beer), as the web page sets for people.
                         * @enum {string}
                         */
                        windows: "all" | "answering";
                    };
                };
            };
            /** @description No token: send Authorization: Bearer <token>. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token opens no seat of this game, or may only watch; or the server runs no tournaments. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such game, bot, tournament or step. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not now: not your turn, an illegal action, the game not over (replays), or already over; no open seat left. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Host header names no host this server answers to (a guard against DNS rebinding). */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A limit: requests per second, live games or tournaments (in all or yours), event streams. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putSettings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    autoPass?: boolean;
                    /** @description X cards the seat is not asked about: auto-pass passes even when the seat could play one. Default: none (every X card is watched for). */
                    unwatched?: ("knocked_over" | "mixed_up" | "warm_beer" | "shot_into_beer")[];
                    /** @enum {string} */
                    windows?: "all" | "answering";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Pass for the seat when every legal action but pass is an X card it does not watch for (with none unwatched: when pass is its only legal action). On by default. */
                        autoPass: boolean;
                        /** @description X cards the seat is not asked about: auto-pass passes even when the seat could play one. Default: none (every X card is watched for). */
                        unwatched: ("knocked_over" | "mixed_up" | "warm_beer" | "shot_into_beer")[];
                        /**
                         * @description The reaction windows the seat is asked at: 'all' where it could play a watched X card (the default); 'answering' only where one answers the card just played (knocks over, swaps or warms that order, pours that shot or into that beer), as the web page sets for people.
                         * @enum {string}
                         */
                        windows: "all" | "answering";
                    };
                };
            };
            /** @description Malformed request: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No token: send Authorization: Bearer <token>. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token opens no seat of this game, or may only watch; or the server runs no tournaments. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such game, bot, tournament or step. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not now: not your turn, an illegal action, the game not over (replays), or already over; no open seat left. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Host header names no host this server answers to (a guard against DNS rebinding). */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A limit: requests per second, live games or tournaments (in all or yours), event streams. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    openReplay: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    link: string;
                    seats?: string[];
                } | {
                    line: string;
                } | {
                    record: {
                        players: number;
                        seed: string;
                        askForced: boolean;
                        ruleset: string;
                        actions: number[];
                    };
                    seats?: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        players: number;
                        seats: string[];
                        /** @description Opens the replay frames: GET /v1/games/{id}/replay/{step}. */
                        watchToken: string;
                        steps: number;
                        scores: number[];
                    };
                };
            };
            /** @description Malformed request: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Host header names no host this server answers to (a guard against DNS rebinding). */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A replay that cannot be played here: another ruleset, an illegal action, or a record that stops early. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A limit: requests per second, live games or tournaments (in all or yours), event streams. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startTournament: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A bot from GET /v1/bots per seat (repeat one to field it twice). */
                    agents: string[];
                    games: number;
                    /** @description Default: a random seed, reported in the summary. */
                    seed?: string | number;
                    duplicate?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        status: "running" | "done" | "failed" | "cancelled" | "timed-out";
                        done: number;
                        total: number;
                        agents: string[];
                        error?: string;
                        /** @description Once ended: the headline figures per agent (as `czech-pub tournament --json`). */
                        summary?: {
                            [key: string]: unknown;
                        };
                        leaderboard?: string;
                    };
                };
            };
            /** @description Malformed request: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token opens no seat of this game, or may only watch; or the server runs no tournaments. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Host header names no host this server answers to (a guard against DNS rebinding). */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A limit: requests per second, live games or tournaments (in all or yours), event streams. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTournament: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        status: "running" | "done" | "failed" | "cancelled" | "timed-out";
                        done: number;
                        total: number;
                        agents: string[];
                        error?: string;
                        /** @description Once ended: the headline figures per agent (as `czech-pub tournament --json`). */
                        summary?: {
                            [key: string]: unknown;
                        };
                        leaderboard?: string;
                    };
                };
            };
            /** @description No such game, bot, tournament or step. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Host header names no host this server answers to (a guard against DNS rebinding). */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A limit: requests per second, live games or tournaments (in all or yours), event streams. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    stopTournament: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        status: "running" | "done" | "failed" | "cancelled" | "timed-out";
                        done: number;
                        total: number;
                        agents: string[];
                        error?: string;
                        /** @description Once ended: the headline figures per agent (as `czech-pub tournament --json`). */
                        summary?: {
                            [key: string]: unknown;
                        };
                        leaderboard?: string;
                    };
                };
            };
            /** @description No such game, bot, tournament or step. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Host header names no host this server answers to (a guard against DNS rebinding). */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A limit: requests per second, live games or tournaments (in all or yours), event streams. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
