/**
 * The leaderboard page and a run's report.html in Chromium, made from runs whose names hold
 * markup (a label is any string a results.json may hold): no script of theirs runs, no element
 * of theirs is made. The pages' own markup is checked tag by tag in eval/html.test.ts; this is
 * the same promise where it matters, in a browser.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bufferIo } from '../cli/io.ts';
import { main } from '../cli/main.ts';
import { runTournament } from '../eval/tournament.ts';
import { browserTestsRun, launchChromium } from './helpers/browser.ts';

/** Names a results.json may hold, each of which runs script if a page takes it as markup. */
const HOSTILE = [
  '<img src=x onerror="window.__pwned=1">',
  '"><script>window.__pwned=2</script>',
  "'><svg onload=\"window.__pwned=3\">",
  '</pre><iframe srcdoc="<script>parent.__pwned=4</script>">',
];

const run = browserTestsRun() ? describe : describe.skip;

run('pages made from runs whose names hold markup, in Chromium', () => {
  let browser: Browser;
  let tmp = '';
  const dirs: string[] = [];

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'czech-pub-hostile-page-'));
    for (const [k, name] of HOSTILE.entries()) {
      const out = join(tmp, `run-${k}`);
      await runTournament({ agents: ['random', 'heuristic'], labels: [name, 'heuristic'], players: 2, games: 4, seed: `hostile-${k}`, workers: 0, out });
      dirs.push(out);
    }
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  /** Loads a page file: whether any hostile script ran, and the elements their names would have made. */
  async function load(file: string) {
    const page = await browser.newPage();
    await page.setContent(readFileSync(file, 'utf8'), { waitUntil: 'load' });
    await page.waitForTimeout(100);
    const seen = await page.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: number }).__pwned ?? null,
      made: document.querySelectorAll('img[onerror], svg[onload], iframe').length + [...document.scripts].filter((s) => s.textContent?.includes('__pwned')).length,
      text: document.body.innerText,
    }));
    await page.close();
    return seen;
  }

  it('the leaderboard page shows every name as text, and runs none of them', async () => {
    const file = join(tmp, 'board.html');
    const io = bufferIo();
    expect(await main(['leaderboard', ...dirs, '--html', file, '--samples', '20'], io)).toBe(0);
    const seen = await load(file);
    expect(seen.pwned).toBeNull();
    expect(seen.made).toBe(0);
    for (const name of HOSTILE) expect(seen.text).toContain(name);
  }, 60_000);

  it("each run's report.html likewise", async () => {
    for (const [k, dir] of dirs.entries()) {
      const seen = await load(join(dir, 'report.html'));
      expect(seen.pwned, HOSTILE[k]).toBeNull();
      expect(seen.text).toContain(HOSTILE[k]);
    }
  }, 60_000);
});
