/**
 * The README names only what exists: every npm script it names is in package.json, and every
 * `npx czech-pub …` command it quotes (the results table's long runs among them) is read by
 * its command's declaration as written, and its agents are made, without playing. Its blocks
 * marked `<!-- runnable -->` are run, with those of the other documents, by
 * test/doc-examples.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agents/index.ts';
import { commandSpecs } from '../cli/readme-options.ts';
import { parseOptions } from '../cli/options.ts';
import { codeBlocks } from './helpers/doc-blocks.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** A sh block's commands: one per line, the trailing comment dropped. */
const commands = (code: string): string[] => code.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter((l) => l && !l.startsWith('#'));

const blocks = codeBlocks(README, 'README.md');

describe('README', () => {
  it('reads commands from its sh blocks', () => {
    expect(commands('npx a --b 1   # says\n# a comment\n\nnpm start')).toEqual(['npx a --b 1', 'npm start']);
  });

  it('names only npm scripts that exist', () => {
    const scripts = Object.keys(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts);
    const named = [...README.matchAll(/npm (?:run )?([\w:-]+)/g)].map((m) => m[1]).filter((n) => !['install', 'ci', 'run', 'pack'].includes(n));
    expect(named.length).toBeGreaterThan(3);
    expect(named.filter((n) => !scripts.includes(n))).toEqual([]);
  });

  it('quotes only czech-pub commands that parse as written, with agents that exist', async () => {
    const inline = [...README.matchAll(/`npx czech-pub ([^`]+)`/g)].map((m) => m[1].trim());
    const inBlocks = blocks.filter((x) => x.lang === 'sh').flatMap((x) => commands(x.code)).filter((c) => c.startsWith('npx czech-pub ')).map((c) => c.slice(14));
    const quoted = [...inline, ...inBlocks];
    expect(quoted.length).toBeGreaterThan(5);
    const specs = await commandSpecs();
    const problems: string[] = [];
    for (const cmd of quoted) {
      const words = cmd.split(/\s+/);
      const spec = specs.find((s) => s.name === `${words[0]} ${words[1]}`) ?? specs.find((s) => s.name === words[0]);
      if (!spec) {
        problems.push(`${cmd}: no command ${words[0]}`);
        continue;
      }
      const args = words.slice(spec.name.split(' ').length);
      try {
        const parsed = parseOptions(spec, args) as { values: { agents?: string[] } } | null;
        for (const a of parsed?.values.agents ?? []) createAgent(a);
      } catch (e) {
        problems.push(`${cmd}: ${(e as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
