/**
 * A fake OpenAI-compatible model server whose every reply is drawn from the reply grammar
 * (reply-grammar.ts), keyed by a seed and the request's arrival index n: the same seed gives
 * the same reply n whatever the concurrency. It keeps its own truth about each reply (a
 * ReplyRecord: what it meant, what it billed, whether the usage and the whole reply got out),
 * for a property test to hold a client's reading of the replies against.
 *
 * POST /v1/chat/completions only; anything else gets a 404 (shape 'no-route') and a body
 * that is no JSON a 400 ('unreadable-request'), recorded too. With `apiKey`, a request with
 * another bearer key gets a 401 that echoes it ('wrong-key'), drawn from nothing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import {
  DEFAULT_PRICES, drawReply, parseRequest, refusedPlan, replyRng,
  type Prices, type ReplyPlan, type ShapeWeights,
} from './reply-grammar.ts';

/** What the fake did with one request: its plan's truth (what the model named, what was billed) and what was delivered. */
export type ReplyRecord = Pick<ReplyPlan, 'family' | 'shape' | 'outcome' | 'fault' | 'named' | 'meant' | 'content' | 'finish' | 'transport' | 'billed' | 'cached' | 'usageShape' | 'costReported'> & {
  /** Arrival index (0-based), the key of the draw. */
  n: number;
  /** `fake-<seed>-<n>`: the completion's id and every reply's x-request-id header. */
  id: string;
  /** The HTTP status sent; null when the connection was reset before the headers. */
  status: number | null;
  /** The delivered reply carries the usage (in usageShape). */
  usageReported: boolean;
  /** The whole reply was written before the connection closed. */
  delivered: boolean;
};

export interface FakeModelServerOptions {
  seed: string;
  weights?: ShapeWeights;
  /** The one key accepted; any key when not given. */
  apiKey?: string;
  /** What usage.cost is computed from (OpenRouter shape); DEFAULT_PRICES when not given. */
  prices?: Prices;
}

export interface FakeModelServer {
  /** `http://127.0.0.1:<port>/v1`, for `new OpenAI({ baseURL })`. */
  baseUrl: string;
  /** One per request, in arrival order (records[n].n === n). */
  records: ReplyRecord[];
  close(): Promise<void>;
}

const notFound = refusedPlan({ family: 'fatal', shape: 'no-route', outcome: 'fault', fault: 'not-found' }, 404, { kind: 'json', value: { error: { message: 'Not found' } } });
const unreadable = refusedPlan({ family: 'fatal', shape: 'unreadable-request', outcome: 'fault', fault: 'bad-request' }, 400, { kind: 'json', value: { error: { message: 'The request body is not JSON', type: 'invalid_request_error' } } });
const wrongKey = (key: string | null) => refusedPlan({ family: 'fatal', shape: 'wrong-key', outcome: 'fault', fault: 'authentication' }, 401,
  { kind: 'json', value: { error: { message: `Incorrect API key provided: ${key ?? '(none)'}.`, type: 'invalid_request_error', code: 'invalid_api_key' } } });

/** A completion or chunk, its empty id filled. */
const withId = (v: Record<string, unknown>, id: string) => (v.id === '' ? { ...v, id } : v);

/** The bytes of a plan's body and the content type they are sent with; null for no body. */
function render(plan: ReplyPlan, id: string): { bytes: Buffer; type: string } | null {
  const b = plan.body;
  switch (b.kind) {
    case 'none': return null;
    case 'json': return { bytes: Buffer.from(JSON.stringify(withId(b.value, id))), type: 'application/json' };
    case 'text': return { bytes: Buffer.from(b.text), type: b.contentType };
    case 'events': return {
      bytes: Buffer.from(`${b.chunks.map((c) => `data: ${JSON.stringify(withId(c, id))}\n\n`).join('')}data: [DONE]\n\n`),
      type: 'text/event-stream; charset=utf-8',
    };
  }
}

function send(req: http.IncomingMessage, res: http.ServerResponse, plan: ReplyPlan, record: ReplyRecord): void {
  if (plan.cut === 'before-headers') {
    req.socket.destroy();
    return;
  }
  const body = render(plan, record.id);
  const headers: Record<string, string | number> = { ...plan.headers, 'x-request-id': record.id };
  let bytes = body?.bytes ?? null;
  if (body) headers['content-type'] = body.type;
  if (bytes && (plan.transport === 'gzip' || plan.transport === 'gzip-stream')) {
    bytes = gzipSync(bytes);
    headers['content-encoding'] = 'gzip';
  }
  // An event stream goes chunked, as servers send it; anything else says its length, so a
  // body cut short is one the client can tell.
  if (bytes && body!.type !== 'text/event-stream; charset=utf-8') headers['content-length'] = bytes.length;
  res.on('close', () => {
    if (!res.writableFinished) {
      record.delivered = false;
      record.usageReported = false;
      delete record.costReported;
    }
  });
  res.writeHead(plan.status, headers);
  if (plan.cut === 'mid-body' && bytes) {
    res.write(bytes.subarray(0, Math.max(1, Math.floor(bytes.length / 2))), () => req.socket.destroy());
    return;
  }
  res.end(bytes ?? undefined);
}

export async function startFakeModelServer(opts: FakeModelServerOptions): Promise<FakeModelServer> {
  const records: ReplyRecord[] = [];
  const prices = opts.prices ?? DEFAULT_PRICES;
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      // A request arrives when its body is whole: that order is n.
      const n = records.length;
      const id = `fake-${opts.seed}-${n}`;
      let plan: ReplyPlan;
      if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/chat/completions') plan = notFound;
      else {
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(parts).toString('utf8'));
        } catch {
          body = undefined;
        }
        const fake = parseRequest(body, req.headers.authorization);
        if (body === undefined) plan = unreadable;
        else if (opts.apiKey !== undefined && fake.apiKey !== opts.apiKey) plan = wrongKey(fake.apiKey);
        else plan = drawReply(replyRng(opts.seed, n), fake, opts.weights, prices);
      }
      const { family, shape, outcome, fault, named, meant, content, finish, transport, billed, cached, usageShape, costReported } = plan;
      const delivered = plan.cut === 'none';
      const record: ReplyRecord = {
        n, id, family, shape, outcome, ...(fault ? { fault } : {}), named, meant, content, ...('finish' in plan ? { finish } : {}),
        status: plan.cut === 'before-headers' ? null : plan.status, transport, billed, cached,
        usageReported: delivered && usageShape !== null, usageShape, delivered, ...(costReported !== undefined && delivered ? { costReported } : {}),
      };
      records.push(record);
      send(req, res, plan, record);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    records,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
