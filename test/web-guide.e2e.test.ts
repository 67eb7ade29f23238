/**
 * The guided first game and a tournament report's replay links, end to end in headless
 * Chromium against a server on a port the system picks (never 8787):
 *
 * - the guided game is played to its end with a newcomer's clicks (the seeded clicks
 *   scripts/find-guide-seed.ts checked): each coach note comes at its moment, in the server's
 *   words, points at its part of the table, takes the focus and closes with "Got it" or
 *   Escape; the game ends on the end screen and the first screen stops offering the guide;
 *   "Skip the guide" and "No thanks" end it too;
 * - a real tournament's report.html, opened from its file, reaches this server through its
 *   address field, and its relative links work from the server: the game opens with the
 *   agents' labels on the seats, and its final table fits beside the board.
 *
 * The tests run at once, each in its own browser contexts; the sweep of screen sizes opens a
 * few sizes side by side.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seedRng } from '../env/rng.ts';
import { runTournament } from '../eval/tournament.ts';
import { browserTestsRun, confirmIfAsked, eachAtOnce, pageSuite } from './helpers/browser.ts';
import { newcomerPick } from './helpers/newcomer.ts';

const SHOTS = process.env.SCREENSHOT_DIR ?? 'results/e2e';
const RUN = browserTestsRun();

const suite = pageSuite(SHOTS);

const newPage = () => suite.newPage();

const noteOpen = (page: Page) => page.evaluate(() => !(document.getElementById('guide-note') as HTMLElement).hidden);

/** Waits for a coach note, the person's turn or the end; says which. */
async function next(page: Page): Promise<'note' | 'your-turn' | 'over'> {
  await page.waitForFunction(() => !(document.getElementById('guide-note') as HTMLElement).hidden || ['your-turn', 'over'].includes(document.body.dataset.state ?? ''), undefined, { timeout: 60_000 });
  if (await noteOpen(page)) return 'note';
  return (await page.evaluate(() => document.body.dataset.state)) as 'your-turn' | 'over';
}

async function clickFor(page: Page, rng: ReturnType<typeof seedRng>): Promise<void> {
  const shown = await page.locator('button.action:enabled').evaluateAll((bs) => bs.map((b) => Number((b as HTMLElement).dataset.action)));
  await page.click(`button.action[data-action="${newcomerPick(rng, shown)}"]`);
  await confirmIfAsked(page);
}

/** A newcomer who presses Hint and plays the choice it marks. */
async function followHint(page: Page): Promise<void> {
  await page.click('.hint-button');
  await page.waitForSelector('.hint-answer, .hint-error');
  const hinted = page.locator('button.action.hinted:enabled');
  expect(await hinted.count()).toBe(1);
  // The page says why in the words of the choice's own preview.
  const said = await page.locator('.hint-answer').evaluate((a) => ({ action: (a as HTMLElement).dataset.action, preview: a.querySelector('.choice-preview')?.getAttribute('data-action') }));
  expect(said.preview).toBe(said.action);
  await hinted.click();
  await confirmIfAsked(page);
}

/**
 * Plays the guided game with the seeded newcomer's clicks (guide-clicks/0, the one
 * scripts/find-guide-seed.ts checked) or with `play` (followHint), handing each coach note to
 * `onNote` (which closes it), until the game is over or `most` decisions were made; returns
 * the decisions made.
 */
async function walkGuide(page: Page, onNote: () => Promise<void>, most = Infinity, play?: (page: Page) => Promise<void>): Promise<number> {
  const rng = seedRng('guide-clicks/0');
  let decisions = 0;
  while (decisions < most) {
    const now = await next(page);
    if (now === 'over') break;
    if (now === 'note') await onNote();
    else {
      await (play ? play(page) : clickFor(page, rng));
      decisions++;
    }
  }
  return decisions;
}

/** Common screens: laptops and desktops from 1280×720 to 1920×1080 (the most common among them included), and phones down to 360×640. */
const SIZES = [
  [1280, 720], [1280, 760], [1280, 800], [1280, 850], [1366, 768], [1440, 900], [1536, 730], [1920, 1080],
  [360, 640], [390, 844], [412, 915],
] as const;

/** Screen sizes of the sweep played side by side. */
const SIZES_AT_ONCE = 4;

