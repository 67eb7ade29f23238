/**
 * The leaderboard of several runs as one self-contained HTML page (no script, no outside
 * style, font or image): the ratings with intervals and groups, each model's validity, fallbacks,
 * truncations, cost and tokens over the runs, the paired comparisons, each model's decisions by
 * kind, and every game of every run linked to the web viewer, with the model's moves and its
 * answers beside them where the run folder holds a transcript. Runs split by fingerprint are a
 * part of the page each. Every value is put in through `html` (eval/html.ts), which escapes it.
 */
import type { BoardRun, BoardRuns, MergedUsage } from './board-runs.ts';
import { fingerprintText, mergeUsage } from './board-runs.ts';
import { viewerHref } from './highlights.ts';
import { html, joinHtml, type HtmlValue, type SafeHtml } from './html.ts';
import type { PairedComparison } from './paired-deals.ts';
import type { FittedRating } from './ratings.ts';
import { encodeReplay } from './replay-record.ts';
import type { GameResult } from './summary.ts';
import { pairTranscript, type SeatMoves, type TranscriptLine } from './transcript.ts';

/** The runs of one fingerprint and what was fitted over them. */
export interface LeaderboardTable {
  board: BoardRuns;
  ratings: readonly FittedRating[];
  groups: readonly number[];
  pairs: readonly PairedComparison[];
  /** The anchors held in this table. */
  anchors: ReadonlyMap<string, number>;
}

export interface LeaderboardPageInput {
  /** One, or one per fingerprint (--split). */
  tables: readonly LeaderboardTable[];
  samples: number;
  /** The web viewer's address, checked (highlights.ts checkViewerUrl). */
  viewer: string;
}

/** Longer reasoning or answers are cut here, saying so, to keep the page a size a browser opens. */
export const MAX_TEXT_CHARS = 2000;

// Number.isFinite is false for anything not a number, so a string in a numeric field is '–'.
const fixed = (x: number | null | undefined, d = 0) => (Number.isFinite(x) ? x!.toFixed(d) : '–');
const signed = (x: number | null) => (Number.isFinite(x) ? `${x! > 0 ? '+' : ''}${x!.toFixed(1)}` : '–');
const pct = (x: number | null) => (Number.isFinite(x) ? `${(100 * x!).toFixed(1)}%` : '–');
const usd = (x: number | null) => (Number.isFinite(x) ? `$${x!.toFixed(4)}` : '–');
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Section headings one level down in a part of a split page. */
type Level = 0 | 1;
const h2 = (level: Level, text: HtmlValue) => (level === 0 ? html`<h2>${text}</h2>` : html`<h3>${text}</h3>`);
const h3 = (level: Level, text: HtmlValue) => (level === 0 ? html`<h3>${text}</h3>` : html`<h4>${text}</h4>`);

function table(head: readonly string[], rows: readonly (readonly HtmlValue[])[]): SafeHtml {
  const body = rows.map((row) => html`<tr>${row.map((c) => html`<td>${c}</td>`)}</tr>`);
  return html`<table><thead><tr>${head.map((h) => html`<th>${h}</th>`)}</tr></thead><tbody>
${joinHtml(body, '\n')}
</tbody></table>`;
}

/** Text in a <pre>, cut at MAX_TEXT_CHARS with a note. */
function longText(text: string): SafeHtml {
  if (text.length <= MAX_TEXT_CHARS) return html`<pre>${text}</pre>`;
  return html`<pre>${text.slice(0, MAX_TEXT_CHARS)}</pre><p class="note">(cut here: ${text.length - MAX_TEXT_CHARS} more characters not shown; the whole text is in transcript.jsonl)</p>`;
}

