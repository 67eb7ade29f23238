/**
 * The training-curve chart: win rate against learner steps, one line per evaluation
 * opponent with its 95% band, and the learner's win share in its training games. Plain SVG,
 * rewritten after every evaluation so it can be watched as the run goes. Every value goes into
 * it through the one escaping template (`html`), numbers too.
 */
import { html, joinHtml, type HtmlValue } from '../eval/index.ts';

export interface CurvePoint {
  steps: number;
  value: number;
  lo?: number;
  hi?: number;
}

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b'];

/** The x axis: learner decisions unless told (a point's `steps` is then that quantity). */
export interface CurveAxis {
  label: string;
  format(x: number): string;
}

const STEPS_AXIS: CurveAxis = {
  label: 'learner decisions trained on',
  format: (s) => (s >= 1e6 ? `${(s / 1e6).toFixed(1)}M` : s >= 1e3 ? `${Math.round(s / 1e3)}k` : `${Math.round(s)}`),
};

export function curveSvg(title: string, series: { name: string; points: CurvePoint[] }[], chance?: number, axis: CurveAxis = STEPS_AXIS): string {
  const W = 720;
  const H = 400;
  const L = 56;
  const R = 170;
  const T = 36;
  const B = 44;
  const maxSteps = Math.max(1, ...series.flatMap((s) => s.points.map((p) => p.steps)));
  const x = (steps: number) => +(L + ((W - L - R) * steps) / maxSteps).toFixed(1);
  const y = (v: number) => +(T + (H - T - B) * (1 - Math.min(1, Math.max(0, v)))).toFixed(1);
  const out: HtmlValue[] = [
    html`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    html`<rect width="${W}" height="${H}" fill="white"/>`,
    html`<text x="${L}" y="20" font-size="14" font-weight="bold">${title}</text>`,
  ];
  for (let v = 0; v <= 1.0001; v += 0.2) {
    out.push(html`<line x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`);
    out.push(html`<text x="${L - 6}" y="${y(v) + 4}" text-anchor="end">${Math.round(v * 100)}%</text>`);
  }
  for (let k = 0; k <= 4; k++) {
    const s = (maxSteps * k) / 4;
    out.push(html`<text x="${x(s)}" y="${H - B + 16}" text-anchor="middle">${axis.format(s)}</text>`);
  }
  out.push(html`<text x="${(L + W - R) / 2}" y="${H - 8}" text-anchor="middle">${axis.label}</text>`);
  if (chance !== undefined) {
    out.push(html`<line x1="${L}" x2="${W - R}" y1="${y(chance)}" y2="${y(chance)}" stroke="#999" stroke-dasharray="4 4"/>`);
    // chance = 1 / players: what a seat wins with no skill at all.
    out.push(html`<text x="${W - R + 6}" y="${y(chance) + 4}" fill="#666">chance: 1 in ${Math.round(1 / chance)} (${(100 * chance).toFixed(0)}%)</text>`);
  }
  series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length];
    const pts = s.points;
    if (pts.length === 0) return;
    const banded = pts.filter((p) => p.lo !== undefined && p.hi !== undefined);
    if (banded.length > 1) {
      const upper = banded.map((p) => `${x(p.steps)},${y(p.hi!)}`);
      const lower = banded.map((p) => `${x(p.steps)},${y(p.lo!)}`).reverse();
      out.push(html`<polygon points="${[...upper, ...lower].join(' ')}" fill="${color}" opacity="0.15"/>`);
    }
    out.push(html`<polyline points="${pts.map((p) => `${x(p.steps)},${y(p.value)}`).join(' ')}" fill="none" stroke="${color}" stroke-width="2"/>`);
    // Dots only where they can be told apart.
    if (pts.length <= 80) for (const p of pts) out.push(html`<circle cx="${x(p.steps)}" cy="${y(p.value)}" r="2.5" fill="${color}"/>`);
    const ly = T + 16 + i * 18;
    out.push(html`<rect x="${W - R + 8}" y="${ly - 9}" width="12" height="4" fill="${color}"/>`);
    out.push(html`<text x="${W - R + 26}" y="${ly - 3}">${s.name}</text>`);
  });
  out.push(html`</svg>`);
  return html`${joinHtml(out, '\n')}`.toString();
}
