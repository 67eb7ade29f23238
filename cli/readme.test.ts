import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readmeOptionBlocks } from './readme-options.ts';

describe('docs/commands.md', () => {
  it("holds every command's --help as its declaration makes it", async () => {
    const readme = fs.readFileSync(new URL('../docs/commands.md', import.meta.url), 'utf8');
    const blocks = await readmeOptionBlocks();
    expect(blocks.length).toBe(14);
    for (const block of blocks) expect(readme).toContain(block);
  });
});