function ratingsSection(t: LeaderboardTable, usage: ReadonlyMap<string, MergedUsage>, samples: number, level: Level): SafeHtml {
  const rows = t.ratings.map((r, i) => {
    const u = usage.get(r.player);
    const model: HtmlValue[] = u
      ? [u.invalidIn.length ? html`<strong>INVALID</strong> in ${u.invalidIn.length} of ${plural(u.runs, 'run')}` : 'valid',
        `${u.fallbacks} (${pct(u.fallbackRate)})`, u.truncations, usd(u.costPerGame), usd(u.costPerWin),
        `${u.promptTokens} / ${u.completionTokens} (${u.reasoningTokens})`]
      : ['–', '–', '–', '–', '–', '–'];
    return [t.groups[i], `${r.player}${r.anchor ? ' (anchor)' : ''}`, fixed(r.rating),
      r.interval ? `${fixed(r.interval[0])} – ${fixed(r.interval[1])}` : '–', r.games, ...model];
  });
  const held = [...t.anchors].map(([n, r]) => `${n} held at ${r}`).join(', ');
  return html`${h2(level, 'Ratings')}
<p>Fitted over all games at once (Bradley–Terry over who finished above whom, Elo scale)${held ? `, ${held}` : ', mean 0'}; 95% intervals from ${samples} resamples of the deals.
A group holds players whose intervals overlap. The model columns are over every run with usage for the model: counts and tokens summed, the fallback rate of the sums;
a model is INVALID where a run marked it so (more of its decisions fell back than that run allowed); cost is summed over the runs that priced it, per game and per win over those runs' games.</p>
${table(['group', 'player', 'rating', '95% CI', 'games', 'validity', 'fallbacks', 'cut off', 'cost / game', 'cost / win', 'tokens in / out (reasoning)'], rows)}`;
}

function pairsSection(pairs: readonly PairedComparison[], level: Level): SafeHtml | null {
  if (pairs.length === 0) return null;
  const rows = pairs.map((c) => [c.a, c.b, c.deals, signed(c.meanDifference),
    c.interval ? `${signed(c.interval[0])} – ${signed(c.interval[1])}` : '–', `${c.dealWins} / ${c.dealLosses} / ${c.dealTies}`, pct(c.aAboveShare), pct(c.bAboveShare)]);
  const few = pairs.filter((c) => c.deals < 2).map((c) => html`<li>${c.a} and ${c.b} share ${plural(c.deals, 'deal')}: no interval.</li>`);
  return html`${h2(level, 'Paired over common deals')}
<p>On a deal both played, the luck of the cards is the same for both: A's mean score there minus B's. The mean over the common deals, its 95% interval from a bootstrap over them,
the deals A won / lost / drew on its mean score, and how often each finished above the other at one table.</p>
${table(['A', 'B', 'deals', 'A − B score', '95% CI', 'deals A / B / even', 'A above B', 'B above A'], rows)}
${few.length > 0 && html`<ul>${few}</ul>`}`;
}

function kindsSection(usage: readonly MergedUsage[], level: Level): SafeHtml | null {
  const rows = usage.flatMap((u) => Object.entries(u.byKind).map(([kind, k]) => [u.player, kind, k.decisions, `${k.firstTry} (${pct(k.firstTryRate)})`, k.corrected, k.fallbacks, k.truncations]));
  if (rows.length === 0) return null;
  return html`${h2(level, 'Decisions by kind')}\n<p>Summed over the runs.</p>\n${table(['model', 'kind', 'decisions', 'legal at the first try', 'after corrections', 'fell back', 'cut off'], rows)}`;
}

function lineText(l: TranscriptLine): SafeHtml {
  if (l.fallback) return html`<p><strong>fell back</strong>${l.cause ? `: ${l.cause}` : ''}${l.words ? ` (played ${l.words})` : ''}</p>`;
  const facts = [l.attempt !== undefined ? `attempt ${l.attempt}` : '', l.finish ? `finish ${l.finish}` : '', l.latencyMs !== undefined ? `${fixed(l.latencyMs)} ms` : '',
    l.tokens !== undefined ? `tokens ${JSON.stringify(l.tokens)}` : '', l.action !== undefined ? 'played' : 'not played'].filter(Boolean).join(', ');
  return html`<div class="answer"><p class="note">${facts}</p>${longText(l.answer ?? '')}${
    l.reasoning ? html`<details><summary>reasoning (${l.reasoning.length} characters)</summary>${longText(l.reasoning)}</details>` : ''}</div>`;
}

function seatMovesHtml(s: SeatMoves, label: string): SafeHtml {
  const head = html`<p><strong>Seat ${s.seat}: ${label}</strong>, ${plural(s.moves.length, 'decision')} sent to the model.</p>`;
  if (s.mismatch !== null) {
    const moves = s.moves.map((m) => [m.decision, m.step, m.words]);
    const lines = s.unpaired.map((l) => [l.decision, l.action ?? '–', lineText(l)]);
    return html`${head}<p class="warn">The transcript's answers could not be paired with this game's moves (${s.mismatch}), so they are shown apart.</p>
${table(['decision', 'step', 'move played'], moves)}${table(['transcript decision', 'action', 'answer'], lines)}`;
  }
  const rows = s.moves.map((m) => [m.decision, m.step, m.words, m.lines.map(lineText)]);
  return html`${head}${table(['decision', 'step', 'move played', 'answers'], rows)}`;
}

