import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent } from '../default-registry.ts';
import { classifyReply } from './reply.ts';
import type { LlmAgent, LlmServerError } from './llm-agent.ts';

/** What the fake server answers a request: a status and a body sent as it is. */
type Reply = { status: number; body: string; contentType?: string };
let reply: (body: Record<string, unknown>) => Reply = () => ({ status: 200, body: '' });
const sent: Record<string, unknown>[] = [];
let server: http.Server;
let base = '';

const ok = (): Reply => ({
  status: 200,
  body: JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: '{"action": 0}' } }] }),
});

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const body = JSON.parse(text) as Record<string, unknown>;
      sent.push(body);
      const r = reply(body);
      res.writeHead(r.status, { 'content-type': r.contentType ?? 'application/json' });
      res.end(r.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** The preflight's outcome against `r`: the error message, or 'ok'; and which token parameter each request sent. */
async function preflight(model: string, r: typeof reply) {
  reply = r;
  sent.length = 0;
  const agent = createAgent(`llm:${model}:baseUrl=${base}`) as LlmAgent;
  const outcome = await agent.preflight().then(() => 'ok', (e: LlmServerError) => `${e.message} ${e.advice}`);
  return { outcome, params: sent.map((b) => ('max_completion_tokens' in b ? 'max_completion_tokens' : 'max_tokens')) };
}

describe("a server's error in any shape reaches the run in its own words", () => {
  it("reads older vLLM's top-level error, and does not take a context-length refusal for a refused parameter", async () => {
    const overflow = "This model's maximum context length is 4096 tokens. However, you requested 4812 tokens (812 in the messages, 4000 in the completion). Please reduce max_completion_tokens.";
    const r = await preflight('vllm-context', () => ({ status: 400, body: JSON.stringify({ object: 'error', message: overflow, type: 'BadRequestError', param: null, code: 400 }) }));
    expect(r.outcome).toContain(`HTTP 400: ${overflow}`);
    expect(r.outcome).toContain('lower --max-tokens');
    expect(r.params).toEqual(['max_completion_tokens']);
  });

  it("adapts to a parameter refusal in vLLM's top-level shape", async () => {
    const r = await preflight('vllm-param', (b) => ('max_completion_tokens' in b
      ? { status: 400, body: JSON.stringify({ object: 'error', message: 'Unrecognized request argument supplied: max_completion_tokens', type: 'BadRequestError', code: 400 }) }
      : ok()));
    expect(r.outcome).toBe('ok');
    expect(r.params).toEqual(['max_completion_tokens', 'max_tokens']);
  });

  it('reads a FastAPI detail, as a string and as a list of validation errors (which adapt too)', async () => {
    const text = await preflight('detail-string', () => ({ status: 404, body: JSON.stringify({ detail: 'Model detail-string not found' }) }));
    expect(text.outcome).toContain('HTTP 404: Model detail-string not found');
    const list = await preflight('detail-list', (b) => ('max_completion_tokens' in b
      ? { status: 422, body: JSON.stringify({ detail: [{ type: 'extra_forbidden', loc: ['body', 'max_completion_tokens'], msg: 'Extra inputs are not permitted', input: 4000 }] }) }
      : ok()));
    expect(list.outcome).toBe('ok');
    expect(list.params).toEqual(['max_completion_tokens', 'max_tokens']);
    const unknown = await preflight('detail-list-2', () => ({ status: 422, body: JSON.stringify({ detail: [{ loc: ['body', 'messages', 0], msg: 'Field required' }, { msg: 'too long' }] }) }));
    expect(unknown.outcome).toContain('HTTP 422: body.messages.0: Field required; too long');
  });

  it('reads a plain-text body, and names the status of an empty one', async () => {
    const text = await preflight('plain', () => ({ status: 400, body: 'model plain is not loaded\n', contentType: 'text/plain' }));
    expect(text.outcome).toContain('HTTP 400: model plain is not loaded');
    const empty = await preflight('empty', () => ({ status: 400, body: '' }));
    expect(empty.outcome).toContain('HTTP 400, with an empty body');
    expect(empty.outcome).not.toContain('(no body)');
  });

  it("keeps what the server said of its error in every shape, and the status of an empty one", () => {
    const said = (status: number, body: string) => {
      const r = classifyReply({ status, body });
      return r.kind === 'fault' || r.kind === 'unknown' ? r.message : r.kind;
    };
    expect(said(400, JSON.stringify({ error: { message: 'x' } }))).toBe('HTTP 400: x');
    expect(said(404, JSON.stringify({ error: 'model not found' }))).toBe('HTTP 404: model not found');
    expect(said(400, JSON.stringify({ object: 'error', message: 'm', type: 'BadRequestError', code: 400 }))).toBe('HTTP 400: m');
    expect(said(503, '')).toBe('HTTP 503, with an empty body');
  });
});
