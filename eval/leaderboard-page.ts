/**
 * The leaderboard of several runs as one self-contained HTML page (no script, no outside
 * style, font or image): the ratings with intervals and groups, each model's validity, fallbacks,
 * truncations, cost and tokens over the runs, the paired comparisons, each model's decisions by
 * kind, and every game of every run linked to the web viewer, with the model's moves and its
 * answers beside them where the run folder holds a transcript. Every text from a file is escaped.
 */
import type { BoardRun, BoardRuns, MergedUsage } from './board-runs.ts';
import { mergeUsage } from './board-runs.ts';
import { viewerHref } from './highlights.ts';
import { escapeHtml as esc } from './html.ts';
import type { PairedComparison } from './paired-deals.ts';
import type { FittedRating } from './ratings.ts';
import { encodeReplay } from './replay-record.ts';
import type { GameResult } from './summary.ts';
import { pairTranscript, type SeatMoves, type TranscriptLine } from './transcript.ts';

export interface LeaderboardPageInput {
  board: BoardRuns;
  ratings: readonly FittedRating[];
  groups: readonly number[];
  pairs: readonly PairedComparison[];
  anchors: ReadonlyMap<string, number>;
  samples: number;
  /** The web viewer's address, checked (highlights.ts checkViewerUrl). */
  viewer: string;
}

/** Longer reasoning or answers are cut here, saying so, to keep the page a size a browser opens. */
export const MAX_TEXT_CHARS = 2000;

