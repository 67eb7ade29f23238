/** Plain-text tables for terminal output: first column left-aligned, the others right-aligned. */
export function formatTable(header: string[], rows: string[][], indent = '  '): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    indent + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  return [line(header), indent + widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
}

/** A number with thousands separators and at most `digits` decimals. */
export function formatNumber(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}
