/**
 * A seat's events as Server-Sent Events. Each event's id is the count of the seat's events up
 * to it, so a client that reconnects (a browser's EventSource does by itself, sending
 * Last-Event-ID) resumes where it was. A comment line every `heartbeatMs` keeps proxies from
 * closing an idle stream and finds dead clients; the stream ends with `end` (final scores) or
 * `gone` (the game expired, or the server is stopping). A `step` event (no id) says the game
 * moved on when the move made no event the seat sees (a pass), or a seat was joined, so a
 * page waiting for its turn learns of it. Streams are limited in all and per client.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ClientCounts } from './client-counts.ts';
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

export class Streams {
  private open = 0;
  private readonly perClient = new ClientCounts();

  constructor(private readonly limits: StreamLimits) {}

  /** Where to resume: Last-Event-ID (a reconnect) wins over `since`. */
  static cursor(req: FastifyRequest, since: number | undefined, events: number): number {
    const last = req.headers['last-event-id'];
    if (last === undefined) return Math.min(since ?? 0, events);
    const n = Number(last);
    if (typeof last !== 'string' || !/^\d{1,9}$/.test(last) || n > events) throw new ApiError(400, `Last-Event-ID must be an event count from 0 to ${events}`);
    return n;
  }

  serve(req: FastifyRequest, reply: FastifyReply, game: LiveGame, viewer: Viewer, from: number): void {
    const client = req.ip;
    const mine = this.perClient.of(client);
    if (this.open >= this.limits.maxStreams) throw new ApiError(429, `too many event streams open (limit ${this.limits.maxStreams}); poll /events instead`);
    if (mine >= this.limits.maxStreamsPerClient) throw new ApiError(429, `you have ${this.limits.maxStreamsPerClient} event streams open, the most one client may have`);
    this.open++;
    this.perClient.add(client);
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
      this.perClient.remove(client);
      res.end();
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
