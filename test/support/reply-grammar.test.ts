/**
 * The reply grammar keeps its own word: over many seeds and requests, what a plan says of a
 * reply (named, outcome, billing, usage) is what the reply it sends says, read back by a
 * reference reader written here from the rules alone.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { ACTION_GROUPS, describeAction } from '../../env/index.ts';
import {
  DEFAULT_PRICES, drawReply, FAMILIES, parseRequest, replyRng,
  type FakeRequest, type LegalAction, type ReplyPlan, type Rng, type Tokens,
} from './reply-grammar.ts';

// ---- The reference reader: the accepted forms, from the rules, and nothing else.

const DIGIT_ZEROS = [0x660, 0x966, 0xff10];
const norm = (s: string) => [...s].map((c) => {
  const z = DIGIT_ZEROS.find((zero) => c.codePointAt(0)! >= zero && c.codePointAt(0)! < zero + 10);
  return z === undefined ? c : String(c.codePointAt(0)! - z);
}).join('').trim().replace(/\s+/g, ' ').toLowerCase();

/** The one legal id `text` names in an accepted form, or null. */
function read(text: string, legal: LegalAction[]): number | null {
  // Reasoning blocks are not the answer; one left open means the answer never came.
  if (/<think>(?![\s\S]*<\/think>)/.test(text)) return null;
  const t = text.replace(/<think>[\s\S]*?<\/think>/g, ' ').trim();
  const ids = (pred: (l: LegalAction) => boolean) => {
    const hit = legal.filter(pred);
    return hit.length === 1 ? hit[0].id : null;
  };
  // Every top-level JSON object in the text (braces in strings aside).
  const objects: unknown[] = [];
  for (let i = 0, depth = 0, start = 0, str = false; i < t.length; i++) {
    const c = t[i];
    if (str) {
      if (c === '\\') i++;
      else if (c === '"') str = false;
    } else if (c === '"' && depth > 0) str = true;
    else if (c === '{' && depth++ === 0) start = i;
    else if (c === '}' && depth > 0 && --depth === 0) {
      try {
        objects.push(JSON.parse(t.slice(start, i + 1)));
      } catch {
        // not JSON: no object
      }
    }
  }
  const withAction = objects.filter((o): o is Record<string, unknown> => typeof o === 'object' && o !== null && !Array.isArray(o) && 'action' in o);
  if (withAction.length > 0) {
    const named = withAction.map((o) => {
      if (typeof o.action === 'number') return ids((l) => l.id === o.action);
      if (typeof o.action !== 'string') return null;
      const a = norm(o.action);
      return ids((l) => [String(l.id), l.words, `${l.id}: ${l.words}`].some((f) => norm(f) === a));
    });
    return named.every((n) => n !== null && n === named[0]) ? named[0] : null;
  }
  if (objects.length > 0) return null;
  const fenced = /^```(?:json)?\n([\s\S]*)\n```$/i.exec(t);
  const n = norm(fenced ? fenced[1] : t);
  return ids((l) => [String(l.id), l.words, `${l.id}: ${l.words}`].some((f) => norm(f) === n));
}

// ---- Requests like the benchmark's: a rules message and a view ending in the legal actions.

const WORDS = Array.from({ length: ACTION_GROUPS.at(-1)!.last + 1 }, (_, a) => describeAction(a, 1, 5));

