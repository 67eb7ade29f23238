/**
 * Headless Chromium for end-to-end tests: Debian's package, driven by playwright-core
 * (`npx playwright install` cannot download browsers on this network). The flags keep
 * Chromium from reaching for Google's hosts, which a closed network refuses.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { buildServer } from '../../server/app.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Whether the browser tests run: on a developer's machine without Chromium they are skipped
 * (the README's test command works on a fresh machine, saying what was skipped); under CI
 * (CI set, and .ci/run installs Chromium) they always run, so a missing browser fails there.
 */
export function browserTestsRun(): boolean {
  if (existsSync(CHROMIUM) || process.env.CI) return true;
  console.warn(`web page end-to-end tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH; CI never skips them)`);
  return false;
}

/**
 * How often a page's `waitForFunction` looks, in milliseconds. Playwright's default looks at
 * every animation frame, and so makes Chromium draw 60 frames a second for as long as the wait
 * lasts: some 100 ms of Chromium's CPU for each second a page waits, against 18 at 20 ms (a
 * page waiting on a game's bots, measured by /proc). A test waits much, and longer on a busy
 * machine, so the frames were a part of the browser tests' CPU that grew with the load.
 */
export const POLL_MS = 20;

/** Every page of `context` (those opened later included) waits by looking every POLL_MS, unless a wait says otherwise. */
function pollByInterval(context: BrowserContext): BrowserContext {
  context.on('page', (page) => {
    const wait = page.waitForFunction.bind(page);
    page.waitForFunction = ((fn: Parameters<Page['waitForFunction']>[0], arg?: unknown, options?: Parameters<Page['waitForFunction']>[2]) =>
      wait(fn, arg, { polling: POLL_MS, ...options })) as Page['waitForFunction'];
  });
  return context;
}

/**
 * Features of Chromium turned off for the tests (beside Playwright's own list, which
 * chromium.sh keeps). Headless Chromium draws a browser window around each page, and since
 * Chromium 156 its address bar's drop-down is a web page of its own (chrome://omnibox-popup),
 * loaded into a renderer for every window, though nobody sees it: each of the three features
 * alone brings it back. Without them a page's context, load and first second cost some 1.6
 * CPU-s instead of 3.4 (scratch probe of 5 loads, /proc/stat). The spare renderer Chromium
 * starts ahead of the next site costs another 0.2 a load in tests that open a context each.
 */
export const CHROMIUM_FEATURES_OFF = ['WebUIOmniboxPopup', 'WebUIOmniboxFullPopup', 'WebUIOmniboxAimPopup', 'SpareRendererForSitePerProcess'];

/** Starts Chromium with its repeated feature switches made one (Chromium keeps only the last of a switch). */
const LAUNCHER = fileURLToPath(new URL('chromium.sh', import.meta.url));

/** Headless Chromium whose pages wait by looking every POLL_MS (not at every frame), without the features above. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: install Debian's (apt-get install chromium; .ci/run does) or set CHROMIUM_PATH`);
  }
  const browser = await chromium.launch({
    executablePath: LAUNCHER,
    env: { ...process.env, CZECH_PUB_CHROMIUM: CHROMIUM },
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
      `--disable-features=${CHROMIUM_FEATURES_OFF.join(',')}`,
    ],
  });
  // browser.newPage makes its context through newContext, so its pages are covered too.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options?: BrowserContextOptions) => pollByInterval(await newContext(options));
  return browser;
}

/** A server on 127.0.0.1 (no rate limit) and Chromium, for one file of page tests; `stop` closes both. */
export async function startPageServer(screenshots: string): Promise<{ base: string; browser: Browser; stop: () => Promise<void> }> {
  const app = await buildServer({ rateLimit: 0 });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const browser = await launchChromium().catch(async (e) => {
    await app.close();
    throw e;
  });
  mkdirSync(screenshots, { recursive: true });
  return { base, browser, stop: async () => { await browser.close(); await app.close(); } };
}

/** The page's uncaught errors and console errors, as they come. */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}

/**
 * Says yes to the page's warning if the click just made opened one (a choice that may throw
 * the person out or waste them asks first; the dialog opens as the click is handled).
 */
