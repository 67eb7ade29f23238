/**
 * A table that survives faults, end to end: `czech-pub serve` (no option: games kept in the user's state folder) in a child process
 * and the page in headless Chromium. A person plays against two bots; the server is killed
 * (SIGKILL, as a crash) mid-game and started again on the same port and state dir; the page
 * says it is reconnecting, gets back by itself and the person finishes the game where it was.
 * A reload keeps the log from step 0. A game the server no longer holds (a restart on an empty
 * state dir, a saved seat of a game long gone) is said plainly, and "Back to your last game"
 * is no longer offered. The two tests run at once, each with its own port, servers and browser
 * context.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { randInt, seedRng } from '../env/rng.ts';
import { freePort } from '../queue/local-redis.ts';
import { browserTestsRun, confirmIfAsked, fillSeed, launchChromium, pageErrors } from './helpers/browser.ts';
import { startServe } from './helpers/serve.ts';

const RUN = browserTestsRun();

let browser: Browser;
const servers = new Set<ChildProcess>();
const dirs: string[] = [];

/**
 * `czech-pub serve` on `port` with no state option, as `npm start` runs it, the user's state
 * folder being `dir` (XDG_STATE_HOME): its games are kept there by default, as the start-up line
 * says. Run in a fresh folder, where startServe writes its config; resolves once it listens.
 * Servers still running when their test ends (one that failed midway) are killed then.
 */
async function serve(port: number, dir: string, mine: Set<ChildProcess>): Promise<ChildProcess> {
  const { child, stderr } = await startServe(stateDir(), {}, { ...process.env, XDG_STATE_HOME: dir }, { port, args: ['--default-state'] });
  expect(stderr()).toContain(`games kept in ${join(dir, 'czech-pub', 'games')}`);
  for (const set of [servers, mine]) {
    set.add(child);
    child.on('exit', () => set.delete(child));
  }
  return child;
}

/**
 * A test's own port, its base address, and its servers, killed when the test ends (the test's
 * own hook: the tests run at once, so a hook of the file would not know whose servers they are).
 */
async function place({ onTestFinished }: TestContext): Promise<{ port: number; base: string; servers: Set<ChildProcess> }> {
  const port = await freePort();
  const mine = new Set<ChildProcess>();
  onTestFinished(async () => {
    for (const c of mine) await crash(c);
  });
  return { port, base: `http://127.0.0.1:${port}`, servers: mine };
}

/** Kills the server as a crash would (no chance to write anything more), and waits for it to be gone. */
async function crash(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

function stateDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'czech-pub-e2e-state-'));
  dirs.push(d);
  return d;
}

