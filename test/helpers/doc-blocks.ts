/**
 * The fenced code blocks of a Markdown document, and which of them are marked to be run.
 *
 * A block is runnable when the line before its opening fence (blank lines aside) is an HTML
 * comment, invisible on the rendered page:
 *
 *     <!-- runnable -->              runs as written, with nothing but the checkout and its set-up
 *     <!-- runnable: server -->      needs `npx czech-pub serve` listening at 127.0.0.1:8787
 *     <!-- runnable: torch -->       needs PyTorch (python/examples/ppo_torch.py)
 *
 * (needs may be combined: `<!-- runnable: server, torch -->`). test/doc-examples.test.ts runs
 * the marked blocks; any other comment that starts `<!-- runnable` is an error, so a misspelt
 * need never turns into a block that is silently not run.
 */

/** What a runnable block needs besides the checkout: a server to talk to, or PyTorch. */
export const NEEDS = ['server', 'torch'] as const;
export type Need = (typeof NEEDS)[number];

export interface Block {
  /** The fence's info string: sh, ts, python, ... ('' when none). */
  lang: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** Null when the block is not marked runnable; else what it needs. */
  runnable: Need[] | null;
}

const MARK = /^<!-- runnable(?::\s*([^>]*?))?\s*-->$/;

/** A runnable mark's needs, or null when the line is no mark; throws on a mark it cannot read. */
export function readMark(line: string, where: string): Need[] | null {
  const t = line.trim();
  if (!t.startsWith('<!-- runnable')) return null;
  const m = MARK.exec(t);
  if (!m) throw new Error(`${where}: '${t}' is not a runnable mark: <!-- runnable --> or <!-- runnable: ${NEEDS.join(', ')} -->`);
  const needs = m[1] === undefined ? [] : m[1].split(',').map((n) => n.trim());
  for (const n of needs) {
    if (!(NEEDS as readonly string[]).includes(n)) throw new Error(`${where}: a runnable block needs '${n}'? the needs are ${NEEDS.join(', ')}`);
  }
  return needs as Need[];
}

/** The document's fenced blocks (``` fences), with their runnable marks; `file` names it in errors. */
export function codeBlocks(markdown: string, file = 'the document'): Block[] {
  const lines = markdown.split('\n');
  const out: Block[] = [];
  let mark: { needs: Need[]; line: number } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const needs = readMark(lines[i], `${file}:${i + 1}`);
    if (needs) {
      mark = { needs, line: i + 1 };
      continue;
    }
    const open = /^```([\w-]*)/.exec(lines[i]);
    if (!open) {
      if (mark && lines[i].trim() !== '') throw new Error(`${file}:${mark.line}: a runnable mark is not followed by a code block`);
      continue;
    }
    const end = lines.findIndex((l, j) => j > i && l.startsWith('```'));
    if (end < 0) throw new Error(`${file}:${i + 1}: a code block is not closed`);
    out.push({ lang: open[1], code: lines.slice(i + 1, end).join('\n'), line: i + 1, runnable: mark?.needs ?? null });
    mark = null;
    i = end;
  }
  if (mark) throw new Error(`${file}:${mark.line}: a runnable mark is not followed by a code block`);
  return out;
}
