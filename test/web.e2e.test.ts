/**
 * The web page end to end, in a real headless Chromium: the server listens on 127.0.0.1, the
 * page is opened, a person's game against three bots is played to the end by clicking legal
 * actions, and what the page shows is checked against the API; the setup form's seat menus and
 * option controls are checked against GET /v1/bots and POST /v1/games. The tests run at once,
 * each in a page of its own. Screenshots go to
 * $SCREENSHOT_DIR (default results/e2e/); docs/web.md's come from
 * `SCREENSHOT_DIR=docs/screenshots npx vitest run test/web.e2e.test.ts`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A_DONE } from '../env/actions.ts';
import { randInt, seedRng } from '../env/rng.ts';
import { browserTestsRun, CHROMIUM_FEATURES_OFF, confirmIfAsked, fillSeed, pageErrors, startPageServer } from './helpers/browser.ts';

const SHOTS = process.env.SCREENSHOT_DIR ?? 'results/e2e';

let browser: Browser;
let base = '';
let stop = async () => {};

const RUN = browserTestsRun();

beforeAll(async () => {
  if (!RUN) return;
  ({ base, browser, stop } = await startPageServer(SHOTS));
});

afterAll(() => stop());

async function openPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = pageErrors(page);
  await page.goto(base);
  await page.waitForSelector('#start');
  return { page, errors };
}

const state = (page: Page) => page.evaluate(() => document.body.dataset.state);

async function api(path: string, token: string) {
  const res = await fetch(base + path, { headers: { authorization: `Bearer ${token}` } });
  return (await res.json()) as Record<string, any>;
}

describe.runIf(RUN).concurrent('the web page in Chromium', () => {
  it('plays a game against three bots to the end by clicking legal actions; the final scores match the API', async () => {
    const { page, errors } = await openPage();
    await page.selectOption('#players', '4');
    const seats = ['remote', 'ppo', 'heuristic', 'random'];
    for (const [seat, spec] of seats.entries()) await page.selectOption(`select.seat-agent[data-seat="${seat}"]`, spec);
    await fillSeed(page, 'e2e-1');
    await page.fill('#pace', '0');
    // Every request the page makes during the game: only the public API, with the seat's token.
    const requests: { path: string; auth?: string }[] = [];
    page.on('request', (r) => requests.push({ path: new URL(r.url()).pathname, auth: r.headers().authorization }));
    await page.click('#start');

    const rng = seedRng('e2e-clicks');
    let clicks = 0;
    let shot = false;
    for (;;) {
      await page.waitForFunction(() => ['your-turn', 'over'].includes(document.body.dataset.state ?? ''), undefined, { timeout: 60_000 });
      if ((await state(page)) === 'over') break;
      const buttons = page.locator('button.action:enabled');
      const n = await buttons.count();
      expect(n).toBeGreaterThan(0);
      // Every button is a legal action of the seat, as the API lists them.
      const { gameId, token } = await page.evaluate(() => (window as any).czechPub);
      const view = await api(`/v1/games/${gameId}/view`, token);
      const shown = await buttons.evaluateAll((bs) => bs.map((b) => Number((b as HTMLElement).dataset.action)));
      expect([...shown].sort((a, b) => a - b)).toEqual(view.legalActions.map((a: { id: number }) => a.id).sort((a: number, b: number) => a - b));
      // docs/web.md's mid-game picture: a decision with cards already in front of a player.
      if (!shot && clicks >= 10 && (await page.locator('.front .card').count()) > 0) {
        await page.screenshot({ path: join(SHOTS, 'table.png') });
        shot = true;
      }
      // Mostly play a card when one may be played (a person who only passes is soon thrown out).
      const plays = shown.map((a, i) => [a, i]).filter(([a]) => a < A_DONE).map(([, i]) => i);
      const pick = plays.length > 0 && randInt(rng, 10) < 7 ? plays[randInt(rng, plays.length)] : randInt(rng, n);
      await buttons.nth(pick).click();
      await confirmIfAsked(page);
      clicks++;
      expect(clicks).toBeLessThan(2000);
    }
    expect(clicks).toBeGreaterThan(10);
    expect(shot).toBe(true);

    const { gameId, token } = await page.evaluate(() => (window as any).czechPub);
    const final = await api(`/v1/games/${gameId}/view`, token);
    expect(final.done).toBe(true);
    const rows = await page.locator('#final-scores [data-seat]').evaluateAll((rs) =>
      rs.map((r) => [Number((r as HTMLElement).dataset.seat), Number((r as HTMLElement).dataset.score)]));
    expect(rows.sort((a, b) => a[0] - b[0]).map((r) => r[1])).toEqual(final.scores);
    await page.screenshot({ path: join(SHOTS, 'end.png') });

    const gameCalls = requests.filter((r) => r.path.startsWith(`/v1/games/${gameId}`));
    expect(gameCalls.length).toBeGreaterThan(clicks);
    for (const r of gameCalls) {
      expect(r.path).toMatch(/\/(view|history|actions|preview|stream|settings)$/);
      expect(r.auth).toBe(`Bearer ${token}`);
    }
    expect(requests.every((r) => r.path.startsWith('/v1/'))).toBe(true);
    // The log walked through every step of the game, one entry each, in order.
    const logged = await page.locator('#log li.step').evaluateAll((ls) => ls.map((l) => Number((l as HTMLElement).dataset.step)));
    expect(logged).toEqual(Array.from({ length: final.steps + 1 }, (_, k) => k));
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);

  it('watches four bots play, then steps the replay forward and back with every hand shown', async () => {
    const { page, errors } = await openPage();
    await page.selectOption('#players', '4');
    for (const [seat, spec] of ['ppo', 'heuristic', 'greedy', 'random'].entries()) await page.selectOption(`select.seat-agent[data-seat="${seat}"]`, spec);
    await fillSeed(page, 'e2e-watch');
    await page.fill('#pace', '2000');
    await page.click('#start');
    await page.waitForFunction(() => document.body.dataset.state === 'replay');
    await page.waitForFunction(() => /^Step \d+ \/ \d+$/.test(document.getElementById('replay-step')?.textContent ?? ''));
    await page.click('#replay-play'); // pause the automatic playback
    const { gameId, watchToken } = await page.evaluate(() => (window as any).czechPub);
    const replay = await api(`/v1/games/${gameId}/replay`, watchToken);
    const steps: number = replay.actions.length;
    const at = async () => Number(/^Step (\d+)/.exec((await page.textContent('#replay-step')) ?? '')?.[1]);

    await page.click('#replay-first');
    await page.click('#replay-forward');
    await page.click('#replay-forward');
    await page.keyboard.press('ArrowRight');
    await page.click('#replay-back');
    expect(await at()).toBe(2);
    expect(await page.textContent('#replay-step')).toBe(`Step 2 / ${steps}`);
    // The frame shows the choice made at step 2 among the legal actions, and every seat's hand.
    const frame = await api(`/v1/games/${gameId}/replay/2`, watchToken);
    await page.waitForFunction((id) => document.querySelector('button.action.chosen')?.getAttribute('data-action') === String(id), frame.next.id);
    expect(await page.textContent('#prompt')).toContain(frame.next.name);
    const shownHands = await page.locator('.seat-hand .card').count();
    const dealt = frame.views.reduce((n: number, v: { handSize: number }) => n + v.handSize, 0);
    expect(shownHands).toBe(dealt);

    await page.click('#replay-last');
    expect(await at()).toBe(steps);
    await page.waitForFunction(() => /over/i.test(document.getElementById('prompt')?.textContent ?? ''));
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it("offers the server's bots in every seat menu, and seats one with the options set in its controls", async () => {
    const { page, errors } = await openPage();
    const { bots } = (await (await fetch(`${base}/v1/bots`)).json()) as { bots: { name: string; seatsLiveGames: boolean }[] };
    expect(bots.every((b) => b.seatsLiveGames)).toBe(true);
    const menus = await page.locator('select.seat-agent').evaluateAll((ss) => ss.map((s) => [...(s as HTMLSelectElement).options].map((o) => o.value)));
    expect(menus.length).toBeGreaterThan(1);
    for (const menu of menus) expect(menu).toEqual(['remote', 'friend', 'open', ...bots.map((b) => b.name)]);

    await page.selectOption('#players', '2');
    const seat = (n: number) => `select.seat-agent[data-seat="${n}"]`;
    expect([await page.inputValue(seat(0)), await page.inputValue(seat(1))]).toEqual(['remote', 'ppo']);
    // One seat at most is the person's: taking another seat hands the first to the default bot.
    await page.selectOption(seat(1), 'remote');
    expect(await page.inputValue(seat(0))).toBe('ppo');
    await page.selectOption(seat(0), 'remote');
    await page.selectOption(seat(1), 'ismcts');
    // A bot's options are research words: folded under "Advanced".
    expect(await page.isVisible('.seat-advanced[data-seat="1"] [data-option]')).toBe(false);
    await page.click('#advanced > summary');
    const options = await page.locator('.seat-advanced[data-seat="1"] [data-option]').evaluateAll((cs) => cs.map((c) => (c as HTMLElement).dataset.option));
    expect(options).toEqual(['iterations', 'rollout']);
    const iterations = page.locator('.seat-advanced[data-seat="1"] input[data-option="iterations"]');
    const posts: string[] = [];
    page.on('request', (r) => { if (r.method() === 'POST' && new URL(r.url()).pathname === '/v1/games') posts.push(r.postData() ?? ''); });
    // Out of range, the browser's own check stops the form; sent anyway, the server's 400 is shown.
    await iterations.fill('5000');
    await page.click('#start');
    expect(await iterations.evaluate((i) => (i as HTMLInputElement).validity.valid)).toBe(false);
    await page.evaluate(() => document.getElementById('setup-form')!.dispatchEvent(new Event('submit', { cancelable: true })));
    await page.waitForFunction(() => /option 'iterations' must be from 10 to 1000, got "5000"/.test(document.getElementById('message')?.textContent ?? ''));
    expect(posts.map((b) => JSON.parse(b).seats)).toEqual([['remote', 'ismcts:iterations=5000']]);
    expect(await state(page)).toBe('setup');

    await iterations.fill('20');
    await page.fill('#seed', 'e2e-options');
    await page.fill('#pace', '0');
    const created = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/v1/games');
    await page.click('#start');
    expect(((await (await created).json()) as { seats: string[] }).seats).toEqual(['remote', 'ismcts:iterations=20']);
    expect(await page.isHidden('#message')).toBe(true);
    await page.waitForFunction(() => ['your-turn', 'over'].includes(document.body.dataset.state ?? ''), undefined, { timeout: 60_000 });
    expect(await page.locator('.player .agent').allTextContents()).toContain('ismcts:iterations=20');
    // Play until the search bot has moved: its options built an agent that plays.
    const { gameId, token } = await page.evaluate(() => (window as any).czechPub);
    for (let clicks = 0; ; clicks++) {
      expect(clicks).toBeLessThan(100);
      const view = await api(`/v1/games/${gameId}/view`, token);
      if (view.lastAction?.seat === 1) break;
      expect(view.done).toBe(false);
      await page.locator('button.action:enabled').first().click();
      await confirmIfAsked(page);
      await page.waitForFunction(() => ['your-turn', 'over'].includes(document.body.dataset.state ?? ''), undefined, { timeout: 60_000 });
    }
    // Chromium logs the refused request; nothing else went wrong.
    expect(errors).toEqual([expect.stringContaining('status of 400')]);
    await page.close();
  }, 120_000);

  it("runs Chromium with Playwright's features off and the tests' own, in one switch (a second would drop the first)", () => {
    // The browsers this process started: Chromium's first process, its parent this process.
    const started = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid && args.includes('--remote-debugging-pipe') ? [args] : [];
      } catch {
        return []; // gone meanwhile
      }
    });
    expect(started.length).toBeGreaterThan(0);
    for (const args of started) {
      const off = args.filter((a) => a.startsWith('--disable-features='));
      expect(off).toHaveLength(1);
      const features = off[0].slice('--disable-features='.length).split(',');
      expect(features).toEqual(expect.arrayContaining(CHROMIUM_FEATURES_OFF));
      // Playwright's own list is there too.
      expect(features.length).toBeGreaterThan(CHROMIUM_FEATURES_OFF.length);
    }
  });
});