function gameRow(r: BoardRun, g: GameResult, ruleset: string, viewer: string): HtmlValue[] {
  const names = g.seating.map((e) => r.run.labels[e]);
  const winners = g.winners.map((seat) => names[seat]);
  const link = viewerHref(viewer, encodeReplay({ players: g.seating.length, seed: g.seed, askForced: r.run.config.askForced, ruleset, actions: g.actions, seats: names }));
  let moves: HtmlValue = '–';
  if (r.transcript) {
    const seats = pairTranscript(g, r.run.config.agents, r.transcript, r.run.config.ruleset, r.run.config.askForced);
    if (seats.length > 0) {
      const n = seats.reduce((k, s) => k + s.moves.length, 0);
      const warn = seats.some((s) => s.mismatch !== null) ? ', not paired' : '';
      moves = html`<details><summary>${plural(n, 'model decision')}${warn}</summary>${seats.map((s) => seatMovesHtml(s, names[s.seat]))}</details>`;
    }
  }
  return [g.index, joinHtml(names.map((n, seat) => `${seat}: ${n}`), html`<br>`), g.scores.join(' / '), winners.join(', '), html`<a href="${link}">replay</a>`, moves];
}

function gamesSection(t: LeaderboardTable, viewer: string, level: Level): SafeHtml {
  const runs = t.board.runs.map((r) => {
    const n = r.transcript?.unreadable ?? 0;
    const dropped = n > 0 && html`<p class="warn">${plural(n, 'line')} of transcript.jsonl could not be read and ${n === 1 ? 'is' : 'are'} left out.</p>`;
    return html`${h3(level, r.dir)}\n<p>${r.games.length} games, seed <code>${r.run.config.seed}</code>.</p>${dropped}\n${
      table(['game', 'seats', 'scores', 'winner', 'viewer', 'model moves'], r.games.map((g) => gameRow(r, g, t.board.fingerprint.ruleset, viewer)))}`;
  });
  return html`${h2(level, 'Games')}
<p>Every finished game of every run; a replay link opens it in the web viewer at <code>${viewer}</code> (<code>czech-pub serve</code>).
Where a run folder holds <code>transcript.jsonl</code>, the model's moves are listed with its answers beside them.</p>
${joinHtml(runs, '\n')}`;
}

/** What a table holds: its runs, games and deals, and its fingerprint. */
function tableSummary(t: LeaderboardTable): SafeHtml {
  const deals = new Set(t.board.games.map((g) => g.deal)).size;
  return html`<p>${plural(t.board.runs.length, 'run')}, ${t.board.games.length} games, ${deals} deals.
Runs: ${joinHtml(t.board.runs.map((r) => html`<code>${r.dir}</code>`), ', ')}. Fingerprint: ${fingerprintText(t.board.fingerprint)}.</p>`;
}

function tableHtml(t: LeaderboardTable, p: LeaderboardPageInput, level: Level): SafeHtml {
  const usage = mergeUsage(t.board.runs);
  return html`${ratingsSection(t, new Map(usage.map((u) => [u.player, u])), p.samples, level)}
${pairsSection(t.pairs, level)}
${kindsSection(usage, level)}
${gamesSection(t, p.viewer, level)}`;
}

export function leaderboardPage(p: LeaderboardPageInput): string {
  const parts = p.tables.length === 1
    ? html`${tableSummary(p.tables[0])}\n${tableHtml(p.tables[0], p, 0)}`
    : html`<p>The runs are ${p.tables.length} tests, each under its own fingerprint (ruleset, harness, the prompt models were sent): a table each, not comparable with one another.</p>
${joinHtml(p.tables.map((t, i) => html`<section>\n<h2>Table ${i + 1} of ${p.tables.length}</h2>\n${tableSummary(t)}\n${tableHtml(t, p, 1)}\n</section>`), '\n')}`;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Czech Pub leaderboard</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:1200px}table{border-collapse:collapse;margin:1rem 0}
td,th{border:1px solid #ccc;padding:4px 8px;vertical-align:top;text-align:left}th{background:#f4f4f4}
pre{white-space:pre-wrap;max-width:60rem;margin:0.2rem 0}.note{color:#666;font-size:0.9em;margin:0.2rem 0}.warn{color:#a00}</style></head>
<body>
<h1>Czech Pub leaderboard</h1>
${parts}
</body></html>
`.toString();
}
