import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyFailure, classifyReply, FAULT_POLICY, REPLY_FAULTS, replyClass, type Reply } from './reply.ts';
import { callBound, chargeOf, readLedger } from './ledger.ts';

const completion = (finish: unknown, message: Record<string, unknown> = { role: 'assistant', content: '{"action": 3}' }, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id: 'c1', model: 'm', choices: [{ index: 0, finish_reason: finish, message }], usage: { prompt_tokens: 10, completion_tokens: 2 }, ...extra });
const of = (status: number, body: string, headers: Record<string, string> = {}) => classifyReply({ status, body, headers: new Headers(headers) });
const faultOf = (r: Reply) => (r.kind === 'fault' ? r.fault : r.kind);

describe("a server's reply, classified", () => {
  it('reads a whole answer only from a finish reason that says it is whole, in any case', () => {
    for (const f of ['stop', 'STOP', 'Stop', 'end_turn', 'stop_sequence', 'eos']) expect(of(200, completion(f)).kind).toBe('answer');
    for (const f of ['length', 'LENGTH', 'MAX_TOKENS', 'max_tokens', 'max_output_tokens']) expect(of(200, completion(f)).kind).toBe('truncated');
    for (const f of ['content_filter', 'SAFETY', 'RECITATION', 'safety']) expect(of(200, completion(f)).kind).toBe('filtered');
    for (const f of ['banana', '', null, undefined, 'tool_calls', 42]) expect(of(200, completion(f)).kind).toBe('unknown');
    const missing = of(200, completion(undefined));
    expect(missing.kind === 'unknown' && missing.message).toMatch(/finish_reason missing/);
  });

  it("keeps a refusal's text, and a filter's verdict even when the finish reason says stop", () => {
    const refused = of(200, completion('stop', { role: 'assistant', content: null, refusal: "I can't help with that." }));
    expect(refused).toMatchObject({ kind: 'filtered', text: "I can't help with that." });
    const azure = of(200, JSON.stringify({ choices: [{ finish_reason: 'stop', message: { content: '{"action": 3}' }, content_filter_results: { violence: { filtered: true, severity: 'medium' } } }] }));
    expect(azure).toMatchObject({ kind: 'filtered', why: expect.stringContaining('violence') });
  });

  it('names the kind of every fault, whatever the shape of its body', () => {
    expect(faultOf(of(429, JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests' } }), { 'retry-after-ms': '20' }))).toBe('rate-limit');
    expect(of(429, '{}', { 'retry-after': '2' })).toMatchObject({ retryAfterMs: 2000 });
    expect(faultOf(of(429, JSON.stringify({ error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', code: 'insufficient_quota' } })))).toBe('quota');
    expect(faultOf(of(402, JSON.stringify({ error: { message: 'Insufficient credits', code: 402 } })))).toBe('quota');
    expect(faultOf(of(401, JSON.stringify({ error: { message: 'Incorrect API key provided: sk-123' } })))).toBe('authentication');
    expect(faultOf(of(404, JSON.stringify({ detail: 'Model x not found' })))).toBe('not-found');
    expect(faultOf(of(413, JSON.stringify({ error: { message: 'Request too large for model x on tokens per minute (TPM): Limit 6000, Requested 9000', type: 'tokens', code: 'rate_limit_exceeded' } })))).toBe('too-large');
    expect(faultOf(of(400, JSON.stringify({ error: { message: "This model's maximum context length is 8192 tokens.", code: 'context_length_exceeded' } })))).toBe('too-large');
    expect(faultOf(of(400, JSON.stringify({ error: { message: 'This response_format type is unavailable now', type: 'invalid_request_error' } })))).toBe('format-refused');
    expect(of(400, JSON.stringify({ object: 'error', message: 'Unrecognized request argument supplied: max_completion_tokens' }))).toMatchObject({ fault: 'parameter-refused', param: 'max_completion_tokens' });
    expect(faultOf(of(400, JSON.stringify({ error: { message: 'messages: field required' } })))).toBe('bad-request');
    expect(faultOf(of(529, JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })))).toBe('overloaded');
    expect(faultOf(of(503, 'The model is overloaded, try again later'))).toBe('overloaded');
    expect(faultOf(of(502, '<html><body><h1>502 Bad Gateway</h1></body></html>'))).toBe('server-error');
    expect(faultOf(of(200, JSON.stringify({ error: { message: 'upstream failed', code: 502 } })))).toBe('server-error');
    expect(faultOf(of(200, JSON.stringify({ error: { message: 'Rate limit exceeded: free-models-per-min', code: 429 } })))).toBe('rate-limit');
    expect(faultOf(of(200, JSON.stringify({ errors: [{ message: 'boom' }] })))).toBe('server-error');
    expect(faultOf(of(200, '<!doctype html><title>Oops</title>'))).toBe('server-error');
    expect(faultOf(of(200, ''))).toBe('server-error');
    expect(faultOf(of(200, completion('error')))).toBe('server-error');
    for (const [s, body] of [[418, '{"error": "teapot"}'], [599, '{}'], [302, ''], [202, completion('stop')], [204, '']] as const) expect(of(s, body).kind).toBe('unknown');
  });

  it('reads event streams, gzip and usage in every shape, and says "not reported" where there is none', () => {
    const chunks = [
      { id: 's1', model: 'm', choices: [{ delta: { content: '{"act' } }] },
      { choices: [{ delta: { content: 'ion": 7}' }, finish_reason: 'stop' }] },
      { choices: [], usage: { prompt_tokens: 40, completion_tokens: 6 } },
    ];
    const stream = `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
    expect(of(200, stream)).toMatchObject({ kind: 'answer', text: '{"action": 7}', id: 's1', usage: { promptTokens: 40, completionTokens: 6 } });
    const groq = `data: ${JSON.stringify({ choices: [{ delta: { content: '7' }, finish_reason: 'stop' }], x_groq: { usage: { prompt_tokens: 5, completion_tokens: 1 } } })}\n\ndata: [DONE]\n\n`;
    expect(of(200, groq).usage).toMatchObject({ promptTokens: 5, completionTokens: 1 });
    const cut = `data: ${JSON.stringify({ choices: [{ delta: { content: '{"action": 7}' } }] })}\n\n`;
    expect(of(200, cut).kind).toBe('unknown'); // a stream that never said it finished
    expect(classifyReply({ status: 200, body: gzipSync(completion('stop')) }).kind).toBe('answer');
    const gemini = of(200, completion('STOP', undefined, { usage: undefined, usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, thoughtsTokenCount: 900 } }));
    expect(gemini.usage).toEqual({ promptTokens: 100, completionTokens: 920, reasoningTokens: 900, cachedTokens: 0, cost: null });
    const anthropic = of(200, completion('end_turn', undefined, { usage: { input_tokens: 30, output_tokens: 4, cache_read_input_tokens: 20 } }));
    expect(anthropic.usage).toEqual({ promptTokens: 30, completionTokens: 4, reasoningTokens: 0, cachedTokens: 20, cost: null });
    expect(of(200, completion('stop', undefined, { usage: undefined })).usage).toBeNull();
    expect(of(200, completion('error', undefined, { usage: { prompt_tokens: 9, completion_tokens: 3 } })).usage).toMatchObject({ promptTokens: 9 });
  });

  it('tells a connection lost mid-answer from one that never opened', () => {
    const reset = Object.assign(new TypeError('terminated'), { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
    expect(classifyFailure(reset, 'body')).toMatchObject({ kind: 'fault', fault: 'connection-lost' });
    expect(classifyFailure(reset, 'connect')).toMatchObject({ kind: 'fault', fault: 'connection-lost' });
    const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    expect(classifyFailure(refused, 'connect')).toMatchObject({ kind: 'fault', fault: 'unreachable', message: 'connection failed (ECONNREFUSED)' });
  });

  it('is total: any status and body give exactly one class, an answer only for a 200 with a known finish', () => {
    const body = fc.oneof(
      fc.string(),
      fc.json(),
      fc.record({ finish: fc.oneof(fc.constantFrom('stop', 'STOP', 'length', 'error', 'content_filter', 'x'), fc.string(), fc.constant(null)), content: fc.oneof(fc.string(), fc.constant(null)) })
        .map(({ finish, content }) => completion(finish, { role: 'assistant', content })),
    );
    fc.assert(fc.property(fc.integer({ min: 100, max: 599 }), body, (status, text) => {
      const r = classifyReply({ status, body: text });
      expect(['answer', 'truncated', 'filtered', 'fault', 'unknown']).toContain(r.kind);
      if (r.kind === 'fault') expect(REPLY_FAULTS).toContain(r.fault);
      if (r.kind === 'answer' || r.kind === 'truncated' || r.kind === 'filtered') {
        expect(status).toBe(200);
        const finish = (JSON.parse(text) as { choices?: { finish_reason?: unknown }[] }).choices?.[0]?.finish_reason;
        if (r.kind === 'answer') expect(['stop', 'end_turn', 'stop_sequence', 'eos', 'eos_token', 'finished']).toContain(String(finish).trim().toLowerCase());
      }
      expect(replyClass(r)).toMatch(/^(answer|truncated|filtered|unknown|fault:[a-z-]+)$/);
    }), { numRuns: 2000, seed: 41 });
  });

  it('has one policy for every kind', () => {
    for (const k of [...REPLY_FAULTS, 'unknown'] as const) expect(['retry', 'stop', 'adapt']).toContain(FAULT_POLICY[k]);
  });
});

describe('the ledger', () => {
  it('bounds a call by its bytes and token limit, and charges each outcome as its kind says', () => {
    const bound = callBound([{ role: 'user', content: 'héllo' }], false, 100);
    expect(bound).toEqual({ promptTokens: 6 + 4 + 8, completionTokens: 100 });
    expect(callBound([{ role: 'user', content: 'x' }], true, 1).promptTokens).toBeGreaterThan(callBound([{ role: 'user', content: 'x' }], false, 1).promptTokens);
    expect(chargeOf(of(200, completion('stop')))).toBe('usage');
    expect(chargeOf(of(200, completion('stop', undefined, { usage: undefined })))).toBe('bound');
    expect(chargeOf(of(429, '{}'))).toBe('none');
    expect(chargeOf(of(502, '<html>bad gateway</html>'))).toBe('none');
    // Regression (property seed prop-29): a choice that failed on the server without usage may have been billed.
    expect(chargeOf(of(200, completion('error', undefined, { usage: undefined })))).toBe('bound');
    expect(chargeOf(classifyFailure(new Error('x'), 'body'))).toBe('bound');
  });

  it('reads spend from sent and outcome lines: usage at the price, bound where unknown or cut off by a kill, nothing for refusals', () => {
    const lines = [
      { agent: 'a', call: '1', sent: { prompt: 1000, completion: 100 } },
      { agent: 'a', call: '1', reply: 'answer', charge: 'usage', tokens: { prompt: 200, completion: 10, reasoning: 0, cached: 0 } },
      { agent: 'a', call: '2', sent: { prompt: 1000, completion: 100 } },
      { agent: 'a', call: '2', reply: 'fault:rate-limit', charge: 'none', tokens: null },
      { agent: 'a', call: '3', sent: { prompt: 1000, completion: 100 } },
      { agent: 'a', call: '3', reply: 'answer', charge: 'bound', tokens: null },
      { agent: 'a', call: '4', sent: { prompt: 1000, completion: 100 } },
      { agent: 'b', call: '5', sent: { prompt: 10, completion: 10 } },
      { agent: 'b', call: '5', reply: 'answer', charge: 'usage', tokens: { prompt: 5, completion: 5 }, cost: 0.5 },
    ];
    const text = `${lines.map((l) => JSON.stringify(l)).join('\n')}\n{"agent": "a", "call": "6", "sen`;
    const ledger = readLedger(text);
    const price = { promptPerMillion: 1e6, completionPerMillion: 2e6 }; // $1 a prompt token, $2 a completion token
    const a = ledger.get('a')!;
    expect(a.requests).toBe(4);
    expect(a.inFlight).toBe(1);
    expect([a.usageReports, a.promptTokens, a.usageMissing]).toEqual([1, 200, 1]);
    expect(a.spend(price)).toBe(220 + 0 + 1200 + 1200);
    expect(ledger.get('b')!.spend(price)).toBe(0.5);
  });
});