const fixed = (x: number | null | undefined, d = 0) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(d));
const signed = (x: number | null) => (x === null ? '–' : `${x > 0 ? '+' : ''}${x.toFixed(1)}`);
const pct = (x: number | null) => (x === null || !Number.isFinite(x) ? '–' : `${(100 * x).toFixed(1)}%`);
const usd = (x: number | null) => (x === null ? '–' : `$${x.toFixed(4)}`);

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  return `<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>\n` +
    rows.map((row) => `<tr>${row.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('\n') + '\n</tbody></table>';
}

/** Text in a <pre>, cut at MAX_TEXT_CHARS with a note. */
function longText(text: string): string {
  if (text.length <= MAX_TEXT_CHARS) return `<pre>${esc(text)}</pre>`;
  return `<pre>${esc(text.slice(0, MAX_TEXT_CHARS))}</pre><p class="note">(cut here: ${text.length - MAX_TEXT_CHARS} more characters not shown; the whole text is in transcript.jsonl)</p>`;
}

function ratingsSection(p: LeaderboardPageInput, usage: ReadonlyMap<string, MergedUsage>): string {
  const rows = p.ratings.map((r, i) => {
    const u = usage.get(r.player);
    const model = u
      ? [u.invalidIn.length ? `<strong>INVALID</strong> in ${u.invalidIn.length} of ${u.runs} run${u.runs === 1 ? '' : 's'}` : 'valid',
        `${u.fallbacks} (${pct(u.fallbackRate)})`, String(u.truncations), usd(u.costPerGame), usd(u.costPerWin),
        `${u.promptTokens} / ${u.completionTokens} (${u.reasoningTokens})`]
      : ['–', '–', '–', '–', '–', '–'];
    return [String(p.groups[i]), `${esc(r.player)}${r.anchor ? ' (anchor)' : ''}`, fixed(r.rating),
      r.interval ? `${fixed(r.interval[0])} – ${fixed(r.interval[1])}` : '–', String(r.games), ...model];
  });
  const held = [...p.anchors].map(([n, r]) => `${esc(n)} held at ${r}`).join(', ');
  return `<h2>Ratings</h2>
<p>Fitted over all games at once (Bradley–Terry over who finished above whom, Elo scale)${held ? `, ${held}` : ', mean 0'}; 95% intervals from ${p.samples} resamples of the deals.
A group holds players whose intervals overlap. The model columns are over every run with usage for the model: counts and tokens summed, the fallback rate of the sums;
a model is INVALID where a run marked it so (more of its decisions fell back than that run allowed); cost is summed over the runs that priced it, per game and per win over those runs' games.</p>
${table(['group', 'player', 'rating', '95% CI', 'games', 'validity', 'fallbacks', 'cut off', 'cost / game', 'cost / win', 'tokens in / out (reasoning)'], rows)}`;
}

function pairsSection(pairs: readonly PairedComparison[]): string {
  if (pairs.length === 0) return '';
  const rows = pairs.map((c) => [esc(c.a), esc(c.b), String(c.deals), signed(c.meanDifference),
    c.interval ? `${signed(c.interval[0])} – ${signed(c.interval[1])}` : '–', `${c.dealWins} / ${c.dealLosses} / ${c.dealTies}`, pct(c.aAboveShare), pct(c.bAboveShare)]);
  const few = pairs.filter((c) => c.deals < 2).map((c) => `<li>${esc(c.a)} and ${esc(c.b)} share ${c.deals} deal${c.deals === 1 ? '' : 's'}: no interval.</li>`);
  return `<h2>Paired over common deals</h2>
<p>On a deal both played, the luck of the cards is the same for both: A's mean score there minus B's. The mean over the common deals, its 95% interval from a bootstrap over them,
the deals A won / lost / drew on its mean score, and how often each finished above the other at one table.</p>
${table(['A', 'B', 'deals', 'A − B score', '95% CI', 'deals A / B / even', 'A above B', 'B above A'], rows)}
${few.length ? `<ul>${few.join('')}</ul>` : ''}`;
}

function kindsSection(usage: readonly MergedUsage[]): string {
  const rows = usage.flatMap((u) => Object.entries(u.byKind).map(([kind, k]) => [esc(u.player), esc(kind), String(k.decisions), `${k.firstTry} (${pct(k.firstTryRate)})`, String(k.corrected), String(k.fallbacks), String(k.truncations)]));
  if (rows.length === 0) return '';
  return `<h2>Decisions by kind</h2>\n<p>Summed over the runs.</p>\n${table(['model', 'kind', 'decisions', 'legal at the first try', 'after corrections', 'fell back', 'cut off'], rows)}`;
}

function lineText(l: TranscriptLine): string {
  if (l.fallback) return `<p><strong>fell back</strong>${l.cause ? `: ${esc(l.cause)}` : ''}${l.words ? ` (played ${esc(l.words)})` : ''}</p>`;
  const facts = [l.attempt !== undefined ? `attempt ${l.attempt}` : '', l.finish ? `finish ${esc(l.finish)}` : '', l.latencyMs !== undefined ? `${fixed(l.latencyMs)} ms` : '',
    l.tokens !== undefined ? `tokens ${esc(JSON.stringify(l.tokens))}` : '', l.action !== undefined ? 'played' : 'not played'].filter(Boolean).join(', ');
  return `<div class="answer"><p class="note">${facts}</p>${longText(l.answer ?? '')}` +
    `${l.reasoning ? `<details><summary>reasoning (${l.reasoning.length} characters)</summary>${longText(l.reasoning)}</details>` : ''}</div>`;
}

function seatMovesHtml(s: SeatMoves, label: string): string {
  const head = `<p><strong>Seat ${s.seat}: ${esc(label)}</strong>, ${s.moves.length} decision${s.moves.length === 1 ? '' : 's'} sent to the model.</p>`;
  if (s.mismatch !== null) {
    const moves = s.moves.map((m) => [String(m.decision), String(m.step), esc(m.words)]);
    const lines = s.unpaired.map((l) => [String(l.decision), l.action !== undefined ? String(l.action) : '–', lineText(l)]);
    return `${head}<p class="warn">The transcript's answers could not be paired with this game's moves (${esc(s.mismatch)}), so they are shown apart.</p>
${table(['decision', 'step', 'move played'], moves)}${table(['transcript decision', 'action', 'answer'], lines)}`;
  }
  const rows = s.moves.map((m) => [String(m.decision), String(m.step), esc(m.words), m.lines.map(lineText).join('')]);
  return `${head}${table(['decision', 'step', 'move played', 'answers'], rows)}`;
}

function gameRow(r: BoardRun, g: GameResult, fingerprint: string, viewer: string): string[] {
  const names = g.seating.map((e) => r.run.labels[e]);
  const winners = g.winners.map((seat) => names[seat]);
  const link = viewerHref(viewer, encodeReplay({ players: g.seating.length, seed: g.seed, askAll: r.run.config.askAll, ruleset: fingerprint, actions: g.actions, seats: names }));
  let moves = '–';
  if (r.transcript) {
    const seats = pairTranscript(g, r.run.config.agents, r.transcript, r.run.config.ruleset, r.run.config.askAll);
    if (seats.length > 0) {
      const n = seats.reduce((k, s) => k + s.moves.length, 0);
      const warn = seats.some((s) => s.mismatch !== null) ? ', not paired' : '';
      moves = `<details><summary>${n} model decision${n === 1 ? '' : 's'}${warn}</summary>${seats.map((s) => seatMovesHtml(s, names[s.seat])).join('')}</details>`;
    }
  }
  return [String(g.index), names.map((n, seat) => `${seat}: ${esc(n)}`).join('<br>'), g.scores.join(' / '), winners.map(esc).join(', '),
    `<a href="${esc(link)}">replay</a>`, moves];
}

function gamesSection(p: LeaderboardPageInput): string {
  return `<h2>Games</h2>
<p>Every finished game of every run; a replay link opens it in the web viewer at <code>${esc(p.viewer)}</code> (<code>czech-pub serve</code>).
Where a run folder holds <code>transcript.jsonl</code>, the model's moves are listed with its answers beside them.</p>
${p.board.runs.map((r) => {
    const dropped = r.transcript?.unreadable ? `<p class="warn">${r.transcript.unreadable} line${r.transcript.unreadable === 1 ? '' : 's'} of transcript.jsonl could not be read and ${r.transcript.unreadable === 1 ? 'is' : 'are'} left out.</p>` : '';
    return `<h3>${esc(r.dir)}</h3>\n<p>${r.games.length} games, seed <code>${esc(r.run.config.seed)}</code>.</p>${dropped}\n` +
      table(['game', 'seats', 'scores', 'winner', 'viewer', 'model moves'], r.games.map((g) => gameRow(r, g, p.board.fingerprint, p.viewer)));
  }).join('\n')}`;
}

export function leaderboardPage(p: LeaderboardPageInput): string {
  const usage = mergeUsage(p.board.runs);
  const deals = new Set(p.board.games.map((g) => g.deal)).size;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Czech Pub leaderboard</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:1200px}table{border-collapse:collapse;margin:1rem 0}
td,th{border:1px solid #ccc;padding:4px 8px;vertical-align:top;text-align:left}th{background:#f4f4f4}
pre{white-space:pre-wrap;max-width:60rem;margin:0.2rem 0}.note{color:#666;font-size:0.9em;margin:0.2rem 0}.warn{color:#a00}</style></head>
<body>
<h1>Czech Pub leaderboard</h1>
<p>${p.board.runs.length} run${p.board.runs.length === 1 ? '' : 's'}, ${p.board.games.length} games, ${deals} deals; ruleset ${esc(p.board.fingerprint)}.
Runs: ${p.board.runs.map((r) => `<code>${esc(r.dir)}</code>`).join(', ')}.</p>
${ratingsSection(p, new Map(usage.map((u) => [u.player, u])))}
${pairsSection(p.pairs)}
${kindsSection(usage)}
${gamesSection(p)}
</body></html>
`;
}
