/**
 * A seat's events as Server-Sent Events. Each event's id is the count of the seat's events up
 * to it, so a client that reconnects (a browser's EventSource does by itself, sending
 * Last-Event-ID) resumes where it was. A comment line every `heartbeatMs` keeps proxies from
 * closing an idle stream and finds dead clients; the stream ends with `end` (final scores),
 * `gone` (the game expired, or the server is stopping) or `closed` (its place was given to
 * another client's stream: reconnect later, or poll /events). A `step` event (no id) says the
 * game moved on when the move made no event the seat sees (a pass), or a seat was joined, so
 * a page waiting for its turn learns of it.
 *
 * Streams are limited per client (maxStreamsPerClient) and in all (maxStreams), the places
 * shared fairly (fair-share.ts): when all are taken, a new stream takes the place of the
 * oldest stream of the client holding the most, if it holds more than the asker, onlookers'
 * streams before seats'. A seat's own stream (its seat token) is never refused for want of
 * room while an onlooker's stream is open: it takes the oldest onlooker stream of the client
 * holding the most of them (its own client's included). So many clients cannot together keep
 * a newcomer's streams out, nor watchers keep a player from the table.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fairVictim } from './fair-share.ts';
import { ApiError, narratedEvents, type LiveGame, type Viewer } from './games.ts';

export interface StreamLimits {
  maxStreams: number;
  maxStreamsPerClient: number;
  heartbeatMs: number;
}

/** The stream's lines for the viewer's events from `cursor` on (ids count the viewer's events), and where it then stands. */
export function eventLines(game: LiveGame, viewer: Viewer, cursor: number): { text: string; cursor: number } {
  let text = '';
  for (const ev of narratedEvents(game, viewer, cursor)) text += `id: ${++cursor}\ndata: ${JSON.stringify(ev)}\n\n`;
  return { text, cursor };
}

/** An open stream: whose, a seat's or an onlooker's, in what order it opened, and how to close it to make room. */
interface OpenStream {
  client: string;
  seat: boolean;
  opened: number;
  close: () => void;
}

export class Streams {
  private open = 0;
  private opened = 0;
  /** Each client's open streams. */
  private readonly held = new Map<string, Set<OpenStream>>();

  constructor(private readonly limits: StreamLimits) {}

  /** Where to resume: Last-Event-ID (a reconnect) wins over `since`. */
  static cursor(req: FastifyRequest, since: number | undefined, events: number): number {
    const last = req.headers['last-event-id'];
    if (last === undefined) return Math.min(since ?? 0, events);
    const n = Number(last);
    if (typeof last !== 'string' || !/^\d{1,9}$/.test(last) || n > events) throw new ApiError(400, `Last-Event-ID must be an event count from 0 to ${events}`);
    return n;
  }

  /** Streams open (for tests). */
  get size(): number {
    return this.open;
  }

  /** All places are taken: closes the stream whose place a new one of `client` takes (above), or refuses with 429. */
  private makeRoom(client: string, seat: boolean): void {
    const rule = { free: () => true, before: (a: OpenStream, b: OpenStream) => (a.seat !== b.seat ? !a.seat : a.opened < b.opened) };
    let victim = fairVictim(this.held, client, rule);
    if (!victim && seat) {
      const onlookers = [...this.held].map(([c, set]) => [c, [...set].filter((x) => !x.seat)] as const);
      victim = fairVictim(onlookers, client, { ...rule, own: true });
    }
    if (!victim) {
      throw new ApiError(429, `too many event streams open (limit ${this.limits.maxStreams}, maxStreams): a place is given only by a client holding more streams than you${seat ? ', or by an onlooker' : ''}; poll /events instead, or try again later`);
    }
    victim.close();
  }

  serve(req: FastifyRequest, reply: FastifyReply, game: LiveGame, viewer: Viewer, from: number): void {
    const client = req.ip;
    const mine = this.held.get(client);
    if ((mine?.size ?? 0) >= this.limits.maxStreamsPerClient) throw new ApiError(429, `you have ${this.limits.maxStreamsPerClient} event streams open, the most one client may have`);
    if (this.open >= this.limits.maxStreams) this.makeRoom(client, viewer !== null);
    const entry: OpenStream = { client, seat: viewer !== null, opened: this.opened++, close: () => {} };
    this.open++;
    // Looked up again: making room may have closed the client's only stream, and its set with it.
    const held = this.held.get(client);
    if (held) held.add(entry);
    else this.held.set(client, new Set([entry]));
    // Presence (presence.ts): a seat with its stream open is at the table.
    if (viewer !== null) game.presence.streams[viewer]++;
    let cursor = from;
    let step = game.env.actions.length;
    let open = game.open.size;
    reply.hijack();
    const res = reply.raw;
    // The request timeout cut idle requests; a stream is held open on purpose, kept alive by the heartbeat.
    req.raw.socket.setTimeout(0);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    // Node holds the status line and headers until the first write: a stream opened at its last event would wait for a heartbeat.
    res.flushHeaders();
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      if (viewer !== null) game.presence.streams[viewer]--;
      clearInterval(beat);
      game.listeners.delete(flush);
      this.open--;
      const set = this.held.get(client)!;
      set.delete(entry);
      if (set.size === 0) this.held.delete(client);
      res.end();
    };
    entry.close = () => {
      res.write(`event: closed\ndata: ${JSON.stringify({ reason: "closed to give its place to another client's stream while every place is taken (a client holding more streams gives way to one holding fewer, an onlooker to a seat); reconnect later, or poll /events" })}\n\n`);
      close();
    };
    const flush = (gone?: 'gone') => {
      if (closed) return;
      if (cursor < game.env.eventCount) {
        const next = eventLines(game, viewer, cursor);
        cursor = next.cursor;
        res.write(next.text);
      }
      if (step !== game.env.actions.length || open !== game.open.size) {
        step = game.env.actions.length;
        open = game.open.size;
        res.write(`event: step\ndata: ${JSON.stringify({ step, openSeats: [...game.open.keys()].sort((a, b) => a - b) })}\n\n`);
      }
      if (game.env.done) {
        res.write(`event: end\ndata: ${JSON.stringify({ scores: game.env.scores() })}\n\n`);
        close();
      } else if (gone) {
        res.write(`event: gone\ndata: ${JSON.stringify({ reason: 'the game is no longer held: it expired, or the server is stopping' })}\n\n`);
        close();
      }
    };
    const beat = setInterval(() => res.write(': keep-alive\n\n'), this.limits.heartbeatMs);
    beat.unref();
    game.listeners.add(flush);
    req.raw.on('close', close);
    res.on('error', close);
    flush();
  }
}