beforeAll(async () => {
  if (!RUN) return;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  for (const c of servers) await crash(c);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function api(base: string, path: string, token: string) {
  const res = await fetch(base + path, { headers: { authorization: `Bearer ${token}` } });
  return (await res.json()) as Record<string, any>;
}

/** A new browser's page on the setup screen; its errors collected, but not the browser's own lines for a refused connection. */
async function openPage(base: string): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const all = pageErrors(page);
  await page.goto(base);
  await page.waitForSelector('#start');
  return { page, errors: new Proxy(all, { get: (t, k) => (k === 'filtered' ? t.filter((e) => !/Failed to load resource|ERR_CONNECTION_REFUSED|ERR_EMPTY_RESPONSE/.test(e)) : Reflect.get(t, k)) }) };
}

const errorsOf = (errors: string[]) => (errors as unknown as { filtered: string[] }).filtered;
const state = (page: Page) => page.evaluate(() => document.body.dataset.state);
const settled = (page: Page) => page.waitForFunction(() => ['your-turn', 'over'].includes(document.body.dataset.state ?? ''), undefined, { timeout: 60_000 });
const logSteps = (page: Page) => page.locator('#log li.step').evaluateAll((ls) => ls.map((l) => Number((l as HTMLElement).dataset.step)));

/** Starts a game of the person (seat 0) against two bots. */
async function startGame(page: Page, seed: string): Promise<{ gameId: string; token: string }> {
  await page.selectOption('#players', '3');
  for (const [seat, spec] of ['remote', 'heuristic', 'random'].entries()) await page.selectOption(`select.seat-agent[data-seat="${seat}"]`, spec);
  await fillSeed(page, seed);
  await page.fill('#pace', '0');
  await page.click('#start');
  await settled(page);
  return page.evaluate(() => (window as any).czechPub);
}

const rng = seedRng('restart-clicks');

/** One click of the person: mostly a card, else any legal action. */
async function click(page: Page): Promise<void> {
  const buttons = page.locator('button.action:enabled');
  const shown = await buttons.evaluateAll((bs) => bs.map((b) => Number((b as HTMLElement).dataset.action)));
  const plays = shown.map((a, i) => [a, i]).filter(([a]) => a < 20).map(([, i]) => i);
  const pick = plays.length > 0 && randInt(rng, 10) < 7 ? plays[randInt(rng, plays.length)] : randInt(rng, shown.length);
  await buttons.nth(pick).click();
  await confirmIfAsked(page);
  await settled(page);
}

describe.runIf(RUN).concurrent('the page when the server restarts', () => {
  it('reconnects by itself after a crash and the person finishes the game where it was; a reload keeps the log from step 0', async (context) => {
    const { port, base, servers: mine } = await place(context);
    const dir = stateDir();
    let server = await serve(port, dir, mine);
    const { page, errors } = await openPage(base);
    const { gameId, token } = await startGame(page, 'restart-1');
    for (let i = 0; i < 6 && (await state(page)) === 'your-turn'; i++) await click(page);
    expect(await state(page)).toBe('your-turn');
    const before = await api(base, `/v1/games/${gameId}/view`, token);

    await crash(server);
    await page.waitForFunction(() => document.body.dataset.connection === 'reconnecting', undefined, { timeout: 30_000 });
    expect(await page.locator('#connection').isVisible()).toBe(true);
    expect(await page.textContent('#connection')).toMatch(/reconnecting/i);
    expect(await page.getAttribute('#connection', 'aria-live')).toBe('polite');
    await page.screenshot({ path: join(process.env.SCREENSHOT_DIR ?? 'results/e2e', 'reconnecting.png') }).catch(() => undefined);
    // A click while the server is down: no raw error, and the move is made once when it is back.
    const clicked = Number(await page.locator('button.action:enabled').first().getAttribute('data-action'));
    await page.locator('button.action:enabled').first().click();
    await confirmIfAsked(page);
    server = await serve(port, dir, mine);
    await page.waitForFunction(() => document.body.dataset.connection === 'ok', undefined, { timeout: 60_000 });
    await settled(page);
    const back = await page.evaluate(() => (window as any).czechPub);
    expect({ gameId: back.gameId, token: back.token }).toEqual({ gameId, token });
    expect(await page.isHidden('#message')).toBe(true);
    // The restored game is the one before the crash, step for step, and went on from there with the click.
    expect((await api(base, `/v1/games/${gameId}/view?at=${before.step}`, token)).view).toEqual(before.view);
    expect((await api(base, `/v1/games/${gameId}/view?at=${before.step + 1}`, token)).lastAction).toMatchObject({ seat: 0, id: clicked });

    // A reload mid-game: the log holds every step from 0, as if the page had been there.
    await click(page);
    await page.reload();
    await settled(page);
    const now = await api(base, `/v1/games/${gameId}/view`, token);
    expect(await logSteps(page)).toEqual(Array.from({ length: now.step + 1 }, (_, k) => k));
    expect(await page.locator('#log li.step[data-step="0"] .step-head').textContent()).toBe('Step 0: the deal');

    let clicks = 0;
    while ((await state(page)) !== 'over') {
      await click(page);
      expect(++clicks).toBeLessThan(2000);
    }
    const final = await api(base, `/v1/games/${gameId}/view`, token);
    expect(final.done).toBe(true);
    const rows = await page.locator('#final-scores [data-seat]').evaluateAll((rs) =>
      rs.map((r) => [Number((r as HTMLElement).dataset.seat), Number((r as HTMLElement).dataset.score)]));
    expect(rows.sort((a, b) => a[0] - b[0]).map((r) => r[1])).toEqual(final.scores);
    expect(await logSteps(page)).toEqual(Array.from({ length: final.steps + 1 }, (_, k) => k));
    expect(await page.evaluate(() => document.body.innerText)).not.toMatch(/Failed to fetch|cannot reach/i);
    expect(errorsOf(errors)).toEqual([]);
    await page.context().close();
    await crash(server);
  }, 300_000);

  it('says plainly when the game is gone (a restart that kept nothing, a saved seat long gone) and stops offering it', async (context) => {
    const { port, base, servers: mine } = await place(context);
    const server = await serve(port, stateDir(), mine);
    const { page, errors } = await openPage(base);
    const { gameId } = await startGame(page, 'restart-2');
    await crash(server);
    await page.waitForFunction(() => document.body.dataset.connection === 'reconnecting', undefined, { timeout: 30_000 });
    const other = await serve(port, stateDir(), mine);
    await page.waitForFunction(() => document.body.dataset.state === 'setup', undefined, { timeout: 60_000 });
    expect(await page.textContent('#message')).toMatch(/That game is gone: the server no longer holds it/);
    expect(await page.isHidden('#resume')).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('czech-pub:last'))).toBeNull();

    // A seat saved on this browser for a game the server does not hold: offered once, then said and forgotten.
    await page.evaluate((id) => localStorage.setItem('czech-pub:last', JSON.stringify({ id, token: 'old' })), gameId);
    await page.goto(`${base}/`);
    await page.reload();
    await page.waitForSelector('#resume-game');
    await page.click('#resume-game');
    await page.waitForFunction(() => /That game is gone/.test(document.getElementById('message')?.textContent ?? ''), undefined, { timeout: 30_000 });
    expect(await page.isHidden('#resume')).toBe(true);
    await page.reload();
    await page.waitForSelector('#start');
    expect(await page.isHidden('#resume')).toBe(true);
    // A link to it says the same.
    await page.goto(`${base}/#game=${gameId}&seat=old`);
    await page.waitForFunction(() => /That game is gone/.test(document.getElementById('message')?.textContent ?? ''), undefined, { timeout: 30_000 });
    expect(await page.evaluate(() => document.body.dataset.state)).toBe('setup');
    expect(errorsOf(errors)).toEqual([]);
    await page.context().close();
    await crash(other);
  }, 300_000);
});
