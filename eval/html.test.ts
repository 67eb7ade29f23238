/**
 * The escaper, and what it guarantees of the pages made with it (the leaderboard page, a run's
 * report.html): for a seeded set of hostile strings put in every string field of their inputs,
 * and strings of markup in their numeric fields (a results.json read without its schema), every
 * tag of the page is one the page makes itself, with no event handler and no link but its own.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSeed } from '../agents/index.ts';
import { CzechPubEnv, describeAction, randInt, seedRng, type RngState } from '../env/index.ts';
import { readBoardRuns, type BoardRuns } from './board-runs.ts';
import { checkViewerUrl } from './highlights.ts';
import { escapeHtml, html, joinHtml, type HtmlValue } from './html.ts';
import { leaderboardPage, type LeaderboardTable } from './leaderboard-page.ts';
import { pairedDeals } from './paired-deals.ts';
import { fitRatings, tieGroups } from './ratings.ts';
import { reportHtml } from './report.ts';
import type { GameResult } from './summary.ts';
import { runTournament } from './tournament.ts';

describe('html', () => {
  it('escapes every value put in, numbers and strings in numeric fields included; keeps what html made', () => {
    const cell = (x: HtmlValue) => html`<td>${x}</td>`.toString();
    expect(cell('<script>"x" & \'y\'</script>')).toBe('<td>&#60;script&#62;&#34;x&#34; &#38; &#39;y&#39;&#60;/script&#62;</td>');
    expect(cell(12.5)).toBe('<td>12.5</td>');
    // A field typed as a number that holds markup (a results.json read without its schema).
    expect(cell('<img src=x onerror=alert(1)>' as unknown as number)).toBe(`<td>${escapeHtml('<img src=x onerror=alert(1)>')}</td>`);
    expect(cell(html`<strong>${'<b>'}</strong>`)).toBe('<td><strong>&#60;b&#62;</strong></td>');
    expect(cell(['<a>', html`<br>`, 3])).toBe('<td>&#60;a&#62;<br>3</td>');
    expect(cell(null) + cell(undefined) + cell(false)).toBe('<td></td>'.repeat(3));
  });

  it('takes nothing from outside as markup: an object that looks made by html is escaped', () => {
    const forged = JSON.parse('{"text":"<script>x</script>"}');
    forged.toString = () => '<script>x</script>';
    expect(html`${forged as HtmlValue}`.toString()).toBe('&#60;script&#62;x&#60;/script&#62;');
  });

  it('joins items with a separator, escaping string items and separators', () => {
    expect(html`${joinHtml(['a<', 'b'], html`<br>`)}`.toString()).toBe('a&#60;<br>b');
    expect(html`${joinHtml([html`<i>x</i>`, 'y'], ' & ')}`.toString()).toBe('<i>x</i> &#38; y');
  });
});

// ---- what a page may hold ----

/** What is wrong with a page's markup: a `<` that starts no tag, a tag not in `allowed`, an event handler, style or source, a link not to `viewer`. */
function markupFaults(page: string, allowed: ReadonlySet<string>, viewer: string): string[] {
  const faults: string[] = [];
  const tag = /<\/?([a-zA-Z][a-zA-Z0-9]*)((?:\s+[a-zA-Z][\w:-]*(?:="[^"<]*")?)*)\s*\/?>/y;
  for (let at = page.indexOf('<'); at !== -1; at = page.indexOf('<', at + 1)) {
    if (at === 0 && page.startsWith('<!doctype html>')) continue;
    tag.lastIndex = at;
    const m = tag.exec(page);
    if (!m) {
      faults.push(`not a tag: ${page.slice(at, at + 60)}`);
      continue;
    }
    if (!allowed.has(m[1].toLowerCase())) faults.push(`not the page's tag: ${m[0]}`);
    for (const [, name, value = ''] of m[2].matchAll(/\s+([a-zA-Z][\w:-]*)(?:="([^"]*)")?/g)) {
      if (/^(on|src$|style$|formaction$|srcdoc$)/i.test(name)) faults.push(`attribute ${name}: ${m[0]}`);
      if (name.toLowerCase() === 'href' && !value.startsWith(escapeHtml(viewer))) faults.push(`a link not to the viewer: ${m[0]}`);
    }
  }
  return faults;
}

/** Pieces of hostile strings: markup that breaks out of text, attributes, <pre> and the page; entities; script URLs. */
const ATOMS = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "'><svg onload=alert(1)>", '</pre><script>alert(1)</script>', '</td></tr></table><iframe src=x>',
  '<!--', '&amp;', '&', '"', "'", 'javascript:alert(1)', '<a href="javascript:alert(1)">x</a>', '</title></head><body onload=alert(1)>', '${x}', 'ü ☃', '<style>*{}</style>'];

/** A hostile string: one to three atoms between plain words, ending in `#k` so that names stay apart. */
function hostile(rng: RngState, k: number): string {
  const parts = Array.from({ length: 1 + randInt(rng, 3) }, () => `${['a', 'b b', ''][randInt(rng, 3)]}${ATOMS[randInt(rng, ATOMS.length)]}`);
  return `${parts.join('')}#${k}`;
}

// ---- the leaderboard page ----

const PAGE_TAGS = new Set(['html', 'head', 'meta', 'title', 'style', 'body', 'h1', 'h2', 'h3', 'h4', 'p', 'code', 'table', 'thead', 'tbody', 'tr', 'th', 'td',
  'strong', 'details', 'summary', 'pre', 'div', 'br', 'a', 'ul', 'li', 'section']);

let tmp = '';
/** A run of bots, `greedy` standing in for a model: a usage entry, and a transcript with lines paired, a fallback and lines not paired. */
let base: BoardRuns;

/** The model seat's decisions (more than one legal action) of a game: decision, action, words. */
function decisionsOf(g: GameResult, seat: number) {
  const env = new CzechPubEnv({ seed: g.seed, players: g.seating.length });
  const out: { action: number; words: string }[] = [];
  for (const a of g.actions) {
    if (env.actor === seat && env.legalActions().length > 1) out.push({ action: a, words: describeAction(a, seat, g.seating.length) });
    env.step(a);
  }
  return out;
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'czech-pub-html-'));
  const dir = join(tmp, 'run');
  await runTournament({ agents: ['random', 'greedy', 'cautious'], games: 6, seed: 'html', workers: 0, out: dir });
  const file = join(dir, 'results.json');
  const results = JSON.parse(readFileSync(file, 'utf8'));
  results.usage = [{
    spec: 'greedy', decisions: 10, requests: 10, unfinishedRequests: 0, invalidAnswers: 0, invalidRate: 0, plainTextAnswers: 0, faultRetries: 0, fallbacks: 1, fallbackRate: 0.1,
    faultFallbacks: 0, adaptations: [], provenance: { host: 'h:1', servedModels: [], settings: {}, rulesHash: 'r', promptHash: 'p', sdk: 's' },
    byKind: { play: { decisions: 10, firstTry: 9, corrected: 0, fallbacks: 1, truncations: 0, firstTryRate: 0.9 } }, costPerGame: 0.01, costPerDecision: 0.001, costPerWin: 0.02,
    truncations: 0, latencyMedianMs: 1, latencyP95Ms: 2, promptTokens: 100, completionTokens: 10, reasoningTokens: 1, requestsPerGame: 2, estimatedCost: 0.06, invalid: false,
  }];
  writeFileSync(file, JSON.stringify(results));
  const [g0, g1] = readFileSync(join(dir, 'games.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as GameResult).sort((a, b) => a.index - b.index);
  const line = (g: GameResult, decision: number, more: object) => JSON.stringify({ agent: 'greedy', game: agentSeed(g.seed, g.seating.indexOf(1)), seat: g.seating.indexOf(1), decision, ...more });
  const lines = [
    ...decisionsOf(g0, g0.seating.indexOf(1)).map((m, d) => line(g0, d, d === 0
      ? { fallback: true, cause: 'c', action: m.action, words: m.words }
      : { attempt: 0, answer: 'a', reasoning: 'r', finish: 'stop', latencyMs: 3, tokens: { in: 1 }, action: m.action, words: m.words })),
    line(g1, 0, { attempt: 0, answer: 'a', reasoning: 'r', finish: 'stop', action: 99, words: 'w' }),
  ];
  writeFileSync(join(dir, 'transcript.jsonl'), `${lines.join('\n')}\n`);
  [base] = readBoardRuns([dir], { transcripts: true });
  expect(base.runs[0].transcript?.bySeat.size).toBe(2);
}, 60_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The base run with `name(k)` in every string field; players renamed throughout. */
function renamed(name: (k: number) => string): BoardRuns {
  const board = structuredClone(base);
  const r = board.runs[0];
  r.dir = name(0);
  r.run.labels = [name(1), name(2), name(3)];
  r.run.config.seed = name(4);
  r.usage[0].spec = name(2);
  r.usage[0].byKind = { [name(5)]: r.usage[0].byKind.play };
  r.fingerprint = board.fingerprint = { ...board.fingerprint, ruleset: name(6), harness: name(7), prompt: { rulesHash: name(8), promptHash: name(9) } };
  let k = 10;
  for (const lines of r.transcript!.bySeat.values()) {
    for (const l of lines) {
      for (const f of ['answer', 'reasoning', 'cause', 'finish', 'words', 'tokens'] as const) {
        // The words of a line that played are the move's, shown from the game: from 1000 on, names not shown.
        if (l[f] !== undefined) l[f] = name(f === 'words' && !l.fallback ? 1000 + k++ : k++);
      }
    }
  }
  board.games = r.games.map((g) => ({ deal: `${r.dir}#${g.deal}`, players: g.seating.map((e) => r.run.labels[e]), scores: g.scores }));
  return board;
}

function tableOf(board: BoardRuns): LeaderboardTable {
  const [a, b, c] = board.runs[0].run.labels;
  const anchors = new Map([[a, 0]]);
  const ratings = fitRatings(board.games, anchors, 10, 'html');
  return { board, ratings, groups: tieGroups(ratings), pairs: [pairedDeals(board.games, b, c, 10, 'html')], anchors };
}

describe('leaderboardPage', () => {
  it('shows every hostile string of its inputs as text, for 16 seeded sets of them', () => {
    const viewer = checkViewerUrl('https://example.org/"><script>alert(1)</script>/');
    for (let seed = 0; seed < 16; seed++) {
      const rng = seedRng(`hostile-${seed}`);
      const names = new Map<number, string>();
      const name = (k: number) => names.get(k) ?? (names.set(k, hostile(rng, k)), names.get(k)!);
      const page = leaderboardPage({ tables: [tableOf(renamed(name))], samples: 10, viewer });
      expect(markupFaults(page, PAGE_TAGS, viewer)).toEqual([]);
      expect(names.size).toBeGreaterThan(14);
      // Each string shown escaped (a line's tokens as JSON), never as it is; from 1000 on, names not shown.
      const unescaped = [...names].filter(([, s]) => /[<"]/.test(s) && page.includes(s));
      const unshown = [...names].filter(([k, s]) => k < 1000 && !page.includes(escapeHtml(s)) && !page.includes(escapeHtml(JSON.stringify(s))));
      expect({ seed, unescaped, unshown }).toEqual({ seed, unescaped: [], unshown: [] });
    }
  });

  it('escapes strings of markup in its numeric fields, as read from a results.json without its schema', () => {
    const markup = '<img src=x onerror=alert(1)>';
    const m = markup as unknown as number;
    const board = structuredClone(base);
    const table = tableOf(board);
    const r = board.runs[0];
    Object.assign(r.usage[0], { promptTokens: m, completionTokens: m, reasoningTokens: m, fallbacks: m, fallbackRate: m, truncations: m, decisions: m, estimatedCost: m });
    Object.assign(r.usage[0].byKind.play, { decisions: m, firstTry: m, corrected: m, fallbacks: m, truncations: m });
    Object.assign(r.games[0], { index: m, scores: [m, m, m] });
    for (const lines of r.transcript!.bySeat.values()) for (const l of lines) Object.assign(l, { attempt: m, latencyMs: m });
    Object.assign(table.ratings[0], { rating: m, interval: [m, m], games: m });
    Object.assign(table.pairs[0], { deals: m, meanDifference: m, dealWins: m, aAboveShare: m });
    (table.groups as number[])[0] = m;
    const viewer = 'https://example.org/';
    const page = leaderboardPage({ tables: [table], samples: m, viewer });
    expect(markupFaults(page, PAGE_TAGS, viewer)).toEqual([]);
    expect(page).not.toContain(markup);
    expect(page).toContain(`<td>${escapeHtml(markup)}</td>`);
  });
});

// ---- a run's report.html ----

const REPORT_TAGS = new Set(['html', 'head', 'meta', 'title', 'style', 'body', 'h1', 'h2', 'p', 'code', 'svg', 'line', 'text', 'rect', 'table', 'thead', 'tbody', 'tr', 'th', 'td',
  'strong', 'form', 'label', 'input', 'button', 'span', 'ul', 'li', 'a']);

describe('reportHtml', () => {
  it('escapes every value of the result, strings of markup in its numeric fields included, for 16 seeded sets of hostile strings', async () => {
    const played = await runTournament({ agents: ['random', 'greedy', 'cautious'], games: 3, seed: 'hostile-report', workers: 0 });
    const m = '<svg onload=alert(3)>' as unknown as number;
    const viewer = 'https://example.org/view/';
    for (let seed = 0; seed < 16; seed++) {
      const rng = seedRng(`hostile-report-${seed}`);
      const bad = Array.from({ length: 8 }, (_, k) => hostile(rng, k));
      const r = structuredClone(played);
      const specs = r.summary.agents.map((_, i) => bad[i]);
      r.summary.agents.forEach((a, i) => Object.assign(a, { spec: specs[i], games: m, wins: m, winRateCI: [m, m] }));
      r.summary.headToHead = Object.fromEntries(specs.map((a) => [a, Object.fromEntries(specs.map((b) => [b, m]))]));
      Object.assign(r.config, { seed: bad[3], players: m });
      Object.assign(r.env, { observationVersion: m, ruleset: { name: bad[4], fingerprint: bad[5] } });
      Object.assign(r, { finishedAt: bad[6], gamesPlayed: m, highlights: [{ kind: 'upset', index: m, why: bad[7], link: bad[7] }] });
      r.usage = [{ spec: specs[1], decisions: m, promptTokens: m, fallbacks: m, estimatedCost: m, adaptations: [], faults: {}, byKind: {}, invalid: true } as never];
      const page = reportHtml(r, viewer);
      // Its one script, the page's own: it sets the links from the viewer field.
      const script = /<script>[\s\S]*?<\/script>/.exec(page)![0];
      expect(script).toContain("'czech-pub:viewer'");
      const rest = page.replace(script, '');
      expect(markupFaults(rest, REPORT_TAGS, viewer)).toEqual([]);
      const unescaped = bad.filter((s) => /[<"]/.test(s) && rest.includes(s));
      const unshown = bad.filter((s) => !rest.includes(escapeHtml(s)));
      expect({ seed, unescaped, unshown }).toEqual({ seed, unescaped: [], unshown: [] });
      expect(rest).toContain(escapeHtml(m as unknown as string));
    }
  });
});