function request(rng: Rng): FakeRequest {
  const int = (lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
  const preflight = rng() < 0.05;
  const ids = [...new Set(Array.from({ length: int(2, 8) }, () => int(0, WORDS.length - 1)))];
  const view = `Czech Pub, 5 players, turn ${int(1, 40)}. You are player 1.\nYour hand (5): Beer, Rum, Tea, Fernet, Vodka.\nYour legal actions:\n${ids.map((a) => `  ${a}: ${WORDS[a]}`).join('\n')}`;
  const messages = preflight
    ? [{ role: 'user', content: 'This is a connection check. Answer with JSON {"action": 0}.' }]
    : [{ role: 'system', content: `You are playing Czech Pub. ${'Rules… '.repeat(int(1, 50))}Příliš žluťoučký kůň.` }, { role: 'user', content: view }];
  const limit = [1, 7, 64, 300, 4000][int(0, 4)];
  const body = {
    model: 'fake-model', messages,
    ...(rng() < 0.7 ? { max_completion_tokens: limit } : rng() < 0.5 ? { max_tokens: limit } : {}),
    ...(rng() < 0.5 ? { response_format: { type: 'json_schema' } } : {}),
    ...(rng() < 0.1 ? { stream: true } : {}),
  };
  return parseRequest(body, 'Bearer sk-test-0123456789');
}

/** Every chunk's JSON of an event-stream body, or the one JSON body. */
const parts = (p: ReplyPlan): Record<string, unknown>[] => (p.body.kind === 'events' ? p.body.chunks : p.body.kind === 'json' ? [p.body.value] : []);

/** The usage a reply reports, read from whichever shape it is in (Anthropic's says nothing of reasoning). */
type Reported = Omit<Tokens, 'reasoning'> & { reasoning?: number; cost?: number; cached?: number };
function reported(p: ReplyPlan): Reported | null {
  let out: Reported | null = null;
  for (const c of parts(p)) {
    const u = (c.usage ?? (c.x_groq as { usage?: unknown } | undefined)?.usage) as Record<string, any> | undefined;
    const g = c.usageMetadata as Record<string, number> | undefined;
    if (u && 'prompt_tokens' in u) {
      out = { prompt: u.prompt_tokens, completion: u.completion_tokens, reasoning: u.completion_tokens_details?.reasoning_tokens ?? 0, cached: u.prompt_tokens_details?.cached_tokens ?? 0, ...(u.cost !== undefined ? { cost: u.cost } : {}) };
      if (u.total_tokens !== u.prompt_tokens + u.completion_tokens) out.prompt = NaN; // a total that is not the sum is a wrong report
    } else if (u && 'input_tokens' in u) out = { prompt: u.input_tokens, completion: u.output_tokens };
    else if (g) out = { prompt: g.promptTokenCount, completion: g.candidatesTokenCount + g.thoughtsTokenCount, reasoning: g.thoughtsTokenCount };
  }
  return out;
}

/** What an event stream's deltas add up to, and its last finish. */
function streamed(p: ReplyPlan): { content: string | null; finish: unknown } {
  let content: string | null = null;
  let finish: unknown;
  for (const c of parts(p)) {
    for (const ch of (c.choices as Record<string, any>[])) {
      if (typeof ch.delta?.content === 'string' && ch.delta.content !== '') content = (content ?? '') + ch.delta.content;
      if (ch.finish_reason !== null) finish = ch.finish_reason;
    }
  }
  return { content, finish };
}

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

/** Everything wrong with one plan, as lines. */
function problems(p: ReplyPlan, req: FakeRequest): string[] {
  const out: string[] = [];
  const bad = (what: string) => out.push(`${p.family}/${p.shape}: ${what}`);
  const ids = req.legal.map((l) => l.id);
  if (p.named !== null && !ids.includes(p.named)) bad(`named ${p.named} is not legal (${ids})`);
  if (p.outcome !== 'answer' && (p.named !== null || p.meant !== null)) bad(`a ${p.outcome} names ${p.named} / means ${p.meant}`);
  if ((p.outcome === 'fault') !== (p.fault !== undefined)) bad(`outcome ${p.outcome} with fault ${p.fault}`);
  if (p.outcome === 'answer' && read(p.content ?? '', req.legal) !== p.named) bad(`reads as ${read(p.content ?? '', req.legal)}, named ${p.named}: ${JSON.stringify(p.content)}`);
  if (p.family === 'named' && req.legal.length > 0 && p.named === null) bad('a named answer names nothing');
  if (req.legal.length === 0 && !(p.outcome === 'fault' || p.shape === 'preflight-json')) bad('the preflight got neither {"action": 0} nor a fault');
  if (p.shape === 'preflight-json' && (p.content !== '{"action": 0}' || p.meant !== 0)) bad('the preflight answer is not {"action": 0}');
  // Billing.
  const b = p.billed;
  const charged = b.prompt + b.completion + b.reasoning > 0;
  if (charged) {
    const chars = req.messages.reduce((s, m) => s + m.content.length, 0);
    if (b.prompt !== Math.ceil(chars / 4) + 4 * req.messages.length) bad(`prompt billed ${b.prompt}`);
    if (b.prompt > req.messages.reduce((s, m) => s + utf8(m.content) + 4, 0) + 8) bad(`prompt billed ${b.prompt} passes the bytes`);
    if (b.completion < 1 || b.completion > req.maxTokens) bad(`completion billed ${b.completion} of ${req.maxTokens}`);
    if (b.reasoning < 0 || b.reasoning > b.completion) bad(`reasoning billed ${b.reasoning} of ${b.completion}`);
  }
  if (p.outcome === 'truncated' && b.completion !== req.maxTokens) bad(`truncated, billed ${b.completion} not ${req.maxTokens}`);
  if (p.cut === 'before-headers' && charged) bad('a reset before the headers bills');
  if (p.shape === 'reset-mid-body' && !(b.prompt > 0 && b.completion > 0)) bad('a reset mid-body bills nothing');
  if (p.status >= 400 && charged) bad(`a ${p.status} bills`);
  if (p.cached < 0 || p.cached > b.prompt) bad(`cached ${p.cached} of ${b.prompt}`);
  // The usage the body reports is the billing.
  const u = reported(p);
  if ((u !== null) !== (p.usageShape !== null)) bad(`usage shape ${p.usageShape} but the body ${u ? 'reports' : 'does not report'} one`);
  if (u && (u.prompt !== b.prompt || u.completion !== b.completion || (u.reasoning ?? b.reasoning) !== b.reasoning)) bad(`reports ${JSON.stringify(u)}, billed ${JSON.stringify(b)}`);
  if (u?.cached !== undefined && u.cached !== p.cached) bad(`reports ${u.cached} cached, the plan ${p.cached}`);
  const cost = (b.prompt * DEFAULT_PRICES.promptPerMillion + b.completion * DEFAULT_PRICES.completionPerMillion) / 1e6;
  if (u?.cost !== p.costReported || (p.costReported !== undefined && p.costReported !== cost)) bad(`cost ${u?.cost} / ${p.costReported}, billed ${cost}`);
  if (p.usageShape !== null && !charged) bad('reports usage of nothing billed');
  // A stream says what the completion would have.
  if (p.body.kind === 'events') {
    const s = streamed(p);
    if (s.content !== (p.content === '' ? null : p.content)) bad(`streams ${JSON.stringify(s.content)} for ${JSON.stringify(p.content)}`);
    if ((p.finish ?? null) !== (s.finish ?? null)) bad(`streams finish ${String(s.finish)} for ${String(p.finish)}`);
  }
  if (req.stream && p.body.kind === 'json' && p.status === 200 && p.body.value.object === 'chat.completion' && (p.body.value.choices as unknown[]).length === 1) bad('a stream was asked for and not sent');
  return out;
}

describe('the reply grammar', () => {
  it('keeps its word over 200 seeds × 50 draws, meeting every family, outcome and fault', () => {
    const found: string[] = [];
    const seen = { family: new Set<string>(), outcome: new Set<string>(), fault: new Set<string>(), shape: new Set<string>() };
    for (let s = 0; s < 200; s++) {
      const reqRng = seedrandom(`requests/${s}`);
      for (let n = 0; n < 50; n++) {
        const req = request(reqRng);
        const p = drawReply(replyRng(`seed-${s}`, n), req);
        found.push(...problems(p, req).map((x) => `seed-${s}/${n}: ${x}`));
        seen.family.add(p.family);
        if (p.transport.includes('stream')) seen.family.add('stream');
        if (p.transport.includes('gzip')) seen.family.add('gzip');
        seen.outcome.add(p.outcome);
        if (p.fault) seen.fault.add(p.fault);
        seen.shape.add(p.shape.replace(/^.*\+/, ''));
      }
    }
    expect(found.slice(0, 10)).toEqual([]);
    expect([...seen.family].sort()).toEqual([...FAMILIES].sort());
    expect([...seen.outcome].sort()).toEqual(['answer', 'fault', 'filtered', 'truncated', 'unknown']);
    expect(seen.fault.size).toBe(10);
    expect(seen.shape.size).toBeGreaterThan(60);
  });

  it('draws the same plan for the same seed, n and request, and another for another n', () => {
    const req = request(seedrandom('one'));
    for (let n = 0; n < 50; n++) expect(drawReply(replyRng('s', n), req)).toEqual(drawReply(replyRng('s', n), req));
    const shapes = new Set(Array.from({ length: 50 }, (_, n) => drawReply(replyRng('s', n), req).shape));
    expect(shapes.size).toBeGreaterThan(15);
  });

  it('draws only the families given weight, the preflight only an answer or a fault', () => {
    const rng = seedrandom('weights');
    for (let n = 0; n < 300; n++) {
      const req = request(rng);
      const fatal = drawReply(replyRng('w', n), req, { fatal: 1 });
      expect(fatal.family).toBe('fatal');
      const stream = drawReply(replyRng('w', n), req, { stream: 1 });
      expect(stream.transport).toMatch(/stream/);
      const unknown = drawReply(replyRng('w', n), req, { unknown: 1 });
      expect(unknown.family).toBe(req.legal.length === 0 ? 'named' : 'unknown');
      expect(problems(unknown, req)).toEqual([]);
    }
  });

  it('reads a request: its legal actions, token limit, format, stream and key', () => {
    const content = 'Turn 3.\nYour legal actions:\n  40: discard Beer\n  7: Mixed-up: take their Rum, give your Tea\nWhich action do you take?';
    const r = parseRequest({ model: 'm', messages: [{ role: 'user', content: 'Your legal actions:\n  1: pass' }, { role: 'user', content: [{ type: 'text', text: content }] }], max_tokens: 99, response_format: { type: 'json_object' }, stream: true }, 'Bearer sk-1');
    expect(r).toEqual({
      model: 'm', messages: [{ role: 'user', content: 'Your legal actions:\n  1: pass' }, { role: 'user', content }], maxTokens: 99, stream: true, structured: true,
      legal: [{ id: 40, words: 'discard Beer' }, { id: 7, words: 'Mixed-up: take their Rum, give your Tea' }], apiKey: 'sk-1',
    });
    const plain = parseRequest({ messages: [{ role: 'user', content: 'This is a connection check.' }], max_completion_tokens: 5, max_tokens: 9 });
    expect(plain).toMatchObject({ maxTokens: 5, stream: false, structured: false, legal: [], apiKey: null });
    expect(parseRequest({ messages: [] }).maxTokens).toBe(4000);
  });

  it('has a reference reader that takes only the accepted forms', () => {
    const legal = [{ id: 40, words: 'discard Beer' }, { id: 41, words: 'discard Rum' }];
    const accepted = ['{"action": 40}', ' {"reason": "2 {beers}", "action": 40} ', '```json\n{"action": "40"}\n```', '<think>{"action": 41} 41</think>\n{"action": "discard Beer"}',
      '40', ' ٤٠\n', '४०', '４０', 'DISCARD   beer', '40:  Discard BEER', '٤٠: discard Beer', '{"action": 40, "confidence": 1}', 'Here: {"action": 40}', '<think>40</think>40'];
    for (const t of accepted) expect([t, read(t, legal)]).toEqual([t, 40]);
    const refused = ["I'll discard Beer", 'I choose 40', 'Action 40, because', '40 or 41', '{"action": 40}\n{"action": 41}', '{"action": 42}', '', '{"move": 40}',
      '40.', '<think>{"action": 40}'];
    for (const t of refused) expect([t, read(t, legal)]).toEqual([t, null]);
  });
});
