/** Tournament reports: a Markdown leaderboard and a self-contained HTML page with a chart, each titled for what made the run. */
import { END_REASONS, type EndReason } from '../env/index.ts';
import { DEFAULT_VIEWER, viewerHref } from './highlights.ts';
import { html, joinHtml, type HtmlValue, type SafeHtml } from './html.ts';
import type { TournamentResult } from './tournament.ts';
import type { UsageSummary } from './usage.ts';

const workersText = (w: number): string => (w === 0 ? 'in one thread' : `on ${w} worker thread${w === 1 ? '' : 's'}`);
const pct = (x: number): string => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '–');
/** A model's fallbacks, with those its server caused. */
const fallbacksText = (u: UsageSummary) => `${u.fallbacks} (${pct(u.fallbackRate)})${u.faultFallbacks ? `, ${u.faultFallbacks} by server faults` : ''}`;

/**
 * What made a run: `czech-pub tournament` (and a server's tournament job, and the evaluations
 * of train and distill, tournaments too) or `czech-pub llm-bench`. Its reports are titled for
 * it, and run.json records it, so `czech-pub report` titles a folder's reports again the same.
 */
export type RunKind = 'tournament' | 'llm-bench';

/** The title of each kind of run's reports. */
export const RUN_TITLES: Readonly<Record<RunKind, string>> = {
  tournament: 'Czech Pub tournament',
  'llm-bench': 'Czech Pub LLM benchmark',
};

/** Fewer deals than this, and the leaderboard says its sample is small. */
export const SMALL_SAMPLE_DEALS = 10;
const num = (x: number, d = 1): string => (Number.isFinite(x) ? x.toFixed(d) : '–');
const cost = (usd: number | null): string => (Number.isFinite(usd) ? `$${usd!.toFixed(4)}` : '–');

/** The usage of a model agent, if it is one. */
const usageOf = (r: TournamentResult, spec: string) => r.usage.find((u) => u.spec === spec);
/** How much of an agent's play was the model's: fallbacks and invalid answers, or – for bots. */
const modelShare = (r: TournamentResult, spec: string): [string, string] => {
  const u = usageOf(r, spec);
  return u ? [pct(u.fallbackRate), pct(u.invalidRate)] : ['–', '–'];
};
const invalidMark = (r: TournamentResult, spec: string): string => (usageOf(r, spec)?.invalid ? ' INVALID' : '');

const ENDING_TEXT: Record<EndReason, string> = {
  'closing-time': 'at closing time',
  'one-left': 'with one player left in the game',
  'all-out': 'with every player out',
  'decision-limit': 'cut off at the decision cap',
};

/** How long the games lasted and how they ended, one sentence. */
function gamesText(r: TournamentResult): string {
  const s = r.summary;
  const endings = END_REASONS.filter((k) => s.endings[k]).map((k) => `${s.endings[k]} ${ENDING_TEXT[k]}`);
  return `Games last ${num(s.meanTurns)} turns and ${num(s.meanDecisions)} decisions on average${endings.length ? `; they ended ${endings.join(', ')}` : ''}.`;
}

