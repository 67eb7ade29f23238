/**
 * Every relative link in README.md and in the Markdown files under docs/ names a file or
 * folder that exists, so a rule's link to the code that implements it (docs/rules.md) cannot
 * silently rot when a module moves. Links to the web (http:, https:, mailto:) and to an
 * anchor in the same page (#...) are not checked; an anchor after a path is ignored. Code
 * blocks and inline code are skipped: a link written there is an example, not a link.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function markdownFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return markdownFiles(p);
    return e.name.endsWith('.md') ? [p] : [];
  });
}

/** The link targets of a Markdown text, outside code, as written (titles and <> removed). */
function relativeLinks(text: string): string[] {
  const prose = text
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
    .replace(/`[^`\n]*`/g, '');
  const out: string[] = [];
  // [text](target) and ![alt](target); the text may hold one level of brackets.
  const link = /!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+"[^"]*")?\s*\)/g;
  for (const m of prose.matchAll(link)) {
    const target = m[1].replace(/^<|>$/g, '');
    if (target === '' || target.startsWith('#') || /^(https?|mailto):/i.test(target)) continue;
    out.push(target);
  }
  return out;
}

/** The relative links of `text` (a file in `dir`) whose file or folder does not exist. */
function brokenLinks(text: string, dir: string): string[] {
  return relativeLinks(text).filter((target) => {
    const file = decodeURI(target.replace(/[#?].*$/, ''));
    return file !== '' && !fs.existsSync(path.resolve(dir, file));
  });
}

const FILES = [path.join(ROOT, 'README.md'), ...markdownFiles(path.join(ROOT, 'docs'))].filter((f) => fs.existsSync(f));

describe('links in the documentation', () => {
  it('finds links and tells a broken one from a good one (a made-up text)', () => {
    const text = [
      'See [the engine](env/engine/flow.ts#L10), [the folder](env/engine/) and [a <title>](env/cards.ts "cards").',
      '![a picture](docs/screenshots/table.png), [web](https://example.com), [mail](mailto:a@b.c), [here](#top).',
      'Broken: [gone](env/engine/no-such-file.ts) and [gone too](../nowhere/#x).',
      '`[in code](not/checked.ts)`',
      '```',
      '[in a block](not/checked/either.ts)',
      '```',
    ].join('\n');
    expect(relativeLinks(text)).toEqual([
      'env/engine/flow.ts#L10', 'env/engine/', 'env/cards.ts', 'docs/screenshots/table.png',
      'env/engine/no-such-file.ts', '../nowhere/#x',
    ]);
    expect(brokenLinks(text, ROOT)).toEqual(['env/engine/no-such-file.ts', '../nowhere/#x']);
  });

  it('README.md and docs/ are found', () => {
    expect(FILES.map((f) => path.relative(ROOT, f))).toEqual(expect.arrayContaining(['README.md', path.join('docs', 'rules.md')]));
  });

  it.each(FILES.map((f) => [path.relative(ROOT, f), f]))('every relative link in %s names a file or folder that exists', (_, file) => {
    expect(brokenLinks(fs.readFileSync(file, 'utf8'), path.dirname(file))).toEqual([]);
  });
});