export async function confirmIfAsked(page: Page, how: 'click' | 'key' | 'tap' = 'click'): Promise<boolean> {
  const asked = await page.evaluate(() => document.querySelector('#confirm-risk[open]') !== null);
  if (!asked) return false;
  // The dialog takes the focus on its "Do it anyway": a keyboard answers with Enter.
  if (how === 'key') await page.keyboard.press('Enter');
  else if (how === 'tap') await page.tap('#confirm-yes');
  else await page.click('#confirm-yes');
  return true;
}

/** A touch held on an element's centre for `ms` (Chromium's touch events, as a finger makes them). */
export async function longPress(page: Page, selector: string, ms = 700): Promise<void> {
  const box = (await page.locator(selector).first().boundingBox())!;
  const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
  await page.waitForTimeout(ms);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/**
 * A finger's swipe from (x, y) that scrolls what is under it by about `dy` pixels (positive:
 * on down the page), as Chromium makes touch scrolling of touch events. The finger rests before
 * it lifts, so the page does not fling on.
 */
export async function swipe(page: Page, x: number, y: number, dy: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const steps = 5;
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
  for (let i = 1; i <= steps; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: y - (dy * i) / steps }] });
  await page.waitForTimeout(80);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: y - dy }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/** Opens the setup form's Advanced fold (the seed is in it) and types the seed. */
export async function fillSeed(page: Page, seed: string): Promise<void> {
  if (!(await page.isVisible('#seed'))) await page.click('#advanced > summary');
  await page.fill('#seed', seed);
}

/**
 * Asks the server to ask the seat at every window it could play an X card in (the page's
 * default for people passes them): for tests that meet reaction prompts.
 */
export async function watchEveryXCard(page: Page, base: string, gameId: string, token: string): Promise<void> {
  // The page sets its people's default first (web/seat-settings.js), then shows the box.
  await page.waitForSelector('#seat-settings:not([hidden])', { timeout: 30_000 });
  const res = await fetch(`${base}/v1/games/${encodeURIComponent(gameId)}/settings`, {
    method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ unwatched: [] }),
  });
  if (!res.ok) throw new Error(`PUT settings: HTTP ${res.status}`);
}

/**
 * Runs `f` on every item, `atOnce` at a time (a page's loads and waits on the server leave
 * gaps another page fills), in the items' order as places free up; resolves when all are
 * done, or rejects with the first failure once the others have settled.
 */
export async function eachAtOnce<T>(items: readonly T[], atOnce: number, f: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await f(items[next++]);
  };
  const lanes = await Promise.allSettled(Array.from({ length: Math.min(atOnce, items.length) }, lane));
  const failed = lanes.find((l): l is PromiseRejectedResult => l.status === 'rejected');
  if (failed) throw failed.reason;
}

/** A test file's server and browser (pageSuite): the server's address, and a page in a fresh context. */
export interface PageSuite {
  /** The server's address, once the file's tests began. */
  readonly base: string;
  /** A page in a browser context of its own (its own localStorage), desktop 1280×900 unless told; its errors are collected. */
  newPage(options?: BrowserContextOptions): Promise<{ page: Page; errors: string[] }>;
  /** A GET of the API (a POST with a body), with the token if given: its JSON answer. */
  api(path: string, token?: string, body?: unknown): Promise<Record<string, any>>;
}

/**
 * Starts the page's server and Chromium before the file's tests (when browser tests run) and
 * stops them, and every context opened, after them.
 */
export function pageSuite(screenshots: string): PageSuite {
  let base = '';
  let browser: Browser | null = null;
  let stop = async () => {};
  const contexts: { close(): Promise<void> }[] = [];
  beforeAll(async () => {
    if (!browserTestsRun()) return;
    ({ base, browser, stop } = await startPageServer(screenshots));
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await stop();
  });
  return {
    get base() {
      return base;
    },
    async newPage(options = {}) {
      if (!browser) throw new Error('no browser: the suite has not started');
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
      contexts.push(context);
      const page = await context.newPage();
      return { page, errors: pageErrors(page) };
    },
    async api(path, token, body) {
      const res = await fetch(base + path, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await res.json()) as Record<string, any>;
    },
  };
}