export function leaderboardMarkdown(r: TournamentResult, kind: RunKind = 'tournament'): string {
  const c = r.config;
  const models = r.usage.length > 0;
  const lines = [
    `# ${RUN_TITLES[kind]}: ${c.players} players, ${r.gamesPlayed} games${r.complete ? '' : ` (interrupted: ${r.gamesPlayed} of ${r.gamesScheduled})`}`,
    '',
    `Seed ${c.seed}, ${c.duplicate ? 'duplicate deals' : 'independent deals'}, seats rotated; ruleset ${r.env.ruleset.name} ` +
      `(${r.env.ruleset.fingerprint}); ${num(r.gamesPerSec)} games/s ${workersText(c.workers)}.`,
    '',
    `| # | agent | games | wins | win rate (95% CI) | mean score (95% CI) | mean rank | rating (σ) | wasted | thrown out | ms/decision |${models ? ' fallbacks | invalid answers |' : ''}`,
    `|---|---|---|---|---|---|---|---|---|---|---|${models ? '---|---|' : ''}`,
    ...r.summary.agents.map((a, i) =>
      `| ${a.games === 0 ? '–' : i + 1} | \`${a.spec}\`${a.seats > 1 ? ` ×${a.seats}` : ''}${invalidMark(r, a.spec)} | ${a.games} | ${num(a.wins)} | ${pct(a.winRate)} (${pct(a.winRateCI[0])}–${pct(a.winRateCI[1])}) | ` +
        `${num(a.meanScore)} (${num(a.scoreCI[0])}–${num(a.scoreCI[1])}) | ${num(a.meanRank, 2)} | ${num(a.rating)} (${num(a.ratingSigma, 2)}) | ` +
        `${pct(a.wastedRate)} | ${pct(a.thrownOutRate)} | ${num(a.msPerDecision, 3)} |${models ? ` ${modelShare(r, a.spec).join(' | ')} |` : ''}`),
    ...(r.summary.agents.some((a) => a.games === 0) ? ['', 'Not ranked (–): no finished game.'] : []),
    ...(r.summary.deals < SMALL_SAMPLE_DEALS ? ['', `Small sample: ${r.summary.deals} deal${r.summary.deals === 1 ? '' : 's'}. Intervals over so few are wide, and over one deal not given (–); play more games before reading a ranking.`] : []),
    ...(r.usage.some((u) => u.invalid) ? ['', `INVALID: more of the model's decisions fell back (played the first legal action) than the ${pct(r.maxFallbackRate)} allowed; its figures measure the fallback, not the model.`] : []),
    '',
    gamesText(r),
  ];
  const specs = r.summary.agents.map((a) => a.spec);
  if (specs.length > 1) {
    lines.push('', 'Head to head (row finished above column, ties half):', '', `| | ${specs.map((s) => `\`${s}\``).join(' | ')} |`,
      `|---|${specs.map(() => '---').join('|')}|`,
      ...specs.map((a) => `| \`${a}\` | ${specs.map((b) => (a === b ? '' : pct(r.summary.headToHead[a]?.[b] ?? Number.NaN))).join(' | ')} |`));
  }
  if (r.usage.length > 0) {
    lines.push('', 'Model usage:', '', '| agent | decisions sent | calls/game | invalid answers | plain-text answers | fault retries | fallbacks | cut off | latency median / p95 | tokens in (cached) / out (reasoning) | est. cost |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...r.usage.map((u) => `| \`${u.spec}\`${u.invalid ? ' INVALID' : ''} | ${u.decisions} | ${num(u.requestsPerGame)} | ${u.invalidAnswers} (${pct(u.invalidRate)}) | ${u.plainTextAnswers} | ${u.faultRetries} | ` +
        `${fallbacksText(u)} | ${u.truncations} | ${num(u.latencyMedianMs, 0)} / ${num(u.latencyP95Ms, 0)} ms | ${tokensText(u)} | ` +
        `${costText(u)} |`));
    for (const u of r.usage.filter((x) => (x.usageMissing ?? 0) > 0)) {
      lines.push('', `\`${u.spec}\`: the server reported no usage for ${u.usageMissing} of its answers; their tokens are not in the counts above (not 0), and a cost estimated from tokens is a lower bound.`);
    }
    for (const u of r.usage.filter((x) => x.adaptations.length > 0)) lines.push('', `\`${u.spec}\` was asked as its server takes it: ${u.adaptations.join('; ')}.`);
    for (const u of r.usage) {
      const faults = Object.entries(u.faults ?? {}).map(([kind, n]) => `${n} ${kind}`);
      if (faults.length) lines.push('', `\`${u.spec}\`: failed requests by kind of fault: ${faults.join(', ')} (retried, or the decision fell back as the server's fault; never counted as the model's answer).`);
    }
    const kinds = r.usage.flatMap((u) => Object.entries(u.byKind).map(([kind, k]) => ({ spec: u.spec, kind, k })));
    if (kinds.length > 0) {
      lines.push('', 'By kind of decision:', '', '| agent | kind | decisions | legal at the first try | after corrections | fell back | cut off |', '|---|---|---|---|---|---|---|',
        ...kinds.map(({ spec, kind, k }) => `| \`${spec}\` | ${kind} | ${k.decisions} | ${k.firstTry} (${pct(k.firstTryRate)}) | ${k.corrected} | ${k.fallbacks} | ${k.truncations} |`));
    }
    for (const u of r.usage.filter((x) => x.costPerGame !== null)) {
      lines.push('', `\`${u.spec}\` cost ${cost(u.costPerGame)} a game, ${cost(u.costPerDecision)} a decision and ${u.costPerWin === null ? 'nothing yet per win (no win)' : `${cost(u.costPerWin)} a win`} (${u.costSource === 'provider' ? 'as the server reported it' : 'estimated'}).`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** A table of header cells and rows of data cells. */
function htmlTable(head: readonly string[], rows: readonly (readonly HtmlValue[])[]): SafeHtml {
  return html`<table><thead><tr>${head.map((h) => html`<th>${h}</th>`)}</tr></thead><tbody>${rows.map((row) => html`<tr>${row.map((c) => html`<td>${c}</td>`)}</tr>`)}</tbody></table>`;
}

const INVALID = html` <strong>INVALID</strong>`;

/** An SVG bar chart of win rates with their 95% intervals. */
function winRateChart(r: TournamentResult): SafeHtml {
  const agents = r.summary.agents;
  const rowH = 34, left = 220, width = 520, top = 30;
  const height = top + agents.length * rowH + 30;
  const top95 = Math.max(0.05, ...agents.map((a) => (Number.isFinite(a.winRateCI[1]) ? a.winRateCI[1] : a.winRate)));
  const step = top95 <= 0.2 ? 0.05 : top95 <= 0.5 ? 0.1 : 0.2;
  const max = Math.min(1, Math.ceil((top95 + 0.01) / step) * step);
  const x = (v: number) => left + (Math.min(max, Math.max(0, v)) / max) * width;
  const ticks = Array.from({ length: Math.round(max / step) + 1 }, (_, i) => i * step);
  const even = 1 / r.config.players;
  const bars = agents.map((a, i) => {
    const y = top + i * rowH;
    const [lo, hi] = [x(a.winRateCI[0]), x(a.winRateCI[1])];
    return html`<text x="${left - 8}" y="${y + 20}" font-size="13" text-anchor="end">${a.spec}${invalidMark(r, a.spec)}</text>
<rect x="${left}" y="${y + 6}" width="${x(a.winRate) - left}" height="20" fill="#4a7ab5"/>
<line x1="${lo}" y1="${y + 16}" x2="${hi}" y2="${y + 16}" stroke="#111" stroke-width="2"/>
<line x1="${lo}" y1="${y + 10}" x2="${lo}" y2="${y + 22}" stroke="#111" stroke-width="2"/>
<line x1="${hi}" y1="${y + 10}" x2="${hi}" y2="${y + 22}" stroke="#111" stroke-width="2"/>
<text x="${x(Math.max(a.winRate, a.winRateCI[1])) + 6}" y="${y + 20}" font-size="12">${pct(a.winRate)}</text>
`;
  });
  return html`<svg xmlns="http://www.w3.org/2000/svg" width="${left + width + 40}" height="${height}" role="img" aria-label="Win rates with 95% intervals">
${ticks.map((t) => html`<line x1="${x(t)}" y1="${top - 8}" x2="${x(t)}" y2="${height - 24}" stroke="#ddd"/><text x="${x(t)}" y="${height - 8}" font-size="11" text-anchor="middle">${(100 * t).toFixed(0)}%</text>
`)}<line x1="${x(even)}" y1="${top - 12}" x2="${x(even)}" y2="${height - 24}" stroke="#999" stroke-dasharray="4 3"/>
<text x="${x(even) - 4}" y="${top - 14}" font-size="11" fill="#666" text-anchor="end">even share ${(100 * even).toFixed(0)}%</text>
${bars}</svg>`;
}

/** The markdown table's rows as an HTML table (same figures). */
function leaderboardHtml(r: TournamentResult): SafeHtml {
  const models = r.usage.length > 0;
  const head = ['#', 'agent', 'games', 'wins', 'win rate', '95% CI', 'mean score', '95% CI', 'mean rank', 'rating', 'σ', 'wasted', 'thrown out', 'ms/decision',
    ...(models ? ['fallbacks', 'invalid answers'] : [])];
  const rows = r.summary.agents.map((a, i) => [
    i + 1, html`${a.spec}${a.seats > 1 ? ` ×${a.seats}` : ''}${invalidMark(r, a.spec) && INVALID}`, a.games, num(a.wins), pct(a.winRate),
    `${pct(a.winRateCI[0])}–${pct(a.winRateCI[1])}`, num(a.meanScore), `${num(a.scoreCI[0])}–${num(a.scoreCI[1])}`,
    num(a.meanRank, 2), num(a.rating), num(a.ratingSigma, 2), pct(a.wastedRate), pct(a.thrownOutRate), num(a.msPerDecision, 3),
    ...(models ? modelShare(r, a.spec) : []),
  ]);
  return htmlTable(head, rows);
}

/** Whether none of a model's answers reported its usage: its token counts are "not reported", never 0. */
const noUsage = (u: UsageSummary) => (u.usageMissing ?? 0) > 0 && (u.usageReports ?? 0) === 0;

/** Tokens in (cached) / out (reasoning), "not reported" where the server sent none, and marked partial where it sent some. */
function tokensText(u: UsageSummary): string {
  if (noUsage(u)) return 'not reported';
  const t = `${u.promptTokens} (${u.cachedTokens}) / ${u.completionTokens} (${u.reasoningTokens})`;
  return (u.usageMissing ?? 0) > 0 ? `at least ${t}; ${u.usageMissing} answers not reported` : t;
}

function tokenCells(u: UsageSummary): (string | number)[] {
  if (noUsage(u)) return ['not reported', 'not reported', 'not reported'];
  const more = (u.usageMissing ?? 0) > 0 ? ' or more' : '';
  return [`${u.promptTokens}${more}`, `${u.completionTokens}${more}`, `${u.reasoningTokens}${more}`];
}

/** The estimated cost, a lower bound where some answers reported no usage. */
const costText = (u: UsageSummary) => (noUsage(u) ? 'not reported' : `${(u.usageMissing ?? 0) > 0 && u.estimatedCost !== null ? 'at least ' : ''}${cost(u.estimatedCost)}`);

function usageHtml(r: TournamentResult): SafeHtml {
  const head = ['agent', 'decisions sent', 'calls/game', 'invalid answers', 'plain-text answers', 'fault retries', 'fallbacks', 'cut off', 'latency median (ms)', 'latency p95 (ms)', 'prompt tokens', 'completion tokens', 'reasoning tokens', 'est. cost'];
  const rows = r.usage.map((u) => [html`${u.spec}${u.invalid && INVALID}`, u.decisions, num(u.requestsPerGame), `${u.invalidAnswers} (${pct(u.invalidRate)})`, u.plainTextAnswers, u.faultRetries,
    fallbacksText(u), u.truncations, num(u.latencyMedianMs, 0), num(u.latencyP95Ms, 0), ...tokenCells(u), costText(u)]);
  return htmlTable(head, rows);
}

/**
 * The games worth watching, each linked to the web viewer. Without a viewer named, a link is
 * relative to the server that serves the report ('/#replay=…'); a report opened from a file
 * has a field for a running server's address (its default `fallback`), which the page's
 * script puts into every link and remembers.
 */
function highlightsHtml(r: TournamentResult, viewer: string | undefined): SafeHtml | null {
  if (r.highlights.length === 0) return null;
  // A game picked twice (the closest finish is often an upset too) is listed once.
  const byGame = new Map<number, { link: string; why: string[] }>();
  for (const h of r.highlights) {
    const g = byGame.get(h.index) ?? { link: h.link, why: [] };
    g.why.push(h.why);
    byGame.set(h.index, g);
  }
  const items = [...byGame].map(([index, g]) => html`<li><a href="${viewerHref(viewer ?? RELATIVE_VIEWER, g.link)}" data-replay="${g.link}">Game ${index}</a>: ${g.why.join(' ')}</li>`);
  const fallback = viewer ?? DEFAULT_VIEWER;
  return html`<h2>Games worth watching</h2>
<p>Each link opens the game in the web viewer of a running <code>czech-pub serve</code>${viewer ? html` at <code>${viewer}</code>` : ' (the server this page comes from)'}; <code>czech-pub replay games.jsonl --game N</code> narrates it in a terminal.
An upset is a win by an agent rated below the best-rated one, the widest gap first.</p>
<form id="viewer-form" class="viewer"><label>Web viewer <input id="viewer-address" size="36" value="${fallback}" data-fallback="${fallback}" data-fixed="${viewer ? '1' : '0'}" aria-describedby="viewer-note"></label>
<button type="submit">Use this address</button> <span id="viewer-note">Opened from a file, the links go to this address: start <code>czech-pub serve</code> (it prints where it listens; <code>--port</code> picks another) and put its address here.</span></form>
<ul>${joinHtml(items, '\n')}</ul>
${VIEWER_SCRIPT}`;
}

/** Where the report's links point when no viewer was named: the page at the root of the server serving the report. */
export const RELATIVE_VIEWER = '/';

/**
 * The report's script: from a file the links take the address in the field (kept in
 * localStorage), on a server they stay relative unless the reader changes the field.
 */
const VIEWER_SCRIPT = html`<script>(() => {
  const KEY = 'czech-pub:viewer';
  const input = document.getElementById('viewer-address');
  const note = document.getElementById('viewer-note');
  const check = (text) => { try { const u = new URL(text.trim()); if (u.protocol === 'http:' || u.protocol === 'https:') { u.hash = ''; return u.href; } } catch (e) {} return null; };
  const apply = (base) => { for (const a of document.querySelectorAll('a[data-replay]')) a.href = base + '#replay=' + a.dataset.replay; };
  let kept = null;
  try { kept = check(localStorage.getItem(KEY) || ''); } catch (e) {}
  if (location.protocol === 'file:') {
    input.value = kept || input.dataset.fallback;
    apply(input.value);
  } else if (input.dataset.fixed !== '1') {
    input.value = new URL('/', location.href).href;
    note.textContent = 'The links open the viewer of the server this page comes from; change the address to use another.';
  }
  document.getElementById('viewer-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const base = check(input.value);
    if (!base) { note.textContent = 'Give an http:// or https:// address, e.g. ' + input.dataset.fallback; return; }
    apply(base);
    try { localStorage.setItem(KEY, base); } catch (e) {}
    note.textContent = 'The links now open ' + base + '.';
  });
})();</script>`;

/** The report; `viewer` fixes where its game links point (else they are relative, see highlightsHtml). */
export function reportHtml(r: TournamentResult, viewer?: string, kind: RunKind = 'tournament'): string {
  const c = r.config;
  const specs = r.summary.agents.map((a) => a.spec);
  const h2h = html`<table><thead><tr><th>row above column</th>${specs.map((s) => html`<th>${s}</th>`)}</tr></thead><tbody>${specs.map((a) =>
    html`<tr><th>${a}</th>${specs.map((b) => html`<td>${a === b ? '' : pct(r.summary.headToHead[a]?.[b] ?? Number.NaN)}</td>`)}</tr>`)}</tbody></table>`;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${RUN_TITLES[kind]}: ${specs.join(', ')}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:1100px}table{border-collapse:collapse;margin:1rem 0}
td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}th{background:#f4f4f4}td:nth-child(2){text-align:left}</style></head>
<body>
<h1>${RUN_TITLES[kind]}</h1>
<p>${c.players} players, ${r.gamesPlayed} games${r.complete ? '' : ` (interrupted after ${r.gamesPlayed} of ${r.gamesScheduled})`}, seed <code>${c.seed}</code>,
${c.duplicate ? 'duplicate deals' : 'independent deals'}, seats rotated. Ruleset <code>${r.env.ruleset.name}</code> (${r.env.ruleset.fingerprint}),
observation v${r.env.observationVersion}, action space v${r.env.actionSpaceVersion}. ${num(r.gamesPerSec)} games/s ${workersText(c.workers)}; ${r.finishedAt}.</p>
<h2>Win rates with 95% intervals</h2>
${winRateChart(r)}
<h2>Leaderboard</h2>
${leaderboardHtml(r)}
<p>${gamesText(r)}</p>
<h2>Head to head</h2>
${h2h}
${highlightsHtml(r, viewer)}
${r.usage.length > 0 && html`<h2>Model usage</h2>\n${usageHtml(r)}`}
</body></html>
`.toString();
}
