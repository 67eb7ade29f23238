/**
 * The `openai` client's fetch: every reply the server sends, or the failure that left none, is
 * read whole here and classified (reply.ts) before the client sees it. The client is handed
 * the classification as the body of a plain 200, so no status, body shape or stream of the
 * server's is ever interpreted by the client's own rules: one classifier, total, decides what
 * a reply is. Only an abort (the request's timeout) goes on as an error, for the client to end
 * the request with.
 */
import { classifyFailure, classifyReply, type Reply } from './reply.ts';

/** The key of the classified reply in the body the client is handed. */
const REPLY_KEY = '__czechPubReply';

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

const handOver = (reply: Reply) =>
  new Response(JSON.stringify({ [REPLY_KEY]: reply }), { status: 200, headers: { 'content-type': 'application/json' } });

/** `inner`, with every reply classified whole. */
export function replyFetch(inner: Fetch = fetch): Fetch {
  return async (input, init) => {
    const aborted = () => init?.signal?.aborted === true;
    let res: Response;
    try {
      res = await inner(input, init);
    } catch (err) {
      if (aborted()) throw err;
      return handOver(classifyFailure(err, 'connect'));
    }
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await res.arrayBuffer());
    } catch (err) {
      if (aborted()) throw err;
      return handOver(classifyFailure(err, 'body'));
    }
    return handOver(classifyReply({ status: res.status, headers: res.headers, body: bytes }));
  };
}

/** The classified reply in what the client returned; a body without one is a client's fault, unknown. */
export function handedReply(res: unknown): Reply {
  const r = (res as Record<string, unknown> | null)?.[REPLY_KEY];
  if (typeof r === 'object' && r !== null && typeof (r as { kind?: unknown }).kind === 'string') return r as Reply;
  return { kind: 'unknown', message: 'the client returned no classified reply', status: null, id: '', usage: null };
}
