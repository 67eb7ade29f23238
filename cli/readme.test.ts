import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS_DOC, readmeOptionBlocks, withGeneratedPart } from './readme-options.ts';

describe('docs/commands.md', () => {
  it("holds czech-pub --help and every command's --help exactly as the declarations make them (npm run docs:commands)", async () => {
    const doc = fs.readFileSync(COMMANDS_DOC, 'utf8');
    expect(await readmeOptionBlocks()).toHaveLength(23);
    expect(doc).toContain('`czech-pub --help`:\n\n```text\nUsage: czech-pub <command> [options]');
    expect(doc).toBe(await withGeneratedPart(doc));
  });

  it('replaces only what lies between its marker lines, and refuses a file without them', async () => {
    const doc = fs.readFileSync(COMMANDS_DOC, 'utf8');
    const stale = doc.replace('Usage: czech-pub play [options]', 'Usage: czech-pub play [old options]');
    expect(stale).not.toBe(doc);
    expect(await withGeneratedPart(stale)).toBe(await withGeneratedPart(doc));
    await expect(withGeneratedPart('# Command line\n')).rejects.toThrow(/lacks the lines/);
  });
});
