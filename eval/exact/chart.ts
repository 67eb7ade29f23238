/**
 * NashConv against iterations on log-log axes, one line per run (CFR at 2 and 3 players), with
 * dashed reference levels (random's NashConv and a tenth of it). Plain SVG; every value goes
 * in through the one escaping template (`html`), numbers too.
 */
import { html, joinHtml, type HtmlValue } from '../html.ts';

export interface ChartLine {
  name: string;
  points: { x: number; y: number }[];
}

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd'];

export function logLogSvg(title: string, xLabel: string, yLabel: string, lines: ChartLine[], levels: { name: string; y: number }[] = []): string {
  const W = 720;
  const H = 420;
  const L = 64;
  const R = 190;
  const T = 36;
  const B = 48;
  const xs = lines.flatMap((l) => l.points.map((p) => p.x)).filter((v) => v > 0);
  const ys = [...lines.flatMap((l) => l.points.map((p) => p.y)), ...levels.map((l) => l.y)].filter((v) => v > 0);
  const x0 = Math.floor(Math.log10(Math.min(1, ...xs)));
  const x1 = Math.max(x0 + 1, Math.ceil(Math.log10(Math.max(10, ...xs))));
  const y0 = Math.floor(Math.log10(Math.min(...ys, 1)));
  const y1 = Math.max(y0 + 1, Math.ceil(Math.log10(Math.max(...ys, 1e-9))));
  const x = (v: number) => +(L + ((W - L - R) * (Math.log10(v) - x0)) / (x1 - x0)).toFixed(1);
  const y = (v: number) => +(T + ((H - T - B) * (y1 - Math.log10(Math.max(v, 10 ** y0)))) / (y1 - y0)).toFixed(1);
  const out: HtmlValue[] = [
    html`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    html`<rect width="${W}" height="${H}" fill="white"/>`,
    html`<text x="${L}" y="20" font-size="14" font-weight="bold">${title}</text>`,
  ];
  for (let e = y0; e <= y1; e++) {
    out.push(html`<line x1="${L}" x2="${W - R}" y1="${y(10 ** e)}" y2="${y(10 ** e)}" stroke="#ddd"/>`);
    out.push(html`<text x="${L - 6}" y="${y(10 ** e) + 4}" text-anchor="end">1e${e}</text>`);
  }
  for (let e = x0; e <= x1; e++) {
    out.push(html`<text x="${x(10 ** e)}" y="${H - B + 16}" text-anchor="middle">${e <= 3 ? String(10 ** e) : `1e${e}`}</text>`);
  }
  out.push(html`<text x="${(L + W - R) / 2}" y="${H - 10}" text-anchor="middle">${xLabel}</text>`);
  out.push(html`<text x="14" y="${(T + H - B) / 2}" transform="rotate(-90 14 ${(T + H - B) / 2})" text-anchor="middle">${yLabel}</text>`);
  for (const level of levels) {
    out.push(html`<line x1="${L}" x2="${W - R}" y1="${y(level.y)}" y2="${y(level.y)}" stroke="#999" stroke-dasharray="4 4"/>`);
    out.push(html`<text x="${W - R + 6}" y="${y(level.y) + 4}" fill="#666">${level.name}</text>`);
  }
  lines.forEach((line, i) => {
    const color = COLORS[i % COLORS.length];
    const pts = line.points.filter((p) => p.x > 0 && p.y > 0);
    if (pts.length === 0) return;
    out.push(html`<polyline fill="none" stroke="${color}" stroke-width="2" points="${pts.map((p) => `${x(p.x)},${y(p.y)}`).join(' ')}"/>`);
    out.push(html`<text x="${W - R + 6}" y="${T + 16 * (i + 1)}" fill="${color}">${line.name}</text>`);
  });
  out.push(html`</svg>`);
  return `${html`${joinHtml(out, "\n")}`.toString()}\n`;
}