describe.runIf(RUN).concurrent('the guided first game and report links in Chromium', () => {
  it('closes every coach note of the first turns with a mouse click inside the window, at every common screen size', async () => {
    const missed: string[] = [];
    let closed = 0;
    await eachAtOnce(SIZES, SIZES_AT_ONCE, async ([width, height]) => {
      const { page, errors } = await suite.newPage({ viewport: { width, height } });
      await page.goto(suite.base);
      await page.fill('#pace', '0');
      await page.click('#guide-start');
      // The notes up to the person's second decision: the goal, the first turn, and what follows it.
      await walkGuide(page, async () => {
        // Its button wholly inside the window, clicked where it is, as a person's mouse would.
        const box = await page.locator('#guide-ok').boundingBox();
        const moment = await page.evaluate(() => (document.getElementById('guide-note') as HTMLElement).dataset.moment);
        if (!box || box.x < 0 || box.y < 0 || box.x + box.width > width || box.y + box.height > height) {
          missed.push(`${width}×${height} ${moment}: ${JSON.stringify(box)}`);
          await page.keyboard.press('Escape');
          return;
        }
        await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
        await page.waitForFunction((m) => (document.getElementById('guide-note') as HTMLElement).hidden || (document.getElementById('guide-note') as HTMLElement).dataset.moment !== m, moment);
        closed++;
      }, 2);
      expect(errors).toEqual([]);
      await page.context().close();
    });
    expect(missed).toEqual([]);
    expect(closed).toBeGreaterThanOrEqual(2 * SIZES.length);
  }, 300_000);

  it('walks a newcomer through a real game: a note at each moment, each closable, to the end screen', async () => {
    const rules = await suite.api('/v1/ruleset') as { glossary: { term: string; text: string }[]; cards: { id: string; kind: string; text: string }[] };
    const term = (t: string) => rules.glossary.find((g) => g.term === t)!.text;
    const { page, errors } = await newPage();
    await page.goto(suite.base);
    await page.waitForSelector('#guide-start');
    expect(await page.textContent('#guide-offer')).toMatch(/New here\? Play a guided first game/);
    await page.fill('#pace', '0');
    await page.click('#guide-start');

    const seen: string[] = [];
    const decisions = await walkGuide(page, async () => {
      const note = await page.evaluate(() => {
        const n = document.getElementById('guide-note') as HTMLElement;
        return { moment: n.dataset.moment!, title: document.getElementById(n.getAttribute('aria-labelledby')!)?.textContent ?? '', text: n.textContent ?? '',
          focused: document.activeElement === n, targets: document.querySelectorAll('.guide-target').length };
      });
      seen.push(note.moment);
      expect(note.title.length, note.moment).toBeGreaterThan(3);
      expect(note.focused, note.moment).toBe(true);
      expect(note.targets, `${note.moment} points at its part of the table`).toBe(1);
      // Each note speaks in the server's words.
      const words: Record<string, string> = { goal: term('Goal'), turn: term('Turn'), digest: term('Digestion and the roll'), chart: term('Drunkenness chart') };
      if (words[note.moment]) expect(note.text).toContain(words[note.moment]);
      if (note.moment === 'x') expect(rules.cards.some((c) => c.kind === 'x' && note.text.includes(c.text)), note.text).toBe(true);
      await page.screenshot({ path: join(SHOTS, `guide-${note.moment}.png`) });
      // Closed with the button and with Escape, in turn.
      if (seen.length % 2 === 1) await page.click('#guide-ok');
      else await page.keyboard.press('Escape');
      // Closed: gone, or the next note of the same step in its place (its own target alone marked).
      const after = await page.evaluate(() => {
        const n = document.getElementById('guide-note') as HTMLElement;
        return { open: !n.hidden, moment: n.dataset.moment, targets: document.querySelectorAll('.guide-target').length };
      });
      if (after.open) expect(after.moment).not.toBe(note.moment);
      expect(after.targets).toBe(after.open ? 1 : 0);
    });
    // Every moment, once each, in the order the game met them: a bot's X card in the person's turn
    // (step 3), then, after every seat's recorded pass, the digestion and the move on the chart (step 20).
    expect(seen).toEqual(['goal', 'turn', 'x', 'digest', 'chart']);
    expect(decisions).toBeGreaterThan(3);
    await page.waitForSelector('#final-scores');
    // The guide's table: the person and two bots (web/guide-moments.js GUIDE_SEATS).
    expect(await page.locator('#final-scores [data-seat]').count()).toBe(3);
    expect(await page.textContent('#end h2')).toBe('Game over');
    expect(await page.evaluate(() => localStorage.getItem('czech-pub:guide-done'))).toBe('1');
    // Done: the first screen no longer invites, but keeps a way back in.
    await page.click('#new-game');
    await page.waitForSelector('#guide-start');
    expect(await page.textContent('#guide-offer')).not.toMatch(/New here/);
    expect(await page.locator('#guide-decline').count()).toBe(0);
    expect(errors).toEqual([]);
  }, 600_000);

  it('is won by a newcomer who closes each note and plays what Hint says, at every decision', async () => {
    const { page, errors } = await newPage();
    await page.goto(suite.base);
    await page.fill('#pace', '0');
    await page.click('#guide-start');
    const decisions = await walkGuide(page, async () => page.click('#guide-ok'), Infinity, followHint);
    await page.waitForSelector('#final-scores');
    const winners = await page.locator('#final-scores tr.winner td:first-child, #final-scores tr[data-winner="true"] td:first-child').allTextContents();
    const { gameId, token } = await page.evaluate(() => (window as any).czechPub);
    const view = await suite.api(`/v1/games/${gameId}/view`, token);
    console.log(`guided game followed by the hint: ${decisions} decisions, scores ${view.scores.join('/')}, winners ${view.view.winners.join(',')} (${winners.join(', ')})`);
    expect(view.view.winners).toContain(0);
    expect(errors).toEqual([]);
  }, 600_000);

  it('"Skip the guide" ends the notes and the game plays on; "No thanks" declines it', async () => {
    const { page, errors } = await newPage();
    await page.goto(suite.base);
    await page.fill('#pace', '0');
    await page.click('#guide-start');
    expect(await next(page)).toBe('note');
    await page.click('#guide-skip');
    expect(await page.evaluate(() => localStorage.getItem('czech-pub:guide-done'))).toBe('1');
    // The game goes on without notes through the moments the guide would have explained.
    const rng = seedRng('guide-clicks/0');
    for (let turns = 0; turns < 6; turns++) {
      const now = await next(page);
      expect(now).not.toBe('note');
      if (now === 'over') break;
      await clickFor(page, rng);
    }
    const declined = await newPage();
    await declined.page.goto(suite.base);
    await declined.page.click('#guide-decline');
    expect(await declined.page.evaluate(() => localStorage.getItem('czech-pub:guide-done'))).toBe('1');
    expect(await declined.page.locator('#guide-decline').count()).toBe(0);
    expect([...errors, ...declined.errors]).toEqual([]);
  }, 300_000);

  it("opens a report's game from the file (through its address field) and from the server, naming the agents' seats", async () => {
    expect(new URL(suite.base).port).not.toBe('8787');
    const specs = ['heuristic', 'greedy', 'random'];
    const dir = mkdtempSync(join(tmpdir(), 'e2e-report-'));
    try {
      await runTournament({ agents: specs, players: 3, games: 3, seed: 'e2e-report', workers: 0, out: dir });
      const file = join(dir, 'report.html');
      const { page, errors } = await newPage();
      await page.goto(pathToFileURL(file).href);
      // From a file: the links go to the address in the field; this server is elsewhere than its default.
      await page.fill('#viewer-address', `${suite.base}/`);
      await page.click('#viewer-form button');
      await page.waitForFunction(() => document.getElementById('viewer-note')?.textContent?.startsWith('The links now open'));
      // The field's address is remembered for the next report opened from a file. The page's
      // own part is to write it to localStorage and to read it back when opened, each checked on
      // its own. When another document sees the write is Chromium's business (the renderer hands
      // it on to the browser process in its own time: on busy machines a reload, and at another
      // run a second page for 30 s, still read the old value), so the reading side opens a report
      // whose localStorage holds the address before the report's script runs.
      const viewerKey = 'czech-pub:viewer';
      expect(await page.evaluate((key) => localStorage.getItem(key), viewerKey)).toBe(`${suite.base}/`);
      const kept = await page.addInitScript(([key, value]) => localStorage.setItem(key, value), [viewerKey, `${suite.base}/`] as const);
      await page.goto(pathToFileURL(file).href);
      await kept.dispose();
      expect(await page.inputValue('#viewer-address')).toBe(`${suite.base}/`);
      const href = await page.getAttribute('a[data-replay]', 'href');
      expect(href?.startsWith(`${suite.base}/#replay=r2.`)).toBe(true);
      await page.click('a[data-replay]');
      await page.waitForFunction(() => /^Step 0 \/ \d+$/.test(document.getElementById('replay-step')?.textContent ?? ''));
      const agents = await page.locator('.player .agent').allTextContents();
      expect(agents).toHaveLength(3);
      expect([...agents].sort()).toEqual([...specs].sort());
      expect(agents).not.toContain('tournament seat');
      // The final table fits the panel beside the board, the agents' column kept.
      await page.click('#replay-last');
      await page.waitForSelector('#final-scores');
      const fit = await page.evaluate(() => {
        const end = document.getElementById('end')!.getBoundingClientRect();
        const table = document.getElementById('final-scores')!.getBoundingClientRect();
        const agent = document.querySelector('#final-scores td.agent') as HTMLElement | null;
        return { overflow: table.right - end.right, agentShown: agent !== null && agent.offsetWidth > 0 };
      });
      await page.screenshot({ path: join(SHOTS, 'report-replay-end.png') });
      expect(fit.overflow).toBeLessThanOrEqual(0);
      expect(fit.agentShown).toBe(true);
      // Served from the server, a relative link opens the same game.
      const html = readFileSync(file, 'utf8');
      const relative = /<a href="(\/#replay=[^"]+)"/.exec(html)![1];
      // (From another page: the viewer is open at this very address already, a change of its fragment alone.)
      await page.goto('about:blank');
      await page.goto(new URL(relative, suite.base).href);
      await page.waitForFunction(() => /^Step 0 \/ \d+$/.test(document.getElementById('replay-step')?.textContent ?? ''));
      expect([...await page.locator('.player .agent').allTextContents()].sort()).toEqual([...specs].sort());
      expect(errors).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
